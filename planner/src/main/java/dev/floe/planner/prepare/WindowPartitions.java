package dev.floe.planner.prepare;

import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.MemoryBudget;
import dev.floe.planner.session.Sizes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.runtime.SortedMultiMap;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The partitions of a window operator, in place of the {@link SortedMultiMap} Calcite's window code
 * creates ({@link WatchPoint.Kind#WINDOW} puts it there), with the same contract: rows added by
 * partition key, then each partition's rows as an array sorted by the window's order.
 *
 * <ul>
 *   <li>A row is added to arrays in the order it comes, with its key's hash: no lookup. Calcite's
 *       map looks each row's key up twice in a hash map of partitions (and copies a partition's
 *       list when it gets its second row), which for keys in no order costs a cache miss or more a
 *       row: half of a running total's time over 1,500,000 rows. The partitions are formed when
 *       they are asked for, by sorting the rows' (hash, position) pairs as primitive longs, so the
 *       rows of a partition keep the order they came in, as in Calcite's lists, before they are
 *       sorted by the window's order (a stable sort). Keys are told apart as a hash map tells them
 *       apart: by hash, then {@code equals}.
 *   <li>The rows it holds are reserved in the statement's {@link MemoryBudget} (one row in {@value
 *       #SAMPLE_EVERY} measured for its neighbours, the rows of a window having one shape), every
 *       {@value #CHECK_EVERY} rows: a window over more rows than the budget holds fails with 53200
 *       and leaves the connection usable, instead of running the heap out. A window cannot spill:
 *       it needs a whole partition at once.
 *   <li>Adding rows and sorting each partition check the statement's cancellation and query timeout
 *       (every {@value #CHECK_EVERY} rows, and before each partition).
 * </ul>
 *
 * What it holds stays reserved until the statement ends: the window's output list holds the same
 * rows until the rows are read.
 */
public final class WindowPartitions extends SortedMultiMap<Object, Object> {
  private static final long serialVersionUID = 1L;

  private static final int CHECK_EVERY = 256;

  private static final int SAMPLE_EVERY = 16;

  /** The bytes of a row's references, hash and sort pair in the arrays, besides the row. */
  private static final long ROW_BYTES = 4 + 4 + 4 + 8;

  private final transient Cancellation statement;
  private final transient @Nullable AtomicBoolean flag;
  private final transient MemoryBudget memory;
  private transient Object[] keys = new Object[64];
  private transient Object[] rows = new Object[64];
  private transient int[] hashes = new int[64];
  private int size;
  private long pending;
  private int count;

  /** Called by generated code, on the statement's thread. */
  public WindowPartitions(@Nullable DataContext root) {
    this.statement = Cancellation.current();
    this.flag = root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
    this.memory = statement.memory();
  }

  @Override
  public void putMulti(Object key, Object value) {
    if (size == rows.length) {
      int capacity = Math.max(64, size + (size >> 1));
      keys = Arrays.copyOf(keys, capacity);
      rows = Arrays.copyOf(rows, capacity);
      hashes = Arrays.copyOf(hashes, capacity);
    }
    keys[size] = key;
    rows[size] = value;
    hashes[size] = key == null ? 0 : key.hashCode();
    size++;
    if ((size & (SAMPLE_EVERY - 1)) == 1) {
      // a window's rows are of one shape: one in SAMPLE_EVERY is measured for all of them
      pending += (Sizes.of(value) + ROW_BYTES) * SAMPLE_EVERY;
    }
    if (++count == CHECK_EVERY) {
      count = 0;
      flush();
    }
  }

  private void flush() {
    WatchPoint.check(statement, flag);
    if (pending > 0) {
      long bytes = pending;
      pending = 0;
      memory.reserve(bytes, "the window holding its partitions");
    }
  }

  @Override
  public Iterator<Object[]> arrays(Comparator<Object> comparator) {
    flush();
    long[] order = new long[size];
    for (int i = 0; i < size; i++) {
      order[i] = ((long) hashes[i] << 32) | i;
    }
    Arrays.sort(order);
    return new Iterator<>() {
      private int next;
      private final ArrayDeque<Object[]> collided = new ArrayDeque<>();

      @Override
      public boolean hasNext() {
        return !collided.isEmpty() || next < order.length;
      }

      @Override
      public Object[] next() {
        WatchPoint.check(statement, flag);
        Object[] partition = collided.poll();
        if (partition == null) {
          partition = run();
        }
        Arrays.sort(partition, comparator);
        return partition;
      }

      /** The rows of the next hash; when their keys differ, the first key's, the others queued. */
      private Object[] run() {
        if (next >= order.length) {
          throw new NoSuchElementException();
        }
        int start = next;
        int hash = (int) (order[start] >> 32);
        Object first = keys[(int) order[start]];
        boolean oneKey = true;
        int end = start + 1;
        while (end < order.length && (int) (order[end] >> 32) == hash) {
          oneKey &= Objects.equals(first, keys[(int) order[end]]);
          end++;
        }
        next = end;
        if (oneKey) {
          Object[] partition = new Object[end - start];
          for (int i = start; i < end; i++) {
            partition[i - start] = rows[(int) order[i]];
          }
          return partition;
        }
        // keys of one hash: split by equals, each in the order its rows came
        Map<Object, List<Object>> byKey = new LinkedHashMap<>();
        for (int i = start; i < end; i++) {
          int row = (int) order[i];
          byKey.computeIfAbsent(new Key(keys[row]), k -> new ArrayList<>()).add(rows[row]);
        }
        for (List<Object> partition : byKey.values()) {
          collided.add(partition.toArray());
        }
        return collided.poll();
      }
    };
  }

  @Override
  public void clear() {
    super.clear();
    // the window's code clears the partitions after each group of windows and reuses them
    keys = new Object[64];
    rows = new Object[64];
    hashes = new int[64];
    size = 0;
  }

  /** A key as a hash map compares it, NULL included. */
  private record Key(@Nullable Object value) {}

  /**
   * Called by generated code in place of {@link SortedMultiMap#singletonArrayIterator}, for a
   * window without {@code PARTITION BY}: its one partition, the input's rows, reserved in the
   * statement's budget and sorted.
   */
  public static Iterator<Object[]> whole(
      @Nullable DataContext root, Comparator<Object> comparator, List<Object> rows) {
    WindowPartitions partitions = new WindowPartitions(root);
    for (Object row : rows) {
      partitions.putMulti(Boolean.TRUE, row);
    }
    return partitions.arrays(comparator);
  }
}
