package dev.floe.command;

import java.sql.SQLException;
import org.apache.calcite.rel.type.RelDataType;

/**
 * The rows of a query as Calcite's runtime holds them (days, microseconds, {@code BigDecimal},
 * nested values as arrays, lists and maps), with the exact SQL type of each column: what a command
 * that writes a query's rows (CREATE TABLE AS SELECT, MERGE) hands to the one assignment, as an
 * INSERT's plan does. Not thread-safe.
 */
public interface QueryRows {
  /** The SQL type of each column, as Calcite planned it (precisions and nested types included). */
  RelDataType rowType();

  /** Moves to the next row; false after the last. */
  boolean next() throws SQLException;

  /** The value of a column (0-based) of the current row; null for SQL NULL. */
  Object value(int column) throws SQLException;
}
