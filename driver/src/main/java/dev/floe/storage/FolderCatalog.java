package dev.floe.storage;

import dev.floe.error.FloeError;
import dev.floe.planner.spi.LakeCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.Transactions;

/**
 * The tables under one local root folder: every folder holding {@code metadata/} with table
 * metadata is a table named after its folder, and the folders on the way to it are schemas.
 * Nothing is cached: every call looks at the folder again. Thread-safe.
 */
public final class FolderCatalog implements LakeCatalog {
  private static final int MAX_DEPTH = 8;

  private final LakeLocation root;
  private final Path rootPath;
  private final LocalFileIO io = new LocalFileIO();

  public FolderCatalog(LakeLocation root) {
    this.root = root;
    this.rootPath = root.localPath();
  }

  /**
   * The catalog of a root folder that exists, or that is created when {@code create} is set.
   *
   * @throws dev.floe.error.FloeException CANNOT_OPEN when the root is missing or not a folder
   */
  public static FolderCatalog open(LakeLocation location, boolean create) {
    Path root = location.localPath();
    if (!Files.isDirectory(root)) {
      if (Files.exists(root)) {
        throw FloeError.CANNOT_OPEN.error(location, "it is a file, not a folder");
      }
      if (!create) {
        throw FloeError.CANNOT_OPEN.error(
            location, "the folder does not exist (set create=true to create it)");
      }
      try {
        Files.createDirectories(root);
      } catch (IOException e) {
        throw FloeError.CANNOT_OPEN.error(e, location, e.getMessage());
      }
    }
    return new FolderCatalog(location);
  }

  /** Whether the root folder is still there. */
  public boolean rootExists() {
    return Files.isDirectory(rootPath);
  }

  /** The root location. */
  public LakeLocation location() {
    return root;
  }

  @Override
  public String root() {
    return root.canonical();
  }

  @Override
  public List<String> tableNames(List<String> schemaPath) {
    Path folder = folder(schemaPath);
    List<String> names = new ArrayList<>();
    for (Path child : children(folder)) {
      if (FolderTableOperations.isTable(child)) {
        names.add(child.getFileName().toString());
      }
    }
    return names;
  }

  @Override
  public List<String> schemaNames(List<String> schemaPath) {
    Path folder = folder(schemaPath);
    List<String> names = new ArrayList<>();
    if (FolderTableOperations.isTable(folder)) {
      return names;
    }
    for (Path child : children(folder)) {
      if (!FolderTableOperations.isTable(child) && holdsTable(child, MAX_DEPTH)) {
        names.add(child.getFileName().toString());
      }
    }
    return names;
  }

  @Override
  public List<String> folderNames(List<String> path) {
    List<String> names = new ArrayList<>();
    for (Path child : children(folder(path))) {
      names.add(child.getFileName().toString());
    }
    return names;
  }

  @Override
  public void deleteFolder(List<String> path) {
    if (path.isEmpty()) {
      throw new IllegalArgumentException("Cannot delete the lake root");
    }
    deleteTree(folder(path));
  }

  @Override
  public boolean tableExists(List<String> path) {
    return FolderTableOperations.isTable(folder(path));
  }

  @Override
  public Table loadTable(List<String> path) {
    FolderTableOperations ops = operations(path);
    if (ops.current() == null) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    return new BaseTable(ops, String.join(".", path));
  }

  /** The operations of the table folder at a path (which may not hold a table yet). */
  public FolderTableOperations operations(List<String> path) {
    return new FolderTableOperations(tableLocation(path), folder(path), io);
  }

  @Override
  public Transaction newCreateTableTransaction(
      List<String> path, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    if (tableExists(path)) {
      throw FloeError.TABLE_EXISTS.error(String.join(".", path));
    }
    FolderTableOperations ops = operations(path);
    TableMetadata metadata =
        TableMetadata.newTableMetadata(
            schema, spec, SortOrder.unsorted(), tableLocation(path), properties);
    return Transactions.createTableTransaction(String.join(".", path), ops, metadata);
  }

  @Override
  public void dropTable(List<String> path, boolean purge) {
    FolderTableOperations ops = operations(path);
    TableMetadata metadata = ops.current();
    if (metadata == null) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    if (purge) {
      CatalogUtil.dropTableData(io, metadata);
    }
    deleteTree(ops.folder());
  }

  @Override
  public String tableLocation(List<String> path) {
    LakeLocation location = root;
    for (String name : checkNames(path)) {
      location = location.resolve(name);
    }
    return location.canonical();
  }

  /** The FileIO of this catalog's tables. */
  public LocalFileIO io() {
    return io;
  }

  /** Deletes a folder and everything in it. */
  public static void deleteTree(Path folder) {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + folder, e);
    }
  }

  private String describe(List<String> path) {
    return String.join(".", path) + " at " + tableLocation(path);
  }

  private Path folder(List<String> path) {
    Path folder = rootPath;
    for (String name : checkNames(path)) {
      folder = folder.resolve(name);
    }
    return folder;
  }

  /** Refuses names that would leave the root. */
  private static List<String> checkNames(List<String> path) {
    for (String name : path) {
      if (name.isEmpty()
          || name.equals(".")
          || name.equals("..")
          || name.contains("/")
          || name.contains("\\")
          || name.contains("\0")
          || (name.length() >= 2 && name.charAt(1) == ':')) {
        throw FloeError.INVALID_NAME.error("'" + name + "'", "a table or schema name is one folder name under the root");
      }
    }
    return path;
  }

  private static List<Path> children(Path folder) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(folder)) {
      return list.filter(Files::isDirectory)
          .filter(p -> !p.getFileName().toString().startsWith("."))
          .sorted()
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private static boolean holdsTable(Path folder, int depth) {
    if (depth <= 0) {
      return false;
    }
    for (Path child : children(folder)) {
      if (FolderTableOperations.isTable(child) || holdsTable(child, depth - 1)) {
        return true;
      }
    }
    return false;
  }
}
