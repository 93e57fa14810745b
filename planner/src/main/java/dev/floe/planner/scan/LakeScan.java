package dev.floe.planner.scan;

import com.google.common.util.concurrent.MoreExecutors;
import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.planner.name.TableVersion;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.PinnedTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.util.PropertyUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The scan runtime: plans the file tasks of the pinned snapshot (large files split at row groups),
 * sorts them so that every run splits the work the same way, reads them on a bounded pool (task
 * {@code i} on worker {@code i mod n}), and hands rows to Calcite in task order, a batch at a time,
 * so memory stays bounded however large the table is.
 *
 * <p>Called from generated code through {@link #enumerable}.
 */
public final class LakeScan extends AbstractEnumerable<Object[]> {
  private static final int BATCH = 1024;
  private static final int QUEUED_BATCHES = 4;

  /** Up to this many data manifests, a scan is planned on the statement's own thread. */
  private static final int SERIAL_PLANNING_MANIFESTS = 8;

  /**
   * The most bytes of local files a scan reads on the statement's own thread: below this, handing
   * the files to workers and waiting for their batches costs more than reading them (a correlated
   * subquery scanning a table of single-row files once per outer row spent more time waiting for
   * its workers than reading).
   */
  static final long SERIAL_BYTES = 256L << 10;

  /**
   * The most rows (as the files' metadata counts them) a scan reads on the statement's own thread:
   * a few small files compress many repeated values into few bytes, and the statement's thread
   * checks for a cancel only between the rows it hands on, which a filter may drop.
   */
  static final long SERIAL_ROWS = 1L << 16;

  private final DataContext root;
  private final LakeScanSpec spec;

  private LakeScan(DataContext root, LakeScanSpec spec) {
    this.root = root;
    this.spec = spec;
  }

  /** Entry point for generated code. */
  public static Enumerable<Object[]> enumerable(DataContext root, LakeScanSpec spec) {
    return new LakeScan(root, spec);
  }

  /** Entry point for generated code when rows have one column: the bare values. */
  public static Enumerable<Object> scalars(DataContext root, LakeScanSpec spec) {
    return new LakeScan(root, spec).select(row -> row[0]);
  }

  /**
   * Entry point for generated code when the scan's rows are the statement's result: a JDBC result
   * set may read them a column batch at a time ({@link ColumnarScan}); otherwise they are the rows
   * {@link #enumerable} gives.
   */
  @SuppressWarnings("unchecked")
  public static Enumerable<Object[]> results(DataContext root, LakeScanSpec spec) {
    return (Enumerable<Object[]>) (Enumerable<?>) columnar(root, spec, false);
  }

  /** As {@link #results}, for rows of one column: the bare values. */
  public static Enumerable<Object> scalarResults(DataContext root, LakeScanSpec spec) {
    return columnar(root, spec, true);
  }

  private static Enumerable<Object> columnar(DataContext root, LakeScanSpec spec, boolean scalar) {
    return new AbstractEnumerable<Object>() {
      @Override
      public Enumerator<Object> enumerator() {
        return ColumnarScan.open(root, spec, scalar);
      }
    };
  }

  /** The rows of a scan, read as {@link #enumerable} reads them. */
  static Enumerator<Object[]> rows(DataContext root, LakeScanSpec spec) {
    return new LakeScan(root, spec).enumerator();
  }

  /**
   * What a scan reads: the table as the statement sees it, the snapshot (null for an empty table),
   * the schema its column indexes refer to, and the Iceberg scan of that snapshot.
   */
  record Target(PinnedTable pinned, Long snapshotId, Schema schema, TableScan scan) {}

  /** Resolves the spec's table and version to the snapshot and schema to read. */
  static Target target(LakeScanSpec spec) {
    PinnedTable pinned = spec.session().pin(spec.path());
    Table table = pinned.table();
    TableScan scan = table.newScan().caseSensitive(true);
    if (spec.version() != null) {
      TableVersion.Resolved resolved =
          spec.version().resolve(table, pinned.name(), spec.session().timeZone().toZoneId());
      return new Target(pinned, resolved.snapshotId(), resolved.schema(), resolved.applyTo(scan));
    }
    Long snapshotId = pinned.snapshotId();
    if (snapshotId != null) {
      scan = scan.useSnapshot(snapshotId);
    }
    return new Target(pinned, snapshotId, table.schema(), scan);
  }

  /** The schema a scan's column indexes refer to: the version's, or the table's current one. */
  public static Schema schemaOf(LakeScanSpec spec) {
    if (spec.version() == null) {
      return spec.session().pin(spec.path()).table().schema();
    }
    return target(spec).schema();
  }

  /** The snapshot a scan reads, or null for an empty table. */
  public static Long snapshotOf(LakeScanSpec spec) {
    return spec.version() == null
        ? spec.session().pin(spec.path()).snapshotId()
        : target(spec).snapshotId();
  }

  /**
   * What planning keeps for a scan, for EXPLAIN: the data and delete files left after pruning by
   * partition values and column statistics, out of the snapshot's totals, and the rows in the data
   * files kept.
   */
  public record Planned(
      Long snapshotId,
      long dataFiles,
      long totalDataFiles,
      long deleteFiles,
      long totalDeleteFiles,
      long rows) {}

  /** Plans a scan's files as running it would, without reading them. */
  public static Planned plan(LakeScanSpec spec) {
    Target target = target(spec);
    if (target.snapshotId() == null) {
      return new Planned(null, 0, 0, 0, 0, 0);
    }
    Snapshot snapshot = target.pinned().table().snapshot(target.snapshotId());
    long dataFiles = 0;
    long rows = 0;
    java.util.Set<String> deletes = new java.util.HashSet<>();
    try (CloseableIterable<FileScanTask> planned =
        target.scan().filter(orTrue(planningFilter(target, spec.filter()))).planFiles()) {
      for (FileScanTask task : planned) {
        dataFiles++;
        rows += task.file().recordCount();
        task.deletes().forEach(d -> deletes.add(d.location()));
      }
    } catch (IOException e) {
      throw FloeError.IO.error(e, target.pinned().name(), e.getMessage());
    } catch (RuntimeException e) {
      throw Failures.translate(e, target.pinned().name());
    }
    return new Planned(
        target.snapshotId(),
        dataFiles,
        summaryCount(snapshot, SnapshotSummary.TOTAL_DATA_FILES_PROP, dataFiles),
        deletes.size(),
        summaryCount(snapshot, SnapshotSummary.TOTAL_DELETE_FILES_PROP, deletes.size()),
        rows);
  }

  /** How many data files an aggregating scan answers from their manifest entries, for EXPLAIN. */
  public static long filesFromMetadata(LakeScanSpec spec) {
    Target target = target(spec);
    if (target.snapshotId() == null) {
      return 0;
    }
    return ScanAggregation.answerableFiles(
        spec, plan(target, spec.filter(), true), target.schema());
  }

  private static long summaryCount(Snapshot snapshot, String property, long fallback) {
    String value = snapshot == null ? null : snapshot.summary().get(property);
    try {
      return value == null ? fallback : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  @Override
  public Enumerator<Object[]> enumerator() {
    if (spec.aggregated()) {
      return ScanAggregation.enumerator(root, spec);
    }
    if (spec.topN() != null) {
      return ScanTopN.enumerator(root, spec);
    }
    Target target = target(spec);
    PinnedTable pinned = target.pinned();
    if (target.snapshotId() == null) {
      return new ListEnumerator(List.of());
    }
    List<FileScanTask> tasks = tasks(target, spec.filter(), false);
    TaskReader reader = reader(target, spec);
    ScanStats stats = ScanStats.start(pinned.name(), target.snapshotId());
    reader.recordInto(stats);
    CancelCheck cancel = new CancelCheck(root);
    int workers = workers(spec, tasks);
    Enumerator<Object[]> rows =
        workers <= 1
            ? new SerialEnumerator(reader, tasks, spec.limit(), cancel)
            : new ParallelEnumerator(
                reader, tasks, workers, spec.session().scanExecutor(), spec.limit(), cancel);
    if (spec.projection() != null) {
      rows = new Checked(rows, spec.projection(), spec.columns().size());
    }
    return stats == null ? rows : new Watched(rows, stats);
  }

  /**
   * The rows of a scan computing a projection: a row holding an expression's failure throws it when
   * its values are asked for ({@link LakeProjection#check}), where Calcite's projection would have
   * computed them.
   */
  private static final class Checked implements Enumerator<Object[]> {
    private final Enumerator<Object[]> rows;
    private final LakeProjection projection;
    private final int width;

    Checked(Enumerator<Object[]> rows, LakeProjection projection, int width) {
      this.rows = rows;
      this.projection = projection;
      this.width = width;
    }

    @Override
    public Object[] current() {
      return projection.check(rows.current(), width);
    }

    @Override
    public boolean moveNext() {
      return rows.moveNext();
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      rows.close();
    }
  }

  /**
   * How many workers read {@code tasks}: the session's scan parallelism, at most one per task, and
   * none (the statement's thread reads) when the tasks are local files of at most {@link
   * #SERIAL_BYTES} and {@link #SERIAL_ROWS} rows together. Files in an object store are always read
   * by workers, which wait for the store in parallel.
   */
  static int workers(LakeScanSpec spec, List<? extends FileScanTask> tasks) {
    int workers = Math.min(spec.session().scanParallelism(), tasks.size());
    if (workers <= 1) {
      return workers;
    }
    long bytes = 0;
    long rows = 0;
    for (FileScanTask task : tasks) {
      if (!SmallFiles.isLocal(task.file().location())) {
        return workers;
      }
      bytes += task.length();
      rows += task.file().recordCount();
      for (org.apache.iceberg.DeleteFile delete : task.deletes()) {
        bytes += delete.fileSizeInBytes();
        rows += delete.recordCount();
      }
      if (bytes > SERIAL_BYTES || rows > SERIAL_ROWS) {
        return workers;
      }
    }
    return 1;
  }

  /**
   * The reader of a scan's tasks: the spec's columns (and row ids) of the target's schema, deletes
   * loaded once per statement, the table's name mapping, and the spec's condition.
   */
  static TaskReader reader(Target target, LakeScanSpec spec) {
    PinnedTable pinned = target.pinned();
    Table table = pinned.table();
    TaskReader reader =
        new TaskReader(
            table.io(),
            target.schema(),
            spec.columns(),
            spec.rowIds(),
            new StatementDeleteCache(pinned.plans()));
    applyNameMapping(reader, table);
    reader.condition(spec.condition());
    reader.projection(spec.projection());
    return reader;
  }

  /** Lets {@code reader} find columns by the table's name mapping in files without field ids. */
  static void applyNameMapping(TaskReader reader, Table table) {
    String mapping =
        table.properties().get(org.apache.iceberg.TableProperties.DEFAULT_NAME_MAPPING);
    if (mapping != null) {
      reader.nameMapping(org.apache.iceberg.mapping.NameMappingParser.fromJson(mapping));
    }
  }

  /** Counts the rows a scan hands on and the time spent producing them. */
  private static final class Watched implements Enumerator<Object[]> {
    private final Enumerator<Object[]> rows;
    private final ScanStats stats;

    Watched(Enumerator<Object[]> rows, ScanStats stats) {
      this.rows = rows;
      this.stats = stats;
    }

    @Override
    public Object[] current() {
      return rows.current();
    }

    @Override
    public boolean moveNext() {
      long start = System.nanoTime();
      try {
        boolean has = rows.moveNext();
        if (has) {
          stats.rowsReturned(1);
        }
        return has;
      } finally {
        stats.time(System.nanoTime() - start);
      }
    }

    @Override
    public void reset() {
      rows.reset();
    }

    @Override
    public void close() {
      rows.close();
    }
  }

  /**
   * The file tasks of a scan, planned once and kept in the connection's plan store for later
   * statements on the same snapshot and schema of the table (see {@link #plan}).
   */
  static List<FileScanTask> tasks(Target target, Expression filter, boolean wholeFiles) {
    PinnedTable pinned = target.pinned();
    return pinned
        .plans()
        .tasks(
            target.snapshotId(),
            pinned.table().schema().schemaId(),
            filter,
            wholeFiles,
            () -> plan(target, filter, wholeFiles));
  }

  /**
   * The file tasks of the pinned snapshot that the filter may select, in a fixed order: sorted by
   * file and start, large files split at row-group boundaries unless whole files are asked for.
   */
  static List<FileScanTask> plan(Target target, Expression filter, boolean wholeFiles) {
    PinnedTable pinned = target.pinned();
    Table table = pinned.table();
    Expression planning = planningFilter(target, filter);
    TableScan scan = target.scan().filter(orTrue(planning));
    if (wholeFiles) {
      // Whole files are planned for aggregating scans, which may answer them from their stats.
      scan = scan.includeColumnStats();
    }
    Snapshot snapshot = table.snapshot(target.snapshotId());
    int manifests;
    try {
      manifests = snapshot.dataManifests(table.io()).size();
    } catch (RuntimeException e) {
      throw Failures.translate(e, pinned.name()); // a missing or damaged manifest list: 58030
    }
    if (manifests <= SERIAL_PLANNING_MANIFESTS) {
      // Iceberg reads several manifests on its worker pool, and the planning thread polls for
      // their entries every 10 ms: for a few small manifests that wait is the whole cost.
      scan = scan.planWith(MoreExecutors.newDirectExecutorService());
    }
    // Large files are split at row-group boundaries, so that one big file is still read by every
    // worker; positions stay those of the whole file, so deletes apply as before.
    long splitSize =
        PropertyUtil.propertyAsLong(
            table.properties(), TableProperties.SPLIT_SIZE, TableProperties.SPLIT_SIZE_DEFAULT);
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = scan.planFiles()) {
      if (wholeFiles) {
        planned.forEach(tasks::add); // whole files, which metadata may answer
      } else {
        planned.forEach(task -> task.split(splitSize).forEach(tasks::add));
      }
    } catch (IOException e) {
      throw FloeError.IO.error(e, pinned.name(), e.getMessage());
    } catch (RuntimeException e) {
      throw Failures.translate(e, pinned.name());
    }
    Schema specs = specSchema(target);
    List<FileScanTask> result =
        VersionFilter.renames(target.schema(), specs)
            ? VersionFilter.residualsIn(tasks, target.schema(), specs, filter, planning != null)
            : tasks;
    result.sort(
        Comparator.comparing((FileScanTask t) -> t.file().location())
            .thenComparingLong(FileScanTask::start));
    return result;
  }

  private static Expression orTrue(Expression filter) {
    return filter == null ? Expressions.alwaysTrue() : filter;
  }

  /**
   * The filter as Iceberg plans a target's files by: in the names of the schema Iceberg binds the
   * partition specs to (null when the filter names a column that schema lacks: then every file is
   * planned). See {@link VersionFilter}.
   */
  static Expression planningFilter(Target target, Expression filter) {
    Schema specs = specSchema(target);
    if (!VersionFilter.renames(target.schema(), specs)) {
      return filter;
    }
    return VersionFilter.rename(filter, target.schema(), specs);
  }

  /**
   * The schema Iceberg binds a scan's partition specs to: the schema the scan reads with
   * (SnapshotScan.specs), except for the table's current snapshot, whose specs keep the current
   * schema even when an earlier schema is read (a snapshot id read after a column was renamed).
   */
  private static Schema specSchema(Target target) {
    Table table = target.pinned().table();
    Snapshot current = table.currentSnapshot();
    boolean isCurrent =
        current != null
            && target.snapshotId() != null
            && current.snapshotId() == target.snapshotId();
    return isCurrent ? table.schema() : target.schema();
  }

  /**
   * Checks the statement's cancellation (its {@code cancel()} and query timeout, counted from the
   * call), and Calcite's cancel flag and timeout of the statement the scan runs in.
   */
  static final class CancelCheck {
    private final AtomicBoolean flag;
    private final long deadlineNanos;
    private final Cancellation statement = Cancellation.current();

    CancelCheck(DataContext root) {
      this.flag = root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
      Object timeout = root == null ? null : root.get(DataContext.Variable.TIMEOUT.camelName);
      long millis = timeout instanceof Number ? ((Number) timeout).longValue() : 0L;
      this.deadlineNanos = millis > 0 ? System.nanoTime() + millis * 1_000_000L : Long.MAX_VALUE;
    }

    void check() {
      checkFlag();
      if (System.nanoTime() > deadlineNanos) {
        throw FloeError.CANCELLED.error("the query timeout elapsed");
      }
    }

    /** Checks the cancel flags only: cheap enough for every row. */
    void checkFlag() {
      statement.check();
      if (flag != null && flag.get()) {
        throw FloeError.CANCELLED.error("the statement was cancelled");
      }
    }
  }

  /** Reads tasks one after another on the calling thread: no hand-over cost for small scans. */
  private static final class SerialEnumerator implements Enumerator<Object[]> {
    private final TaskReader reader;
    private final List<FileScanTask> tasks;
    private final long limit;
    private final CancelCheck cancel;
    private int next;
    private long emitted;
    private CloseableIterable<Object[]> open;
    private CloseableIterator<Object[]> rows;
    private Object[] current;

    SerialEnumerator(TaskReader reader, List<FileScanTask> tasks, long limit, CancelCheck cancel) {
      this.reader = reader;
      this.tasks = tasks;
      this.limit = limit;
      this.cancel = cancel;
    }

    @Override
    public Object[] current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      if (limit >= 0 && emitted >= limit) {
        return false;
      }
      while (true) {
        if (rows != null) {
          boolean has;
          try {
            has = rows.hasNext();
          } catch (RuntimeException | Error e) {
            // As a worker does: the failing file is closed at once, the failure names it.
            RuntimeException failure = Failures.translate(e, tasks.get(next - 1), reader.io());
            closeQuietly();
            throw failure;
          }
          if (has) {
            current = rows.next();
            if ((++emitted & 1023) == 0) {
              cancel.check();
            }
            return true;
          }
          closeOpen();
        }
        if (next >= tasks.size()) {
          return false;
        }
        cancel.check();
        FileScanTask task = tasks.get(next++);
        try {
          open = reader.open(task);
          rows = open.iterator();
        } catch (RuntimeException | Error e) {
          RuntimeException failure = Failures.translate(e, task, reader.io());
          closeQuietly();
          throw failure;
        }
      }
    }

    private void closeOpen() {
      try {
        if (open != null) {
          open.close();
        }
      } catch (IOException e) {
        throw Failures.translate(e, tasks.get(next - 1), reader.io());
      } finally {
        open = null;
        rows = null;
      }
    }

    /** Closes the open file after a failure, which is the one reported. */
    private void closeQuietly() {
      try {
        closeOpen();
      } catch (RuntimeException suppressed) {
        // the read's failure is reported
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      closeOpen();
    }
  }

  /** A finished batch, the end of a task, or a failure. */
  private record Batch(Object[][] rows, int size, Throwable failure) {
    static final Batch END = new Batch(null, 0, null);
  }

  /**
   * Reads tasks on worker threads; worker {@code w} reads tasks {@code w, w+n, w+2n, ...} into its
   * own bounded queue, and the consumer drains queues in task order.
   */
  private static final class ParallelEnumerator implements Enumerator<Object[]> {
    private final List<FileScanTask> tasks;
    private final ScanWorkers<Batch> workers;
    private final long limit;
    private final CancelCheck cancel;
    private int task;
    private Batch batch;
    private int index;
    private long emitted;
    private Object[] current;

    ParallelEnumerator(
        TaskReader reader,
        List<FileScanTask> tasks,
        int workers,
        ExecutorService executor,
        long limit,
        CancelCheck cancel) {
      this.tasks = tasks;
      this.limit = limit;
      this.cancel = cancel;
      this.workers =
          new ScanWorkers<>(
              tasks.size(),
              workers,
              QUEUED_BATCHES,
              executor,
              (t, out) -> readTask(reader, tasks.get(t), out));
    }

    private static boolean readTask(
        TaskReader reader, FileScanTask task, ScanWorkers.Output<Batch> out) {
      try {
        try (CloseableIterable<Object[]> rows = reader.open(task)) {
          Object[][] buffer = new Object[BATCH][];
          int size = 0;
          for (Object[] row : rows) {
            if (out.stopped()) {
              return false;
            }
            buffer[size++] = row;
            if (size == BATCH) {
              out.put(new Batch(buffer, size, null));
              buffer = new Object[BATCH][];
              size = 0;
            }
          }
          if (size > 0) {
            out.put(new Batch(buffer, size, null));
          }
        }
        // Only once the file is closed: a reader that has taken the last row finds no file open.
        return out.put(Batch.END);
      } catch (Throwable e) {
        out.put(new Batch(null, 0, Failures.translate(e, task, reader.io())));
        return true;
      }
    }

    @Override
    public Object[] current() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return current;
    }

    @Override
    public boolean moveNext() {
      if (limit >= 0 && emitted >= limit) {
        return false;
      }
      while (true) {
        if (batch != null && index < batch.size) {
          // Read only: a write here would pull the worker's cache line over for every row. The
          // whole batch is let go once its last row is taken.
          current = batch.rows[index++];
          emitted++;
          return true;
        }
        if (task >= tasks.size()) {
          return false;
        }
        cancel.check();
        Batch next = workers.take(task, cancel);
        if (next.failure != null) {
          close();
          throw next.failure instanceof RuntimeException
              ? (RuntimeException) next.failure
              : new RuntimeException(next.failure);
        }
        if (next == Batch.END) {
          task++;
          batch = null;
          continue;
        }
        batch = next;
        index = 0;
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      workers.close();
    }
  }

  /** Enumerates a fixed list. */
  private static final class ListEnumerator implements Enumerator<Object[]> {
    private final List<Object[]> rows;
    private int index = -1;

    ListEnumerator(List<Object[]> rows) {
      this.rows = rows;
    }

    @Override
    public Object[] current() {
      return rows.get(index);
    }

    @Override
    public boolean moveNext() {
      return ++index < rows.size();
    }

    @Override
    public void reset() {
      index = -1;
    }

    @Override
    public void close() {}
  }

  /**
   * Keeps a {@link FloeException} as it is; a defect of Floe's own code becomes INTERNAL (HY000),
   * and files that cannot be read become IO errors (58030).
   */
  static final class Failures {
    private Failures() {}

    /**
     * The failure of reading a task: it names the delete file that is missing, truncated or
     * unreadable, with the data file it applies to, or else the data file.
     */
    static RuntimeException translate(
        Throwable e, org.apache.iceberg.FileScanTask task, org.apache.iceberg.io.FileIO io) {
      if (e instanceof FloeException) {
        return (FloeException) e;
      }
      RuntimeException defect = defect(e, task.file().location());
      if (defect != null && !damaged(task.file(), io)) {
        return defect;
      }
      FloeException unreadable = unreadable(task.file(), io);
      if (unreadable != null) {
        return unreadable;
      }
      for (org.apache.iceberg.DeleteFile delete : task.deletes()) {
        unreadable = unreadable(delete, io);
        if (unreadable != null) {
          return unreadable;
        }
        if (mentions(e, delete.location()) || damaged(delete, io)) {
          String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
          return FloeError.IO.error(
              e,
              delete.location(),
              "the delete file applying to data file "
                  + task.file().location()
                  + " cannot be read: "
                  + message);
        }
      }
      return translate(e, task.file().location());
    }

    /**
     * The NOT_SUPPORTED error for a file Floe cannot read by design (another format than Parquet,
     * or a codec Floe does not have), or null.
     */
    private static @Nullable FloeException unreadable(
        org.apache.iceberg.ContentFile<?> file, org.apache.iceberg.io.FileIO io) {
      if (file.format() == org.apache.iceberg.FileFormat.PUFFIN) {
        return null; // a deletion vector
      }
      if (file.format() != org.apache.iceberg.FileFormat.PARQUET) {
        return FloeError.NOT_SUPPORTED.error(
            "reading "
                + file.location()
                + ": it is an "
                + file.format()
                + " file, and Floe reads Parquet data and delete files only");
      }
      return ParquetCodecs.diagnose(io.newInputFile(file.location()), file.location());
    }

    private static boolean mentions(Throwable e, String location) {
      String name = location.substring(location.lastIndexOf('/') + 1);
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (String.valueOf(t.getMessage()).contains(name)) {
          return true;
        }
      }
      return false;
    }

    /** Whether a data or delete file is missing or of another size than its metadata records. */
    private static boolean damaged(
        org.apache.iceberg.ContentFile<?> content, org.apache.iceberg.io.FileIO io) {
      try {
        org.apache.iceberg.io.InputFile file = io.newInputFile(content.location());
        return !file.exists() || file.getLength() != content.fileSizeInBytes();
      } catch (RuntimeException unknown) {
        return false;
      }
    }

    /**
     * An INTERNAL error (HY000) when reading failed in Floe's own code with an exception that only
     * a defect raises (a null dereference, a bad cast), whatever file it was reading; else null.
     * Such a failure says nothing about the file, so it must not be reported as damage (58030).
     */
    static RuntimeException defect(Throwable e, String what) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof FloeException) {
          return null;
        }
        boolean programmingError =
            t instanceof NullPointerException
                || t instanceof ClassCastException
                || t instanceof ArrayStoreException
                || t instanceof IllegalMonitorStateException;
        StackTraceElement[] trace = t.getStackTrace();
        if (programmingError
            && trace.length > 0
            && trace[0].getClassName().startsWith("dev.floe.")) {
          return FloeError.INTERNAL.error(
              e,
              "reading "
                  + what
                  + " failed in Floe's own code ("
                  + t.getClass().getSimpleName()
                  + " at "
                  + trace[0]
                  + ": "
                  + t.getMessage()
                  + "); the file itself is not known to be damaged");
        }
      }
      return null;
    }

    static RuntimeException translate(Throwable e, String what) {
      if (e instanceof FloeException) {
        return (FloeException) e;
      }
      RuntimeException defect = defect(e, what);
      if (defect != null) {
        return defect;
      }
      String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      return FloeError.IO.error(e, what, message);
    }
  }
}
