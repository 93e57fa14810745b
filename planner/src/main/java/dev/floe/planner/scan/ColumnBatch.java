package dev.floe.planner.scan;

import org.apache.iceberg.StructLike;

/**
 * Rows of one Parquet file decoded column by column: {@code columns[c][r]} is the value of column
 * {@code c} (in the order of the schema the batch was read with) in row {@code r}, already in the
 * form Calcite's runtime holds, and row {@code r} is at position {@code firstPosition + r} in the
 * file.
 */
final class ColumnBatch {
  final Object[][] columns;
  final int size;
  final long firstPosition;

  ColumnBatch(Object[][] columns, int size, long firstPosition) {
    this.columns = columns;
    this.size = size;
    this.firstPosition = firstPosition;
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
      return batch.columns.length;
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      return javaClass.cast(batch.columns[pos][row]);
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("A batch row is read-only");
    }
  }
}
