package dev.floe.planner.session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
   * @param schemaId the table's current schema: a task's partition spec, its partition values and
   *     its residual are bound to it, and a change of a column's type makes a new schema, not a new
   *     snapshot
   * @param filter the filter pushed into the scan (equal filters share their tasks)
   * @param wholeFiles whether tasks are whole files, not split at row groups
   * @param plan plans the tasks; its list is kept as it is and must not change afterwards
   */
  public List<FileScanTask> tasks(
      long snapshotId,
      int schemaId,
      Expression filter,
      boolean wholeFiles,
      Supplier<List<FileScanTask>> plan) {
    Key key = new Key(tableUuid, snapshotId, schemaId, FilterKey.of(filter), wholeFiles);
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
   * A scan's identity: the table, the snapshot, the table's schema, the pushed filter and whether
   * files are kept whole.
   */
  private record Key(
      String table, long snapshotId, int schemaId, Object filter, boolean wholeFiles) {}

  /**
   * A filter as a key: its canonical text when every part of it can be written exactly (column
   * names and literal values with their Iceberg literal classes, each length-prefixed, so no two
   * different filters read alike), else the filter object itself, equal only to itself.
   */
  static final class FilterKey {
    private FilterKey() {}

    static Object of(Expression filter) {
      try {
        return new Text(
            org.apache.iceberg.expressions.ExpressionVisitors.visit(filter, new Canonical()));
      } catch (UnsupportedOperationException e) {
        return new Identity(filter);
      }
    }

    private record Text(String canonical) {}

    private record Identity(Expression filter) {
      @Override
      public boolean equals(Object other) {
        return other instanceof Identity i && i.filter == filter;
      }

      @Override
      public int hashCode() {
        return System.identityHashCode(filter);
      }
    }

    private static String field(String text) {
      return text.length() + ":" + text;
    }

    private static final class Canonical
        extends org.apache.iceberg.expressions.ExpressionVisitors.ExpressionVisitor<String> {
      @Override
      public String alwaysTrue() {
        return "true";
      }

      @Override
      public String alwaysFalse() {
        return "false";
      }

      @Override
      public String not(String result) {
        return "not(" + result + ")";
      }

      @Override
      public String and(String left, String right) {
        return "and(" + left + "," + right + ")";
      }

      @Override
      public String or(String left, String right) {
        return "or(" + left + "," + right + ")";
      }

      @Override
      public <T> String predicate(org.apache.iceberg.expressions.BoundPredicate<T> pred) {
        throw new UnsupportedOperationException("a bound predicate");
      }

      @Override
      public <T> String predicate(org.apache.iceberg.expressions.UnboundPredicate<T> pred) {
        if (!(pred.term() instanceof org.apache.iceberg.expressions.NamedReference<?> ref)) {
          throw new UnsupportedOperationException("a transform term");
        }
        StringBuilder text = new StringBuilder();
        text.append(pred.op().name()).append('(').append(field(ref.name()));
        if (pred.literals() != null) {
          for (org.apache.iceberg.expressions.Literal<T> literal : pred.literals()) {
            text.append(',').append(field(literal.getClass().getName()));
            text.append(',').append(field(value(literal.value())));
          }
        }
        return text.append(')').toString();
      }

      private static String value(Object value) {
        if (value instanceof java.nio.ByteBuffer buffer) {
          StringBuilder hex = new StringBuilder("0x");
          java.nio.ByteBuffer copy = buffer.duplicate();
          while (copy.hasRemaining()) {
            hex.append(String.format(java.util.Locale.ROOT, "%02x", copy.get()));
          }
          return hex.toString();
        }
        if (value instanceof CharSequence
            || value instanceof Number
            || value instanceof Boolean
            || value instanceof java.util.UUID) {
          return value.getClass().getName() + "=" + value;
        }
        throw new UnsupportedOperationException("a literal of " + value.getClass());
      }
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
