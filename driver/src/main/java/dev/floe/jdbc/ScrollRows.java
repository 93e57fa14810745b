package dev.floe.jdbc;

import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The rows of a scroll-insensitive result set: each row is read from the query the first time the
 * cursor reaches it (or looks past it: {@code last()}, {@code absolute(-1)}, {@code isLast()}) and
 * kept, as the values Avatica's accessors read, so that the cursor moves back and forth over them
 * and the getters read them through a {@link ChunkCursor} exactly as they read a forward-only row.
 * At most {@link #MAX_ROWS} rows are kept (docs/limits.md); reading more is 53200.
 *
 * <p>Positions are JDBC's: 0 before the first row, 1 to {@code size} a row, {@code size + 1} after
 * the last (once every row is read). Not thread-safe.
 */
final class ScrollRows {
  /** The most rows a scroll-insensitive result set keeps in memory. */
  static final int MAX_ROWS = 1_000_000;

  /** Where the rows come from: the query's forward-only cursor. */
  interface Source {
    /** Moves to the next row; false after the last. */
    boolean next() throws SQLException;

    /**
     * The value of column {@code column} (0-based) of the current row, as the accessor holds it.
     */
    Object value(int column) throws SQLException;
  }

  private final Source source;
  private final int maxRows;
  private final ChunkCursor cursor;

  /** The kept values, column by column. */
  private Object[][] columns;

  private int size;
  private boolean exhausted;
  private int position;

  ScrollRows(Source source, int columnCount, int maxRows, ChunkCursor cursor) {
    this.source = source;
    this.maxRows = maxRows;
    this.cursor = cursor;
    this.columns = new Object[columnCount][16];
  }

  /** Whether the cursor is on a row. */
  boolean onRow() {
    return position >= 1 && position <= size;
  }

  /** Where the cursor is, in words, for a read refused off a row. */
  String where() {
    return position == 0 ? "before the first row" : "after the last row";
  }

  /** Reads one more row of the query into the kept rows; false when there is none. */
  private boolean fill() throws SQLException {
    if (exhausted) {
      return false;
    }
    if (!source.next()) {
      exhausted = true;
      return false;
    }
    if (size >= maxRows) {
      throw SqlErrors.of(
          FloeError.OUT_OF_MEMORY,
          "a scroll-insensitive result set keeps at most "
              + maxRows
              + " rows in memory and the query has more; read it with a forward-only statement"
              + " (ResultSet.TYPE_FORWARD_ONLY) or narrow it with WHERE or LIMIT");
    }
    if (columns.length > 0 && size == columns[0].length) {
      for (int c = 0; c < columns.length; c++) {
        columns[c] = Arrays.copyOf(columns[c], Math.min(maxRows, size * 2));
      }
    }
    for (int c = 0; c < columns.length; c++) {
      columns[c][size] = source.value(c);
    }
    size++;
    return true;
  }

  private void fillAll() throws SQLException {
    while (fill()) {
      // reads the rest
    }
  }

  /** Moves to row {@code target} (1-based); before the first or after the last when beyond. */
  private boolean moveTo(long target) throws SQLException {
    if (target <= 0) {
      position = 0;
      return false;
    }
    while (size < target && fill()) {
      // reads up to the target
    }
    if (target > size) {
      position = size + 1;
      return false;
    }
    position = (int) target;
    cursor.at(columns, position - 1);
    return true;
  }

  boolean next() throws SQLException {
    return position <= size && moveTo(position + 1L);
  }

  boolean previous() throws SQLException {
    return moveTo(position - 1L);
  }

  boolean absolute(int row) throws SQLException {
    if (row >= 0) {
      return moveTo(row);
    }
    fillAll();
    return moveTo(size + 1L + row);
  }

  boolean relative(int rows) throws SQLException {
    return moveTo((long) position + rows);
  }

  boolean first() throws SQLException {
    return moveTo(1);
  }

  boolean last() throws SQLException {
    fillAll();
    return moveTo(size);
  }

  void beforeFirst() {
    position = 0;
  }

  void afterLast() throws SQLException {
    fillAll();
    position = size + 1;
  }

  int row() {
    return onRow() ? position : 0;
  }

  boolean isBeforeFirst() throws SQLException {
    return position == 0 && (size > 0 || fill());
  }

  boolean isAfterLast() {
    return position > size && size > 0;
  }

  boolean isFirst() {
    return position == 1 && size >= 1;
  }

  boolean isLast() throws SQLException {
    return onRow() && position == size && !fill();
  }

  /** Lets go of the kept rows. */
  void close() {
    columns = new Object[columns.length][0];
    size = 0;
    position = 0;
    exhausted = true;
  }
}
