package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.scan.RuntimeFilter;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.MemoryBudget;
import dev.floe.planner.session.Sizes;
import dev.floe.planner.session.SpillFiles;
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
 *       in the statement's {@link MemoryBudget} and released when the join closes; a build side
 *       past half of what the budget had free when it started, or past the budget, spills: both
 *       inputs are partitioned by key into files ({@link SpillFiles}) and joined a partition at a
 *       time ({@link Partitioned}), so the join finishes within the budget (53200 only when one
 *       key's rows alone do not fit, never an {@code OutOfMemoryError});
 *   <li>building and probing check the statement's cancellation every few rows, and every few build
 *       rows tried against one probe row, so {@code cancel()} and the query timeout stop a join
 *       that produces no rows for a long time (a key shared by many build rows whose residual
 *       condition fails for them all too);
 *   <li>the build side's keys are published to the probe side's scans ({@link RuntimeFilter})
 *       before the probe side is opened;
 *   <li>an inner, left, semi- or anti-join whose left input is estimated much smaller builds on the
 *       left input instead (a semi- or anti-join then marks the left rows the right rows match, and
 *       emits each marked row, or each unmarked one, once at the end);
 *   <li>keys of different types (INTEGER and BIGINT, decimals of different scales) are compared as
 *       numbers ({@link RuntimeFilter#key}).
 * </ul>
 */
public final class HashJoins {
  private static final int CHECK_EVERY = 256;

  /** The files a build side that spills is split into first, and each of those again. */
  private static final int FANOUT = 64;

  private static final int SUB_FANOUT = 16;

  /** How many times a partition is split again before its join gives up with 53200. */
  private static final int MAX_DEPTH = 4;

  private HashJoins() {}

  /** What one join node needs at run time besides Calcite's arguments. */
  public static final class Spec {
    private final String name;
    private final RuntimeFilter.@Nullable Slot slot;
    private final boolean normalize;
    private final boolean singleKey;
    private final boolean buildLeft;

    /**
     * Whether the probe side is opened before the build side is read: the build side's scans are
     * filtered by keys a join under the probe side publishes when it is opened ({@link
     * LakeHashJoin#replace}).
     */
    private final boolean probeFirst;

    Spec(
        String name,
        RuntimeFilter.@Nullable Slot slot,
        boolean normalize,
        boolean singleKey,
        boolean buildLeft,
        boolean probeFirst) {
      this.name = name;
      this.slot = slot;
      this.normalize = normalize;
      this.singleKey = singleKey;
      this.buildLeft = buildLeft;
      this.probeFirst = probeFirst;
    }

    /** Where the join publishes its build side's keys, or null. */
    RuntimeFilter.@Nullable Slot slot() {
      return slot;
    }

    /** Whether its keys are compared (and published) as {@link RuntimeFilter#key}s. */
    boolean normalized() {
      return normalize;
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
    if (spec.buildLeft) {
      return new AbstractEnumerable<T>() {
        @Override
        public Enumerator<T> enumerator() {
          Build<R, L, K> build =
              new Build<>(root, spec, statement, rightKey, leftKey, comparer, true);
          build.marking = nullsOnRight;
          return open(
              build,
              left,
              right,
              (b, probe) -> new ProbeRight<>(b, probe, result, predicate, nullsOnRight));
        }
      };
    }
    return new AbstractEnumerable<T>() {
      @Override
      public Enumerator<T> enumerator() {
        Build<L, R, K> build =
            new Build<>(root, spec, statement, leftKey, rightKey, comparer, true);
        return open(
            build,
            right,
            left,
            (b, probe) -> new Probe<>(b, probe, result, predicate, nullsOnRight));
      }
    };
  }

  /**
   * Entry point for generated code: the left rows with a match (a semi-join), or without one (an
   * anti-join; a NULL key has none).
   */
  public static <L, R, K> Enumerable<L> semiOrAntiJoin(
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
    if (spec.buildLeft) {
      return new AbstractEnumerable<L>() {
        @Override
        public Enumerator<L> enumerator() {
          Build<R, L, K> build =
              new Build<>(root, spec, statement, rightKey, leftKey, comparer, true);
          build.marking = true;
          return open(build, left, right, (b, probe) -> new SemiRight<>(b, probe, predicate, anti));
        }
      };
    }
    return new AbstractEnumerable<L>() {
      @Override
      public Enumerator<L> enumerator() {
        Build<L, R, K> build =
            new Build<>(root, spec, statement, leftKey, rightKey, comparer, predicate != null);
        return open(build, right, left, (b, probe) -> new Filtered<>(b, probe, predicate, anti));
      }
    };
  }

  /** Makes the enumerator of a join's rows from a build side read in full and its probe side. */
  private interface Joiner<L, R, K, T> {
    Enumerator<T> join(Build<L, R, K> build, Enumerable<L> probe);
  }

  /**
   * Reads a build side and joins the probe side to it: in memory when it fits, else partition by
   * partition from the files it spilled to.
   */
  private static <L, R, K, T> Enumerator<T> open(
      Build<L, R, K> build,
      Enumerable<R> buildRows,
      Enumerable<L> probeRows,
      Joiner<L, R, K, T> joiner) {
    if (build.spec.probeFirst && build.depth == 0) {
      ProbeMadeFirst<L> probe = new ProbeMadeFirst<>(probeRows.enumerator());
      try {
        build.read(buildRows);
        if (build.parts == null) {
          return joiner.join(build, probe);
        }
        return new Partitioned<>(build, probe, joiner);
      } catch (RuntimeException | Error e) {
        probe.closeIfUnused();
        throw e;
      }
    }
    build.read(buildRows);
    if (build.parts == null) {
      return joiner.join(build, probeRows);
    }
    if (build.depth > 0) {
      return new Partitioned<>(build, probeRows, joiner);
    }
    // opened now, though read at the first row, so that the joins under it publish their keys to
    // the build sides of the joins above, which are read before the first row is asked for
    return new Partitioned<>(build, new ProbeMadeFirst<>(openProbe(build, probeRows)), joiner);
  }

  /**
   * A probe side opened before its join's build side is read, so that the joins under it have read
   * their build sides and published their keys to the scans of this build side. Its enumerator is
   * handed out once; one never handed out is closed with the join.
   */
  private static final class ProbeMadeFirst<L> extends AbstractEnumerable<L> {
    private @Nullable Enumerator<L> made;

    ProbeMadeFirst(Enumerator<L> made) {
      this.made = made;
    }

    @Override
    public Enumerator<L> enumerator() {
      Enumerator<L> rows = made;
      if (rows == null) {
        throw new IllegalStateException("a probe side opened first is read once");
      }
      made = null;
      return rows;
    }

    void closeIfUnused() {
      Enumerator<L> rows = made;
      made = null;
      if (rows != null) {
        rows.close();
      }
    }
  }

  /**
   * The rows of a join whose build side spilled (Grace hash join): the probe side is written to
   * files partitioned by the same hash of its key, then each pair of partitions is joined in memory
   * (a build partition that still does not fit is split again with another hash), its files deleted
   * as soon as it is done. A NULL key's rows go to the first partition, where they match nothing as
   * in memory (a left join's and an anti-join's rows are still kept).
   */
  private static final class Partitioned<L, R, K, T> implements Enumerator<T> {
    private final Build<L, R, K> build;
    private final SpillFiles.Partitions builds;
    private final Enumerable<L> probe;
    private final Joiner<L, R, K, T> joiner;
    private SpillFiles.@Nullable Partitions probes;
    private int part = -1;
    private @Nullable Enumerator<T> inner;
    private @Nullable T current;
    private boolean closed;

    Partitioned(Build<L, R, K> build, Enumerable<L> probe, Joiner<L, R, K, T> joiner) {
      this.build = build;
      this.builds = java.util.Objects.requireNonNull(build.parts);
      this.probe = probe;
      this.joiner = joiner;
    }

    @Override
    public T current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      if (closed) {
        return false;
      }
      try {
        if (probes == null) {
          partitionProbe();
        }
        for (; ; ) {
          Enumerator<T> rows = inner;
          if (rows != null) {
            if (rows.moveNext()) {
              current = rows.current();
              return true;
            }
            closeInner();
          }
          if (++part >= builds.fanout()) {
            return false;
          }
          if (probes.count(part) == 0 && !build.marking) {
            continue; // no probe row, and no build row kept for want of one
          }
          build.check();
          inner = open(build.child(), builds.rows(part), probes.<L>rows(part), joiner);
        }
      } catch (SpillFiles.NotSpillable e) {
        close();
        throw build.unspillable(e);
      } catch (RuntimeException | Error e) {
        close();
        throw e;
      }
    }

    private void partitionProbe() {
      SpillFiles.Partitions written = build.newPartitions(builds.fanout(), builds.seed());
      probes = written;
      try (Enumerator<L> rows = probe.enumerator()) {
        while (rows.moveNext()) {
          build.step();
          L row = rows.current();
          written.add(build.probeKey(row), row);
        }
      }
      written.finish();
      build.memory.spilled();
      build.check();
    }

    private void closeInner() {
      Enumerator<T> rows = inner;
      inner = null;
      try {
        if (rows != null) {
          rows.close();
        }
      } finally {
        if (part >= 0 && part < builds.fanout()) {
          builds.delete(part);
          if (probes != null) {
            probes.delete(part);
          }
        }
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        closeInner();
      } finally {
        if (probes != null) {
          probes.deleteAll();
        }
        if (probe instanceof ProbeMadeFirst<L> first) {
          first.closeIfUnused();
        }
        build.close();
      }
    }
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

  /**
   * A build row of a left join built on its preserved side, with whether a probe row has matched it
   * (the rows no probe row matched are emitted with NULLs once the probe side ends).
   */
  private static final class Marked {
    private final Object row;
    private boolean matched;

    Marked(Object row) {
      this.row = row;
    }
  }

  /**
   * The build side of one execution: its rows (or keys) by key, and what they reserve. {@code L} is
   * the type of the probe side's rows, {@code R} of the build side's (the right input, or the left
   * one of a join built on its left).
   */
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
    private final long lookupBytes;
    private final int depth;

    /** The bytes this build side may hold before it spills (besides the budget's own limit). */
    private final long share;

    /** The folder its files (and those of its partitions' joins) are written to. */
    private final SpillFiles.Folder folder;

    /** Whether its rows can be written to disk (false once a value that cannot be is met). */
    private boolean spillable = true;

    /** The files its rows went to, once it spilled; null while it is held in memory. */
    SpillFiles.@Nullable Partitions parts;

    /** Whether the rows it reads are keys (a spilled build side of a join that keeps no rows). */
    private boolean keyed;

    private Map<Object, Object> table = new HashMap<>();
    private long reserved;
    private long pending;
    private final Range range = new Range();
    private boolean wrapped;

    /** Whether rows are kept as {@link Marked}, and rows of a NULL key kept too (in unkeyed). */
    boolean marking;

    private final List<Marked> unkeyed = new ArrayList<>();
    private long rowsRead;
    private long lastRowSize;
    private int steps;

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
      // a key's share of the lookup a probe scan builds from the published keys
      this.lookupBytes = spec.slot == null ? 0 : RuntimeFilter.LOOKUP_BYTES_PER_KEY;
      this.depth = 0;
      this.folder = new SpillFiles.Folder("floe-join-", memory, "the hash join " + spec);
      // the first build side of a plan may take half of what is free, leaving room for the others
      this.share = memory.share();
    }

    /** The build side of one partition of this spilled one. */
    private Build(Build<L, R, K> parent) {
      this.root = parent.root;
      this.spec = parent.spec;
      this.statement = parent.statement;
      this.flag = parent.flag;
      this.leftKey = parent.leftKey;
      this.rightKey = parent.rightKey;
      this.comparer = parent.comparer;
      this.keepRows = parent.keepRows;
      this.memory = parent.memory;
      this.lookupBytes = 0; // a partition's keys are not published
      this.depth = parent.depth + 1;
      this.folder = parent.folder;
      this.share = Long.MAX_VALUE;
      this.marking = parent.marking;
      this.keyed = !parent.keepRows;
    }

    Build<L, R, K> child() {
      return new Build<>(this);
    }

    SpillFiles.Partitions newPartitions(int fanout, int seed) {
      return new SpillFiles.Partitions(folder, fanout, seed);
    }

    /**
     * Counts one unit of work (a row read, written or tried against a key), checking the
     * statement's cancellation every {@link #CHECK_EVERY}; true when it checked.
     */
    boolean step() {
      if (++steps < CHECK_EVERY) {
        return false;
      }
      steps = 0;
      check();
      return true;
    }

    void check() {
      WatchPoint.check(statement, flag);
    }

    /** Reads the whole build side, then publishes its keys to the probe side's scans. */
    void read(Enumerable<R> right) {
      check();
      try (Enumerator<R> rows = right.enumerator()) {
        while (rows.moveNext()) {
          if (step()) {
            flush();
          }
          R current = rows.current();
          Object key = key(keyed ? current : rightKey.apply(current));
          SpillFiles.Partitions spilled = parts;
          if (spilled != null) {
            if (key != null) {
              spilled.add(key, keepRows ? current : bare(key));
            } else if (marking) {
              spilled.add(null, current);
            }
            continue;
          }
          Object row = marking ? new Marked(current) : current;
          if (key == null) {
            if (marking) {
              unkeyed.add((Marked) row);
              pending += size(current) + 24;
            }
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
              pending += size(current) + (marking ? 32 : 8);
              continue;
            }
            pending += size(current) + Sizes.of(key) + (marking ? 72 : 48) + lookupBytes;
          } else if (table.putIfAbsent(key, Boolean.TRUE) == null) {
            pending += Sizes.of(key) + 48 + lookupBytes;
          } else {
            continue;
          }
          range.add(key);
        }
        flush();
        SpillFiles.Partitions spilled = parts;
        if (spilled != null) {
          spilled.finish();
          memory.spilled();
          if (depth > 0 && spilled.nonEmpty() <= 1) {
            throw FloeError.OUT_OF_MEMORY.error(
                "the hash join "
                    + spec
                    + " holds more rows of one key than fit in the statement's memory budget of "
                    + memory.limitText()
                    + ", even a partition at a time from disk (connection property memoryBudget;"
                    + " docs/limits.md, \"Known limits\")");
          }
        }
      } catch (SpillFiles.NotSpillable e) {
        close();
        throw unspillable(e);
      } catch (RuntimeException | Error e) {
        close();
        throw e;
      }
      check();
      if (spec.slot != null && !wrapped && depth == 0 && parts == null) {
        // keys compared by a comparer are not the scan's values: nothing is published
        spec.slot.publish(
            root, new RuntimeFilter.Keys(table.keySet(), table.size(), range.min(), range.max()));
      }
    }

    /**
     * The estimated size of a build row: measured for the first rows and then for every 16th, the
     * last measure standing for the rows between (measuring each row cost as much as hashing it).
     */
    private long size(Object row) {
      if (rowsRead < 1024 || (rowsRead & 15) == 0) {
        lastRowSize = Sizes.of(row);
      }
      rowsRead++;
      return lastRowSize;
    }

    private void flush() {
      if (pending > 0 && parts == null) {
        long bytes = pending;
        pending = 0;
        if (reserved + bytes > share && spill(null)) {
          return;
        }
        try {
          memory.reserve(bytes, "the hash join " + spec + " holding " + table.size() + " keys");
        } catch (RuntimeException e) {
          if (spill(e)) {
            return;
          }
          table = new HashMap<>();
          throw e;
        }
        reserved += bytes;
      }
    }

    /**
     * Writes the rows held so far to partition files, the rows still to come going there too, and
     * gives back their memory; false (nothing written) when they cannot be written.
     *
     * @param cause the failure of the reservation that did not fit, or null when this build side
     *     only passed its share
     */
    private boolean spill(@Nullable RuntimeException cause) {
      if (!spillable) {
        return false;
      }
      if (depth >= MAX_DEPTH) {
        return false;
      }
      SpillFiles.Partitions written =
          new SpillFiles.Partitions(folder, depth == 0 ? FANOUT : SUB_FANOUT, depth + 1);
      try {
        for (Map.Entry<Object, Object> entry : table.entrySet()) {
          Object key = entry.getKey();
          Object value = entry.getValue();
          if (!keepRows) {
            written.add(key, bare(key));
            continue;
          }
          int n = HashJoins.size(value);
          for (int i = 0; i < n; i++) {
            step();
            Object row = buildRow(value, i);
            written.add(key, marking ? ((Marked) row).row : row);
          }
        }
        for (Marked row : unkeyed) {
          written.add(null, row.row);
        }
      } catch (SpillFiles.NotSpillable e) {
        written.deleteAll();
        spillable = false;
        return false;
      } catch (RuntimeException | Error e) {
        written.deleteAll();
        throw e;
      }
      parts = written;
      table = new HashMap<>();
      unkeyed.clear();
      memory.release(reserved);
      reserved = 0;
      pending = 0;
      return true;
    }

    /** The failure of a join that must spill a row it cannot write. */
    RuntimeException unspillable(SpillFiles.NotSpillable e) {
      return FloeError.OUT_OF_MEMORY.error(
          "the hash join "
              + spec
              + " needs more than the statement's memory budget of "
              + memory.limitText()
              + " and cannot spill to disk: "
              + e.getMessage()
              + " (connection property memoryBudget; docs/limits.md, \"Known limits\")");
    }

    /** A key as written to disk: a key compared by a comparer without its comparer. */
    private static Object bare(Object key) {
      return key instanceof Compared<?> compared ? compared.key() : key;
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
      unkeyed.clear();
      SpillFiles.Partitions spilled = parts;
      if (spilled != null) {
        spilled.deleteAll();
      }
      if (depth == 0) {
        folder.delete();
      }
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

  /** How many build rows a key's entry holds: one row, or a {@link Chain} of them. */
  private static int size(Object matches) {
    return matches instanceof Chain chain ? chain.size() : 1;
  }

  /** The {@code i}th build row of a key's entry. */
  @SuppressWarnings("unchecked")
  private static <R> R buildRow(Object matches, int i) {
    return (R) (matches instanceof Chain chain ? chain.get(i) : matches);
  }

  /**
   * Opens the rows a join probes its built table with; when they cannot be opened, the build side
   * (its memory, and its spill files if any) is given up before the failure goes on.
   */
  private static <X> Enumerator<X> openProbe(Build<?, ?, ?> build, Enumerable<X> rows) {
    try {
      return rows.enumerator();
    } catch (RuntimeException | Error e) {
      build.close();
      throw e;
    }
  }

  /**
   * The probe side of one execution: reads the rows probing the built table (of type {@code L}: the
   * left input, or the right one of a join built on its left), checking for a cancel as it goes,
   * and gives up the build side when closed.
   */
  private abstract static class ProbeSide<L, R, K, T> implements Enumerator<T> {
    final Build<L, R, K> build;
    private final Enumerator<L> lefts;

    ProbeSide(Build<L, R, K> build, Enumerable<L> left) {
      this.build = build;
      this.lefts = openProbe(build, left);
    }

    /** The next probing row, or false at the end. */
    final boolean nextLeft() {
      step();
      return lefts.moveNext();
    }

    /**
     * Counts a step, a left row or a build row tried against it, checking the statement's
     * cancellation every few: a key shared by many build rows whose residual condition fails for
     * them all is a long walk with no row returned.
     */
    final void step() {
      build.step();
    }

    final L left() {
      return lefts.current();
    }

    /** The build rows matching a left row's key, or null. */
    final @Nullable Object matchesOf(L row) {
      Object key = build.probeKey(row);
      return key == null ? null : build.matches(key);
    }

    @Override
    public final void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public final void close() {
      try {
        lefts.close();
      } finally {
        build.close();
      }
    }
  }

  /** The rows of an inner or left join: each left row with each matching right row. */
  private static final class Probe<L, R, K, T> extends ProbeSide<L, R, K, T> {
    private final Function2<L, R, T> result;
    private final @Nullable Predicate2<L, R> predicate;
    private final boolean nullsOnRight;
    private @Nullable L left;
    private @Nullable Object matches;
    private int next;
    private boolean matched;
    private @Nullable T current;

    Probe(
        Build<L, R, K> build,
        Enumerable<L> left,
        Function2<L, R, T> result,
        @Nullable Predicate2<L, R> predicate,
        boolean nullsOnRight) {
      super(build, left);
      this.result = result;
      this.predicate = predicate;
      this.nullsOnRight = nullsOnRight;
    }

    @Override
    public T current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      for (; ; ) {
        while (matches != null && next < size(matches)) {
          step();
          R right = buildRow(matches, next++);
          if (predicate == null || predicate.apply(left, right)) {
            matched = true;
            current = result.apply(left, right);
            return true;
          }
        }
        boolean unmatched = matches != null && !matched && nullsOnRight;
        matches = null;
        if (unmatched) {
          current = result.apply(left, null);
          return true;
        }
        if (!nextLeft()) {
          return false;
        }
        left = left();
        matches = matchesOf(left);
        next = 0;
        matched = false;
        if (matches == null && nullsOnRight) {
          current = result.apply(left, null);
          return true;
        }
      }
    }
  }

  /**
   * The rows of an inner or left join built on its left input: each right row with each matching
   * left row, then (for a left join) each left row no right row matched, with NULLs.
   */
  private static final class ProbeRight<L, R, K, T> extends ProbeSide<R, L, K, T> {
    private final Function2<L, R, T> result;
    private final @Nullable Predicate2<L, R> predicate;
    private final boolean nullsOnRight;
    private @Nullable R right;
    private @Nullable Object matches;
    private int next;
    private boolean probed;
    private @Nullable MarkedRows unmatched;
    private @Nullable T current;

    ProbeRight(
        Build<R, L, K> build,
        Enumerable<R> right,
        Function2<L, R, T> result,
        @Nullable Predicate2<L, R> predicate,
        boolean nullsOnRight) {
      super(build, right);
      this.result = result;
      this.predicate = predicate;
      this.nullsOnRight = nullsOnRight;
    }

    @Override
    public T current() {
      return current;
    }

    @Override
    @SuppressWarnings("unchecked")
    public boolean moveNext() {
      while (!probed) {
        if (matches != null) {
          build.step();
          Object row;
          if (matches instanceof Chain c) {
            row = next < c.size() ? c.get(next++) : null;
          } else {
            row = next == 0 ? matches : null;
            next = 1;
          }
          if (row == null) {
            matches = null;
            continue;
          }
          Marked marked = row instanceof Marked m && build.marking ? m : null;
          L left = (L) (marked != null ? marked.row : row);
          if (predicate == null || predicate.apply(left, right)) {
            if (marked != null) {
              marked.matched = true;
            }
            current = result.apply(left, right);
            return true;
          }
          continue;
        }
        if (!nextLeft()) {
          probed = true;
          break;
        }
        right = left();
        matches = matchesOf(right);
        next = 0;
      }
      if (!nullsOnRight) {
        return false;
      }
      if (unmatched == null) {
        List<Object> all = new ArrayList<>(build.unkeyed);
        all.addAll(build.table.values());
        unmatched = new MarkedRows(build, all.iterator());
      }
      Marked marked = unmatched.next(false);
      if (marked == null) {
        return false;
      }
      current = result.apply((L) marked.row, null);
      return true;
    }
  }

  /**
   * The rows a build side on a join's left input kept, each marked when a right row matched it,
   * walked after the probe: the entries in turn, each of a key's chain of rows in turn.
   */
  private static final class MarkedRows {
    private final Build<?, ?, ?> build;
    private final java.util.Iterator<Object> entries;
    private @Nullable Chain chain;
    private int chainNext;

    MarkedRows(Build<?, ?, ?> build, java.util.Iterator<Object> entries) {
      this.build = build;
      this.entries = entries;
    }

    /** The next row whose mark is {@code matched}, or null after the last. */
    @Nullable Marked next(boolean matched) {
      for (; ; ) {
        Object entry;
        if (chain != null && chainNext < chain.size()) {
          entry = chain.get(chainNext++);
        } else if (entries.hasNext()) {
          Object value = entries.next();
          if (value instanceof Chain c) {
            chain = c;
            chainNext = 0;
            continue;
          }
          chain = null;
          entry = value;
        } else {
          return null;
        }
        build.step();
        Marked marked = (Marked) entry;
        if (marked.matched == matched) {
          return marked;
        }
      }
    }
  }

  /**
   * The left rows of a semi- or anti-join built on its left input: each right row marks the left
   * rows of its key it matches (the residual condition holding for the pair), then each marked left
   * row (a semi-join) or each left row left unmarked (an anti-join) is emitted once, however many
   * right rows matched it. A left row of a NULL key is never marked: an anti-join keeps it.
   */
  private static final class SemiRight<L, R, K> extends ProbeSide<R, L, K, L> {
    private final @Nullable Predicate2<L, R> predicate;
    private final boolean anti;
    private @Nullable MarkedRows kept;
    private @Nullable L current;

    SemiRight(
        Build<R, L, K> build,
        Enumerable<R> right,
        @Nullable Predicate2<L, R> predicate,
        boolean anti) {
      super(build, right);
      this.predicate = predicate;
      this.anti = anti;
    }

    @Override
    public L current() {
      return current;
    }

    @Override
    @SuppressWarnings("unchecked")
    public boolean moveNext() {
      if (kept == null) {
        probe();
        if (anti) {
          List<Object> all = new ArrayList<>(build.unkeyed);
          all.addAll(build.table.values());
          kept = new MarkedRows(build, all.iterator());
        } else {
          kept = new MarkedRows(build, build.table.values().iterator());
        }
      }
      Marked marked = kept.next(!anti);
      if (marked == null) {
        return false;
      }
      current = (L) marked.row;
      return true;
    }

    /** Reads the right rows, marking the left rows each matches. */
    @SuppressWarnings("unchecked")
    private void probe() {
      while (nextLeft()) {
        R right = left();
        Object matches = matchesOf(right);
        if (matches == null) {
          continue;
        }
        if (matches instanceof Chain c) {
          if (predicate == null && ((Marked) c.get(0)).matched) {
            continue; // without a condition, a key's rows are all marked at once
          }
          for (int i = 0; i < c.size(); i++) {
            build.step();
            mark((Marked) c.get(i), right);
          }
        } else {
          mark((Marked) matches, right);
        }
      }
    }

    @SuppressWarnings("unchecked")
    private void mark(Marked marked, R right) {
      if (!marked.matched && (predicate == null || predicate.apply((L) marked.row, right))) {
        marked.matched = true;
      }
    }
  }

  /** The left rows of a semi-join (with a match) or an anti-join (without one). */
  private static final class Filtered<L, R, K> extends ProbeSide<L, R, K, L> {
    private final @Nullable Predicate2<L, R> predicate;
    private final boolean anti;
    private @Nullable L current;

    Filtered(
        Build<L, R, K> build,
        Enumerable<L> left,
        @Nullable Predicate2<L, R> predicate,
        boolean anti) {
      super(build, left);
      this.predicate = predicate;
      this.anti = anti;
    }

    @Override
    public L current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      while (nextLeft()) {
        L row = left();
        if (found(row) != anti) {
          current = row;
          return true;
        }
      }
      return false;
    }

    private boolean found(L row) {
      Object matches = matchesOf(row);
      if (matches == null || predicate == null) {
        return matches != null;
      }
      for (int i = 0; i < size(matches); i++) {
        step();
        if (predicate.apply(row, buildRow(matches, i))) {
          return true;
        }
      }
      return false;
    }
  }
}
