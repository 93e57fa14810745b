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
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Reads one file task into Calcite rows: opens the Parquet file with the projection the query
 * needs (plus what deletes and the residual filter need), applies deletes and the residual, and
 * converts each row. Values stay in Iceberg's internal representation until the conversion, which
 * keeps them cheap (see {@link ValueConverter}).
 */
final class TaskReader {
  private final FileIO io;
  private final Schema tableSchema;
  private final Schema outputSchema;
  private final int[] outputFieldIds;
  private final ValueConverter[] converters;
  private final boolean rowIds;
  private final StatementDeleteCache deleteCache;

  TaskReader(
      FileIO io,
      Schema tableSchema,
      List<Integer> columns,
      boolean rowIds,
      StatementDeleteCache deleteCache) {
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

  /** Opens a task; the caller closes the returned iterable. */
  CloseableIterable<Object[]> open(FileScanTask task) {
    if (task.file().format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException(
          "Cannot read " + task.file().location() + ": only Parquet data files are supported");
    }
    Expression residual = task.residual();
    Schema requested = withFilterColumns(outputSchema, residual);
    LakeDeleteFilter deletes =
        new LakeDeleteFilter(task, tableSchema, requested, io, deleteCache);
    Schema readSchema = deletes.requiredSchema();
    Map<Integer, ?> constants = PartitionUtil.constantsMap(task);
    CloseableIterable<StructLike> rows =
        Parquet.read(io.newInputFile(task.file().location()))
            .project(readSchema)
            .split(task.start(), task.length())
            .filter(residual)
            .caseSensitive(true)
            .reuseContainers()
            .createReaderFunc(
                fileSchema -> InternalReader.create(readSchema, fileSchema, constants))
            .build();
    rows = deletes.filter(rows);
    if (residual != null && residual.op() != Expression.Operation.TRUE) {
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
