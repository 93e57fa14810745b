package dev.floe.planner.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.expressions.Expression;

/**
 * The file tasks already planned on one pinned table during the running statement, so that a
 * table's files are planned once per statement and snapshot however often the statement reads the
 * table: a correlated subquery that Calcite cannot turn into a join reads its table once per outer
 * row. The driver forgets them when the next statement begins.
 *
 * <p>Safe for several threads.
 */
public final class ScanPlans {
  /**
   * A scan's identity within a statement: the snapshot, the pushed filter (the very object the
   * statement's plan holds, so equal by identity) and whether files are kept whole.
   */
  private record Key(long snapshotId, Expression filter, boolean wholeFiles) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Key k
          && k.snapshotId == snapshotId
          && k.filter == filter
          && k.wholeFiles == wholeFiles;
    }

    @Override
    public int hashCode() {
      return Objects.hash(snapshotId, System.identityHashCode(filter), wholeFiles);
    }
  }

  private final Map<Key, List<FileScanTask>> planned = new ConcurrentHashMap<>();

  /**
   * The tasks of a scan, planned by {@code plan} the first time the statement asks for them.
   *
   * @param snapshotId the snapshot scanned
   * @param filter the filter pushed into the scan
   * @param wholeFiles whether tasks are whole files, not split at row groups
   * @param plan plans the tasks; its list is kept as it is and must not change afterwards
   */
  public List<FileScanTask> tasks(
      long snapshotId, Expression filter, boolean wholeFiles, Supplier<List<FileScanTask>> plan) {
    Key key = new Key(snapshotId, filter, wholeFiles);
    List<FileScanTask> tasks = planned.get(key);
    if (tasks == null) {
      // Planned outside the map's lock: planning reads manifests and may fail.
      tasks = List.copyOf(plan.get());
      List<FileScanTask> raced = planned.putIfAbsent(key, tasks);
      if (raced != null) {
        tasks = raced;
      }
    }
    return tasks;
  }

  /** Forgets every plan: the statement they belonged to is over. */
  public void clear() {
    planned.clear();
  }
}
