package dev.floe.planner.scan;

import dev.floe.planner.session.PinnedTable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.iceberg.FileScanTask;

/**
 * The runtime of a scan keeping its first rows in an order ({@link LakeScanSpec#topN()}). The
 * scan's pieces are read as every scan reads them (on the scan workers, piece {@code i} on worker
 * {@code i mod n}, or on the statement's thread for a small scan); each worker keeps, in a heap,
 * the best {@link LakeTopN#rows()} rows of the pieces it reads, ordered by the keys and then by
 * their place in scan order (piece, then row). A row is compared with the heap's worst on the
 * decoded column vectors and becomes an array only when it is better, so most rows of a large table
 * are dropped by one comparison of primitive values. The workers' rows are merged on the
 * statement's thread: the best rows of all, in that order, are the rows the top-N above would keep
 * from the whole scan (its sort is stable), and they are emitted in scan order.
 *
 * <p>Each worker's heap holds at most {@link LakeTopN#rows()} rows (at most {@link
 * LakeTopN#MAX_ROWS}), unaccounted, as Calcite's top-N above holds its rows; with {@code n} scan
 * workers a scan may so hold {@code n} times the rows the top-N does.
 */
final class ScanTopN {
  private static final int QUEUED_PIECES = 2;

  /** Bits of a row's place that count its rows within a piece. */
  private static final int ROW_BITS = 40;

  private ScanTopN() {}

  /** The scan's kept rows, read before this returns. */
  static Enumerator<Object[]> enumerator(DataContext root, LakeScanSpec spec) {
    LakeScan.Target target = LakeScan.target(spec);
    if (target.snapshotId() == null) {
      return Linq4j.enumerator(List.of());
    }
    PinnedTable pinned = target.pinned();
    List<FileScanTask> tasks = LakeScan.tasks(target, spec.filter(), false);
    TaskReader reader = LakeScan.reader(target, spec);
    ScanStats stats = ScanStats.start(pinned.name(), target.snapshotId());
    reader.recordInto(stats);
    LakeScan.CancelCheck cancel = new LakeScan.CancelCheck(root);
    long start = System.nanoTime();
    List<Object[]> rows;
    try {
      int workers = LakeScan.workers(spec, tasks);
      Heap[] heaps =
          workers <= 1
              ? serial(spec, tasks, reader, cancel)
              : parallel(spec, tasks, reader, workers, cancel);
      rows = merge(spec.topN(), heaps);
    } finally {
      if (stats != null) {
        stats.time(System.nanoTime() - start);
      }
    }
    if (stats != null) {
      stats.rowsReturned(rows.size());
    }
    return Linq4j.enumerator(rows);
  }

  private static Heap[] serial(
      LakeScanSpec spec, List<FileScanTask> tasks, TaskReader reader, LakeScan.CancelCheck cancel) {
    Heap heap = new Heap(spec.topN(), spec.columns().size());
    for (int t = 0; t < tasks.size(); t++) {
      cancel.check();
      heap.piece(t);
      try {
        reader.read(tasks.get(t), heap, cancel::check);
      } catch (java.io.IOException | RuntimeException e) {
        throw LakeScan.Failures.translate(e, tasks.get(t), reader.io());
      }
    }
    return new Heap[] {heap};
  }

  /** A piece read by a worker, or why it could not be read. */
  private record Piece(RuntimeException failure) {
    static final Piece READ = new Piece(null);
  }

  private static Heap[] parallel(
      LakeScanSpec spec,
      List<FileScanTask> tasks,
      TaskReader reader,
      int workers,
      LakeScan.CancelCheck cancel) {
    int count = ScanWorkers.count(tasks.size(), workers);
    Heap[] heaps = new Heap[count];
    for (int w = 0; w < count; w++) {
      heaps[w] = new Heap(spec.topN(), spec.columns().size());
    }
    try (ScanWorkers<Piece> read =
        new ScanWorkers<>(
            tasks.size(),
            workers,
            QUEUED_PIECES,
            spec.session().scanExecutor(),
            (t, out) -> {
              Heap heap = heaps[t % count];
              heap.piece(t);
              Piece piece;
              try {
                reader.read(tasks.get(t), heap, out::check);
                piece = Piece.READ;
              } catch (ScanWorkers.Stopped e) {
                return false;
              } catch (Throwable e) {
                piece = new Piece(LakeScan.Failures.translate(e, tasks.get(t), reader.io()));
              }
              return out.put(piece) && piece.failure() == null;
            })) {
      // Every piece taken: each worker has read its last piece into its heap.
      for (int t = 0; t < tasks.size(); t++) {
        Piece piece = read.take(t, cancel);
        if (piece.failure() != null) {
          throw piece.failure();
        }
      }
    }
    return heaps;
  }

  /** The best rows of all the heaps, in scan order. */
  private static List<Object[]> merge(LakeTopN topN, Heap[] heaps) {
    Heap all = heaps[0];
    for (int h = 1; h < heaps.length; h++) {
      Heap other = heaps[h];
      for (int i = 0; i < other.size; i++) {
        all.offer(other.rows[i], other.places[i]);
      }
    }
    Integer[] order = new Integer[all.size];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(all.places[a], all.places[b]));
    List<Object[]> rows = new ArrayList<>(order.length);
    for (int i : order) {
      rows.add(all.rows[i]);
    }
    return rows;
  }

  /**
   * The best rows seen so far, at most {@link LakeTopN#rows()}, in a binary heap whose root is the
   * worst of them (by the keys, then by place in scan order, later being worse). Rows arrive in
   * increasing place, so a row that ties the worst on every key is not better than it.
   */
  static final class Heap implements TaskReader.RowSink {
    private final int limit;
    private final int width;
    private final int[] columns;
    private final boolean[] descending;
    private final boolean[] nullsFirst;
    Object[][] rows;
    long[] places;
    int size;
    private long next;

    /** The worst row's first key, as the primitive its column's vectors hold. */
    private Object worstKey;

    private long worstLong;
    private double worstDouble;
    private boolean worstLongExact;

    /** The scale of a DECIMAL worst key held unscaled in {@link #worstLong}, or -1. */
    private int worstScale;

    Heap(LakeTopN topN, int width) {
      this.limit = (int) topN.rows();
      this.width = width;
      int keys = topN.keys().size();
      this.columns = new int[keys];
      this.descending = new boolean[keys];
      this.nullsFirst = new boolean[keys];
      for (int k = 0; k < keys; k++) {
        LakeTopN.Key key = topN.keys().get(k);
        columns[k] = key.column();
        descending[k] = key.descending();
        nullsFirst[k] = key.nullsFirst();
      }
      // grown as rows come: a scan of few rows under a large LIMIT holds few
      int first = Math.min(limit, 256);
      this.rows = new Object[first][];
      this.places = new long[first];
    }

    /** The rows that follow are piece {@code piece}'s, from its first. */
    void piece(int piece) {
      next = (long) piece << ROW_BITS;
    }

    @Override
    public void batch(ColumnVector[] vectors, int[] live, int count) {
      ColumnVector first = vectors[columns[0]];
      for (int i = 0; i < count; i++) {
        int r = live == null ? i : live[i];
        long place = next++;
        if (size == limit && compareWithWorst(vectors, first, r) >= 0) {
          continue;
        }
        Object[] row = new Object[width];
        for (int c = 0; c < width; c++) {
          row[c] = vectors[c].get(r);
        }
        add(row, place);
      }
    }

    @Override
    public void row(Object[] row) {
      long place = next++;
      if (size == limit && compareRows(row, rows[0]) >= 0) {
        return;
      }
      add(row, place);
    }

    /** Keeps a row of another heap if it is among the best (places may come in any order). */
    void offer(Object[] row, long place) {
      if (size == limit && compare(row, place, rows[0], places[0]) >= 0) {
        return;
      }
      add(row, place);
    }

    private void add(Object[] row, long place) {
      if (size < limit) {
        if (size == rows.length) {
          int capacity = (int) Math.min(limit, 2L * size);
          rows = java.util.Arrays.copyOf(rows, capacity);
          places = java.util.Arrays.copyOf(places, capacity);
        }
        int at = size++;
        rows[at] = row;
        places[at] = place;
        up(at);
      } else {
        rows[0] = row;
        places[0] = place;
        down(0);
      }
      if (size == limit) {
        worst();
      }
    }

    /** Caches the worst row's first key for the comparisons on vectors. */
    private void worst() {
      Object key = rows[0][columns[0]];
      worstKey = key;
      worstLongExact = false;
      worstScale = -1;
      if (key instanceof Integer || key instanceof Long) {
        worstLong = ((Number) key).longValue();
        worstLongExact = true;
      } else if (key instanceof Boolean b) {
        worstLong = b ? 1 : 0;
        worstLongExact = true;
      } else if (key instanceof Double || key instanceof Float) {
        worstDouble = ((Number) key).doubleValue();
      } else if (key instanceof BigDecimal d && d.precision() <= ColumnVector.MAX_LONG_PRECISION) {
        worstLong = d.unscaledValue().longValue();
        worstScale = d.scale();
      }
    }

    /** The order of row {@code r} of the vectors against the worst row, by the keys alone. */
    private int compareWithWorst(ColumnVector[] vectors, ColumnVector first, int r) {
      int order = compareFirst(first, r);
      if (order != 0) {
        return order;
      }
      Object[] worst = rows[0];
      for (int k = 1; k < columns.length; k++) {
        order = compareKey(k, vectors[columns[k]].get(r), worst[columns[k]]);
        if (order != 0) {
          return order;
        }
      }
      return 0;
    }

    private int compareFirst(ColumnVector v, int r) {
      boolean isNull = v.isNull(r);
      if (isNull || worstKey == null) {
        return compareKey(0, isNull ? null : v.get(r), worstKey);
      }
      int order;
      switch (v.kind) {
        case INT:
          order = worstLongExact ? Long.compare(v.ints[r], worstLong) : compareKey(v.get(r));
          break;
        case LONG:
          order = worstLongExact ? Long.compare(v.longs[r], worstLong) : compareKey(v.get(r));
          break;
        case BOOLEAN:
          order =
              worstLongExact
                  ? Long.compare(v.booleans[r] ? 1 : 0, worstLong)
                  : compareKey(v.get(r));
          break;
        case FLOAT:
          order = Double.compare(v.floats[r], worstDouble);
          break;
        case DOUBLE:
          order = Double.compare(v.doubles[r], worstDouble);
          break;
        case DECIMAL:
          order =
              worstScale == v.scale ? Long.compare(v.longs[r], worstLong) : compareKey(v.get(r));
          break;
        default:
          order = compareKey(v.objects[r]);
          break;
      }
      return descending[0] ? -order : order;
    }

    /** The first key's value against the worst's, ascending, neither NULL. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private int compareKey(Object value) {
      return ((Comparable) value).compareTo(worstKey);
    }

    /** The order of two rows (neither being better when they tie on every key). */
    private int compareRows(Object[] a, Object[] b) {
      for (int k = 0; k < columns.length; k++) {
        int order = compareKey(k, a[columns[k]], b[columns[k]]);
        if (order != 0) {
          return order;
        }
      }
      return 0;
    }

    private int compare(Object[] a, long placeA, Object[] b, long placeB) {
      int order = compareRows(a, b);
      return order != 0 ? order : Long.compare(placeA, placeB);
    }

    /** The final order of two values of key {@code k}: NULL placed as the key says. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private int compareKey(int k, Object a, Object b) {
      if (a == null || b == null) {
        if (a == b) {
          return 0;
        }
        int nullOrder = nullsFirst[k] ? -1 : 1;
        return a == null ? nullOrder : -nullOrder;
      }
      int order = ((Comparable) a).compareTo(b);
      return descending[k] ? -order : order;
    }

    private void up(int at) {
      while (at > 0) {
        int parent = (at - 1) >>> 1;
        if (compare(rows[at], places[at], rows[parent], places[parent]) <= 0) {
          return;
        }
        swap(at, parent);
        at = parent;
      }
    }

    private void down(int at) {
      while (true) {
        int left = 2 * at + 1;
        if (left >= size) {
          return;
        }
        int larger = left;
        int right = left + 1;
        if (right < size && compare(rows[right], places[right], rows[left], places[left]) > 0) {
          larger = right;
        }
        if (compare(rows[larger], places[larger], rows[at], places[at]) <= 0) {
          return;
        }
        swap(at, larger);
        at = larger;
      }
    }

    private void swap(int a, int b) {
      Object[] row = rows[a];
      rows[a] = rows[b];
      rows[b] = row;
      long place = places[a];
      places[a] = places[b];
      places[b] = place;
    }
  }
}
