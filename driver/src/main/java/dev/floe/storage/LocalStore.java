package dev.floe.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** A lake in a local folder. Thread-safe. */
public final class LocalStore implements LakeStore {
  private final LakeLocation root;
  private final LocalFileIO io;

  public LocalStore(LakeLocation root) {
    this.root = root;
    this.io = new LocalFileIO(new Sandbox(root.localPath()));
  }

  @Override
  public LakeLocation root() {
    return root;
  }

  @Override
  public LocalFileIO io() {
    return io;
  }

  @Override
  public boolean contains(String location) {
    return io.sandbox().containsLocation(location);
  }

  /**
   * The folders in a folder that may hold tables or schemas: hidden folders, unreadable ones and
   * symbolic links leading out of the root are skipped, so no folder a statement does not need can
   * make it fail.
   */
  @Override
  public List<String> childFolders(String folder) {
    return childFolders(folder, name -> true);
  }

  /** Reads the folder's entry names only; the entries named are then checked to be folders. */
  @Override
  public List<String> childFolders(String folder, Predicate<String> named) {
    Path path = LocalFileIO.toPath(folder);
    if (!Files.isDirectory(path) || !io.sandbox().contains(path)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(path)) {
      return list.filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(p -> named.test(p.getFileName().toString()))
          .filter(Files::isDirectory)
          .filter(p -> !Files.isSymbolicLink(p) || io.sandbox().contains(p))
          .map(p -> p.getFileName().toString())
          .sorted()
          .toList();
    } catch (IOException | java.io.UncheckedIOException | SecurityException e) {
      return List.of();
    }
  }

  @Override
  public boolean isTable(String folder) {
    Path path = LocalFileIO.toPath(folder);
    return io.sandbox().contains(path) && FolderTableOperations.isTable(path);
  }

  @Override
  public FolderTableOperations operations(String folder) {
    return new FolderTableOperations(folder, LocalFileIO.toPath(folder), io);
  }

  @Override
  public boolean isAvailable() {
    return Files.isDirectory(root.localPath());
  }

  @Override
  public void deleteTree(String folder) {
    FolderCatalog.deleteTree(LocalFileIO.toPath(folder));
  }

  @Override
  public void checkCanCommit() {
    // A local file system publishes with hard links or exclusive creates.
  }

  @Override
  public void close() {}
}
