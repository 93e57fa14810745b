package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.MemoryBudget;
import dev.floe.planner.session.Sizes;
import dev.floe.planner.session.SpillFiles;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.EqualityComparer;
import org.apache.calcite.linq4j.function.Function0;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Function2;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's hash aggregate (one grouping set: the {@code groupBy} its generated code calls on its
 * input) within the statement's memory budget. Each new group reserves its estimated size (its key
 * and accumulator) until the aggregate's share (half of what the budget had free when it started,
 * as a sort and a hash join's build side take) or the budget refuses one; from then on rows whose
 * key already has a group are still added to it, and rows with a new key are written to {@value
 * #FANOUT} files of a {@code floe-agg-*} folder under {@code java.io.tmpdir} by a hash of their
 * key, in {@link SpillFiles}'s encoding (the rows, never the accumulators, which are generated
 * objects). At the end of the input the groups in memory are returned and their memory given back,
 * then each file is aggregated the same way in turn, its new keys split again by another hash when
 * they still do not fit, at most {@value #LEVELS} levels deep. Every key's rows are aggregated in
 * one pass, so the groups are those of an aggregate in memory; their order is not (Calcite promises
 * none). The folder is deleted when the groups are read to the end, closed, failed or cancelled.
 */
final class AggregateSpill<T, K, A, R> extends AbstractEnumerable<R> {
  /** The files a pass writes its new keys' rows to. */
  static final int FANOUT = 64;

  /** The most times a row is written: each level splits a file's new keys by another hash. */
  static final int LEVELS = 6;

  private static final int CHECK_EVERY = 256;

  private static final Map<Class<?>, Field[]> FIELDS = new ConcurrentHashMap<>();

  private final Enumerable<T> input;
  private final Function1<T, K> keySelector;
  private final Function0<A> initializer;
  private final Function2<A, T, A> adder;
  private final Function2<K, A, R> resultSelector;
  private final @Nullable EqualityComparer<K> comparer;
  private final Cancellation statement;
  private final @Nullable AtomicBoolean flag;

  AggregateSpill(
      Enumerable<T> input,
      Function1<T, K> keySelector,
      Function0<A> initializer,
      Function2<A, T, A> adder,
      Function2<K, A, R> resultSelector,
      @Nullable EqualityComparer<K> comparer,
      Cancellation statement,
      @Nullable AtomicBoolean flag) {
    this.input = input;
    this.keySelector = keySelector;
    this.initializer = initializer;
    this.adder = adder;
    this.resultSelector = resultSelector;
    this.comparer = comparer;
    this.statement = statement;
    this.flag = flag;
  }

  @Override
  public Enumerator<R> enumerator() {
    return new Grouping();
  }

  /** A key compared as the aggregate's comparer says (an array key). */
  private static final class Wrapped<K> {
    final K key;
    final EqualityComparer<K> comparer;

    Wrapped(K key, EqualityComparer<K> comparer) {
      this.key = key;
      this.comparer = comparer;
    }

    @Override
    @SuppressWarnings("unchecked")
    public boolean equals(Object o) {
      return o instanceof Wrapped<?> w && comparer.equal(key, (K) w.key);
    }

    @Override
    public int hashCode() {
      return key == null ? 0 : comparer.hashCode(key);
    }
  }

  private Object wrap(K key) {
    return comparer == null ? key : new Wrapped<>(key, comparer);
  }

  @SuppressWarnings("unchecked")
  private K unwrap(Object key) {
    return comparer == null ? (K) key : ((Wrapped<K>) key).key;
  }

  /** A file of rows whose keys had no group in memory, still to aggregate. */
  private record Pending(SpillFiles.Partitions file, int index, int level) {}

  /** One execution of the aggregate: reads its input at the first group asked for. */
  private final class Grouping implements Enumerator<R> {
    private final MemoryBudget memory = statement.memory();
    private final SpillFiles.Folder folder =
        new SpillFiles.Folder("floe-agg-", memory, "the aggregate");
    private final Deque<Pending> todo = new ArrayDeque<>();
    private @Nullable Map<Object, A> groups;
    private @Nullable Iterator<Map.Entry<Object, A>> out;
    private SpillFiles.@Nullable Partitions writing;
    private @Nullable R current;
    private long share;
    private long reserved;
    private long sized;
    private long lastSize;
    private int steps;
    private boolean started;
    private boolean closed;

    @Override
    public R current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      if (closed) {
        return false;
      }
      try {
        while (true) {
          if (out != null) {
            if (out.hasNext()) {
              Map.Entry<Object, A> group = out.next();
              tick();
              current = resultSelector.apply(unwrap(group.getKey()), group.getValue());
              return true;
            }
            out = null;
            groups = null;
            memory.release(reserved);
            reserved = 0;
          }
          if (!started) {
            started = true;
            check();
            share = memory.share();
            pass(input.enumerator(), 0);
            continue;
          }
          Pending next = todo.pollFirst();
          if (next == null) {
            break;
          }
          try {
            pass(next.file.<T>rows(next.index).enumerator(), next.level);
          } finally {
            next.file.delete(next.index);
          }
        }
      } catch (SpillFiles.NotSpillable e) {
        close();
        throw FloeError.OUT_OF_MEMORY.error(
            "the aggregate needs more than the statement's memory budget of "
                + memory.limitText()
                + " and cannot spill to disk: "
                + e.getMessage()
                + " (connection property memoryBudget; docs/limits.md, \"Known limits\")");
      } catch (RuntimeException | Error e) {
        close();
        throw e;
      }
      close();
      return false;
    }

    /**
     * Aggregates one input's rows: those whose key has a group in memory, or gets one within the
     * share, into the groups to return next; the others into files for later passes.
     */
    private void pass(Enumerator<T> rows, int level) {
      Map<Object, A> map = new HashMap<>();
      groups = map;
      SpillFiles.Partitions spill = null;
      try (rows) {
        while (rows.moveNext()) {
          tick();
          T row = rows.current();
          K key = keySelector.apply(row);
          Object wrapped = wrap(key);
          A acc = map.get(wrapped);
          if (acc != null || map.containsKey(wrapped)) {
            A added = adder.apply(acc, row);
            if (added != acc) {
              map.put(wrapped, added);
            }
            continue;
          }
          if (spill == null) {
            A first = adder.apply(initializer.apply(), row);
            if (hold(key, first)) {
              map.put(wrapped, first);
              continue;
            }
            if (map.isEmpty()) {
              throw FloeError.OUT_OF_MEMORY.error(
                  "the aggregate needs more than the statement's memory budget of "
                      + memory.limitText()
                      + " for one group"
                      + " (connection property memoryBudget; docs/limits.md, \"Known limits\")");
            }
            if (level >= LEVELS) {
              throw FloeError.OUT_OF_MEMORY.error(
                  "the aggregate needs more than the statement's memory budget of "
                      + memory.limitText()
                      + ": its groups still do not fit after splitting its rows "
                      + LEVELS
                      + " times (connection property memoryBudget;"
                      + " docs/limits.md, \"Known limits\")");
            }
            spill = new SpillFiles.Partitions(folder, FANOUT, level + 1);
            writing = spill;
          }
          spill.add(hash(key), row);
        }
      }
      if (spill != null) {
        spill.finish();
        writing = null;
        memory.spilled();
        for (int i = FANOUT - 1; i >= 0; i--) {
          if (spill.count(i) > 0) {
            todo.addFirst(new Pending(spill, i, level + 1));
          } else {
            spill.delete(i);
          }
        }
      }
      out = map.entrySet().iterator();
    }

    /** Reserves a new group's memory: false when past the share or refused by the budget. */
    private boolean hold(K key, A acc) {
      long bytes = size(key, acc);
      if (reserved + bytes > share || memory.reserved() + bytes > memory.limit()) {
        return false;
      }
      try {
        memory.reserve(bytes, "the aggregate");
      } catch (RuntimeException e) {
        return false;
      }
      reserved += bytes;
      return true;
    }

    /**
     * The estimated size of a group: its key, its accumulator's fields and its hash table entry,
     * measured for the first groups and then for every 16th, the last measure standing for the
     * groups between.
     */
    private long size(K key, A acc) {
      if (sized < 1024 || (sized & 15) == 0) {
        lastSize = Sizes.of(key) + accumulatorSize(acc) + 64;
      }
      sized++;
      return lastSize;
    }

    /** The hash the files are split by: one equal keys share. */
    private Integer hash(K key) {
      if (key == null) {
        return 0;
      }
      return comparer == null ? key.hashCode() : comparer.hashCode(key);
    }

    private void tick() {
      if (++steps == CHECK_EVERY) {
        steps = 0;
        check();
      }
    }

    private void check() {
      WatchPoint.check(statement, flag);
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
        if (writing != null) {
          writing.deleteAll();
          writing = null;
        }
        todo.clear();
      } finally {
        groups = null;
        out = null;
        folder.delete();
        memory.release(reserved);
        reserved = 0;
      }
    }
  }

  /**
   * The estimated size of an accumulator: Calcite's are generated objects whose public fields hold
   * the running values (a count, a sum, the least string so far), each counted as {@link Sizes}
   * counts a row's value.
   */
  static long accumulatorSize(@Nullable Object acc) {
    if (acc == null) {
      return 0;
    }
    Field[] fields = FIELDS.computeIfAbsent(acc.getClass(), AggregateSpill::instanceFields);
    long size = 16;
    for (Field field : fields) {
      size += 8;
      if (!field.getType().isPrimitive()) {
        try {
          size += Sizes.of(field.get(acc));
        } catch (IllegalAccessException | RuntimeException e) {
          size += 32;
        }
      }
    }
    return size;
  }

  private static Field[] instanceFields(Class<?> type) {
    return java.util.Arrays.stream(type.getFields())
        .filter(f -> !Modifier.isStatic(f.getModifiers()))
        .toArray(Field[]::new);
  }
}
