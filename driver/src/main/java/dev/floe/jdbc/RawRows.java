package dev.floe.jdbc;

import dev.floe.command.QueryRows;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.calcite.avatica.util.Cursor;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A Calcite result set read through the accessors' run-time values ({@link RowAccessors#raw}), so
 * that a command writing a query's rows sees exactly what an INSERT's plan hands to the writer: a
 * TIME finer than milliseconds as its {@code long}, a timestamp as its microseconds or nanoseconds,
 * nested values as Calcite holds them. Not thread-safe.
 */
final class RawRows implements QueryRows {
  private final ResultSet results;
  private final RelDataType rowType;
  private final Cursor.Accessor[] accessors;

  private RawRows(ResultSet results, RelDataType rowType, Cursor.Accessor[] accessors) {
    this.results = results;
    this.rowType = rowType;
    this.accessors = accessors;
  }

  /** Reads a Calcite result set; fails (a defect) where its accessors cannot be reached. */
  static RawRows of(ResultSet calcite) throws SQLException {
    int columns = calcite.getMetaData().getColumnCount();
    RelDataType rowType = RowAccessors.rowType(calcite);
    Cursor.Accessor[] accessors = RowAccessors.of(calcite, columns);
    boolean readable = rowType != null && rowType.getFieldCount() == columns && accessors != null;
    for (int i = 1; readable && i <= columns; i++) {
      readable = RowAccessors.readsRaw(accessors[i]);
    }
    if (!readable) {
      throw SqlErrors.of(FloeError.INTERNAL, "the run-time values of a query cannot be read");
    }
    return new RawRows(calcite, rowType, accessors);
  }

  @Override
  public RelDataType rowType() {
    return rowType;
  }

  @Override
  public boolean next() throws SQLException {
    return results.next();
  }

  @Override
  public Object value(int column) throws SQLException {
    return RowAccessors.raw(accessors[column + 1]);
  }
}
