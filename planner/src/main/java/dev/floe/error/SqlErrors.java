package dev.floe.error;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLWarning;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * The one boundary where failures become {@link SQLException}s (and notices {@link SQLWarning}s):
 * Floe's catalogued errors keep their SQLState; Calcite's parse and validation errors and Iceberg's
 * file errors are given theirs; each becomes the {@code SQLException} subclass its SQLState class
 * calls for, with the cause chained.
 *
 * <p>Floe checks what it can before it calls Calcite or Iceberg and raises its own {@link
 * FloeError} (table and column names, INSERT column lists and VALUES rows, datetime literals,
 * unbound parameters, result set labels). What only the dependency can tell (a name inside a
 * query's scopes, a type Calcite cannot assign, a value that fails as the statement runs) is told
 * apart here by the dependency's message, since Calcite gives its errors no code of their own (no
 * upstream issue asks for one); each message matched is provoked by {@code DependencyMessagesTest},
 * which fails when a new version words it otherwise.
 */
public final class SqlErrors {
  private static final Pattern OBJECT_NOT_FOUND =
      Pattern.compile("(?:Object|Table) '([^']*)' not found.*");
  private static final Pattern COLUMN_NOT_FOUND = Pattern.compile("Column '([^']*)' not found.*");

  private static final Pattern LABEL_NOT_FOUND = Pattern.compile("column '([^']*)' not found");
  private static final Pattern INSERT_INTO = Pattern.compile("(?i)\\bINSERT\\s+INTO\\s+([^\\s(]+)");

  private SqlErrors() {}

  /** A JDBC call into Calcite that returns a value. */
  @FunctionalInterface
  public interface Call<T> {
    T call() throws SQLException;
  }

  /** A JDBC call into Calcite that returns nothing. */
  @FunctionalInterface
  public interface VoidCall {
    void run() throws SQLException;
  }

  /**
   * Makes a call into Calcite; its failures, {@link Error}s included, become SQLExceptions as
   * {@link #toSql} makes them.
   */
  public static <T> T call(Call<T> call) throws SQLException {
    try {
      return call.call();
    } catch (SQLException | RuntimeException | Error e) {
      throw toSql(e);
    }
  }

  /** As {@link #call}, for a call that returns nothing. */
  public static void run(VoidCall call) throws SQLException {
    try {
      call.run();
    } catch (SQLException | RuntimeException | Error e) {
      throw toSql(e);
    }
  }

  /**
   * Converts any failure into the SQLException a user should see. A {@link java.lang.Error} never
   * passes: a statement out of memory is 53200, one nested too deeply 54001, a class missing from
   * the driver jar HY000 naming the class, and any other HY000 naming the error.
   */
  public static SQLException toSql(Throwable failure) {
    FloeException unknown = find(failure, FloeException.class);
    if (unknown != null && unknown.sqlState().equals(FloeError.COMMIT_STATE_UNKNOWN.sqlState())) {
      // whatever stopped a publish, the caller must first learn that its outcome is unknown
      return create(unknown.sqlState(), unknown.getMessage(), failure);
    }
    NoClassDefFoundError missing = find(failure, NoClassDefFoundError.class);
    if (missing != null
        && !String.valueOf(missing.getMessage()).startsWith("Could not initialize")) {
      // The JVM's words for a class whose initializer failed before (JLS 12.4.2): not missing.
      return create(
          FloeError.INCOMPLETE_DRIVER.sqlState(),
          FloeError.INCOMPLETE_DRIVER.format(
              String.valueOf(missing.getMessage()).replace('/', '.'), jarOf(SqlErrors.class)),
          failure);
    }
    if (find(failure, StackOverflowError.class) != null) {
      // Parsing, validating and planning recurse once per level of nesting.
      String sql = statement(failure);
      return create(
          FloeError.TOO_COMPLEX.sqlState(),
          FloeError.TOO_COMPLEX.format(
              "it is nested too deeply to plan (thousands of terms in one expression, or types"
                  + " nested thousands deep); split it"
                  + (sql.length() > 120 ? sql.substring(0, 120) + " ..." : sql)),
          failure);
    }
    OutOfMemoryError memory = find(failure, OutOfMemoryError.class);
    if (memory != null) {
      // Thrown where an allocation failed, typically a join, sort or MERGE holding more rows
      // than the heap; its objects are gone once the statement unwinds, so the connection goes on.
      return create(
          FloeError.OUT_OF_MEMORY.sqlState(),
          FloeError.OUT_OF_MEMORY.format(
              "it needs more memory than the JVM has ("
                  + memory.getMessage()
                  + "); filter or split its input, or give the JVM a larger heap"
                  + statement(failure)),
          failure);
    }
    FloeException floe = find(failure, FloeException.class);
    if (floe != null) {
      String message = floe.getMessage();
      if (floe.sqlState().startsWith("22") || floe.sqlState().startsWith("23")) {
        // A value that does not fit: say which statement it came from.
        message += statement(failure);
      }
      return create(floe.sqlState(), message, failure);
    }
    if (failure instanceof SQLException && isOurs((SQLException) failure)) {
      return (SQLException) failure;
    }
    if (compilerSays(failure, "grows beyond 64 KB")) {
      // Calcite compiles each statement to one Java method, and the JVM caps a method at 64 KB:
      // an INSERT of a few thousand literal rows does not fit. Janino calls the cap a hard limit
      // (janino-compiler/janino#18); Floe cannot tell the size of the code before it is generated.
      String sql = statement(failure);
      return create(
          FloeError.NOT_SUPPORTED.sqlState(),
          FloeError.NOT_SUPPORTED.format(
              "a statement this large: its compiled form is over the JVM's 64 KB limit for a"
                  + " method; split it, or insert the rows through a PreparedStatement batch"
                  + (sql.length() > 120 ? sql.substring(0, 120) + " ..." : sql)),
          failure);
    }
    SqlParseException parse = find(failure, SqlParseException.class);
    if (parse != null) {
      return create(
          FloeError.SYNTAX.sqlState(),
          FloeError.SYNTAX.format(firstLine(parse) + statement(failure)),
          failure);
    }
    SqlValidatorException validation = find(failure, SqlValidatorException.class);
    if (validation != null) {
      String message = validation.getMessage();
      CalciteContextException context = find(failure, CalciteContextException.class);
      String where = context == null ? message : context.getMessage();
      // Names inside a query's scopes (a table alias, a column of a subquery) only the validator
      // resolves; it tells what it could not find by its messages alone.
      Matcher table = OBJECT_NOT_FOUND.matcher(message);
      if (table.matches()) {
        return create(
            FloeError.TABLE_NOT_FOUND.sqlState(),
            "Cannot find table " + table.group(1) + ": " + where,
            failure);
      }
      Matcher column = COLUMN_NOT_FOUND.matcher(message);
      if (column.matches()) {
        return create(
            FloeError.COLUMN_NOT_FOUND.sqlState(), "Cannot find column: " + where, failure);
      }
      if (message.startsWith("Number of INSERT target columns")) {
        // INSERT ... SELECT: Floe checks a VALUES row's length before validation, a query's
        // column count only the validator knows (SELECT *).
        Matcher insert = INSERT_INTO.matcher(statement(failure));
        return create(
            FloeError.VALUE_COUNT.sqlState(),
            FloeError.VALUE_COUNT.format(insert.find() ? insert.group(1) : "the table", where),
            failure);
      }
      return create(FloeError.VALIDATION.sqlState(), FloeError.VALIDATION.format(where), failure);
    }
    NotFoundException notFound = find(failure, NotFoundException.class);
    if (notFound != null) {
      return create(FloeError.IO.sqlState(), "Cannot read file: " + notFound.getMessage(), failure);
    }
    Throwable unreadable = find(failure, java.io.UncheckedIOException.class);
    if (unreadable != null) {
      // Iceberg's RuntimeIOException: a manifest list or manifest that cannot be opened or read,
      // named in its message ("Failed to open file: ...").
      return create(
          FloeError.IO.sqlState(),
          "Cannot read or write file: " + unreadable.getMessage() + statement(failure),
          failure);
    }
    Throwable arithmetic = find(failure, ArithmeticException.class);
    if (arithmetic != null && isDivisionByZero(arithmetic.getMessage())) {
      return create(
          FloeError.DIVISION_BY_ZERO.sqlState(),
          FloeError.DIVISION_BY_ZERO.format(arithmetic.getMessage() + statement(failure)),
          failure);
    }
    if (arithmetic != null) {
      return create(
          FloeError.NUMERIC_OUT_OF_RANGE.sqlState(),
          "Numeric value out of range: " + arithmetic.getMessage() + statement(failure),
          failure);
    }
    java.util.regex.PatternSyntaxException regex =
        find(failure, java.util.regex.PatternSyntaxException.class);
    if (regex != null) {
      // A pattern of Calcite's regular-expression functions (REGEXP_LIKE, REGEXP_REPLACE).
      return create(
          FloeError.INVALID_REGEX.sqlState(),
          FloeError.INVALID_REGEX.format(
              "'" + regex.getPattern() + "'", regex.getDescription() + statement(failure)),
          failure);
    }
    Throwable numberFormat = find(failure, NumberFormatException.class);
    if (numberFormat != null) {
      return create(
          FloeError.INVALID_CAST.sqlState(),
          "Cannot cast to a number: " + numberFormat.getMessage() + statement(failure),
          failure);
    }
    ExceptionInInitializerError init = find(failure, ExceptionInInitializerError.class);
    if (init != null && init.getCause() instanceof IllegalArgumentException) {
      // A constant Calcite's generated code computes when it loads, such as a cast of a literal;
      // Avatica's DateTimeUtils words a date it cannot read so.
      String message = String.valueOf(init.getCause().getMessage());
      return create(
          message.contains("field is out of range") || message.contains("Invalid DATE")
              ? FloeError.INVALID_DATETIME.sqlState()
              : FloeError.INVALID_CAST.sqlState(),
          "Cannot compute a constant: " + message + statement(failure),
          init.getCause());
    }
    ClassCastException cast = find(failure, ClassCastException.class);
    if (cast != null) {
      // Parameters are assigned to their types when they are set, so a value of the wrong class
      // is a defect: Floe's, or that of Calcite's generated code.
      StackTraceElement[] trace = cast.getStackTrace();
      return create(
          FloeError.INTERNAL.sqlState(),
          FloeError.INTERNAL.format(
              cast.getMessage() + (trace.length > 0 ? " at " + trace[0] : "") + statement(failure)),
          failure);
    }
    Throwable unsupported = find(failure, UnsupportedOperationException.class);
    if (unsupported != null) {
      return create(
          FloeError.NOT_SUPPORTED.sqlState(),
          FloeError.NOT_SUPPORTED.format(String.valueOf(unsupported.getMessage())),
          failure);
    }
    if (failure instanceof SQLException && ((SQLException) failure).getSQLState() != null) {
      return (SQLException) failure;
    }
    if (failure instanceof SQLException) {
      return stateless((SQLException) failure);
    }
    String message = failure.getMessage() == null ? failure.toString() : failure.getMessage();
    Error error = find(failure, Error.class);
    if (error != null && !(failure instanceof Error)) {
      message += " (" + error + ")";
    }
    return create(FloeError.INTERNAL.sqlState(), FloeError.INTERNAL.format(message), failure);
  }

  /** Where a class was loaded from, for messages ("an unknown location" when it cannot tell). */
  private static String jarOf(Class<?> type) {
    try {
      return String.valueOf(type.getProtectionDomain().getCodeSource().getLocation());
    } catch (RuntimeException e) {
      return "an unknown location";
    }
  }

  /**
   * Gives a SQLState to an exception Calcite or Avatica threw without one: features they lack are
   * 0A000, conversions they cannot make 22018, unknown column labels of metadata result sets (which
   * are Avatica's, and resolve labels themselves) 42S22. (Floe's own objects refuse a call after
   * close, result sets an unknown label and statements their cancellation before Avatica sees
   * them.)
   */
  private static SQLException stateless(SQLException e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof SQLFeatureNotSupportedException) {
      return create(FloeError.NOT_SUPPORTED.sqlState(), FloeError.NOT_SUPPORTED.format(message), e);
    }
    if (e instanceof SQLDataException) {
      return create(FloeError.INVALID_CAST.sqlState(), "Cannot convert value: " + message, e);
    }
    Matcher label = LABEL_NOT_FOUND.matcher(message);
    if (label.matches()) {
      return create(
          FloeError.COLUMN_NOT_FOUND.sqlState(),
          FloeError.COLUMN_NOT_FOUND.format("'" + label.group(1) + "' in the result set"),
          e);
    }
    return create(FloeError.INTERNAL.sqlState(), FloeError.INTERNAL.format(message), e);
  }

  /** Whether an ArithmeticException's message (Java's, BigDecimal's) says a divisor was zero. */
  private static boolean isDivisionByZero(String message) {
    return message != null
        && (message.equals("/ by zero")
            || message.startsWith("Division by zero")
            || message.startsWith("Division undefined")
            || message.equals("BigInteger divide by zero"));
  }

  /** Creates the SQLException subclass for a SQLState. */
  public static SQLException create(String state, String message, Throwable cause) {
    SQLException e;
    String cls = state.substring(0, 2);
    switch (cls) {
      case "08":
        e = new SQLNonTransientConnectionException(message, state, cause);
        break;
      case "0A":
        e = new SQLFeatureNotSupportedException(message, state, cause);
        break;
      case "22":
        e = new SQLDataException(message, state, cause);
        break;
      case "23":
        e = new SQLIntegrityConstraintViolationException(message, state, cause);
        break;
      case "28":
        e = new SQLInvalidAuthorizationSpecException(message, state, cause);
        break;
      case "40":
        e = new SQLTransactionRollbackException(message, state, cause);
        break;
      case "42":
        e = new SQLSyntaxErrorException(message, state, cause);
        break;
      case "57":
        e =
            state.equals(FloeError.CANCELLED.sqlState()) && message.contains("timeout")
                ? new SQLTimeoutException(message, state, cause)
                : new SQLException(message, state, cause);
        break;
      case "58":
        e = new SQLNonTransientException(message, state, cause);
        break;
      default:
        e = new SQLException(message, state, cause);
    }
    return e;
  }

  /** A notice that is no failure (01000): a procedure's progress, a step DDL took. */
  public static SQLWarning warning(String message) {
    return new SQLWarning(message, FloeError.WARNING.sqlState());
  }

  /** Creates the SQLException of a catalogued error. */
  public static SQLException of(FloeError error, Object... args) {
    return create(error.sqlState(), error.format(args), null);
  }

  private static boolean isOurs(SQLException e) {
    return e.getSQLState() != null
        && e.getClass().getPackageName().equals("java.sql")
        && !(e.getMessage() != null && e.getMessage().startsWith("Error while executing SQL"));
  }

  private static final Pattern EXECUTING =
      Pattern.compile("Error while executing SQL \"(.*?)\":.*", Pattern.DOTALL);

  /** The statement a Calcite failure was running, as " in: SQL", or "". */
  private static String statement(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null) {
        Matcher m = EXECUTING.matcher(c.getMessage());
        if (m.matches()) {
          return " in: " + m.group(1);
        }
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return "";
  }

  private static String firstLine(Throwable t) {
    String message = String.valueOf(t.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  private static <T extends Throwable> T find(Throwable t, Class<T> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }

  /** Whether Janino, which compiles Calcite's generated code, failed saying {@code text}. */
  private static boolean compilerSays(Throwable t, String text) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if ((c instanceof org.codehaus.commons.compiler.CompileException
              || c instanceof org.codehaus.commons.compiler.InternalCompilerException)
          && c.getMessage() != null
          && c.getMessage().contains(text)) {
        return true;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return false;
  }
}
