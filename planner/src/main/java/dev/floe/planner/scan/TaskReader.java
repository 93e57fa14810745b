package dev.floe.planner.scan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.parquet.InternalReader;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Reads one file task into Calcite rows: opens the Parquet file with the projection the query needs
 * (plus what deletes and the residual filter need), applies deletes and the residual, and converts
 * each row. Values stay in Iceberg's internal representation until the conversion, which keeps them
 * cheap (see {@link ValueConverter}).
 */
final class TaskReader {
  private final FileIO io;
  private final Schema tableSchema;
  private final Schema outputSchema;
  private final int[] outputFieldIds;
  private final ValueConverter[] converters;
  private final boolean rowIds;
  private final StatementDeleteCache deleteCache;
  private final boolean batches;
  private final boolean countOnly;
  private ScanStats stats;

  TaskReader(
      FileIO io,
      Schema tableSchema,
      List<Integer> columns,
      boolean rowIds,
      StatementDeleteCache deleteCache) {
    this(io, tableSchema, columns, rowIds, deleteCache, true, false);
  }

  /**
   * As above; {@code batches} false reads every task row by row (tests compare the two), and {@code
   * countOnly} true counts a file that needs no reading from its metadata: its rows carry NULLs,
   * for a scan whose rows are only counted.
   */
  TaskReader(
      FileIO io,
      Schema tableSchema,
      List<Integer> columns,
      boolean rowIds,
      StatementDeleteCache deleteCache,
      boolean batches,
      boolean countOnly) {
    this.batches = batches;
    this.countOnly = countOnly;
    this.io = io;
    this.tableSchema = tableSchema;
    this.rowIds = rowIds;
    this.deleteCache = deleteCache;
    List<Types.NestedField> all = tableSchema.columns();
    List<Types.NestedField> selected = new ArrayList<>();
    this.outputFieldIds = new int[columns.size()];
    this.converters = new ValueConverter[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField field = all.get(columns.get(i));
      outputFieldIds[i] = field.fieldId();
      converters[i] = ValueConverter.toCalcite(field.type());
      if (selected.stream().noneMatch(f -> f.fieldId() == field.fieldId())) {
        selected.add(field);
      }
    }
    if (rowIds) {
      selected.add(MetadataColumns.FILE_PATH);
      selected.add(MetadataColumns.ROW_POSITION);
    }
    this.outputSchema = new Schema(selected);
  }

  private NameMapping nameMapping;

  /** The FileIO the reader opens files with. */
  FileIO io() {
    return io;
  }

  /** Records what this reader reads in {@code stats} (null: records nothing). */
  void recordInto(ScanStats scanStats) {
    this.stats = scanStats;
  }

  /** Opens a task; the caller closes the returned iterable. */
  CloseableIterable<Object[]> open(FileScanTask task) {
    if (task.file().format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException(
          "Cannot read " + task.file().location() + ": only Parquet data files are supported");
    }
    Expression residual = task.residual();
    if (countOnly && countable(task)) {
      if (stats != null) {
        stats.fileCounted();
      }
      return counted(task.file().recordCount());
    }
    if (stats != null) {
      stats.fileOpened(task);
    }
    Schema requested = withFilterColumns(outputSchema, residual);
    LakeDeleteFilter deletes = new LakeDeleteFilter(task, tableSchema, requested, io, deleteCache);
    Map<Integer, ?> constants = PartitionUtil.constantsMap(task);
    if (batches && !rowIds && !deletes.hasEqDeletes() && BatchReader.canRead(requested)) {
      return new BatchedTask(task, requested, residual, deletes, constants);
    }
    return rowByRow(task, residual, deletes, constants);
  }

  /**
   * Reads a task with Iceberg's row reader, which handles every type and every kind of delete:
   * equality deletes need whole rows.
   */
  private CloseableIterable<Object[]> rowByRow(
      FileScanTask task, Expression residual, LakeDeleteFilter deletes, Map<Integer, ?> constants) {
    Schema readSchema = deletes.requiredSchema();
    CloseableIterable<StructLike> rows =
        read(task, readSchema, residual)
            .reuseContainers()
            .createReaderFunc(
                fileSchema -> InternalReader.create(readSchema, fileSchema, constants))
            .build();
    if (stats != null) {
      ScanStats into = stats;
      into.readRowByRow();
      rows =
          CloseableIterable.transform(
              rows,
              row -> {
                into.rowRead();
                return row;
              });
    }
    rows = deletes.filter(rows);
    if (!isTrue(residual)) {
      Evaluator evaluator = new Evaluator(readSchema.asStruct(), residual, true);
      rows = CloseableIterable.filter(rows, evaluator::eval);
    }
    int[] positions = positionsIn(readSchema);
    int width = outputFieldIds.length + (rowIds ? 2 : 0);
    return CloseableIterable.transform(
        rows,
        row -> {
          Object[] out = new Object[width];
          for (int i = 0; i < outputFieldIds.length; i++) {
            Object value = row.get(positions[i], Object.class);
            out[i] = value == null ? null : converters[i].convert(value);
          }
          if (rowIds) {
            out[width - 2] = row.get(positions[outputFieldIds.length], Object.class).toString();
            out[width - 1] = row.get(positions[outputFieldIds.length + 1], Long.class);
          }
          return out;
        });
  }

  /** Whether the manifest's record count is the task's row count: a whole file, every row. */
  private static boolean countable(FileScanTask task) {
    return task.deletes().isEmpty()
        && isTrue(task.residual())
        && task.start() == 0
        && task.length() == task.file().fileSizeInBytes();
  }

  /**
   * {@code rows} rows, all one row of placeholders: a count-only scan never looks at values, but
   * Calcite's generated code still unboxes those of NOT NULL columns, so numbers get a zero.
   */
  private CloseableIterable<Object[]> counted(long rows) {
    Object[] empty = new Object[outputFieldIds.length];
    for (int i = 0; i < empty.length; i++) {
      empty[i] = placeholder(tableSchema.findType(outputFieldIds[i]));
    }
    return CloseableIterable.withNoopClose(
        () ->
            new java.util.Iterator<Object[]>() {
              private long left = rows;

              @Override
              public boolean hasNext() {
                return left > 0;
              }

              @Override
              public Object[] next() {
                if (left <= 0) {
                  throw new java.util.NoSuchElementException();
                }
                left--;
                return empty;
              }
            });
  }

  private static Object placeholder(org.apache.iceberg.types.Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return Boolean.FALSE;
      case INTEGER:
      case DATE:
        return 0;
      case LONG:
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        return 0L;
      case FLOAT:
        return 0f;
      case DOUBLE:
        return 0d;
      default:
        return null;
    }
  }

  /** Iceberg's reader of a task's split, projected and with row groups skipped by the residual. */
  private Parquet.ReadBuilder read(FileScanTask task, Schema schema, Expression residual) {
    Parquet.ReadBuilder read =
        Parquet.read(io.newInputFile(task.file().location()))
            .project(schema)
            .split(task.start(), task.length())
            .filter(residual)
            .caseSensitive(true);
    // files without field ids (registered by add_files) are read by the table's name mapping
    return nameMapping == null ? read : read.withNameMapping(nameMapping);
  }

  /** Reads files without Parquet field ids through a table's name mapping (null: none). */
  void nameMapping(NameMapping mapping) {
    this.nameMapping = mapping;
  }

  private static boolean isTrue(Expression residual) {
    return residual == null || residual.op() == Expression.Operation.TRUE;
  }

  /**
   * A task read a batch of columns at a time by {@link BatchReader}, with position deletes and
   * deletion vectors applied by row position and the residual evaluated per row; a file with a
   * column the batch reader does not decode is read {@link #rowByRow} instead.
   */
  final class BatchedTask implements CloseableIterable<Object[]> {
    private final FileScanTask task;
    private final Schema requested;
    private final Expression residual;
    private final LakeDeleteFilter deletes;
    private final Map<Integer, ?> constants;
    private final List<java.io.Closeable> opened = new ArrayList<>();
    private boolean rowByRow;

    BatchedTask(
        FileScanTask task,
        Schema requested,
        Expression residual,
        LakeDeleteFilter deletes,
        Map<Integer, ?> constants) {
      this.task = task;
      this.requested = requested;
      this.residual = residual;
      this.deletes = deletes;
      this.constants = constants;
    }

    @Override
    public CloseableIterator<Object[]> iterator() {
      BatchReader[] created = new BatchReader[1];
      CloseableIterable<ColumnBatch> batches =
          read(task, requested, residual)
              .recordsPerBatch(BatchReader.BATCH_ROWS)
              .createBatchedReaderFunc(
                  fileSchema -> {
                    created[0] = BatchReader.create(requested, fileSchema, constants);
                    if (stats != null && created[0].decodes()) {
                      created[0].onRowGroup(stats::rowGroupRead);
                    }
                    return created[0];
                  })
              .build();
      opened.add(batches);
      CloseableIterator<ColumnBatch> iterator = batches.iterator();
      if (created[0] != null && !created[0].decodes()) {
        try {
          iterator.close();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        rowByRow = true;
        CloseableIterable<Object[]> fallback = rowByRow(task, residual, deletes, constants);
        opened.add(fallback);
        return fallback.iterator();
      }
      PositionDeleteIndex deleted = deletes.hasPosDeletes() ? deletes.deletedRowPositions() : null;
      Evaluator evaluator =
          isTrue(residual) ? null : new Evaluator(requested.asStruct(), residual, true);
      return new BatchRows(iterator, deleted, evaluator, positionsIn(requested));
    }

    /** Whether the file turned out to need the row reader. */
    boolean readRowByRow() {
      return rowByRow;
    }

    @Override
    public void close() throws java.io.IOException {
      java.io.IOException failure = null;
      for (java.io.Closeable closeable : opened) {
        try {
          closeable.close();
        } catch (java.io.IOException e) {
          failure = e;
        }
      }
      opened.clear();
      if (failure != null) {
        throw failure;
      }
    }
  }

  /** The live rows of a file's batches, in file order. */
  private final class BatchRows implements CloseableIterator<Object[]> {
    private final CloseableIterator<ColumnBatch> batches;
    private final PositionDeleteIndex deleted;
    private final Evaluator evaluator;
    private final int[] positions;
    private final ColumnBatch.RowView view = new ColumnBatch.RowView();
    private ColumnBatch batch;
    private int index;
    private Object[] pending;

    BatchRows(
        CloseableIterator<ColumnBatch> batches,
        PositionDeleteIndex deleted,
        Evaluator evaluator,
        int[] positions) {
      this.batches = batches;
      this.deleted = deleted;
      this.evaluator = evaluator;
      this.positions = positions;
    }

    @Override
    public boolean hasNext() {
      while (pending == null) {
        if (batch != null && index < batch.size) {
          int row = index++;
          if (deleted != null && deleted.isDeleted(batch.firstPosition + row)) {
            continue;
          }
          if (evaluator != null && !evaluator.eval(view.at(batch, row))) {
            continue;
          }
          Object[] out = new Object[positions.length];
          for (int i = 0; i < positions.length; i++) {
            out[i] = batch.columns[positions[i]][row];
          }
          pending = out;
        } else if (batches.hasNext()) {
          batch = batches.next();
          index = 0;
        } else {
          return false;
        }
      }
      return true;
    }

    @Override
    public Object[] next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      Object[] out = pending;
      pending = null;
      return out;
    }

    @Override
    public void close() throws java.io.IOException {
      batches.close();
    }
  }

  private int[] positionsIn(Schema readSchema) {
    int extra = rowIds ? 2 : 0;
    int[] positions = new int[outputFieldIds.length + extra];
    List<Types.NestedField> fields = readSchema.columns();
    for (int i = 0; i < outputFieldIds.length; i++) {
      positions[i] = indexOf(fields, outputFieldIds[i]);
    }
    if (rowIds) {
      positions[outputFieldIds.length] = indexOf(fields, MetadataColumns.FILE_PATH.fieldId());
      positions[outputFieldIds.length + 1] =
          indexOf(fields, MetadataColumns.ROW_POSITION.fieldId());
    }
    return positions;
  }

  private static int indexOf(List<Types.NestedField> fields, int id) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).fieldId() == id) {
        return i;
      }
    }
    throw new IllegalStateException("Cannot find field id " + id + " in the read schema");
  }

  private Schema withFilterColumns(Schema schema, Expression residual) {
    if (residual == null || residual.op() == Expression.Operation.TRUE) {
      return schema;
    }
    java.util.Set<Integer> ids =
        org.apache.iceberg.expressions.Binder.boundReferences(
            tableSchema.asStruct(), List.of(residual), true);
    List<Types.NestedField> fields = new ArrayList<>(schema.columns());
    Schema needed = TypeUtil.select(tableSchema, ids);
    for (Types.NestedField field : needed.columns()) {
      if (schema.findField(field.fieldId()) == null) {
        fields.add(field);
      }
    }
    return new Schema(fields);
  }
}
