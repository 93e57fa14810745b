package dev.floe.planner.spi;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.view.ViewMetadata;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Finds and opens the tables under one root location. The planner sees storage only through this
 * interface and Iceberg's own {@link Table}; the driver implements it over folders.
 *
 * <p>A path is the list of names from the root: {@code ["sales", "orders"]} is the folder {@code
 * <root>/sales/orders}. Implementations are thread-safe and never cache what another process may
 * change.
 */
public interface LakeCatalog {
  /** The root location, as shown in messages. */
  String root();

  /** The names of the tables directly under a schema path. */
  List<String> tableNames(List<String> schemaPath);

  /**
   * The names of the tables directly under a schema path that {@code named} accepts: what name
   * resolution asks for, at a cost that does not grow with the number of tables beside them.
   */
  default List<String> tableNames(List<String> schemaPath, Predicate<String> named) {
    return tableNames(schemaPath).stream().filter(named).toList();
  }

  /** The names of the folders directly under a schema path that hold tables further down. */
  List<String> schemaNames(List<String> schemaPath);

  /** As {@link #schemaNames(List)}, only the names {@code named} accepts, the others unexamined. */
  default List<String> schemaNames(List<String> schemaPath, Predicate<String> named) {
    return schemaNames(schemaPath).stream().filter(named).toList();
  }

  /**
   * The names of every folder directly under a path (tables, schemas and plain folders), without
   * hidden ones; empty when the path is no folder.
   */
  List<String> folderNames(List<String> path);

  /** Deletes the folder at a path and everything in it, if it exists; only under the root. */
  void deleteFolder(List<String> path);

  /** Whether a table exists at a path. */
  boolean tableExists(List<String> path);

  /**
   * Loads a table with its latest committed metadata.
   *
   * @throws dev.floe.error.FloeException TABLE_NOT_FOUND, or IO when its metadata is corrupt
   */
  Table loadTable(List<String> path);

  /** A transaction that creates a table; nothing exists until it commits. */
  Transaction newCreateTableTransaction(
      List<String> path, Schema schema, PartitionSpec spec, Map<String, String> properties);

  /**
   * A transaction that replaces the table at a path in one commit: the new schema, partition spec
   * and properties (merged over the table's), and the contents the caller adds to it; the table's
   * snapshots stay in its history, readable by time travel. {@code current} is the table as loaded
   * when the statement began: if another writer has published a version since, committing fails
   * with COMMIT_CONFLICT (40001) and replaces nothing.
   */
  Transaction newReplaceTableTransaction(
      List<String> path,
      Table current,
      Schema schema,
      PartitionSpec spec,
      Map<String, String> properties);

  /** Drops a table; with {@code purge}, also deletes every file it references and its folder. */
  /**
   * Sets and removes properties of a table in one commit, under the rules CREATE applies (accepted
   * values, paths inside the lake).
   */
  void updateProperties(
      List<String> path, Table table, Map<String, String> set, List<String> unset);

  void dropTable(List<String> path, boolean purge);

  /**
   * The names of the views directly under a schema path that {@code named} accepts (docs/sql.md,
   * "Views"): folders holding Iceberg view metadata.
   */
  List<String> viewNames(List<String> schemaPath, Predicate<String> named);

  /** Whether a view exists at a path. */
  boolean viewExists(List<String> path);

  /**
   * Loads a view's current metadata.
   *
   * @throws dev.floe.error.FloeException VIEW_NOT_FOUND, or IO (58030, naming the file) when its
   *     metadata cannot be read
   */
  ViewMetadata loadView(List<String> path);

  /**
   * Publishes a view's next version with the commit protocol of tables: {@code base} is the version
   * the statement read (null: the view is new); when another writer published meanwhile, nothing is
   * published and a {@link org.apache.iceberg.exceptions.CommitFailedException} tells the caller to
   * read again.
   */
  void commitView(List<String> path, @Nullable ViewMetadata base, ViewMetadata next);

  /** Deletes a view's folder. */
  void dropView(List<String> path);

  /**
   * The files outside the tables that queries may read ({@code read_parquet}, {@code read_csv}).
   */
  ExternalFiles externalFiles();

  /** The location a table at this path has or would have. */
  String tableLocation(List<String> path);
}
