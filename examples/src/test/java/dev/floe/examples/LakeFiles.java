package dev.floe.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * Checks on the files a test's writes left: each table where the lake path says, in Iceberg's
 * layout, and no folder that a URI mix-up would make ({@code file:}, {@code %20}).
 */
public final class LakeFiles {
  private LakeFiles() {}

  /**
   * Asserts that {@code <root>/<table>} holds {@code metadata/v1.metadata.json} and Parquet data
   * files under {@code data/}, and that nothing under {@code places} (nor the working folder) is a
   * folder named {@code file:} or containing {@code %20}.
   */
  public static void assertTableLaidOut(Path root, String table, Path... places) {
    Path folder = root.resolve(table.replace('.', '/'));
    assertThat(folder.resolve("metadata").resolve("v1.metadata.json")).isRegularFile();
    assertThat(parquetFiles(folder.resolve("data"))).isNotEmpty();
    assertNoStrayFolders(root);
    for (Path place : places) {
      assertNoStrayFolders(place);
    }
  }

  /** Asserts that no folder under {@code place}, nor in the working folder, has a URI-ish name. */
  public static void assertNoStrayFolders(Path place) {
    assertThat(folders(place)).noneMatch(LakeFiles::strayName);
    try (Stream<Path> here = Files.list(Path.of("").toAbsolutePath())) {
      assertThat(here.filter(Files::isDirectory).toList()).noneMatch(LakeFiles::strayName);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The Parquet files under a folder, at any depth (partition folders). */
  public static List<Path> parquetFiles(Path folder) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The table's newest metadata, read as any Iceberg reader would. */
  public static TableMetadata currentMetadata(Path root, String table) {
    Path metadata = root.resolve(table.replace('.', '/')).resolve("metadata");
    try {
      int version =
          Integer.parseInt(Files.readString(metadata.resolve("version-hint.text")).trim());
      while (Files.exists(metadata.resolve("v" + (version + 1) + ".metadata.json"))) {
        version++;
      }
      return TableMetadataParser.read(
          org.apache.iceberg.Files.localInput(
              metadata.resolve("v" + version + ".metadata.json").toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean strayName(Path folder) {
    String name = folder.getFileName() == null ? "" : folder.getFileName().toString();
    return name.equals("file:") || name.startsWith("file:") || name.contains("%20");
  }

  private static List<Path> folders(Path place) {
    try (Stream<Path> all = Files.walk(place)) {
      return all.filter(Files::isDirectory).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
