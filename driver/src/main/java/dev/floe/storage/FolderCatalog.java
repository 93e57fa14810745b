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
 * metadata is a table named after its folder, and the folders on the way to it are schemas. Nothing
 * is cached: every call looks at the folder again. Thread-safe.
 */
public final class FolderCatalog implements LakeCatalog {
  private static final int MAX_DEPTH = 8;

  private final LakeLocation root;
  private final Path rootPath;
  private final LocalFileIO io;

  public FolderCatalog(LakeLocation root) {
    this.root = root;
    this.rootPath = root.localPath();
    this.io = new LocalFileIO(new Sandbox(rootPath));
  }

  /**
   * The catalog of a root folder that exists, or that is created when {@code create} is set.
   *
   * @throws dev.floe.error.FloeException CANNOT_OPEN when the root is missing or not a folder
   */
  public static FolderCatalog open(LakeLocation location, boolean create) {
    return open(location, create, false);
  }

  /**
   * As {@link #open(LakeLocation, boolean)}; a read-only connection never creates the root, even
   * with {@code create}.
   */
  public static FolderCatalog open(LakeLocation location, boolean create, boolean readOnly) {
    Path root = location.localPath();
    if (!Files.isDirectory(root)) {
      if (Files.exists(root)) {
        throw FloeError.CANNOT_OPEN.error(location, "it is a file, not a folder");
      }
      if (!create) {
        throw FloeError.CANNOT_OPEN.error(
            location, "the folder does not exist (set create=true to create it)");
      }
      if (readOnly) {
        throw FloeError.CANNOT_OPEN.error(
            location, "the folder does not exist, and a read-only connection creates nothing");
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
    if (!io.sandbox().contains(folder(path))) {
      throw FloeError.OUTSIDE_LAKE.error("delete folder", folder(path), rootPath);
    }
    deleteTree(folder(path));
  }

  @Override
  public boolean tableExists(List<String> path) {
    Path folder = folder(path);
    return io.sandbox().contains(folder) && FolderTableOperations.isTable(folder);
  }

  @Override
  public Table loadTable(List<String> path) {
    if (!tableExists(path)) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    FolderTableOperations ops = operations(path);
    if (ops.current() == null) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    return new BaseTable(ops, String.join(".", path));
  }

  /** The operations of the table folder at a path (which may not hold a table yet). */
  public FolderTableOperations operations(List<String> path) {
    return new FolderTableOperations(tableLocation(path), folder(path), io, String.join(".", path));
  }

  @Override
  public Transaction newCreateTableTransaction(
      List<String> path, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    if (tableExists(path)) {
      throw FloeError.TABLE_EXISTS.error(String.join(".", path));
    }
    if (!io.sandbox().contains(folder(path))) {
      throw FloeError.OUTSIDE_LAKE.error(
          "create table " + String.join(".", path), folder(path), rootPath);
    }
    io.sandbox().checkProperties("create table " + String.join(".", path), properties);
    TablePropertyRules.check(properties);
    FolderTableOperations ops = operations(path);
    TableMetadata metadata =
        TableMetadata.newTableMetadata(
            schema, spec, SortOrder.unsorted(), tableLocation(path), properties);
    return Transactions.createTableTransaction(String.join(".", path), ops, metadata);
  }

  @Override
  public void dropTable(List<String> path, boolean purge) {
    drop(path, purge);
  }

  /**
   * Drops a table: deletes its folder and, with {@code purge}, every file its metadata references
   * under the root. Files outside the root are never deleted.
   *
   * @return the referenced files left in place because they lie outside the root
   */
  public List<String> drop(List<String> path, boolean purge) {
    if (!tableExists(path)) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    FolderTableOperations ops = operations(path);
    TableMetadata metadata = ops.current();
    if (metadata == null) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    List<String> left = List.of();
    if (purge) {
      SandboxedDeletes deletes = new SandboxedDeletes(io);
      CatalogUtil.dropTableData(deletes, metadata);
      left = deletes.left();
    }
    deleteTree(ops.folder());
    return left;
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
        throw FloeError.INVALID_NAME.error(
            "'" + name + "'", "a table or schema name is one folder name under the root");
      }
    }
    return path;
  }

  /**
   * The folders in a folder that may hold tables or schemas: hidden folders, unreadable ones and
   * symbolic links leading out of the root are skipped, so no folder a statement does not need can
   * make it fail.
   */
  private List<Path> children(Path folder) {
    if (!Files.isDirectory(folder) || !io.sandbox().contains(folder)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(folder)) {
      return list.filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(Files::isDirectory)
          .filter(p -> !Files.isSymbolicLink(p) || io.sandbox().contains(p))
          .sorted()
          .toList();
    } catch (IOException | UncheckedIOException | SecurityException e) {
      return List.of();
    }
  }

  private boolean holdsTable(Path folder, int depth) {
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
