package dev.floe.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** A lake in a local folder. Thread-safe. */
public final class LocalStore implements LakeStore {
  private final LakeLocation root;
  private final LocalFileIO io = new LocalFileIO();

  public LocalStore(LakeLocation root) {
    this.root = root;
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
  public List<String> childFolders(String folder) {
    Path path = LocalFileIO.toPath(folder);
    if (!Files.isDirectory(path)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(path)) {
      return list.filter(Files::isDirectory)
          .map(p -> p.getFileName().toString())
          .filter(name -> !name.startsWith("."))
          .sorted()
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  @Override
  public boolean isTable(String folder) {
    return FolderTableOperations.isTable(LocalFileIO.toPath(folder));
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
