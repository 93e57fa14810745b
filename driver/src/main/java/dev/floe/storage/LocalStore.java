package dev.floe.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
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
    return io.sandbox().contains(path) && LocalTableOperations.isTable(path);
  }

  @Override
  public LocalTableOperations operations(String folder) {
    return new LocalTableOperations(folder, LocalFileIO.toPath(folder), io);
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
  public void deleteTree(String folder, Predicate<String> keep) {
    Path root = LocalFileIO.toPath(folder);
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          try {
            Files.deleteIfExists(p);
          } catch (DirectoryNotEmptyException kept) {
            // holds a kept file
          }
        } else if (!keep.test(location(p))) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + folder, e);
    }
  }

  /**
   * The canonical spelling of local locations: {@code file:} and the path the file system resolves
   * ({@link Sandbox#real}), a file's folder resolved once per statement and its own name kept.
   */
  @Override
  public UnaryOperator<String> canonicalizer() {
    Map<Path, String> folders = new HashMap<>();
    return location -> {
      Path p;
      try {
        p = LocalFileIO.toPath(location).toAbsolutePath();
      } catch (InvalidPathException e) {
        return UNRESOLVED + location;
      }
      Path name = p.getFileName();
      Path parent = p.getParent();
      if (name == null
          || parent == null
          || name.toString().equals("..")
          || name.toString().equals(".")) {
        return spelled(Sandbox.real(p), location);
      }
      String spelled = folders.computeIfAbsent(parent, f -> spelled(Sandbox.real(f), null));
      if (spelled == null) {
        return UNRESOLVED + location;
      }
      return (spelled.endsWith("/") ? spelled : spelled + "/") + name;
    };
  }

  /** The prefix of a location that could not be resolved: it lies under no folder. */
  private static final String UNRESOLVED = "unresolved:";

  private static String spelled(Path real, String location) {
    if (real == null) {
      return location == null ? null : UNRESOLVED + location;
    }
    String text = real.toString().replace('\\', '/');
    return "file:" + (text.startsWith("/") ? text : "/" + text);
  }

  /** The location of a local path, as Floe spells it. */
  static String location(Path path) {
    String text = path.toAbsolutePath().toString().replace('\\', '/');
    return "file:" + (text.startsWith("/") ? text : "/" + text);
  }

  @Override
  public void checkCanCommit() {
    // A local file system publishes with hard links or exclusive creates.
  }

  @Override
  public void close() {}
}
