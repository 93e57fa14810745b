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
import org.apache.iceberg.expressions.Expressions;
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
  private ScanStats stats;

  TaskReader(
      FileIO io,
      Schema tableSchema,
      List<Integer> columns,
      boolean rowIds,
      StatementDeleteCache deleteCache) {
    this(io, tableSchema, columns, rowIds, deleteCache, true);
  }

  /** As above; {@code batches} false reads every task row by row (tests compare the two). */
  TaskReader(
      FileIO io,
      Schema tableSchema,
      List<Integer> columns,
      boolean rowIds,
      StatementDeleteCache deleteCache,
      boolean batches) {
    this.batches = batches;
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

  /** What the scan tests on each row after deletes and the filter, or null. */
  private ScanExpression condition;

  /** The table's top-level columns the condition reads. */
  private int[] conditionColumns = new int[0];

  /**
   * Keeps only the rows for which {@code test} (its columns numbered as the table's top-level
   * columns) is TRUE, after deletes and the residual filter; null tests nothing.
   */
  void condition(ScanExpression test) {
    this.condition = test;
    java.util.Set<Integer> read = new java.util.TreeSet<>();
    if (test != null) {
      test.columns(read);
    }
    this.conditionColumns = read.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The vectors (or positions) of the condition's columns in a batch read with {@code schema}:
   * {@code positions[c]} for table column {@code c}, -1 for the columns it does not read.
   */
  private int[] conditionPositions(Schema schema) {
    int[] positions = new int[tableSchema.columns().size()];
    java.util.Arrays.fill(positions, -1);
    for (int c : conditionColumns) {
      positions[c] = indexOf(schema.columns(), tableSchema.columns().get(c).fieldId());
    }
    return positions;
  }

  /** The condition's value (TRUE keeps the row) for a row whose table column c is at value(c). */
  private boolean passes(ScanExpression.Row row) {
    return Boolean.TRUE.equals(condition.evaluate(row));
  }

  /** What the scan emits of each row instead of its columns, or null: the columns. */
  private LakeProjection projection;

  /** Emits {@code emitted} of each row's columns ({@link LakeProjection}) instead of them. */
  void projection(LakeProjection emitted) {
    if (emitted != null && rowIds) {
      throw new IllegalArgumentException("a scan with row ids emits its columns");
    }
    this.projection = emitted;
  }

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
    if (stats != null) {
      stats.fileOpened(task);
    }
    Schema requested = withFilterColumns(outputSchema, residual);
    LakeDeleteFilter deletes = new LakeDeleteFilter(task, tableSchema, requested, io, deleteCache);
    Map<Integer, ?> constants = PartitionUtil.constantsMap(task);
    Schema batchSchema = batchSchema(deletes, requested);
    if (batches && !rowIds && batchSchema != null && BatchReader.canRead(batchSchema)) {
      return new BatchedTask(task, batchSchema, residual, deletes, constants);
    }
    return rowByRow(task, residual, deletes, constants);
  }

  /**
   * Reads a task with Iceberg's row reader, which handles every type and every kind of delete: for
   * files with columns the batch reader does not decode, and for DELETE and UPDATE (row ids).
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
    if (condition != null) {
      int[] at = conditionPositions(readSchema);
      ValueConverter[] convert = new ValueConverter[at.length];
      for (int c : conditionColumns) {
        convert[c] = ValueConverter.toCalcite(tableSchema.columns().get(c).type());
      }
      rows =
          CloseableIterable.filter(
              rows,
              row ->
                  passes(
                      c -> {
                        Object value = row.get(at[c], Object.class);
                        return value == null ? null : convert[c].convert(value);
                      }));
    }
    int[] positions = positionsIn(readSchema);
    int width = outputFieldIds.length + (rowIds ? 2 : 0);
    ProjectedRows projected =
        projection == null ? null : new ProjectedRows(projection, outputFieldIds.length);
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
          return projected == null ? out : projected.row(out);
        });
  }

  /**
   * Receives the live rows of a task: column batches where the file decodes in batches, else rows.
   */
  interface RowSink {
    /**
     * Rows {@code rows[0..count)} of a batch, or rows {@code 0..count)} when {@code rows} is null;
     * {@code columns[i]} holds the values of the scan's column {@code i} (valid during the call).
     */
    void batch(ColumnVector[] columns, int[] rows, int count);

    /** One row, in the scan's column order. */
    void row(Object[] row);
  }

  /**
   * Reads a task's live rows (deletes and the residual filter applied) into {@code sink} in file
   * order, a column batch at a time where the batch reader decodes the file, so that no row becomes
   * an array; {@code afterBatch} runs after each batch (every 4096 rows read row by row). With a
   * projection, the sink gets its outputs (a value that failed to compute is a {@link
   * LakeProjection.Failed}, to be thrown when its row is taken).
   */
  void read(FileScanTask task, RowSink sink, Runnable afterBatch) throws java.io.IOException {
    if (task.file().format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException(
          "Cannot read " + task.file().location() + ": only Parquet data files are supported");
    }
    if (stats != null) {
      stats.fileOpened(task);
    }
    Expression residual = task.residual();
    Schema requested = withFilterColumns(outputSchema, residual);
    LakeDeleteFilter deletes = new LakeDeleteFilter(task, tableSchema, requested, io, deleteCache);
    Map<Integer, ?> constants = PartitionUtil.constantsMap(task);
    Schema batchSchema = batchSchema(deletes, requested);
    if (batches
        && !rowIds
        && batchSchema != null
        && BatchReader.canRead(batchSchema)
        && readBatches(task, batchSchema, residual, deletes, constants, sink, afterBatch)) {
      return;
    }
    try (CloseableIterable<Object[]> rows = rowByRow(task, residual, deletes, constants)) {
      int read = 0;
      for (Object[] row : rows) {
        sink.row(row);
        if ((++read & 4095) == 0) {
          afterBatch.run();
        }
      }
    }
  }

  /** Reads a task in column batches; false when the file turns out to need the row reader. */
  private boolean readBatches(
      FileScanTask task,
      Schema requested,
      Expression residual,
      LakeDeleteFilter deletes,
      Map<Integer, ?> constants,
      RowSink sink,
      Runnable afterBatch)
      throws java.io.IOException {
    BatchReader[] created = new BatchReader[1];
    List<ColumnBatch> small = keptBatches(task, requested, constants);
    CloseableIterable<ColumnBatch> batches =
        small != null
            ? CloseableIterable.withNoopClose(small)
            : batched(task, requested, residual, constants, true, created);
    try (batches;
        CloseableIterator<ColumnBatch> iterator = batches.iterator()) {
      if (created[0] != null && !created[0].decodes()) {
        return false;
      }
      PositionDeleteIndex deleted = deletes.hasPosDeletes() ? deletes.deletedRowPositions() : null;
      Evaluator evaluator =
          isTrue(residual) ? null : new Evaluator(requested.asStruct(), residual, true);
      EqualityFilter equality =
          deletes.hasEqDeletes() ? new EqualityFilter(deletes, requested) : null;
      VectorFilter compiled =
          evaluator == null ? null : VectorFilter.compile(residual, requested.asStruct());
      int[] positions = positionsIn(requested);
      ColumnVector[] columns = new ColumnVector[positions.length];
      LiveRows selector =
          new LiveRows(
              deleted,
              equality,
              evaluator,
              compiled,
              condition == null ? null : conditionPositions(requested));
      int[] live = null;
      ProjectedRows projected =
          projection == null ? null : new ProjectedRows(projection, outputFieldIds.length);
      while (iterator.hasNext()) {
        ColumnBatch batch = iterator.next();
        for (int i = 0; i < positions.length; i++) {
          columns[i] = batch.vectors[positions[i]];
        }
        int[] rows = null;
        int count = batch.size;
        if (!selector.all()) {
          if (live == null || live.length < batch.size) {
            live = new int[batch.size];
          }
          count = selector.select(batch, live);
          rows = live;
        }
        if (projected != null) {
          projected.batch(batch, positions, rows, count);
          sink.batch(projected.vectors(), rows, count);
        } else {
          sink.batch(columns, rows, count);
        }
        afterBatch.run();
      }
      return true;
    }
  }

  /**
   * A small file's batches as {@link SmallFiles} keeps them (decoded now and kept when first read),
   * or null when the file is not one to keep, the batch reader cannot decode it, the scan records
   * what it reads (EXPLAIN ANALYZE counts files and row groups really read), or the table reads
   * files through a name mapping.
   */
  private List<ColumnBatch> keptBatches(
      FileScanTask task, Schema requested, Map<Integer, ?> constants) throws java.io.IOException {
    SmallFiles.Key key =
        stats != null || nameMapping != null
            ? null
            : SmallFiles.keyOf(task, requested, constants, io);
    if (key == null) {
      return null;
    }
    List<ColumnBatch> kept = SmallFiles.get(key);
    if (kept != null) {
      return kept;
    }
    BatchReader[] created = new BatchReader[1];
    List<ColumnBatch> copies = new ArrayList<>();
    // the whole file, no row group skipped: the residual is applied to the kept rows every time
    try (CloseableIterable<ColumnBatch> batches =
            batched(task, requested, Expressions.alwaysTrue(), constants, true, created);
        CloseableIterator<ColumnBatch> iterator = batches.iterator()) {
      if (created[0] != null && !created[0].decodes()) {
        return null;
      }
      while (iterator.hasNext()) {
        copies.add(SmallFiles.copy(iterator.next()));
      }
    }
    return SmallFiles.keep(key, copies);
  }

  /**
   * Iceberg's reader of a task's split in batches decoded by {@link BatchReader} (into primitive
   * vectors when {@code vectors}); once the file is open, {@code created[0]} is the decoder, which
   * says whether it decodes the file. Row groups read are recorded in the scan's stats.
   */
  private CloseableIterable<ColumnBatch> batched(
      FileScanTask task,
      Schema requested,
      Expression residual,
      Map<Integer, ?> constants,
      boolean vectors,
      BatchReader[] created) {
    return read(task, requested, residual)
        .recordsPerBatch(BatchReader.BATCH_ROWS)
        .createBatchedReaderFunc(
            fileSchema -> {
              BatchReader reader = BatchReader.create(requested, fileSchema, constants);
              created[0] = vectors ? reader.intoVectors() : reader;
              if (stats != null && created[0].decodes()) {
                created[0].onRowGroup(stats::rowGroupRead);
              }
              return created[0];
            })
        .build();
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
      PositionDeleteIndex deleted = deletes.hasPosDeletes() ? deletes.deletedRowPositions() : null;
      Evaluator evaluator =
          isTrue(residual) ? null : new Evaluator(requested.asStruct(), residual, true);
      EqualityFilter equality =
          deletes.hasEqDeletes() ? new EqualityFilter(deletes, requested) : null;
      List<ColumnBatch> kept;
      try {
        kept = keptBatches(task, requested, constants);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      if (kept != null) {
        return new BatchRows(
            CloseableIterator.withClose(kept.iterator()),
            deleted,
            equality,
            evaluator,
            evaluator == null ? null : VectorFilter.compile(residual, requested.asStruct()),
            positionsIn(requested),
            conditionPositions(requested));
      }
      BatchReader[] created = new BatchReader[1];
      CloseableIterable<ColumnBatch> batches =
          // primitive vectors when a filter selects rows on them (only the rows kept are boxed);
          // else boxed columns, whose dictionary entries are boxed once per column chunk
          batched(
              task,
              requested,
              residual,
              constants,
              !isTrue(residual) || condition != null || projection != null,
              created);
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
      return new BatchRows(
          iterator,
          deleted,
          equality,
          evaluator,
          evaluator == null ? null : VectorFilter.compile(residual, requested.asStruct()),
          positionsIn(requested),
          conditionPositions(requested));
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

  /**
   * Which rows of a batch are live, selected a batch at a time: not deleted by position or by
   * equality, passing the residual (compiled for the batch's vectors when it can be) and the scan's
   * condition over its columns. One selection for the columnar reader and the batch-filtered row
   * reader.
   */
  private final class LiveRows {
    private final PositionDeleteIndex deleted;
    private final EqualityFilter equality;
    private final Evaluator evaluator;
    private final VectorFilter compiled;
    private final int[] conditionAt;
    private final ColumnBatch.RowView view = new ColumnBatch.RowView();
    private final ExpressionColumn.Filter tested;
    private final ColumnVector[] testedColumns;

    LiveRows(
        PositionDeleteIndex deleted,
        EqualityFilter equality,
        Evaluator evaluator,
        VectorFilter compiled,
        int[] conditionAt) {
      this.deleted = deleted;
      this.equality = equality;
      this.evaluator = evaluator;
      this.compiled = compiled;
      this.conditionAt = conditionAt;
      this.tested = condition == null ? null : new ExpressionColumn.Filter(condition);
      this.testedColumns = condition == null ? null : new ColumnVector[conditionAt.length];
    }

    /** True when every row of every batch is live (nothing to delete or test). */
    boolean all() {
      return deleted == null && equality == null && evaluator == null && tested == null;
    }

    /** Puts the live rows of a batch, in order, at the start of {@code rows}; their count. */
    int select(ColumnBatch batch, int[] rows) {
      int kept = 0;
      if (batch.vectors == null) {
        // boxed columns: each row tested as it is
        for (int r = 0; r < batch.size; r++) {
          int row = r;
          if ((deleted == null || !deleted.isDeleted(batch.firstPosition + row))
              && (equality == null || equality.live(batch, row))
              && (evaluator == null || evaluator.eval(view.at(batch, row)))
              && (condition == null || passes(c -> batch.value(conditionAt[c], row)))) {
            rows[kept++] = row;
          }
        }
        return kept;
      }
      if (deleted == null && equality == null && compiled != null) {
        kept = compiled.select(batch, null, batch.size, rows, evaluator, view);
      } else {
        for (int row = 0; row < batch.size; row++) {
          if (deleted != null && deleted.isDeleted(batch.firstPosition + row)) {
            continue;
          }
          if (equality != null && !equality.live(batch, row)) {
            continue;
          }
          rows[kept++] = row;
        }
        if (compiled != null) {
          kept = compiled.select(batch, rows, kept, rows, evaluator, view);
        }
      }
      if (compiled == null && evaluator != null) {
        int passed = 0;
        for (int i = 0; i < kept; i++) {
          if (evaluator.eval(view.at(batch, rows[i]))) {
            rows[passed++] = rows[i];
          }
        }
        kept = passed;
      }
      if (tested != null) {
        for (int c : conditionColumns) {
          testedColumns[c] = batch.vectors[conditionAt[c]];
        }
        kept = tested.select(testedColumns, rows, kept, rows);
      }
      return kept;
    }
  }

  /** The live rows of a file's batches, in file order. */
  private final class BatchRows implements CloseableIterator<Object[]> {
    private final CloseableIterator<ColumnBatch> batches;
    private final LiveRows selector;
    private final int[] positions;
    private ColumnBatch batch;
    private int index;
    private int count;
    private int[] rows;
    private int[] live;
    private Object[] pending;
    private final ProjectedRows projected;

    BatchRows(
        CloseableIterator<ColumnBatch> batches,
        PositionDeleteIndex deleted,
        EqualityFilter equality,
        Evaluator evaluator,
        VectorFilter compiled,
        int[] positions,
        int[] conditionAt) {
      this.batches = batches;
      this.selector = new LiveRows(deleted, equality, evaluator, compiled, conditionAt);
      this.positions = positions;
      this.projected =
          projection == null ? null : new ProjectedRows(projection, outputFieldIds.length);
    }

    @Override
    public boolean hasNext() {
      while (pending == null) {
        if (batch != null && index < count) {
          int row = live == null ? index : live[index];
          index++;
          if (projected != null) {
            pending = projected.row(row);
            continue;
          }
          Object[] out = new Object[positions.length];
          for (int i = 0; i < positions.length; i++) {
            out[i] = batch.value(positions[i], row);
          }
          pending = out;
        } else if (batches.hasNext()) {
          batch = batches.next();
          index = 0;
          if (selector.all()) {
            live = null;
            count = batch.size;
          } else {
            if (rows == null || rows.length < batch.size) {
              rows = new int[batch.size];
            }
            live = rows;
            count = selector.select(batch, rows);
          }
          if (projected != null) {
            projected.batch(batch, positions, live, count);
          }
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

  /**
   * The columns a file is decoded in batches with: those requested, plus the columns equality
   * deletes compare; null when the deletes need a column the batch reader cannot supply.
   */
  private static Schema batchSchema(LakeDeleteFilter deletes, Schema requested) {
    if (!deletes.hasEqDeletes()) {
      return requested;
    }
    List<Types.NestedField> fields = new ArrayList<>();
    for (Types.NestedField field : deletes.requiredSchema().columns()) {
      if (field.fieldId() == MetadataColumns.ROW_POSITION.fieldId()) {
        continue; // the batch's own row positions
      }
      if (MetadataColumns.isMetadataColumn(field.name())) {
        return null;
      }
      fields.add(field);
    }
    return new Schema(fields);
  }

  /**
   * Equality deletes checked on decoded batch rows: a row is shown to Iceberg's delete predicate as
   * a row of the delete filter's required schema, whose values the batch already holds in Iceberg's
   * internal forms (the delete files themselves are loaded once per statement).
   */
  private static final class EqualityFilter implements StructLike {
    private final java.util.function.Predicate<StructLike> live;
    private final int[] columns;
    private ColumnBatch batch;
    private int row;

    EqualityFilter(LakeDeleteFilter deletes, Schema batchSchema) {
      this.live = deletes.eqDeletedRowFilter();
      List<Types.NestedField> required = deletes.requiredSchema().columns();
      this.columns = new int[required.size()];
      for (int i = 0; i < columns.length; i++) {
        int id = required.get(i).fieldId();
        columns[i] =
            id == MetadataColumns.ROW_POSITION.fieldId() ? -1 : indexOf(batchSchema.columns(), id);
      }
    }

    /** Whether no equality delete removes row {@code row} of {@code batch}. */
    boolean live(ColumnBatch rows, int index) {
      this.batch = rows;
      this.row = index;
      return live.test(this);
    }

    @Override
    public int size() {
      return columns.length;
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      int column = columns[pos];
      return javaClass.cast(column < 0 ? batch.firstPosition + row : batch.value(column, row));
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("A batch row is read-only");
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

  /** The position of field {@code id} among {@code fields} (a read schema's columns). */
  static int indexOf(List<Types.NestedField> fields, int id) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).fieldId() == id) {
        return i;
      }
    }
    throw new IllegalStateException("Cannot find field id " + id + " in the read schema");
  }

  /** The schema with the columns the condition reads added where missing. */
  private Schema withConditionColumns(Schema schema) {
    List<Types.NestedField> fields = null;
    for (int c : conditionColumns) {
      Types.NestedField field = tableSchema.columns().get(c);
      if (schema.findField(field.fieldId()) == null) {
        if (fields == null) {
          fields = new ArrayList<>(schema.columns());
        }
        fields.add(field);
      }
    }
    return fields == null ? schema : new Schema(fields);
  }

  private Schema withFilterColumns(Schema schema, Expression residual) {
    schema = withConditionColumns(schema);
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
