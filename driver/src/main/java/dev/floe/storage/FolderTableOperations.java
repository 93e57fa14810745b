package dev.floe.storage;

import dev.floe.error.FloeError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Iceberg table operations for one table folder, in Iceberg's file-system-table layout ({@code
 * metadata/vN.metadata.json} plus {@code version-hint.text}).
 *
 * <p>Finding the current version: the hint, then probing forward, since the hint may be stale;
 * without a hint, the highest numeric version in the folder ({@code v10} after {@code v9}, and the
 * {@code NNNNN-uuid.metadata.json} naming other catalogs write). Publishing version N+1: the full
 * file is written under a temporary name and then hard-linked to {@code vN+1.metadata.json}, which
 * fails if that name exists, so two writers can never both publish N+1; the loser gets a {@link
 * CommitFailedException} and Iceberg re-applies its change on the new version. Not thread-safe:
 * each user holds its own instance.
 */
public final class FolderTableOperations implements TableOperations {
  private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.metadata\\.json");
  private static final Pattern NUMBERED = Pattern.compile("(\\d+)-[0-9a-fA-F-]+\\.metadata\\.json");
  private static final String HINT = "version-hint.text";

  private final String location;
  private final Path folder;
  private final Path metadataFolder;
  private final LocalFileIO io;
  private final String name;
  private TableMetadata current;
  private int version = -1;
  private boolean loaded;

  public FolderTableOperations(String location, Path folder, LocalFileIO io, String name) {
    this.location = location;
    this.folder = folder;
    this.metadataFolder = folder.resolve("metadata");
    this.io = io;
    this.name = name;
  }

  /** Whether a folder holds an Iceberg table. */
  public static boolean isTable(Path folder) {
    Path metadata = folder.resolve("metadata");
    if (!Files.isDirectory(metadata)) {
      return false;
    }
    if (Files.exists(metadata.resolve(HINT))) {
      return true;
    }
    try (Stream<Path> files = Files.list(metadata)) {
      return files.anyMatch(p -> versionOf(p.getFileName().toString()) >= 0);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  @Override
  public TableMetadata current() {
    if (!loaded) {
      refresh();
    }
    return current;
  }

  @Override
  public TableMetadata refresh() {
    int latest = findLatestVersion();
    loaded = true;
    if (latest < 0) {
      current = null;
      version = -1;
      return null;
    }
    if (latest != version || current == null) {
      String file = metadataFile(latest);
      try {
        current = TableMetadataParser.read(io, file);
      } catch (RuntimeException e) {
        throw FloeError.IO.error(e, file, "the table metadata cannot be read: " + e.getMessage());
      }
      version = latest;
    }
    return current;
  }

  /** The number of the current version, or -1 when there is none. */
  public int version() {
    current();
    return version;
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    if (!io.sandbox().contains(folder)) {
      throw FloeError.OUTSIDE_LAKE.error("write table " + name, folder, io.sandbox().root());
    }
    io.sandbox().checkWritable(name, metadata);
    TableMetadata latest = refresh();
    if (base != latest && (base == null || latest == null || !sameFile(base, latest))) {
      throw new CommitFailedException(
          "Cannot commit to %s: version %s was published meanwhile", location, version);
    }
    if (base == metadata) {
      return;
    }
    int next = version + 1 < 1 ? 1 : version + 1;
    try {
      Files.createDirectories(metadataFolder);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + metadataFolder, e);
    }
    Path temp = metadataFolder.resolve("." + UUID.randomUUID() + ".metadata.json.tmp");
    Path target = metadataFolder.resolve("v" + next + ".metadata.json");
    try {
      TableMetadataParser.write(metadata, io.newOutputFile(temp.toString()));
      publish(temp, target, next);
    } finally {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException ignored) {
        // a leftover temporary file is ignored by every reader
      }
    }
    syncFolder(metadataFolder);
    writeHint(next);
    loaded = false;
    refresh();
    deleteRemovedMetadataFiles(base, metadata);
  }

  /**
   * Deletes the old metadata files that dropped out of the metadata log, when the table asks for it
   * ({@code write.metadata.delete-after-commit.enabled}); the log keeps {@code
   * write.metadata.previous-versions-max} of them. Finding the current version does not need them:
   * the hint, then probing forward, then the highest version in the folder.
   */
  private void deleteRemovedMetadataFiles(TableMetadata base, TableMetadata metadata) {
    if (base == null
        || !PropertyUtil.propertyAsBoolean(
            metadata.properties(),
            TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED,
            TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED_DEFAULT)) {
      return;
    }
    Set<String> kept = new HashSet<>();
    for (TableMetadata.MetadataLogEntry entry : metadata.previousFiles()) {
      kept.add(entry.file());
    }
    String prefix = location + "/metadata/";
    for (TableMetadata.MetadataLogEntry entry : base.previousFiles()) {
      if (!kept.contains(entry.file()) && entry.file().startsWith(prefix)) {
        try {
          io.deleteFile(entry.file());
        } catch (RuntimeException e) {
          // An old version left behind is harmless; orphan removal finds it later.
        }
      }
    }
  }

  private void publish(Path temp, Path target, int next) {
    try {
      Files.createLink(target, temp);
    } catch (FileAlreadyExistsException e) {
      throw new CommitFailedException(
          e, "Cannot commit to %s: version %s was published by another writer", location, next);
    } catch (UnsupportedOperationException | FileSystemException linkUnsupported) {
      if (linkUnsupported instanceof FileSystemException && Files.exists(target)) {
        throw new CommitFailedException(
            "Cannot commit to %s: version %s was published by another writer", location, next);
      }
      exclusiveCopy(temp, target, next);
    } catch (IOException e) {
      if (Files.exists(target)) {
        throw new CommitStateUnknownException(e);
      }
      throw new CommitFailedException(e, "Cannot commit to %s: %s", location, e.getMessage());
    }
  }

  /** Where hard links are not supported: create the target exclusively and copy into it. */
  private void exclusiveCopy(Path temp, Path target, int next) {
    try (FileChannel out =
        FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      byte[] bytes = Files.readAllBytes(temp);
      out.write(java.nio.ByteBuffer.wrap(bytes));
      out.force(true);
    } catch (FileAlreadyExistsException e) {
      throw new CommitFailedException(
          e, "Cannot commit to %s: version %s was published by another writer", location, next);
    } catch (IOException e) {
      throw new CommitStateUnknownException(e);
    }
  }

  private void writeHint(int next) {
    Path temp = metadataFolder.resolve("." + UUID.randomUUID() + ".version-hint.tmp");
    try {
      Files.write(temp, Integer.toString(next).getBytes(StandardCharsets.UTF_8));
      Files.move(
          temp,
          metadataFolder.resolve(HINT),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // The hint is advisory: readers probe forward from a stale one.
      try {
        Files.deleteIfExists(temp);
      } catch (IOException ignored) {
        // nothing more to do
      }
    }
  }

  private static void syncFolder(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Not every file system lets a directory be forced; the file itself already was.
    }
  }

  private static boolean sameFile(TableMetadata a, TableMetadata b) {
    return a.metadataFileLocation() != null
        && a.metadataFileLocation().equals(b.metadataFileLocation());
  }

  private String metadataFile(int v) {
    Path plain = metadataFolder.resolve("v" + v + ".metadata.json");
    if (Files.exists(plain)) {
      return metadataFileLocation("v" + v + ".metadata.json");
    }
    try (Stream<Path> files = Files.list(metadataFolder)) {
      String name =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> versionOf(n) == v)
              .sorted()
              .reduce((a, b) -> b)
              .orElseThrow(() -> new NoSuchFileException(plain.toString()));
      return metadataFileLocation(name);
    } catch (IOException | RuntimeException e) {
      throw FloeError.IO.error(e, plain, "the table metadata is missing");
    }
  }

  /** The highest published version: the hint, then probing forward; a listing if no hint. */
  private int findLatestVersion() {
    int hint = readHint();
    int latest = -1;
    if (hint > 0 && exists(hint)) {
      latest = hint;
    } else if (hint > 0 && !anyFileOf(hint)) {
      // The hint is written only after its version is published: a hint naming a missing
      // version is damage, and reading an older version would silently undo commits.
      throw FloeError.IO.error(
          metadataFolder.resolve("v" + hint + ".metadata.json"),
          "the table's "
              + HINT
              + " names version "
              + hint
              + ", whose metadata file is missing;"
              + " the table is damaged and is neither read nor written");
    } else if (Files.isDirectory(metadataFolder)) {
      try (Stream<Path> files = Files.list(metadataFolder)) {
        latest = files.mapToInt(p -> versionOf(p.getFileName().toString())).max().orElse(-1);
      } catch (IOException e) {
        throw FloeError.IO.error(e, metadataFolder, e.getMessage());
      }
    }
    if (latest < 0) {
      return -1;
    }
    while (Files.exists(metadataFolder.resolve("v" + (latest + 1) + ".metadata.json"))) {
      latest++;
    }
    return latest;
  }

  private boolean anyFileOf(int v) {
    try (Stream<Path> files = Files.list(metadataFolder)) {
      return files.anyMatch(p -> versionOf(p.getFileName().toString()) == v);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private boolean exists(int v) {
    return Files.exists(metadataFolder.resolve("v" + v + ".metadata.json"));
  }

  private int readHint() {
    try {
      String text = Files.readString(metadataFolder.resolve(HINT), StandardCharsets.UTF_8).trim();
      return text.isEmpty() ? -1 : Integer.parseInt(text);
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  /** The version number a metadata file name carries, or -1. */
  static int versionOf(String name) {
    Matcher m = VERSION.matcher(name);
    if (m.matches()) {
      return parse(m.group(1));
    }
    m = NUMBERED.matcher(name);
    if (m.matches()) {
      return parse(m.group(1));
    }
    return -1;
  }

  private static int parse(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return location + "/metadata/" + fileName;
  }

  @Override
  public LocationProvider locationProvider() {
    TableMetadata metadata = current();
    if (metadata != null) {
      io.sandbox().checkWritable(name, metadata);
    }
    return LocationProviders.locationsFor(
        metadata == null ? location : metadata.location(),
        metadata == null ? java.util.Map.of() : metadata.properties());
  }

  /** The table folder. */
  public Path folder() {
    return folder;
  }

  /** The table location. */
  public String location() {
    return location;
  }
}
