package dev.floe.jdbc;

import org.apache.calcite.avatica.util.AbstractCursor;

/**
 * Avatica's cursor over one row of a scan's column batch ({@link
 * dev.floe.planner.scan.ColumnarScan}): its accessors convert values exactly as they do over
 * Calcite's rows, but read them from the column vectors in place. The result set positions it.
 *
 * <p>Not thread-safe.
 */
final class ChunkCursor extends AbstractCursor {
  private Object[][] columns;
  private int row;

  /** Reads row {@code row} of {@code columns} from now on. */
  void at(Object[][] columns, int row) {
    this.columns = columns;
    this.row = row;
  }

  /** Reads row {@code row} of the same columns from now on. */
  void at(int row) {
    this.row = row;
  }

  @Override
  protected Getter createGetter(int ordinal) {
    return new ColumnGetter(ordinal);
  }

  /** The result set moves through the batches itself. */
  @Override
  public boolean next() {
    throw new IllegalStateException("Cannot move a chunk cursor by itself");
  }

  @Override
  public void close() {
    columns = null;
  }

  /** The value of one column in the current row; sets the cursor's NULL flag, as Avatica's do. */
  private final class ColumnGetter extends AbstractGetter {
    private final int column;

    ColumnGetter(int column) {
      this.column = column;
    }

    @Override
    public Object getObject() {
      Object value = columns[column][row];
      wasNull[0] = value == null;
      return value;
    }
  }
}
