package dev.floe.planner.spi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.expressions.Expression;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The file tasks planned on one pinned table, and what its running statement has loaded once for
 * all its scans of it (delete files).
 *
 * <p>Tasks are kept per snapshot across statements in the connection's {@link Shared} store, since
 * a snapshot never changes: a table's files are planned once per snapshot and filter however often
 * statements read it, so a correlated subquery that Calcite cannot turn into a join, which reads
 * its table once per outer row, and a statement run again on an unchanged table, plan nothing.
 * Loaded delete files are kept for the running statement only; the driver lets them go when the
 * next statement begins.
 *
 * <p>Safe for several threads.
 */
public final class ScanPlans {
  private final String tableUuid;
  private final Shared shared;
  private final ConcurrentMap<String, CompletableFuture<Object>> statementValues =
      new ConcurrentHashMap<>();

  /** The plans of the table with this UUID, kept in a connection's store. */
  public ScanPlans(String tableUuid, Shared shared) {
    this.tableUuid = tableUuid;
    this.shared = shared;
  }

  /**
   * The tasks of a scan, planned by {@code plan} the first time they are asked for.
   *
   * @param snapshotId the snapshot scanned
   * @param filter the filter pushed into the scan (the plan's own object: plans are kept by its
   *     identity, so a kept statement plan finds them again)
   * @param wholeFiles whether tasks are whole files, not split at row groups
   * @param plan plans the tasks; its list is kept as it is and must not change afterwards
   */
  public List<FileScanTask> tasks(
      long snapshotId, Expression filter, boolean wholeFiles, Supplier<List<FileScanTask>> plan) {
    Key key = new Key(tableUuid, snapshotId, filter, wholeFiles);
    List<FileScanTask> tasks = shared.get(key);
    if (tasks == null) {
      // Planned outside any lock: planning reads manifests and may fail.
      PhaseTimes.Phase before = PhaseTimes.enter(PhaseTimes.Phase.METADATA);
      try {
        tasks = List.copyOf(plan.get());
      } finally {
        PhaseTimes.restore(before);
      }
      tasks = shared.putIfAbsent(key, tasks);
    }
    return tasks;
  }

  /**
   * A value loaded once for the running statement (a delete file's contents), however many of its
   * scans and workers ask for it; a load runs outside any lock, and a failed load is not kept.
   */
  @SuppressWarnings("unchecked")
  public <V> V statementValue(String key, Supplier<V> loader) {
    CompletableFuture<Object> mine = new CompletableFuture<>();
    CompletableFuture<Object> existing = statementValues.putIfAbsent(key, mine);
    if (existing != null) {
      return (V) existing.join();
    }
    try {
      V value = loader.get();
      mine.complete(value);
      return value;
    } catch (RuntimeException | Error e) {
      statementValues.remove(key, mine);
      mine.completeExceptionally(e);
      throw e;
    }
  }

  /** Forgets what the statement loaded: it is over. Planned tasks stay in the shared store. */
  public void clear() {
    statementValues.clear();
  }

  /**
   * A scan's identity: the table, the snapshot, the pushed filter (by identity) and whether files
   * are kept whole.
   */
  private record Key(String table, long snapshotId, Expression filter, boolean wholeFiles) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Key k
          && k.snapshotId == snapshotId
          && k.filter == filter
          && k.wholeFiles == wholeFiles
          && k.table.equals(table);
    }

    @Override
    public int hashCode() {
      return Objects.hash(table, snapshotId, System.identityHashCode(filter), wholeFiles);
    }
  }

  /**
   * A connection's planned tasks of every table, least recently used let go first once they hold
   * more than a bound of tasks in all (the most recent plan is always kept).
   */
  public static final class Shared {
    private final long maxTasks;
    private final Map<Key, List<FileScanTask>> plans = new LinkedHashMap<>(16, 0.75f, true);
    private long tasks;

    /** A store keeping plans of up to {@code maxTasks} tasks in all. */
    public Shared(long maxTasks) {
      this.maxTasks = maxTasks;
    }

    synchronized @Nullable List<FileScanTask> get(Key key) {
      return plans.get(key);
    }

    synchronized List<FileScanTask> putIfAbsent(Key key, List<FileScanTask> planned) {
      List<FileScanTask> raced = plans.get(key);
      if (raced != null) {
        return raced;
      }
      plans.put(key, planned);
      tasks += planned.size();
      var eldest = plans.entrySet().iterator();
      while (tasks > maxTasks && plans.size() > 1) {
        Map.Entry<Key, List<FileScanTask>> entry = eldest.next();
        tasks -= entry.getValue().size();
        eldest.remove();
      }
      return planned;
    }

    /** How many plans are kept. */
    public synchronized int size() {
      return plans.size();
    }
  }
}
