package dev.floe.error;

/**
 * An unchecked failure that carries its {@link FloeError}; converted to a {@link
 * java.sql.SQLException} at the JDBC boundary.
 */
public final class FloeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final FloeError error;

  FloeException(FloeError error, String message, Throwable cause) {
    super(message, cause);
    this.error = error;
  }

  /** The catalogued error. */
  public FloeError error() {
    return error;
  }

  /** The SQLState of the catalogued error. */
  public String sqlState() {
    return error.sqlState();
  }
}
