package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.scan.RuntimeFilter;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.MemoryBudget;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.EqualityComparer;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Function2;
import org.apache.calcite.linq4j.function.Predicate2;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Floe's hash join at run time, called by the code {@link LakeHashJoin} generates in place of
 * Calcite's: the same key selectors, row builder and residual predicate, and the same answers
 * (inner and left joins, semi- and anti-joins; a NULL key matches nothing, so an anti-join keeps
 * its row), with what Calcite's does not do:
 *
 * <ul>
 *   <li>the build side (the right input) is read first, in full, each row's estimated size reserved
 *       in the statement's {@link MemoryBudget} (53200 past it, never an {@code OutOfMemoryError})
 *       and released when the join closes;
 *   <li>building and probing check the statement's cancellation every few rows, and every few build
 *       rows tried against one probe row, so {@code cancel()} and the query timeout stop a join
 *       that produces no rows for a long time (a key shared by many build rows whose residual
 *       condition fails for them all too);
 *   <li>the build side's keys are published to the probe side's scans ({@link RuntimeFilter})
 *       before the probe side is opened;
 *   <li>keys of different types (INTEGER and BIGINT, decimals of different scales) are compared as
 *       numbers ({@link RuntimeFilter#key}).
 * </ul>
 */
public final class HashJoins {
  private static final int CHECK_EVERY = 256;

  private HashJoins() {}

  /** What one join node needs at run time besides Calcite's arguments. */
  public static final class Spec {
    private final String name;
    private final RuntimeFilter.@Nullable Slot slot;
    private final boolean normalize;
    private final boolean singleKey;

    Spec(String name, RuntimeFilter.@Nullable Slot slot, boolean normalize, boolean singleKey) {
      this.name = name;
      this.slot = slot;
      this.normalize = normalize;
      this.singleKey = singleKey;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** Entry point for generated code: an inner, left, right or full join (inner and left here). */
  public static <L, R, K, T> Enumerable<T> hashJoin(
      Enumerable<L> left,
      Enumerable<R> right,
      Function1<L, K> leftKey,
      Function1<R, K> rightKey,
      Function2<L, R, T> result,
      @Nullable EqualityComparer<K> comparer,
      boolean nullsOnLeft,
      boolean nullsOnRight,
      @Nullable Predicate2<L, R> predicate,
      DataContext root,
      Spec spec) {
    if (nullsOnLeft) {
      throw new IllegalStateException("a right or full join is not run by " + spec);
    }
    Cancellation statement = Cancellation.current();
    return new AbstractEnumerable<T>() {
      @Override
      public Enumerator<T> enumerator() {
        Build<L, R, K> build =
            new Build<>(root, spec, statement, leftKey, rightKey, comparer, true);
        build.read(right);
        return new Probe<>(build, left, result, predicate, nullsOnRight);
      }
    };
  }

  /** Entry point for generated code: the left rows with a match. */
  public static <L, R, K> Enumerable<L> semiJoin(
      Enumerable<L> left,
      Enumerable<R> right,
      Function1<L, K> leftKey,
      Function1<R, K> rightKey,
      @Nullable EqualityComparer<K> comparer,
      @Nullable Predicate2<L, R> predicate,
      DataContext root,
      Spec spec) {
    return semiOrAnti(left, right, leftKey, rightKey, comparer, predicate, root, spec, false);
  }

  /** Entry point for generated code: the left rows without a match (a NULL key has none). */
  public static <L, R, K> Enumerable<L> antiJoin(
      Enumerable<L> left,
      Enumerable<R> right,
      Function1<L, K> leftKey,
      Function1<R, K> rightKey,
      @Nullable EqualityComparer<K> comparer,
      @Nullable Predicate2<L, R> predicate,
      DataContext root,
      Spec spec) {
    return semiOrAnti(left, right, leftKey, rightKey, comparer, predicate, root, spec, true);
  }

  private static <L, R, K> Enumerable<L> semiOrAnti(
      Enumerable<L> left,
      Enumerable<R> right,
      Function1<L, K> leftKey,
      Function1<R, K> rightKey,
      @Nullable EqualityComparer<K> comparer,
      @Nullable Predicate2<L, R> predicate,
      DataContext root,
      Spec spec,
      boolean anti) {
    Cancellation statement = Cancellation.current();
    return new AbstractEnumerable<L>() {
      @Override
      public Enumerator<L> enumerator() {
        Build<L, R, K> build =
            new Build<>(root, spec, statement, leftKey, rightKey, comparer, predicate != null);
        build.read(right);
        return new Filtered<>(build, left, predicate, anti);
      }
    };
  }

  /** A key compared by a Calcite comparer instead of {@code equals}. */
  private record Compared<K>(K key, EqualityComparer<K> comparer) {
    @Override
    public boolean equals(Object other) {
      @SuppressWarnings("unchecked")
      Compared<K> that = other instanceof Compared<?> ? (Compared<K>) other : null;
      return that != null && comparer.equal(key, that.key);
    }

    @Override
    public int hashCode() {
      return comparer.hashCode(key);
    }
  }

  /** The rows of one build side that share a key, when more than one does. */
  private static final class Chain extends ArrayList<Object> {
    private static final long serialVersionUID = 1L;

    Chain(Object first, Object second) {
      super(2);
      add(first);
      add(second);
    }
  }

  /** The build side of one execution: its rows (or keys) by key, and what they reserve. */
  private static final class Build<L, R, K> {
    private final DataContext root;
    private final Spec spec;
    private final Cancellation statement;
    private final @Nullable AtomicBoolean flag;
    private final Function1<L, K> leftKey;
    private final Function1<R, K> rightKey;
    private final @Nullable EqualityComparer<K> comparer;
    private final boolean keepRows;
    private final MemoryBudget memory;
    private Map<Object, Object> table = new HashMap<>();
    private long reserved;
    private long pending;
    private final Range range = new Range();
    private boolean wrapped;

    Build(
        DataContext root,
        Spec spec,
        Cancellation statement,
        Function1<L, K> leftKey,
        Function1<R, K> rightKey,
        @Nullable EqualityComparer<K> comparer,
        boolean keepRows) {
      this.root = root;
      this.spec = spec;
      this.statement = statement;
      this.flag = root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
      this.leftKey = leftKey;
      this.rightKey = rightKey;
      this.comparer = comparer;
      this.keepRows = keepRows;
      this.memory = statement.memory();
    }

    void check() {
      statement.check();
      if (flag != null && flag.get()) {
        throw FloeError.CANCELLED.error("the statement was cancelled");
      }
    }

    /** Reads the whole build side, then publishes its keys to the probe side's scans. */
    void read(Enumerable<R> right) {
      check();
      int sinceCheck = 0;
      try (Enumerator<R> rows = right.enumerator()) {
        while (rows.moveNext()) {
          if (++sinceCheck == CHECK_EVERY) {
            sinceCheck = 0;
            check();
            flush();
          }
          R row = rows.current();
          Object key = key(rightKey.apply(row));
          if (key == null) {
            continue; // a NULL key matches nothing
          }
          if (keepRows) {
            Object before = table.putIfAbsent(key, row);
            if (before != null) {
              if (before instanceof Chain chain) {
                chain.add(row);
              } else {
                table.put(key, new Chain(before, row));
                pending += 40;
              }
              pending += Sizes.of(row) + 8;
              continue;
            }
            pending += Sizes.of(row) + Sizes.of(key) + 48;
          } else if (table.putIfAbsent(key, Boolean.TRUE) == null) {
            pending += Sizes.of(key) + 48;
          } else {
            continue;
          }
          range.add(key);
        }
      } catch (RuntimeException | Error e) {
        close();
        throw e;
      }
      flush();
      check();
      if (spec.slot != null && !wrapped) {
        // keys compared by a comparer are not the scan's values: nothing is published
        spec.slot.publish(
            root, new RuntimeFilter.Keys(table.keySet(), table.size(), range.min(), range.max()));
      }
    }

    private void flush() {
      if (pending > 0) {
        long bytes = pending;
        pending = 0;
        try {
          memory.reserve(bytes, "the hash join " + spec + " holding " + table.size() + " keys");
        } catch (RuntimeException e) {
          table = new HashMap<>();
          throw e;
        }
        reserved += bytes;
      }
    }

    @Nullable Object key(@Nullable Object raw) {
      if (raw == null) {
        return null;
      }
      if (spec.singleKey && raw instanceof List<?> list && list.size() == 1) {
        // Calcite's selector makes a list even of one key; the scan compares bare values
        raw = list.get(0);
        if (raw == null) {
          return null;
        }
      }
      Object key = spec.normalize ? RuntimeFilter.key(raw) : raw;
      // Calcite passes a comparer for every key: it compares arrays element by element, and
      // everything else as equals does
      if (comparer != null && holdsArray(key)) {
        @SuppressWarnings("unchecked")
        K typed = (K) key;
        wrapped = true;
        return new Compared<>(typed, comparer);
      }
      return key;
    }

    private static boolean holdsArray(Object key) {
      if (key instanceof Object[]) {
        return true;
      }
      if (key instanceof List<?> list) {
        for (Object element : list) {
          if (element instanceof Object[]) {
            return true;
          }
        }
      }
      return false;
    }

    @Nullable Object probeKey(L row) {
      return key(leftKey.apply(row));
    }

    @Nullable Object matches(Object key) {
      return table.get(key);
    }

    void close() {
      table = new HashMap<>();
      if (spec.slot != null) {
        spec.slot.clear(root);
      }
      memory.release(reserved);
      reserved = 0;
    }
  }

  /** The least and greatest of a build side's keys when they are all numbers. */
  private static final class Range {
    private boolean usable = true;
    private boolean any;
    private long low = Long.MAX_VALUE;
    private long high = Long.MIN_VALUE;
    private @Nullable BigDecimal decimalLow;
    private @Nullable BigDecimal decimalHigh;

    void add(Object key) {
      if (!usable) {
        return;
      }
      if (key instanceof Long || key instanceof Integer) {
        long v = ((Number) key).longValue();
        low = Math.min(low, v);
        high = Math.max(high, v);
        any = true;
      } else if (key instanceof BigDecimal d) {
        decimalLow = decimalLow == null || d.compareTo(decimalLow) < 0 ? d : decimalLow;
        decimalHigh = decimalHigh == null || d.compareTo(decimalHigh) > 0 ? d : decimalHigh;
      } else {
        usable = false;
      }
    }

    @Nullable Object min() {
      if (!usable || (!any && decimalLow == null)) {
        return null;
      }
      if (decimalLow == null) {
        return low;
      }
      return any && BigDecimal.valueOf(low).compareTo(decimalLow) < 0
          ? BigDecimal.valueOf(low)
          : decimalLow;
    }

    @Nullable Object max() {
      if (!usable || (!any && decimalHigh == null)) {
        return null;
      }
      if (decimalHigh == null) {
        return high;
      }
      return any && BigDecimal.valueOf(high).compareTo(decimalHigh) > 0
          ? BigDecimal.valueOf(high)
          : decimalHigh;
    }
  }

  /** The rows of an inner or left join: each left row with each matching right row. */
  private static final class Probe<L, R, K, T> implements Enumerator<T> {
    private final Build<L, R, K> build;
    private final Enumerator<L> lefts;
    private final Function2<L, R, T> result;
    private final @Nullable Predicate2<L, R> predicate;
    private final boolean nullsOnRight;
    private @Nullable L left;
    private @Nullable Object matches;
    private int next;
    private boolean matched;
    private boolean pendingUnmatched;
    private @Nullable T current;
    private int sinceCheck;

    Probe(
        Build<L, R, K> build,
        Enumerable<L> left,
        Function2<L, R, T> result,
        @Nullable Predicate2<L, R> predicate,
        boolean nullsOnRight) {
      this.build = build;
      this.result = result;
      this.predicate = predicate;
      this.nullsOnRight = nullsOnRight;
      Enumerator<L> opened;
      try {
        opened = left.enumerator();
      } catch (RuntimeException | Error e) {
        build.close();
        throw e;
      }
      this.lefts = opened;
    }

    @Override
    public T current() {
      return current;
    }

    @Override
    @SuppressWarnings("unchecked")
    public boolean moveNext() {
      for (; ; ) {
        // counted per step, a left row or a build row tried against it: a key shared by many
        // build rows whose residual condition fails for all is a long walk with no row returned
        if (++sinceCheck == CHECK_EVERY) {
          sinceCheck = 0;
          build.check();
        }
        if (matches != null) {
          Object row;
          if (matches instanceof Chain chain) {
            if (next < chain.size()) {
              row = chain.get(next++);
            } else {
              row = null;
              matches = null;
            }
          } else if (next == 0) {
            next = 1;
            row = matches;
          } else {
            row = null;
            matches = null;
          }
          if (matches != null) {
            R right = (R) row;
            if (predicate == null || predicate.apply(left, right)) {
              matched = true;
              current = result.apply(left, right);
              return true;
            }
            continue;
          }
          if (pendingUnmatched && !matched) {
            pendingUnmatched = false;
            current = result.apply(left, null);
            return true;
          }
        }
        if (!lefts.moveNext()) {
          return false;
        }
        left = lefts.current();
        Object key = build.probeKey(left);
        Object found = key == null ? null : build.matches(key);
        if (found == null) {
          if (nullsOnRight) {
            current = result.apply(left, null);
            return true;
          }
          continue;
        }
        matches = found;
        next = 0;
        matched = false;
        pendingUnmatched = nullsOnRight;
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      try {
        lefts.close();
      } finally {
        build.close();
      }
    }
  }

  /** The left rows of a semi-join (with a match) or an anti-join (without one). */
  private static final class Filtered<L, R, K> implements Enumerator<L> {
    private final Build<L, R, K> build;
    private final Enumerator<L> lefts;
    private final @Nullable Predicate2<L, R> predicate;
    private final boolean anti;
    private @Nullable L current;
    private int sinceCheck;

    Filtered(
        Build<L, R, K> build,
        Enumerable<L> left,
        @Nullable Predicate2<L, R> predicate,
        boolean anti) {
      this.build = build;
      this.predicate = predicate;
      this.anti = anti;
      Enumerator<L> opened;
      try {
        opened = left.enumerator();
      } catch (RuntimeException | Error e) {
        build.close();
        throw e;
      }
      this.lefts = opened;
    }

    @Override
    public L current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      while (lefts.moveNext()) {
        if (++sinceCheck == CHECK_EVERY) {
          sinceCheck = 0;
          build.check();
        }
        L row = lefts.current();
        if (found(row) != anti) {
          current = row;
          return true;
        }
      }
      return false;
    }

    @SuppressWarnings("unchecked")
    private boolean found(L row) {
      Object key = build.probeKey(row);
      Object matches = key == null ? null : build.matches(key);
      if (matches == null) {
        return false;
      }
      if (predicate == null) {
        return true;
      }
      if (matches instanceof Chain chain) {
        for (Object right : chain) {
          if (++sinceCheck == CHECK_EVERY) {
            sinceCheck = 0;
            build.check();
          }
          if (predicate.apply(row, (R) right)) {
            return true;
          }
        }
        return false;
      }
      return predicate.apply(row, (R) matches);
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      try {
        lefts.close();
      } finally {
        build.close();
      }
    }
  }

  /** Estimated heap sizes of the values Calcite's rows hold (64-bit JVM, compressed pointers). */
  static final class Sizes {
    private Sizes() {}

    static long of(@Nullable Object value) {
      if (value == null) {
        return 0;
      }
      if (value instanceof Object[] row) {
        long size = 16 + 4L * row.length;
        for (Object field : row) {
          size += of(field);
        }
        return size;
      }
      if (value instanceof Integer || value instanceof Boolean || value instanceof Short) {
        return 16;
      }
      if (value instanceof Long || value instanceof Double) {
        return 24;
      }
      if (value instanceof String s) {
        return 40 + s.length();
      }
      if (value instanceof BigDecimal d) {
        return d.precision() > 18 ? 88 : 40;
      }
      if (value instanceof List<?> list) {
        long size = 24 + 4L * list.size();
        for (Object element : list) {
          size += of(element);
        }
        return size;
      }
      return 32;
    }
  }
}
