package dev.floe.storage;

import dev.floe.error.FloeError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Table operations for one table folder on the local file system. Publishing version N+1: the full
 * file is written under a temporary name and then hard-linked to {@code vN+1.metadata.json}, which
 * fails if that name exists (an exclusive create and copy where links are not supported), so two
 * writers can never both publish N+1. Not thread-safe: each user holds its own instance.
 */
public final class LocalTableOperations extends LakeTableOperations {
  private final Path folder;
  private final Path metadataFolder;
  private final LocalFileIO io;

  public LocalTableOperations(String location, Path folder, LocalFileIO io) {
    super(location, io);
    this.folder = folder;
    this.metadataFolder = folder.resolve("metadata");
    this.io = io;
  }

  @Override
  protected void checkWritable(TableMetadata metadata) {
    if (!io.sandbox().contains(folder)) {
      throw FloeError.OUTSIDE_LAKE.error("write table " + location(), folder, io.sandbox().root());
    }
    io.sandbox().checkWritable(location(), metadata);
    Path placed = Sandbox.real(LocalFileIO.toPath(metadata.location()));
    Path own = Sandbox.real(folder);
    if (placed == null || !placed.equals(own)) {
      // A folder copied within the lake: its metadata still places its files in the original's.
      throw FloeError.NOT_OWNED.error(
          "write table " + location(),
          "its metadata places its files at "
              + metadata.location()
              + ", not in its own folder; a table writes only into its own folder");
    }
  }

  /**
   * Whether a file lies directly in the table's {@code metadata/} folder as the file system
   * resolves it (a link or {@code ..} on the way leading elsewhere does not).
   */
  @Override
  protected boolean inMetadataFolder(String file) {
    Path path;
    try {
      path = LocalFileIO.toPath(file).toAbsolutePath();
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
    Path parent = path.getParent();
    if (parent == null || path.getFileName().toString().matches("\\.{1,2}")) {
      return false;
    }
    Path realParent = Sandbox.real(parent);
    Path realMetadata = Sandbox.real(metadataFolder);
    return realParent != null && realParent.equals(realMetadata);
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
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  protected boolean metadataExists(String name) {
    return Files.exists(metadataFolder.resolve(name));
  }

  /** A local file's inode, size and modification time. */
  @Override
  protected String stamp(String name) {
    try {
      java.nio.file.attribute.BasicFileAttributes attributes =
          Files.readAttributes(
              metadataFolder.resolve(name), java.nio.file.attribute.BasicFileAttributes.class);
      return attributes.fileKey()
          + "/"
          + attributes.size()
          + "/"
          + attributes.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  protected List<String> metadataNames() {
    if (!Files.isDirectory(metadataFolder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(metadataFolder)) {
      return files.map(p -> p.getFileName().toString()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + metadataFolder, e);
    }
  }

  @Override
  protected String readHint() {
    try {
      return Files.readString(metadataFolder.resolve(HINT), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  protected void publish(int next, TableMetadata metadata) {
    try {
      Files.createDirectories(metadataFolder);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + metadataFolder, e);
    }
    Path temp = metadataFolder.resolve("." + UUID.randomUUID() + ".metadata.json.tmp");
    Path target = metadataFolder.resolve("v" + next + ".metadata.json");
    try {
      TableMetadataParser.write(metadata, io.newOutputFile(temp.toString()));
      link(temp, target, next);
    } finally {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException ignored) {
        // a leftover temporary file is ignored by every reader
      }
    }
    syncFolder(metadataFolder);
  }

  private void link(Path temp, Path target, int next) {
    try {
      Files.createLink(target, temp);
    } catch (FileAlreadyExistsException e) {
      throw new CommitFailedException(
          e, "Cannot commit to %s: version %s was published by another writer", location(), next);
    } catch (UnsupportedOperationException | FileSystemException linkUnsupported) {
      if (linkUnsupported instanceof FileSystemException && Files.exists(target)) {
        throw new CommitFailedException(
            "Cannot commit to %s: version %s was published by another writer", location(), next);
      }
      exclusiveCopy(temp, target, next);
    } catch (IOException e) {
      if (Files.exists(target)) {
        throw new CommitStateUnknownException(e);
      }
      throw new CommitFailedException(e, "Cannot commit to %s: %s", location(), e.getMessage());
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
          e, "Cannot commit to %s: version %s was published by another writer", location(), next);
    } catch (IOException e) {
      throw new CommitStateUnknownException(e);
    }
  }

  @Override
  protected void writeHint(int next) {
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

  /** The table folder. */
  public Path folder() {
    return folder;
  }
}
