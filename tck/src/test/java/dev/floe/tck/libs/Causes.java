package dev.floe.tck.libs;

import java.sql.SQLException;

/** Reads what a library's own exception wraps. */
final class Causes {
  private Causes() {}

  /** The first SQLException in a throwable's chain of causes, or null. */
  static SQLException sqlException(Throwable thrown) {
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof SQLException e) {
        return e;
      }
    }
    return null;
  }

  /** The SQLState of the first SQLException in a throwable's chain of causes, or null. */
  static String sqlState(Throwable thrown) {
    SQLException e = sqlException(thrown);
    return e == null ? null : e.getSQLState();
  }
}
