package dev.floe.storage;

import dev.floe.config.FloeProperty;
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
import java.util.Properties;
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
import org.apache.iceberg.io.FileIO;

/**
 * The tables under one lake root, a local folder or an S3 prefix: every folder holding {@code
 * metadata/} with table metadata is a table named after its folder, and the folders on the way to
 * it are schemas. Nothing is cached: every call looks at the store again. Thread-safe.
 */
public final class FolderCatalog implements LakeCatalog, AutoCloseable {
  private static final int MAX_DEPTH = 8;

  private final LakeLocation root;
  private final LakeStore store;

  /** The catalog of a local folder. */
  public FolderCatalog(LakeLocation root) {
    this(new LocalStore(root));
  }

  /** The catalog of a lake in a store. */
  public FolderCatalog(LakeStore store) {
    this.root = store.root();
    this.store = store;
  }

  /**
   * Opens the lake at a location with the connection's properties: a local folder (created when
   * {@code create=true}), or an S3 prefix, whose bucket must exist (S3 has no folders: an empty
   * prefix is an empty lake).
   *
   * @throws dev.floe.error.FloeException CANNOT_OPEN when the lake cannot be opened
   */
  public static FolderCatalog open(LakeLocation location, Properties properties) {
    if (location.isS3()) {
      return new FolderCatalog(S3Store.open(location, properties));
    }
    Path root = location.localPath();
    if (!Files.isDirectory(root)) {
      if (Files.exists(root)) {
        throw FloeError.CANNOT_OPEN.error(location, "it is a file, not a folder");
      }
      if (!FloeProperty.CREATE.isTrue(properties)) {
        throw FloeError.CANNOT_OPEN.error(
            location, "the folder does not exist (set create=true to create it)");
      }
      if (FloeProperty.READ_ONLY.isTrue(properties)) {
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

  /** Whether the lake's root is still there: the folder exists, or the bucket can be listed. */
  public boolean rootExists() {
    return store.isAvailable();
  }

  /** The root location. */
  public LakeLocation location() {
    return root;
  }

  /** The store the lake lives in. */
  public LakeStore store() {
    return store;
  }

  @Override
  public String root() {
    return root.canonical();
  }

  @Override
  public List<String> tableNames(List<String> schemaPath) {
    String folder = tableLocation(schemaPath);
    List<String> names = new ArrayList<>();
    for (String child : store.childFolders(folder)) {
      if (store.isTable(folder + "/" + child)) {
        names.add(child);
      }
    }
    return names;
  }

  @Override
  public List<String> schemaNames(List<String> schemaPath) {
    String folder = tableLocation(schemaPath);
    List<String> names = new ArrayList<>();
    if (store.isTable(folder)) {
      return names;
    }
    for (String child : store.childFolders(folder)) {
      String location = folder + "/" + child;
      if (!store.isTable(location) && holdsTable(location, MAX_DEPTH)) {
        names.add(child);
      }
    }
    return names;
  }

  @Override
  public List<String> folderNames(List<String> path) {
    return store.childFolders(tableLocation(path));
  }

  @Override
  public boolean tableExists(List<String> path) {
    return store.isTable(tableLocation(path));
  }

  @Override
  public Table loadTable(List<String> path) {
    LakeTableOperations ops = operations(path);
    if (ops.current() == null) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    return new BaseTable(ops, String.join(".", path));
  }

  /** The operations of the table folder at a path (which may not hold a table yet). */
  public LakeTableOperations operations(List<String> path) {
    return store.operations(tableLocation(path));
  }

  @Override
  public Transaction newCreateTableTransaction(
      List<String> path, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    if (tableExists(path)) {
      throw FloeError.TABLE_EXISTS.error(String.join(".", path));
    }
    String table = String.join(".", path);
    if (!store.contains(tableLocation(path))) {
      throw FloeError.OUTSIDE_LAKE.error("create table " + table, tableLocation(path), root());
    }
    for (String key : Sandbox.PATH_PROPERTIES) {
      String value = properties.get(key);
      if (value != null && !store.contains(value)) {
        throw FloeError.OUTSIDE_LAKE.error(
            "create table " + table + " with '" + key + "'", value, root());
      }
    }
    TablePropertyRules.check(properties);
    LakeTableOperations ops = operations(path);
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
    LakeTableOperations ops = operations(path);
    TableMetadata metadata = ops.current();
    if (metadata == null) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    ParsedMetadata.forget(ops.location());
    List<String> left = List.of();
    if (purge) {
      SandboxedDeletes deletes = new SandboxedDeletes(store);
      CatalogUtil.dropTableData(deletes, metadata);
      left = deletes.left();
    }
    store.deleteTree(tableLocation(path));
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
  public FileIO io() {
    return store.io();
  }

  @Override
  public void deleteFolder(List<String> path) {
    if (path.isEmpty()) {
      throw new IllegalArgumentException("Cannot delete the lake root");
    }
    ParsedMetadata.forget(tableLocation(path));
    store.deleteTree(tableLocation(path));
  }

  @Override
  public void close() {
    store.close();
  }

  /** Deletes a local folder and everything in it. */
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

  private boolean holdsTable(String folder, int depth) {
    if (depth <= 0) {
      return false;
    }
    for (String child : store.childFolders(folder)) {
      String location = folder + "/" + child;
      if (store.isTable(location) || holdsTable(location, depth - 1)) {
        return true;
      }
    }
    return false;
  }
}
