package dev.floe.tck.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;

/**
 * A table folder as Iceberg's own Java API sees it, without any Floe class: the newest {@code
 * vN.metadata.json} found by listing, loaded read-only through {@link StaticTableOperations} and
 * {@link PlainFileIO}, and read with Iceberg's generic reader.
 */
final class IcebergView {
  private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.metadata\\.json");

  private final Path folder;
  private final FileIO io = new PlainFileIO();
  private final Table table;

  private IcebergView(Path folder, Table table) {
    this.folder = folder;
    this.table = table;
  }

  /** Loads the newest version of the table in a folder. */
  static IcebergView of(Path folder) {
    List<Integer> versions = versions(folder);
    assertThat(versions).as("metadata versions in %s", folder).isNotEmpty();
    int latest = versions.get(versions.size() - 1);
    Path metadata = folder.resolve("metadata").resolve("v" + latest + ".metadata.json");
    FileIO io = new PlainFileIO();
    Table table =
        new BaseTable(
            new StaticTableOperations(metadata.toString(), io), folder.getFileName().toString());
    return new IcebergView(folder, table);
  }

  /** The numbers N of every {@code vN.metadata.json} in a table folder, ascending. */
  static List<Integer> versions(Path folder) {
    Path metadata = folder.resolve("metadata");
    if (!Files.isDirectory(metadata)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(metadata)) {
      return files
          .map(p -> VERSION.matcher(p.getFileName().toString()))
          .filter(Matcher::matches)
          .map(m -> Integer.parseInt(m.group(1)))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Table table() {
    return table;
  }

  Path folder() {
    return folder;
  }

  /** The current snapshot (the table must have one). */
  Snapshot current() {
    Snapshot snapshot = table.currentSnapshot();
    assertThat(snapshot).as("current snapshot of %s", folder).isNotNull();
    return snapshot;
  }

  /** Every snapshot, oldest first. */
  List<Snapshot> snapshots() {
    List<Snapshot> all = new ArrayList<>();
    table.snapshots().forEach(all::add);
    return all;
  }

  /** The live rows, read with Iceberg's generic reader, as normalized value lists. */
  List<List<Object>> rows() {
    List<List<Object>> rows = new ArrayList<>();
    if (table.currentSnapshot() == null) {
      return rows;
    }
    int columns = table.schema().columns().size();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<Object> row = new ArrayList<>();
        // A record may carry the reader's own metadata columns (row positions) after the schema's.
        for (int i = 0; i < columns; i++) {
          row.add(normalize(record.get(i)));
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Rows.sorted(rows);
  }

  /** The data files of the current snapshot, with their column metrics. */
  List<DataFile> dataFiles() {
    List<DataFile> files = new ArrayList<>();
    if (table.currentSnapshot() == null) {
      return files;
    }
    try (CloseableIterable<org.apache.iceberg.FileScanTask> tasks =
        table.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(t -> files.add(t.file()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** The records of one data file, read directly with Iceberg's generic Parquet reader. */
  List<org.apache.iceberg.data.Record> records(DataFile file) {
    org.apache.iceberg.Schema schema = table.schemas().get(table.schema().schemaId());
    List<org.apache.iceberg.data.Record> records = new ArrayList<>();
    try (CloseableIterable<org.apache.iceberg.data.Record> reader =
        org.apache.iceberg.parquet.Parquet.read(io.newInputFile(file.location()))
            .project(schema)
            .createReaderFunc(
                fileSchema ->
                    org.apache.iceberg.data.parquet.GenericParquetReaders.buildReader(
                        schema, fileSchema))
            .build()) {
      reader.forEach(r -> records.add(r.copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return records;
  }

  /** The delete files the current snapshot applies. */
  List<DeleteFile> deleteFiles() {
    List<DeleteFile> files = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    if (table.currentSnapshot() == null) {
      return files;
    }
    try (CloseableIterable<org.apache.iceberg.FileScanTask> tasks = table.newScan().planFiles()) {
      for (org.apache.iceberg.FileScanTask task : tasks) {
        for (DeleteFile delete : task.deletes()) {
          if (seen.add(delete.location() + "#" + delete.contentOffset())) {
            files.add(delete);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /**
   * Every file any snapshot of this table refers to: metadata files, manifest lists, manifests,
   * data and delete files, as local paths relative to the table folder.
   */
  Set<String> referencedFiles() {
    Set<String> files = new HashSet<>();
    for (Integer v : versions(folder)) {
      files.add("metadata/v" + v + ".metadata.json");
    }
    files.add("metadata/version-hint.text");
    for (Snapshot snapshot : snapshots()) {
      files.add(relative(snapshot.manifestListLocation()));
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        files.add(relative(manifest.path()));
        if (manifest.content() == org.apache.iceberg.ManifestContent.DATA) {
          try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, io, table.specs())) {
            reader.forEach(f -> files.add(relative(f.location())));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        } else {
          try (ManifestReader<DeleteFile> reader =
              ManifestFiles.readDeleteManifest(manifest, io, table.specs())) {
            reader.forEach(f -> files.add(relative(f.location())));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
    return files;
  }

  /** A file location from metadata, relative to the table folder (absolute if outside it). */
  String relative(String location) {
    Path file = PlainFileIO.toFile(location).toPath();
    return file.startsWith(folder) ? folder.relativize(file).toString() : file.toString();
  }

  /** The local path a location in this table's metadata names. */
  static Path pathOf(ContentFile<?> file) {
    return PlainFileIO.toFile(file.location()).toPath();
  }

  /** Iceberg's generic values in the forms the JDBC side is normalized to. */
  static Object normalize(Object value) {
    if (value instanceof OffsetDateTime) {
      return ((OffsetDateTime) value).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
    }
    if (value instanceof CharSequence) {
      return value.toString();
    }
    if (value instanceof LocalDate
        || value instanceof LocalDateTime
        || value instanceof BigDecimal) {
      return value;
    }
    return value;
  }
}
