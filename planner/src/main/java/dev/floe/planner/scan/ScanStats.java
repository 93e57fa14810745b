package dev.floe.planner.scan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.FileScanTask;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What one scan did while a statement ran under {@link #collect}: files opened, row groups read and
 * skipped, rows read from files and rows handed on, time spent producing rows. EXPLAIN ANALYZE
 * reports it; scans outside a collection record nothing and cost nothing.
 *
 * <p>Workers of a parallel scan update the counters concurrently.
 */
public final class ScanStats {
  private static final ThreadLocal<Collection> CURRENT = new ThreadLocal<>();

  private final String table;
  private final long snapshotId;
  private final AtomicLong filesOpened = new AtomicLong();
  private final AtomicLong filesCounted = new AtomicLong();
  private final AtomicLong rowGroupsInFiles = new AtomicLong();
  private final AtomicLong rowGroupsRead = new AtomicLong();
  private final AtomicLong rowsRead = new AtomicLong();
  private final AtomicLong rowsReturned = new AtomicLong();
  private final AtomicLong nanos = new AtomicLong();
  private volatile boolean rowGroupsKnown = true;
  private volatile @Nullable String runtimeFilter;
  private long executions = 1;

  private ScanStats(String table, long snapshotId) {
    this.table = table;
    this.snapshotId = snapshotId;
  }

  /** The scans of the statements run on this thread until the collection is closed. */
  public static final class Collection implements AutoCloseable {
    private final List<ScanStats> scans = Collections.synchronizedList(new ArrayList<>());
    private final @Nullable Collection outer;

    private Collection(@Nullable Collection outer) {
      this.outer = outer;
    }

    /** The scans started so far, in the order they started. */
    public List<ScanStats> scans() {
      synchronized (scans) {
        return List.copyOf(scans);
      }
    }

    @Override
    public void close() {
      if (outer == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(outer);
      }
    }
  }

  /** Starts collecting the stats of scans started on this thread. */
  public static Collection collect() {
    Collection collection = new Collection(CURRENT.get());
    CURRENT.set(collection);
    return collection;
  }

  /**
   * Whether this thread collects the statistics of its scans (EXPLAIN ANALYZE), which the row path
   * reports.
   */
  public static boolean collecting() {
    return CURRENT.get() != null;
  }

  /** The stats of a scan starting now on this thread, or null when nothing collects them. */
  static @Nullable ScanStats start(String table, long snapshotId) {
    Collection collection = CURRENT.get();
    if (collection == null) {
      return null;
    }
    ScanStats stats = new ScanStats(table, snapshotId);
    collection.scans.add(stats);
    return stats;
  }

  /** How many scans this thread's collection has started (0 when nothing collects). */
  static int startedOnThisThread() {
    Collection collection = CURRENT.get();
    return collection == null ? 0 : collection.scans.size();
  }

  /**
   * Notes on the scan this thread's collection started at {@code index} the run-time filter it
   * applied ({@link RuntimeFilter}); nothing when no scan started there.
   */
  static void noteRuntimeFilter(int index, String note) {
    Collection collection = CURRENT.get();
    if (collection != null) {
      synchronized (collection.scans) {
        if (index < collection.scans.size()) {
          collection.scans.get(index).runtimeFilter = note;
        }
      }
    }
  }

  void fileOpened(FileScanTask task) {
    filesOpened.incrementAndGet();
    List<Long> offsets = task.file().splitOffsets();
    if (offsets == null) {
      rowGroupsKnown = false;
      return;
    }
    long end = task.start() + task.length();
    for (long offset : offsets) {
      if (offset >= task.start() && offset < end) {
        rowGroupsInFiles.incrementAndGet();
      }
    }
  }

  void fileFromMetadata() {
    filesCounted.incrementAndGet();
  }

  void rowGroupRead(long rows) {
    rowGroupsRead.incrementAndGet();
    rowsRead.addAndGet(rows);
  }

  /** A file read row by row, whose row groups are not counted. */
  void readRowByRow() {
    rowGroupsKnown = false;
  }

  void rowRead() {
    rowsRead.incrementAndGet();
  }

  void rowsReturned(long rows) {
    rowsReturned.addAndGet(rows);
  }

  void time(long elapsedNanos) {
    nanos.addAndGet(elapsedNanos);
  }

  /** The table's SQL name. */
  public String table() {
    return table;
  }

  /** The snapshot read. */
  public long snapshotId() {
    return snapshotId;
  }

  /** Nanoseconds spent producing this scan's rows, as seen by the thread consuming them. */
  public long nanos() {
    return nanos.get();
  }

  /**
   * The scans of a statement, those of one table and snapshot executed more than {@code most} times
   * (a nested-loop join or a correlated subquery scanning its inner input once per outer row)
   * summed into one line of their counts, in the order each table was first scanned; others as they
   * are.
   */
  public static List<ScanStats> folded(List<ScanStats> scans, int most) {
    java.util.Map<String, List<ScanStats>> byTable = new java.util.LinkedHashMap<>();
    for (ScanStats scan : scans) {
      byTable.computeIfAbsent(scan.table + "@" + scan.snapshotId, k -> new ArrayList<>()).add(scan);
    }
    List<ScanStats> out = new ArrayList<>();
    java.util.Set<String> summed = new java.util.HashSet<>();
    for (ScanStats scan : scans) {
      String key = scan.table + "@" + scan.snapshotId;
      List<ScanStats> same = byTable.get(key);
      if (same.size() <= most) {
        out.add(scan);
      } else if (summed.add(key)) {
        ScanStats sum = new ScanStats(scan.table, scan.snapshotId);
        sum.executions = 0;
        for (ScanStats one : same) {
          sum.executions += one.executions;
          sum.filesOpened.addAndGet(one.filesOpened.get());
          sum.filesCounted.addAndGet(one.filesCounted.get());
          sum.rowGroupsInFiles.addAndGet(one.rowGroupsInFiles.get());
          sum.rowGroupsRead.addAndGet(one.rowGroupsRead.get());
          sum.rowsRead.addAndGet(one.rowsRead.get());
          sum.rowsReturned.addAndGet(one.rowsReturned.get());
          sum.nanos.addAndGet(one.nanos.get());
          sum.rowGroupsKnown &= one.rowGroupsKnown;
        }
        out.add(sum);
      }
    }
    return out;
  }

  /** One line for EXPLAIN ANALYZE. */
  public String describe() {
    long inFiles = rowGroupsInFiles.get();
    long read = rowGroupsRead.get();
    String skipped =
        rowGroupsKnown
            ? Math.max(0, inFiles - read) + " of " + inFiles
            : "unknown (a file was read row by row)";
    return "LakeTableScan "
        + table
        + " (snapshot "
        + snapshotId
        + (executions > 1 ? ", " + executions + " executions summed" : "")
        + "): files opened: "
        + filesOpened.get()
        + (filesCounted.get() > 0 ? ", files answered from metadata: " + filesCounted.get() : "")
        + (rowGroupsKnown ? ", row groups read: " + read : "")
        + ", row groups skipped: "
        + skipped
        + ", rows read: "
        + rowsRead.get()
        + ", rows returned: "
        + rowsReturned.get()
        + ", scan: "
        + nanos.get() / 1_000_000
        + " ms"
        + (runtimeFilter == null ? "" : ", run-time filter: " + runtimeFilter);
  }
}
