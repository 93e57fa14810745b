package dev.floe.planner.write;

import dev.floe.planner.scan.InternalRows;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.LakeSession;
import dev.floe.planner.session.PinnedTable;
import dev.floe.planner.session.TableChange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.core.TableModify;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * The DML runtime: turns the rows of an INSERT, DELETE or UPDATE into data and delete files and
 * stages one {@link TableChange} in the session. Each row checks the statement's {@link
 * Cancellation} first. If anything fails (a cancel or timeout too), every file the statement wrote
 * is deleted before the error propagates, so the table is left exactly as it was.
 */
public final class LakeWrites {

  private LakeWrites() {}

  /** Entry point for generated code: runs one statement and returns its row count. */
  public static Long execute(DataContext root, WritePlan plan, Enumerable<Object[]> rows) {
    InsertBatch batch =
        plan.session() instanceof BatchingSession
            ? ((BatchingSession) plan.session()).insertBatch()
            : null;
    if (batch != null && InsertBatch.collects(plan)) {
      return batch.add(plan, rows);
    }
    try (Enumerator<Object[]> enumerator = rows.enumerator()) {
      return run(plan, new EnumeratorIterator(enumerator));
    }
  }

  /**
   * Runs one statement over rows given directly (PreparedStatement batches take this path).
   *
   * @return the affected row count
   */
  public static long run(WritePlan plan, Iterator<Object[]> rows) {
    LakeSession session = plan.session();
    session.checkWritable(plan.path());
    PinnedTable pinned = session.pin(plan.path());
    Table table = pinned.table();
    String operationId = UUID.randomUUID().toString();
    TableChange.Builder change = TableChange.builder();
    try {
      if (plan.operation() == TableModify.Operation.INSERT) {
        insert(table, plan, operationId, rows, change);
      } else {
        new RowLevelChange(pinned, plan, operationId, change).apply(rows);
      }
      TableChange built = change.build();
      session.stage(plan.path(), built);
      return built.rows();
    } catch (RuntimeException | Error e) {
      deleteWrittenFiles(table, operationId, change.written());
      throw e;
    }
  }

  private static void insert(
      Table table,
      WritePlan plan,
      String operationId,
      Iterator<Object[]> rows,
      TableChange.Builder change) {
    RowAssigner assigner = new RowAssigner(table.schema(), plan.inputTypes());
    Cancellation cancel = Cancellation.current();
    long count = 0;
    try (DataFileWriters<AssignedRow> writer =
        DataFileWriters.forRows(table, DataFileWriters.outputFiles(table, operationId))) {
      while (rows.hasNext()) {
        cancel.check();
        writer.write(assigner.assign(rows.next()));
        count++;
      }
      writer.finish().forEach(change::addData);
    }
    change.rows(count);
  }

  /**
   * Writes rows held in Calcite's runtime forms as data files of a table (CREATE TABLE AS SELECT
   * writes into a table that exists only in its creating transaction).
   *
   * @param types the SQL type of each value in a row, in table column order
   */
  public static List<org.apache.iceberg.DataFile> writeRows(
      Table table, List<WritePlan.SourceType> types, Iterator<Object[]> rows, String operationId) {
    RowAssigner assigner = new RowAssigner(table.schema(), types);
    Cancellation cancel = Cancellation.current();
    try (DataFileWriters<AssignedRow> writer =
        DataFileWriters.forRows(table, DataFileWriters.outputFiles(table, operationId))) {
      while (rows.hasNext()) {
        cancel.check();
        writer.write(assigner.assign(rows.next()));
      }
      return writer.finish();
    }
  }

  /**
   * Writes the live rows of data file tasks again, as data files of the table partitioned by its
   * current spec and rolled at its target file size, leaving out of each task the rows at the
   * (sorted) positions {@code dropped} gives for it (null: none). Rows are read by {@code reader},
   * the scan runtime's one reader of whole files ({@link InternalRows}), and written in the form
   * they are read, Iceberg's internal representation, which is the form INSERT's rows are written
   * in. {@code optimize} and copy-on-write DELETE, UPDATE and MERGE rewrite files this way.
   */
  public static List<org.apache.iceberg.DataFile> writeLiveRows(
      Table table,
      InternalRows reader,
      List<FileScanTask> tasks,
      java.util.function.Function<FileScanTask, long[]> dropped,
      org.apache.iceberg.io.OutputFileFactory files) {
    int columns = table.schema().columns().size();
    try (DataFileWriters<AssignedRow> writer = DataFileWriters.forRows(table, files)) {
      for (FileScanTask task : tasks) {
        long[] positions = dropped.apply(task);
        try (CloseableIterable<org.apache.iceberg.StructLike> rows =
            reader.read(task, true, positions != null)) {
          for (org.apache.iceberg.StructLike row : rows) {
            if (positions != null
                && java.util.Arrays.binarySearch(positions, row.get(columns, Long.class)) >= 0) {
              continue;
            }
            AssignedRow copy = new AssignedRow(columns);
            for (int i = 0; i < columns; i++) {
              copy.set(i, row.get(i, Object.class));
            }
            writer.write(copy);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return writer.finish();
    }
  }

  /** The factory of the files a statement writes: its operation id names every file. */
  public static org.apache.iceberg.io.OutputFileFactory outputFiles(
      Table table, String operationId) {
    return DataFileWriters.outputFiles(table, operationId);
  }

  /**
   * Deletes the files a failed statement wrote: those it recorded, and any other file named with
   * its operation id (a file still open when the failure came).
   */
  public static void deleteWrittenFiles(Table table, String operationId, List<String> recorded) {
    for (String location : recorded) {
      deleteQuietly(table, location);
    }
    if (table.io() instanceof SupportsPrefixOperations) {
      SupportsPrefixOperations io = (SupportsPrefixOperations) table.io();
      List<String> strays = new ArrayList<>();
      try {
        for (FileInfo info : io.listPrefix(table.location())) {
          if (info.location().contains(operationId)) {
            strays.add(info.location());
          }
        }
      } catch (RuntimeException e) {
        return;
      }
      strays.forEach(location -> deleteQuietly(table, location));
    }
  }

  private static void deleteQuietly(Table table, String location) {
    try {
      table.io().deleteFile(location);
    } catch (RuntimeException e) {
      // Already gone, or the store refuses: nothing more to do for a file nobody references.
    }
  }

  /** Whether a table rewrites files instead of writing deletes for this operation. */
  static boolean copyOnWrite(Table table, TableModify.Operation operation) {
    String key =
        operation == TableModify.Operation.UPDATE
            ? TableProperties.UPDATE_MODE
            : operation == TableModify.Operation.MERGE
                ? TableProperties.MERGE_MODE
                : TableProperties.DELETE_MODE;
    return "copy-on-write".equalsIgnoreCase(table.properties().get(key));
  }

  /**
   * The rows of a data file's partition as a filter on the identity columns of its spec; columns
   * partitioned by another transform are left out, so the filter selects at least the partition's
   * rows (what conflict detection needs). An unpartitioned file gives {@code alwaysTrue}.
   */
  public static Expression partitionFilter(Table table, ContentFile<?> file) {
    PartitionSpec spec = table.specs().get(file.specId());
    Expression filter = Expressions.alwaysTrue();
    List<PartitionField> fields = spec.fields();
    for (int i = 0; i < fields.size(); i++) {
      PartitionField field = fields.get(i);
      if (!field.transform().isIdentity()) {
        continue;
      }
      String column = table.schema().findColumnName(field.sourceId());
      Object value = file.partition().get(i, Object.class);
      filter =
          Expressions.and(
              filter,
              value == null ? Expressions.isNull(column) : Expressions.equal(column, value));
    }
    return filter;
  }

  /** The data files of the pinned snapshot that may hold rows matching a filter. */
  static Map<String, FileScanTask> tasksByFile(PinnedTable pinned, Expression filter) {
    Map<String, FileScanTask> tasks = new TreeMap<>();
    if (pinned.snapshotId() == null) {
      return tasks;
    }
    try (CloseableIterable<FileScanTask> planned =
        pinned.table().newScan().useSnapshot(pinned.snapshotId()).filter(filter).planFiles()) {
      for (FileScanTask task : planned) {
        tasks.put(task.file().location(), task);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  /** Adapts an enumerator to an iterator. */
  private static final class EnumeratorIterator implements Iterator<Object[]> {
    private final Enumerator<Object[]> enumerator;
    private Boolean ready;

    EnumeratorIterator(Enumerator<Object[]> enumerator) {
      this.enumerator = enumerator;
    }

    @Override
    public boolean hasNext() {
      if (ready == null) {
        ready = enumerator.moveNext();
      }
      return ready;
    }

    @Override
    public Object[] next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      ready = null;
      return enumerator.current();
    }
  }
}
