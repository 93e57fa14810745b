package dev.floe.error;

import java.util.Locale;

/**
 * The catalog of every error Floe reports: its SQLState and its message template.
 *
 * <p>Internal code throws {@link FloeException} carrying one of these; the JDBC layer turns it into
 * the right {@link java.sql.SQLException} subclass at one boundary.
 */
public enum FloeError {
  /** A warning added to a connection's chain; the statement succeeded. */
  WARNING("01000", "%s"),
  /** A column or parameter index outside the statement's or result's range. */
  INVALID_INDEX("07009", "Cannot %s: %s"),
  /** A JDBC call with an argument it does not accept (a negative limit, a null executor). */
  INVALID_ARGUMENT("HY024", "Cannot %s: %s"),
  /** A failure Floe did not foresee: a defect in Floe, never a consequence of user input. */
  INTERNAL("HY000", "Internal error: %s"),
  /**
   * A class the driver needs is missing from its jar (a {@link NoClassDefFoundError}): a defect of
   * the build, never of the user's input.
   */
  INCOMPLETE_DRIVER(
      "HY000",
      "Internal error: class %s is missing from the driver; the driver jar %s is incomplete"),
  /** The location cannot be opened: missing root, bad URL, unreachable store. */
  CANNOT_OPEN("08001", "Cannot open %s: %s"),
  /** The connection, statement or result set is closed. */
  CLOSED("08003", "Cannot use %s: it is closed"),
  /** A commit was attempted but its outcome is unknown; written files are kept. */
  COMMIT_STATE_UNKNOWN("08007", "Cannot tell whether the commit to %s succeeded: %s"),
  /** A parameter is not bound, or the number of parameters is wrong. */
  PARAMETER_COUNT("07001", "Cannot execute statement: %s"),
  /** A parameter value of a type that cannot be converted to the parameter's type. */
  PARAMETER_TYPE("07006", "Cannot bind parameter %s: %s"),
  /** A row or value where one was expected, e.g. a MERGE target row matched twice. */
  CARDINALITY("21000", "Cannot %s: %s"),
  /** An INSERT whose value list does not match its column list. */
  VALUE_COUNT("21S01", "Cannot insert into %s: %s"),
  /** A value of a type that cannot be assigned to its column. */
  DATATYPE_MISMATCH("42804", "Cannot assign to column %s: %s"),
  /** A connection or table property value that is not valid. */
  INVALID_PROPERTY("22023", "Cannot use %s: %s"),
  /** A statement too large or too deep to plan or run. */
  TOO_COMPLEX("54001", "Cannot run statement: %s"),
  /** An unquoted name that matches several folders differing only in case. */
  AMBIGUOUS_NAME("42000", "Cannot resolve %s: it matches %s; quote the name to choose one"),
  /** CREATE of a name that is taken beside it, exactly or by a case twin. */
  NAME_TAKEN("42S01", "Cannot create %s: %s"),
  /**
   * A new column name (CREATE TABLE, ADD COLUMN, RENAME COLUMN) that a column of the table bears,
   * or one differing from it only in case.
   */
  COLUMN_EXISTS("42S21", "Cannot name a column %s: %s"),
  /** A file or folder a statement would create, write or delete outside the lake root. */
  OUTSIDE_LAKE("42602", "Cannot %s: %s lies outside the lake root %s"),
  /**
   * A file a statement would take into a table, or a place it would send a table's files, that
   * belongs to another table (its folder, any table's {@code metadata/}), or a place that holds
   * whole tables.
   */
  NOT_OWNED("42602", "Cannot %s: %s"),
  /** The SQL text does not parse. */
  SYNTAX("42000", "Cannot parse SQL: %s"),
  /** CREATE TABLE of a table that exists. */
  TABLE_EXISTS("42S01", "Cannot create table %s: it already exists"),
  /** A table that is not there. */
  TABLE_NOT_FOUND("42S02", "Cannot find table %s"),
  /** A snapshot, branch, tag or point in time a table does not have (time travel). */
  TABLE_VERSION_NOT_FOUND("42S02", "Cannot find %s of table %s: %s"),
  /** A write, DDL or procedure on a metadata table ({@code t$snapshots}), which is read-only. */
  METADATA_TABLE_READ_ONLY("42809", "Cannot %s %s: it is a metadata table, which is read-only"),
  /**
   * A statement that takes a table given a view (a write, TRUNCATE, ALTER TABLE, DROP TABLE,
   * procedures), or DROP VIEW given a table.
   */
  WRONG_KIND("42809", "Cannot %s %s: %s"),
  /** CREATE VIEW of a view that exists. */
  VIEW_EXISTS("42S01", "Cannot create view %s: it already exists"),
  /** A view that is not there. */
  VIEW_NOT_FOUND("42S02", "Cannot find view %s"),
  /** A view whose query names a table or view that is not there any more. */
  VIEW_BROKEN("42S02", "Cannot read view %s: %s"),
  /** A metadata table ({@code t$snapshots}) that does not exist. */
  METADATA_TABLE_NOT_FOUND("42S02", "Cannot find metadata table %s: %s"),
  /** A schema that is not there. */
  SCHEMA_NOT_FOUND("3F000", "Cannot find schema %s"),
  /** A column that is not there. */
  COLUMN_NOT_FOUND("42S22", "Cannot find column %s"),
  /** A name that is not allowed, such as one that leaves the root. */
  INVALID_NAME("42602", "Cannot use name %s: %s"),
  /** Any other semantic error found when validating a statement. */
  VALIDATION("42000", "Cannot validate SQL: %s"),
  /** A table procedure called with an unknown name or argument, or a refused value. */
  PROCEDURE("42000", "Cannot run %s: %s"),
  /** A string too long for its column. */
  STRING_TOO_LONG("22001", "Cannot assign value to %s: %s"),
  /** A procedure argument or connection value too large for its kind (a duration, a size). */
  ARGUMENT_OUT_OF_RANGE("22003", "Cannot use %s: %s"),
  /** A number out of range for its column. */
  NUMERIC_OUT_OF_RANGE("22003", "Cannot assign value to %s: %s"),
  /** A division (or remainder) by zero. */
  DIVISION_BY_ZERO("22012", "Cannot divide by zero: %s"),
  /**
   * A function argument outside what the function accepts: a unit it does not know, a JSON path it
   * cannot read, a capturing group the pattern lacks.
   */
  INVALID_FUNCTION_ARGUMENT("22023", "Cannot compute %s: %s"),
  /** A regular expression that does not compile. */
  INVALID_REGEX("2201B", "Cannot use regular expression %s: %s"),
  /** A datetime literal or value that is not valid. */
  INVALID_DATETIME("22007", "Cannot read datetime value %s: %s"),
  /** A datetime whose field is out of its range (the year 99999). */
  DATETIME_OVERFLOW("22008", "Cannot read datetime value %s: %s"),
  /** A character value that cannot be cast to the target type. */
  INVALID_CAST("22018", "Cannot cast %s: %s"),
  /** NULL assigned to a required column. */
  NULL_NOT_ALLOWED("23502", "Cannot write NULL into required column %s"),
  /**
   * A value read from a scrollable result set whose cursor is before the first or after the last
   * row.
   */
  NO_CURRENT_ROW("24000", "Cannot read column %s: the cursor is %s"),
  /** An operation not allowed in the current transaction state. */
  INVALID_TRANSACTION_STATE("25000", "Cannot %s: %s"),
  /**
   * The transaction was aborted by a failed write whose rows cannot be recovered; only a rollback
   * ends it.
   */
  TRANSACTION_ABORTED(
      "25000", "Cannot %s: the transaction is aborted since writing to %s failed; roll it back"),
  /** A write on a read-only connection. */
  READ_ONLY("25006", "Cannot %s: the connection is read-only"),
  /** A concurrent change conflicts with this transaction; it was rolled back. */
  COMMIT_CONFLICT("40001", "Cannot commit to %s: %s"),
  /** The statement needs more memory than the JVM has; the connection stays usable. */
  OUT_OF_MEMORY("53200", "Cannot run statement: %s"),
  /** The statement was cancelled or ran past its timeout. */
  CANCELLED("57014", "Statement cancelled: %s"),
  /** A feature Floe does not support. */
  NOT_SUPPORTED("0A000", "Not supported: %s"),
  /** A file that is missing, unreadable or corrupt. */
  IO("58030", "Cannot read or write %s: %s");

  private final String sqlState;
  private final String template;

  FloeError(String sqlState, String template) {
    this.sqlState = sqlState;
    this.template = template;
  }

  /** The SQLState reported with this error. */
  public String sqlState() {
    return sqlState;
  }

  /** Formats this error's message with its arguments. */
  public String format(Object... args) {
    return String.format(Locale.ROOT, template, args);
  }

  /** Creates the exception for this error. */
  public FloeException error(Object... args) {
    return new FloeException(this, format(args), null);
  }

  /** Creates the exception for this error, chaining its cause. */
  public FloeException error(Throwable cause, Object... args) {
    return new FloeException(this, format(args), cause);
  }
}
