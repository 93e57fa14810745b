package dev.floe.storage;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.iceberg.io.FileIO;

/**
 * Where a lake's files live: a local folder or an S3 prefix. Folders are named by their canonical
 * locations below the lake's root ({@code file:/data/lake/sales}, {@code s3://bucket/lake/sales});
 * the store lists them, finds tables in them, opens a table's operations and deletes a folder's
 * contents. Thread-safe.
 */
public interface LakeStore extends AutoCloseable {
  /** The lake's root. */
  LakeLocation root();

  /** The FileIO of the lake's tables. */
  FileIO io();

  /**
   * Whether a location, in any spelling Floe reads, lies under the lake's root: the only places
   * Floe creates or deletes files.
   */
  boolean contains(String location);

  /** The names of the folders directly in a folder, without hidden ones ({@code .x}), sorted. */
  List<String> childFolders(String folder);

  /**
   * As {@link #childFolders(String)}, only the names {@code named} accepts; a store that must
   * examine each entry to know whether it is a folder examines only those.
   */
  default List<String> childFolders(String folder, Predicate<String> named) {
    return childFolders(folder).stream().filter(named).toList();
  }

  /** Whether a folder holds an Iceberg table ({@code metadata/} with a version or the hint). */
  boolean isTable(String folder);

  /** The operations of the table in a folder (which may not hold a table yet). */
  LakeTableOperations operations(String folder);

  /**
   * Whether a folder holds an Iceberg view: {@code metadata/} with a version and the view hint
   * (docs/sql.md, "Views").
   */
  boolean isView(String folder);

  /**
   * The operations that find and publish the versions of the view in a folder (which may not hold a
   * view yet), with the commit protocol of tables.
   */
  LakeTableOperations viewOperations(String folder);

  /** Whether the lake's root is there: the folder exists, or the bucket can be listed. */
  boolean isAvailable();

  /** Deletes every file in a folder and below; nothing outside it. */
  void deleteTree(String folder);

  /**
   * Deletes every file in a folder and below but those {@code keep} accepts (given each file's
   * location), and the folders left empty; nothing outside it.
   */
  void deleteTree(String folder, Predicate<String> keep);

  /**
   * The one spelling locations are compared in, as a function from a location to its canonical
   * spelling: a local location with symbolic links and {@code ..} resolved as the file system
   * resolves them ({@code file:/real/path}; a file that is a link keeps its own name), an S3 one as
   * {@code s3://bucket/key} whichever of {@code s3a://} and {@code s3n://} spelt it. Locations
   * naming the same file have the same spelling; one that cannot be resolved (a dangling link on
   * the way) gets a spelling under no folder. The function remembers the folders it resolved, so a
   * statement takes one and drops it when done.
   */
  UnaryOperator<String> canonicalizer();

  /**
   * Refuses when commits to this store could be lost, before anything is written: on S3, when the
   * store does not honour conditional writes and single-writer mode is off.
   */
  void checkCanCommit();

  @Override
  void close();
}
