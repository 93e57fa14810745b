package dev.floe.planner.scan;

import org.apache.iceberg.StructLike;

/**
 * Rows of one Parquet file decoded column by column: {@code columns[c][r]} (or {@code vectors[c]})
 * is the value of column {@code c} (in the order of the schema the batch was read with) in row
 * {@code r}, already in the form Calcite's runtime holds, and row {@code r} is at position {@code
 * firstPosition + r} in the file.
 */
final class ColumnBatch {
  final Object[][] columns;

  /** The same columns as primitive vectors, when the reader was asked for them; else null. */
  final ColumnVector[] vectors;

  final int size;
  final long firstPosition;

  ColumnBatch(Object[][] columns, int size, long firstPosition) {
    this.columns = columns;
    this.vectors = null;
    this.size = size;
    this.firstPosition = firstPosition;
  }

  ColumnBatch(ColumnVector[] vectors, int size, long firstPosition) {
    this.columns = null;
    this.vectors = vectors;
    this.size = size;
    this.firstPosition = firstPosition;
  }

  /** The value of column {@code column} in row {@code row}, as Calcite's runtime holds it. */
  Object value(int column, int row) {
    return columns != null ? columns[column][row] : vectors[column].get(row);
  }

  /** A row of the batch seen as a {@link StructLike}, for evaluating a residual filter. */
  static final class RowView implements StructLike {
    private ColumnBatch batch;
    private int row;

    RowView at(ColumnBatch batch, int row) {
      this.batch = batch;
      this.row = row;
      return this;
    }

    @Override
    public int size() {
      return batch.columns != null ? batch.columns.length : batch.vectors.length;
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      return javaClass.cast(batch.value(pos, row));
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("A batch row is read-only");
    }
  }
}
