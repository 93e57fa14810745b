package dev.floe.planner.session;

import dev.floe.planner.spi.LakeCatalog;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.ExecutorService;

/**
 * What one connection's statements need from the driver: the catalog, tables pinned for the running
 * statement or transaction, and the pending change per table.
 *
 * <p>Calls come from the thread running a statement; implementations need not be thread-safe.
 */
public interface LakeSession {
  /** The catalog of the connection's root. */
  LakeCatalog catalog();

  /**
   * The table at a path as the current statement or transaction sees it. The first call for a path
   * pins its current snapshot; later calls return the same view.
   *
   * @throws dev.floe.error.FloeException TABLE_NOT_FOUND when there is no table there
   */
  PinnedTable pin(List<String> path);

  /**
   * Checks that the connection may change a table now.
   *
   * @throws dev.floe.error.FloeException READ_ONLY on a read-only connection
   */
  void checkWritable(List<String> path);

  /**
   * Adds a finished statement's change to the table's pending change. The combined change is
   * applied at once to a preview of the table, so later reads in the transaction see it; in
   * autocommit mode the driver publishes it when the statement ends.
   *
   * @throws RuntimeException when the change cannot apply; the pending change is then as before
   */
  void stage(List<String> path, TableChange change);

  /** Whether the transaction validates serializable isolation (no conflicting appends). */
  boolean serializable();

  /** The session time zone: how TIMESTAMP WITH LOCAL TIME ZONE values are shown. */
  TimeZone timeZone();

  /** The pool scans read on. */
  ExecutorService scanExecutor();

  /** How many files a scan reads at once. */
  int scanParallelism();

  /** The connection's prepared plans. */
  PlanCache planCache();
}
