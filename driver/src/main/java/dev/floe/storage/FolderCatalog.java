package dev.floe.storage;

import dev.floe.config.FloeProperty;
import dev.floe.error.FloeError;
import dev.floe.planner.spi.ExternalFiles;
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
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.Transactions;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The tables under one lake root, a local folder or an S3 prefix: every folder holding {@code
 * metadata/} with table metadata is a table named after its folder, and the folders on the way to
 * it are schemas. Nothing is cached: every call looks at the store again. Thread-safe.
 */
public final class FolderCatalog implements LakeCatalog, AutoCloseable {
  private static final int MAX_DEPTH = 8;

  private final LakeLocation root;
  private final LakeStore store;
  private volatile boolean externalAccess = true;

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
    boolean external = FloeProperty.EXTERNAL_ACCESS.isTrue(properties);
    if (location.isS3()) {
      FolderCatalog catalog = new FolderCatalog(S3Store.open(location, properties));
      catalog.externalAccess = external;
      return catalog;
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
    FolderCatalog catalog = new FolderCatalog(location);
    catalog.externalAccess = external;
    return catalog;
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
    return tableNames(schemaPath, name -> true);
  }

  @Override
  public List<String> tableNames(List<String> schemaPath, Predicate<String> named) {
    String folder = tableLocation(schemaPath);
    List<String> names = new ArrayList<>();
    for (String child : store.childFolders(folder, named)) {
      if (store.isTable(folder + "/" + child)) {
        names.add(child);
      }
    }
    return names;
  }

  @Override
  public List<String> schemaNames(List<String> schemaPath) {
    return schemaNames(schemaPath, name -> true);
  }

  @Override
  public List<String> schemaNames(List<String> schemaPath, Predicate<String> named) {
    String folder = tableLocation(schemaPath);
    List<String> names = new ArrayList<>();
    if (store.isTable(folder)) {
      return names;
    }
    for (String child : store.childFolders(folder, named)) {
      String location = folder + "/" + child;
      if (!store.isTable(location) && !store.isView(location) && holdsTable(location, MAX_DEPTH)) {
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
  public List<String> viewNames(List<String> schemaPath, Predicate<String> named) {
    String folder = tableLocation(schemaPath);
    List<String> names = new ArrayList<>();
    if (store.isTable(folder)) {
      return names;
    }
    for (String child : store.childFolders(folder, named)) {
      if (store.isView(folder + "/" + child)) {
        names.add(child);
      }
    }
    return names;
  }

  @Override
  public boolean viewExists(List<String> path) {
    return !path.isEmpty() && store.isView(tableLocation(path));
  }

  @Override
  public ViewMetadata loadView(List<String> path) {
    String location = tableLocation(path);
    LakeTableOperations ops = store.viewOperations(location);
    int version = store.isView(location) ? ops.latestVersion() : -1;
    if (version < 0) {
      throw FloeError.VIEW_NOT_FOUND.error(describe(path));
    }
    String file = ops.versionLocation(version);
    try {
      return ViewMetadataParser.read(io().newInputFile(file));
    } catch (RuntimeException e) {
      throw FloeError.IO.error(e, file, "the view metadata cannot be read: " + e.getMessage());
    }
  }

  @Override
  public void commitView(List<String> path, @Nullable ViewMetadata base, ViewMetadata next) {
    String location = tableLocation(path);
    if (!store.contains(location)) {
      throw FloeError.OUTSIDE_LAKE.error("create view " + String.join(".", path), location, root());
    }
    LakeTableOperations ops = store.viewOperations(location);
    int latest = ops.latestVersion();
    int expected =
        base == null || base.metadataFileLocation() == null
            ? -1
            : LakeTableOperations.versionOf(
                base.metadataFileLocation()
                    .substring(base.metadataFileLocation().lastIndexOf('/') + 1));
    if (latest != expected || (base == null && store.isTable(location))) {
      throw new CommitFailedException(
          "Cannot commit to view %s: version %s was published meanwhile",
          String.join(".", path), latest);
    }
    if (base == null) {
      ops.markView();
    }
    ops.publishVersion(latest < 1 ? 1 : latest + 1, ViewMetadataParser.toJson(next));
  }

  @Override
  public void dropView(List<String> path) {
    if (!viewExists(path)) {
      throw FloeError.VIEW_NOT_FOUND.error(describe(path));
    }
    store.deleteTree(tableLocation(path));
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
    checkInsideLake("create table " + String.join(".", path), path, properties);
    TablePropertyRules.check(properties);
    LakeTableOperations ops = operations(path);
    TableMetadata metadata =
        TableMetadata.newTableMetadata(
            schema, spec, SortOrder.unsorted(), tableLocation(path), properties);
    return Transactions.createTableTransaction(String.join(".", path), ops, metadata);
  }

  /**
   * Refuses a table folder, or path properties, that would lie outside the lake, or path properties
   * that send the table's files into another table's folder (42602).
   */
  private void checkInsideLake(String action, List<String> path, Map<String, String> properties) {
    if (!store.contains(tableLocation(path))) {
      throw FloeError.OUTSIDE_LAKE.error(action, tableLocation(path), root());
    }
    FileOwnership ownership = null;
    for (String key : Sandbox.PATH_PROPERTIES) {
      String value = properties.get(key);
      if (value != null && !store.contains(value)) {
        throw FloeError.OUTSIDE_LAKE.error(action + " with '" + key + "'", value, root());
      }
      if (value != null) {
        ownership = ownership == null ? new FileOwnership(this) : ownership;
        String own = ownership.folder(path);
        String place = ownership.key(value);
        if (!place.equals(own) && !FileOwnership.under(own, place)) {
          ownership.checkNotInAnotherTable(action, key, value);
        }
      }
    }
  }

  @Override
  public void updateProperties(
      List<String> path, Table table, Map<String, String> set, List<String> unset) {
    String name = String.join(".", path);
    checkInsideLake("alter table " + name, path, set);
    TablePropertyRules.check(set);
    UpdateProperties update = table.updateProperties();
    set.forEach(update::set);
    unset.forEach(update::remove);
    try {
      update.commit();
    } catch (IllegalArgumentException | ValidationException e) {
      throw FloeError.INVALID_PROPERTY.error(e, "table " + name, e.getMessage());
    }
  }

  @Override
  public Transaction newReplaceTableTransaction(
      List<String> path,
      Table current,
      Schema schema,
      PartitionSpec spec,
      Map<String, String> properties) {
    String name = String.join(".", path);
    TableMetadata base = ((HasTableOperations) current).operations().current();
    if (base == null || !tableExists(path)) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    checkInsideLake("replace table " + name, path, properties);
    TablePropertyRules.check(properties);
    TableMetadata replacement;
    try {
      replacement =
          base.buildReplacement(schema, spec, SortOrder.unsorted(), base.location(), properties);
    } catch (IllegalArgumentException | ValidationException e) {
      throw FloeError.INVALID_PROPERTY.error(e, "table " + name, e.getMessage());
    }
    return Transactions.replaceTableTransaction(
        name, new ReplaceOperations(operations(path), base, name), replacement);
  }

  /**
   * The operations a replace transaction commits through: the base is the version the statement
   * read, never refreshed, so a version published meanwhile makes the commit fail with 40001 rather
   * than be silently replaced (Iceberg's replace transaction otherwise retries on the newest
   * version, dropping that version's snapshot from the history). Publishing is the table's own
   * commit protocol.
   */
  private static final class ReplaceOperations implements TableOperations {
    private final LakeTableOperations ops;
    private final TableMetadata base;
    private final String name;

    ReplaceOperations(LakeTableOperations ops, TableMetadata base, String name) {
      this.ops = ops;
      this.base = base;
      this.name = name;
    }

    @Override
    public TableMetadata current() {
      return base;
    }

    @Override
    public TableMetadata refresh() {
      return base;
    }

    @Override
    public void commit(TableMetadata from, TableMetadata metadata) {
      try {
        ops.commit(from, metadata);
      } catch (CommitFailedException e) {
        throw FloeError.COMMIT_CONFLICT.error(
            e,
            name,
            "another writer committed to it while it was being replaced; nothing was replaced");
      }
    }

    @Override
    public FileIO io() {
      return ops.io();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return ops.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return ops.locationProvider();
    }

    @Override
    public TableOperations temp(TableMetadata uncommitted) {
      ReplaceOperations outer = this;
      return new TableOperations() {
        @Override
        public TableMetadata current() {
          return uncommitted;
        }

        @Override
        public TableMetadata refresh() {
          return uncommitted;
        }

        @Override
        public void commit(TableMetadata from, TableMetadata metadata) {
          throw new UnsupportedOperationException("Cannot commit temporary table operations");
        }

        @Override
        public FileIO io() {
          return outer.io();
        }

        @Override
        public String metadataFileLocation(String fileName) {
          return outer.metadataFileLocation(fileName);
        }

        @Override
        public LocationProvider locationProvider() {
          outer.ops.checkWritable(uncommitted);
          return LocationProviders.locationsFor(uncommitted.location(), uncommitted.properties());
        }
      };
    }
  }

  @Override
  public void dropTable(List<String> path, boolean purge) {
    drop(path, purge);
  }

  /**
   * What a DROP left in place.
   *
   * @param outside files the table references outside its folder (with PURGE only), never deleted
   * @param kept files under its folder kept because other tables reference (or may reference) them
   * @param why why they were kept, "" when none was
   * @param unlisted whether the files it references could not be listed (a damaged table)
   */
  public record Dropped(List<String> outside, List<String> kept, String why, boolean unlisted) {}

  /**
   * Drops a table: deletes its folder but the files other tables of the lake reference there
   * (docs/safety.md, "The lake is a sandbox"). With {@code purge}, the files its metadata
   * references outside its folder are listed, never deleted: Floe deletes only the files a table
   * owns.
   */
  public Dropped drop(List<String> path, boolean purge) {
    if (!tableExists(path)) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    LakeTableOperations ops = operations(path);
    TableMetadata metadata = ops.current();
    if (metadata == null) {
      throw FloeError.TABLE_NOT_FOUND.error(describe(path));
    }
    FileOwnership ownership = new FileOwnership(this);
    String folder = ownership.folder(path);
    java.util.Set<String> outside = new java.util.LinkedHashSet<>();
    boolean unlisted = false;
    if (purge) {
      try {
        TableFiles.walk(
            new BaseTable(ops, String.join(".", path)),
            null,
            (location, kind, bytes) -> {
              if (!FileOwnership.under(folder, ownership.key(location))) {
                outside.add(location);
              }
            });
      } catch (RuntimeException damaged) {
        unlisted = true;
      }
    }
    FileOwnership.Shared shared = ownership.shared(path);
    ParsedMetadata.forget(ops.location());
    List<String> kept = new ArrayList<>();
    store.deleteTree(
        tableLocation(path),
        location -> {
          boolean keep = shared.keeps(ownership.key(location));
          if (keep) {
            kept.add(location);
          }
          return keep;
        });
    return new Dropped(List.copyOf(outside), kept, shared.describe(kept.size()), unlisted);
  }

  @Override
  public ExternalFiles externalFiles() {
    return new ExternalFileAccess(
        store instanceof LocalStore ? ((LocalStore) store).io().sandbox() : null, externalAccess);
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
      if (store.isTable(location) || store.isView(location) || holdsTable(location, depth - 1)) {
        return true;
      }
    }
    return false;
  }
}
