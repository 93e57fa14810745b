package dev.floe.planner.scan;

import dev.floe.planner.session.PinnedTable;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.iceberg.FileScanTask;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rows of a statement that is a single scan, read by the JDBC result set a column batch at a
 * time: the scan's workers hand over the column vectors they decode (with the rows that deletes and
 * the residual filter leave), and the result set's getters read them in place, so no row becomes an
 * array and Calcite's cursor is not involved. The order is the scan's: task {@code i} is read by
 * worker {@code i mod n}, and chunks are handed over in task order; each worker holds at most a few
 * batches, so memory stays bounded.
 *
 * <p>The JDBC layer says before executing that it will read the result so ({@link #expect}); the
 * scan is created on the statement's thread while it executes and taken from there ({@link
 * #claim}). Without that, the scan's rows go through Calcite as every other plan's do. Read by one
 * thread at a time.
 */
public final class ColumnarScan implements Enumerator<Object> {
  /** Chunks waiting per worker: with 4096-row batches, memory stays bounded per worker. */
  private static final int QUEUED_CHUNKS = 2;

  /** Rows of a file read row by row, transposed into one chunk. */
  private static final int ROWS_PER_CHUNK = 4096;

  /** Set while a statement that will claim its scan executes on this thread. */
  private static final ThreadLocal<Boolean> EXPECTED = new ThreadLocal<>();

  private static final ThreadLocal<ColumnarScan> OFFERED = new ThreadLocal<>();

  private final LakeScanSpec spec;
  private final LakeScan.CancelCheck cancel;
  private List<FileScanTask> tasks;
  private ScanWorkers<Chunk> workers;
  private int task;
  private long emitted;
  private Chunk chunk;
  private int count;
  private boolean closed;
  private boolean primed;

  private ColumnarScan(DataContext root, LakeScanSpec spec) {
    this.spec = spec;
    this.cancel = new LakeScan.CancelCheck(root);
  }

  /**
   * The rows of a scan that is a whole query: a scan to {@link #claim} when the statement executing
   * on this thread said it would ({@link #expect}), else the scan's rows as {@link
   * LakeScan#enumerable} reads them.
   */
  static Enumerator<Object> open(DataContext root, LakeScanSpec spec, boolean scalar) {
    if (EXPECTED.get() != null) {
      EXPECTED.remove(); // one scan per statement
      ColumnarScan scan = new ColumnarScan(root, spec);
      OFFERED.set(scan);
      return scan;
    }
    Enumerator<Object[]> rows = LakeScan.rows(root, spec);
    if (scalar) {
      return org.apache.calcite.linq4j.Linq4j.transform(rows, row -> row[0]);
    }
    @SuppressWarnings("unchecked")
    Enumerator<Object> arrays = (Enumerator<Object>) (Enumerator<?>) rows;
    return arrays;
  }

  /**
   * Says that the statement about to execute on this thread reads the result of a plain scan in
   * column batches: it will {@link #claim} the scan, and never read it through Calcite's cursor.
   */
  public static void expect() {
    OFFERED.remove();
    EXPECTED.set(Boolean.TRUE);
  }

  /**
   * The scan the statement just executed on this thread offered after {@link #expect}, or null when
   * its plan is not a plain scan; the offer is withdrawn. The scan pins its snapshot, plans its
   * files and starts its workers now, as a scan read through Calcite does when it executes.
   */
  public static @Nullable ColumnarScan claim() {
    ColumnarScan scan = OFFERED.get();
    forget();
    if (scan != null) {
      try {
        scan.start();
      } catch (RuntimeException e) {
        scan.close();
        throw e;
      }
    }
    return scan;
  }

  /** Withdraws whatever was expected or offered on this thread. */
  public static void forget() {
    OFFERED.remove();
    EXPECTED.remove();
  }

  // ---- the enumerator Calcite's cursor opens -------------------------------------------------

  /**
   * Calcite's cursor asks once, when it opens (through {@code take} for a row limit, which also
   * looks at {@link #current}); the rows are the result set's to read, in chunks.
   */
  @Override
  public boolean moveNext() {
    if (primed) {
      return false;
    }
    primed = true;
    return true;
  }

  /** Nothing: the rows are read in chunks. */
  @Override
  public Object current() {
    return null;
  }

  @Override
  public void reset() {
    throw new UnsupportedOperationException();
  }

  // ---- chunk mode, for the JDBC result set ---------------------------------------------------

  /**
   * Moves to the next chunk of rows, waiting for the worker reading it; false once the scan (or its
   * row limit) is done. Throws the failure of reading a file, or a cancellation.
   */
  public boolean nextChunk() {
    if (closed) {
      return false;
    }
    chunk = null;
    count = 0;
    long limit = spec.limit();
    if (limit >= 0 && emitted >= limit) {
      return false;
    }
    while (task < tasks.size()) {
      cancel.check();
      Chunk next = workers.take(task, cancel);
      if (next.failure != null) {
        close();
        throw next.failure;
      }
      if (next == Chunk.END) {
        task++;
        continue;
      }
      chunk = next;
      count = limit >= 0 ? (int) Math.min(next.count, limit - emitted) : next.count;
      emitted += count;
      return true;
    }
    return false;
  }

  /**
   * The current chunk's columns, in the scan's output order, holding values in the forms Calcite's
   * runtime holds (see {@link ValueConverter}); row {@code r} of the chunk is at index {@link
   * #row(int) row(r)} of each.
   */
  public Object[][] columns() {
    return chunk.columns;
  }

  /** How many rows the current chunk holds. */
  public int count() {
    return count;
  }

  /** The index in {@link #columns()} of the chunk's row {@code r}. */
  public int row(int r) {
    int[] selected = chunk.rows;
    return selected == null ? r : selected[r];
  }

  /** The live rows' indexes in the columns, or null when every index up to the count is live. */
  public int @Nullable [] rows() {
    return chunk.rows;
  }

  /** Throws when the statement was cancelled (SQLState 57014); cheap enough for every row. */
  public void checkCancelled() {
    cancel.checkFlag();
  }

  private void start() {
    cancel.check();
    tasks = List.of();
    LakeScan.Target target = LakeScan.target(spec);
    if (target.snapshotId() == null) {
      return;
    }
    PinnedTable pinned = target.pinned();
    List<FileScanTask> planned = LakeScan.tasks(target, spec.filter(), false);
    TaskReader reader = LakeScan.reader(target, spec);
    tasks = planned;
    if (tasks.isEmpty()) {
      return;
    }
    int width =
        spec.projection() == null ? spec.columns().size() : spec.projection().outputs().size();
    workers =
        new ScanWorkers<>(
            tasks.size(),
            spec.session().scanParallelism(),
            QUEUED_CHUNKS,
            spec.session().scanExecutor(),
            (t, out) -> readTask(reader, tasks.get(t), out, width));
  }

  /** Reads one task into chunks; false when the worker should stop. */
  private boolean readTask(
      TaskReader reader, FileScanTask task, ScanWorkers.Output<Chunk> out, int width) {
    Sink sink = new Sink(out, width);
    try {
      reader.read(task, sink, out::check);
      sink.flushRows();
      // Only once the file is closed: a reader that has taken the last row finds no file open.
      return out.put(Chunk.END);
    } catch (ScanWorkers.Stopped e) {
      return false;
    } catch (Throwable e) {
      out.put(new Chunk(null, null, 0, LakeScan.Failures.translate(e, task, reader.io())));
      return false;
    }
  }

  /** Turns what a task reader hands over into chunks on a worker's queue. */
  private final class Sink implements TaskReader.RowSink {
    private final ScanWorkers.Output<Chunk> queue;
    private final int width;
    private Object[][] pending;
    private int pendingRows;

    Sink(ScanWorkers.Output<Chunk> queue, int width) {
      this.queue = queue;
      this.width = width;
    }

    @Override
    public void batch(ColumnVector[] columns, int[] rows, int size) {
      flushRows();
      if (size == 0) {
        return;
      }
      // The decoder reuses its vectors: the chunk takes the live rows' values.
      Object[][] values = new Object[columns.length][size];
      for (int c = 0; c < columns.length; c++) {
        ColumnVector vector = columns[c];
        Object[] out = values[c];
        for (int r = 0; r < size; r++) {
          out[r] = vector.get(rows == null ? r : rows[r]);
        }
      }
      put(values, size);
    }

    /**
     * Hands on a chunk of rows; with a projection, only the rows before the first one holding a
     * value that failed to compute, then that failure, thrown when the reader reaches its row.
     */
    private void put(Object[][] values, int size) {
      RuntimeException failure = null;
      if (spec.projection() != null) {
        int first = size;
        for (int c = 0; c < values.length; c++) {
          if (!spec.projection().computed(c, spec.columns().size())) {
            continue; // a column's own values never fail
          }
          Object[] column = values[c];
          for (int r = 0; r < first; r++) {
            if (column[r] instanceof LakeProjection.Failed failed) {
              first = r;
              failure = failed.error();
            }
          }
        }
        size = first;
      }
      if (size > 0 && !queue.put(new Chunk(values, null, size))) {
        throw new ScanWorkers.Stopped();
      }
      if (failure != null) {
        queue.put(new Chunk(null, null, 0, failure));
        throw new ScanWorkers.Stopped();
      }
    }

    @Override
    public void row(Object[] row) {
      if (pending == null) {
        pending = new Object[ROWS_PER_CHUNK][];
      }
      pending[pendingRows++] = row;
      if (pendingRows == ROWS_PER_CHUNK) {
        flushRows();
      }
    }

    void flushRows() {
      if (pendingRows == 0) {
        return;
      }
      Object[][] columns = new Object[width][pendingRows];
      for (int r = 0; r < pendingRows; r++) {
        Object[] row = pending[r];
        for (int c = 0; c < width; c++) {
          columns[c][r] = row[c];
        }
      }
      int size = pendingRows;
      pending = null;
      pendingRows = 0;
      put(columns, size);
    }
  }

  /** Stops the workers and waits for them, so that no file stays open. */
  @Override
  public void close() {
    closed = true;
    if (workers != null) {
      workers.close();
    }
  }

  /** Rows of one batch in column vectors, the end of a task, or a failure. */
  private record Chunk(Object[][] columns, int[] rows, int count, RuntimeException failure) {
    static final Chunk END = new Chunk(null, null, 0, null);

    Chunk(Object[][] columns, int[] rows, int count) {
      this(columns, rows, count, null);
    }
  }
}
