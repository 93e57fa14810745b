package dev.floe.jdbc;

import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;

/**
 * The column labels of a result set, ignoring case as {@code findColumn} does: a label the result
 * set lacks is refused here (42S22) before the result set is asked for its index.
 */
final class ResultLabels {
  private final Set<String> labels = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

  private ResultLabels(ResultSetMetaData meta) throws SQLException {
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      labels.add(meta.getColumnLabel(i));
    }
  }

  /** The labels of a result set's columns. */
  static ResultLabels of(ResultSetMetaData meta) throws SQLException {
    return new ResultLabels(meta);
  }

  /**
   * Refuses a label no column has.
   *
   * @throws SQLException COLUMN_NOT_FOUND (42S22)
   */
  void check(String label) throws SQLException {
    if (label == null || !labels.contains(label)) {
      throw SqlErrors.of(FloeError.COLUMN_NOT_FOUND, "'" + label + "' in the result set");
    }
  }
}
