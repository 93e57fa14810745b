package dev.floe.jdbc;

import dev.floe.command.introspection.ExplainAnalyze;
import dev.floe.command.introspection.Show;
import dev.floe.command.procedure.Analyze;
import dev.floe.command.procedure.Maintenance;
import dev.floe.config.ContextLoader;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.jdbc.forwarding.ForwardingStatement;
import dev.floe.jdbc.meta.FloeDatabaseMetaData;
import dev.floe.planner.parser.FloeParser;
import dev.floe.planner.parser.ddl.SqlAlterTableExecute;
import dev.floe.planner.parser.ddl.SqlAlterTableRef;
import dev.floe.planner.scan.ColumnarScan;
import dev.floe.planner.scan.ScanStats;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.PhaseTimes;
import dev.floe.txn.FloeSession;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlNode;

/**
 * A Floe statement: DDL runs in Floe, everything else in Calcite; each statement is bounded by the
 * connection's transaction (in auto-commit mode a DML statement is published before {@code
 * executeUpdate} returns), and failures carry Floe's SQLStates.
 *
 * <p>Not thread-safe, except {@link #cancel()}.
 */
class FloeStatement extends ForwardingStatement {
  final FloeConnection connection;
  private Statement calcite;
  private final List<String> batch = new ArrayList<>();
  private FloeResultSet current;
  private long updateCount = -1;
  private java.sql.SQLWarning ddlWarning;
  private boolean closed;
  boolean poolable;
  private boolean calciteRows;
  private boolean scrollable;
  private volatile Cancellation running;

  FloeStatement(FloeConnection connection, Statement calcite) {
    super(calcite);
    this.connection = connection;
    this.calcite = calcite;
  }

  /**
   * Has every result of this statement go through Calcite's row cursor, never the column batches:
   * for a command that reads a query's rows in Calcite's runtime forms (CTAS).
   */
  final FloeStatement withCalciteRows() {
    calciteRows = true;
    return this;
  }

  /**
   * Has this statement make scroll-insensitive result sets, which keep their rows as they are read
   * ({@link ScrollRows}).
   */
  final FloeStatement scrollInsensitive() {
    scrollable = true;
    return this;
  }

  /** Whether this statement's result sets are scroll-insensitive. */
  final boolean scrollable() {
    return scrollable;
  }

  /** The type of the result sets this statement makes. */
  @Override
  public int getResultSetType() throws SQLException {
    checkOpen();
    return scrollable ? ResultSet.TYPE_SCROLL_INSENSITIVE : ResultSet.TYPE_FORWARD_ONLY;
  }

  /** Runs this statement's work on another Calcite statement from now on (a new plan). */
  void replaceCalcite(Statement next) {
    this.calcite = next;
  }

  final FloeSession session() {
    return floeConnection().session();
  }

  FloeConnection floeConnection() {
    return connection;
  }

  void checkOpen() throws SQLException {
    if (closed) {
      throw SqlErrors.of(FloeError.CLOSED, "statement");
    }
    connection.checkOpen();
  }

  /** Every call forwarded to Calcite checks first that this statement is open. */
  @Override
  protected Statement open() throws SQLException {
    checkOpen();
    return super.open();
  }

  /** {@inheritDoc} */
  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    checkOpen();
    if (!cancellable(() -> executeNow(sql, StatementKind.Answer.ROWS))) {
      throw SqlErrors.of(FloeError.VALIDATION, "the statement returns no result set: " + sql);
    }
    return current;
  }

  /** {@inheritDoc} */
  @Override
  public int executeUpdate(String sql) throws SQLException {
    return (int) executeLargeUpdate(sql);
  }

  /** {@inheritDoc} */
  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    checkOpen();
    if (cancellable(() -> executeNow(sql, StatementKind.Answer.COUNT))) {
      throw SqlErrors.of(FloeError.VALIDATION, "the statement returns a result set: " + sql);
    }
    return Math.max(updateCount, 0);
  }

  /** {@inheritDoc} */
  @Override
  public boolean execute(String sql) throws SQLException {
    checkOpen();
    return cancellable(() -> executeNow(sql, StatementKind.Answer.EITHER));
  }

  /**
   * Runs one execution of this statement under a cancellation of its own (docs/limits.md, "Known
   * limits"): its query timeout counts from now, {@link #cancel()} stops it, and for a query both
   * keep applying while its result set is read. An {@code Error} (running out of memory, a class
   * that cannot load) becomes the SQLException the catalog gives it, never escaping.
   */
  final boolean cancellable(Execution execution) throws SQLException {
    Cancellation previous = running;
    if (previous != null) {
      previous.finish();
    }
    boolean query = false;
    Cancellation own = null;
    try (Cancellation.Scope scope =
        Cancellation.enter(
            getQueryTimeout() * 1000L, connection.memoryBudget(), connection.spillLimit())) {
      if (!scope.nested()) {
        own = scope.cancellation();
        running = own;
      }
      query = execution.run();
      return query;
    } catch (Error e) {
      throw SqlErrors.toSql(e);
    } finally {
      if (own != null && !query) {
        own.finish();
      }
    }
  }

  /** The cancellation of this statement's last execution, or {@link Cancellation#NONE}. */
  final Cancellation running() {
    Cancellation now = running;
    return now == null ? Cancellation.NONE : now;
  }

  private boolean executeNow(String sql, StatementKind.Answer expected) throws SQLException {
    try (ContextLoader ignored = ContextLoader.enter();
        FloeSession.Exclusive turn = session().exclusive()) {
      PhaseTimes.Phase before = PhaseTimes.enter(PhaseTimes.Phase.PARSE);
      StatementKind.Parsed parsed;
      try {
        StatementKind known = connection.knownCalciteText(sql);
        parsed =
            known != null ? new StatementKind.Parsed(sql, null, known) : StatementKind.parse(sql);
      } finally {
        PhaseTimes.restore(before);
      }
      parsed.kind().check(expected, sql);
      closeCurrent();
      SqlNode node = parsed.node();
      switch (parsed.kind()) {
        case EXPLAIN_ANALYZE:
          {
            String report =
                ExplainAnalyze.asQuery(
                    ExplainAnalyze.analyze(connection, ExplainAnalyze.queryOf(sql)));
            return run(() -> calcite.execute(report));
          }
        case ROW_WRITE:
          updateCount = connection.etl().execute(node, sql);
          return false;
        case ANALYZE:
          updateCount = new Analyze(connection.commands()).execute(sql);
          return false;
        case PROCEDURE:
        case REFERENCE:
          return maintain(node);
        case SHOW:
          current =
              new FloeResultSet(
                  this, CommandResults.of(connection, Show.query(connection.commands(), node)));
          updateCount = -1;
          return true;
        case DDL:
          try {
            updateCount = connection.ddl().execute(node, sql);
          } catch (StackOverflowError e) {
            throw SqlErrors.toSql(e);
          } finally {
            ddlWarning = connection.ddl().takeWarning();
          }
          return false;
        default:
          if (node == null) {
            return run(() -> calcite.execute(sql));
          }
          connection.rememberCalciteText(sql, parsed.kind());
          try (FloeParser.Offer offered = FloeParser.offerParsed(sql, node)) {
            return run(() -> calcite.execute(sql));
          }
      }
    }
  }

  /** Runs table maintenance: a procedure answers one row of counts, branch and tag DDL none. */
  private boolean maintain(SqlNode statement) throws SQLException {
    Maintenance maintenance = connection.maintenance();
    if (statement instanceof SqlAlterTableExecute call) {
      try {
        current =
            FloeResultSet.answered(this, CommandResults.of(connection, maintenance.execute(call)));
      } finally {
        ddlWarning = maintenance.takeWarning();
      }
      updateCount = -1;
      return true;
    }
    maintenance.execute((SqlAlterTableRef) statement);
    updateCount = 0;
    return false;
  }

  /** Runs one statement in Calcite, bounded by the transaction. */
  final boolean run(Execution execution) throws SQLException {
    FloeSession session = session();
    boolean succeeded = false;
    try {
      session.beginStatement();
      if (connection.columnarResults()
          && !calciteRows
          && !scrollable
          && !ScanStats.collecting()
          && RowAccessors.readsColumns()) {
        ColumnarScan.expect(); // a plain scan's result is read from its column batches
      }
      boolean isQuery = execution.run();
      if (isQuery) {
        current =
            new FloeResultSet(
                this, calcite.getResultSet(), ColumnarScan.claim(), calcite.getMaxRows());
        updateCount = -1;
      } else {
        updateCount = calcite.getLargeUpdateCount();
      }
      succeeded = true;
      return isQuery;
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    } finally {
      ColumnarScan.forget();
      if (current == null) {
        try {
          session.endStatement(succeeded);
        } catch (RuntimeException e) {
          updateCount = -1;
          if (succeeded) {
            throw SqlErrors.toSql(e);
          }
        }
      }
    }
  }

  /** The warnings of the last statement: a DDL's own, or Calcite's. */
  @Override
  public java.sql.SQLWarning getWarnings() throws SQLException {
    checkOpen();
    return ddlWarning != null ? ddlWarning : super.getWarnings();
  }

  /** {@inheritDoc} */
  @Override
  public void clearWarnings() throws SQLException {
    checkOpen();
    ddlWarning = null;
    super.clearWarnings();
  }

  /** Records that a statement run without Calcite changed {@code count} rows. */
  final void updated(long count) {
    current = null;
    updateCount = count;
  }

  /** One call into Calcite. */
  @FunctionalInterface
  interface Execution {
    boolean run() throws SQLException;
  }

  /** {@inheritDoc} */
  @Override
  public ResultSet getResultSet() throws SQLException {
    checkOpen();
    return current;
  }

  /** {@inheritDoc} */
  @Override
  public int getUpdateCount() throws SQLException {
    checkOpen();
    return (int) updateCount;
  }

  /** {@inheritDoc} */
  @Override
  public long getLargeUpdateCount() throws SQLException {
    checkOpen();
    return updateCount;
  }

  /** {@inheritDoc} */
  @Override
  public boolean getMoreResults() throws SQLException {
    checkOpen();
    closeCurrent();
    updateCount = -1;
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean getMoreResults(int current) throws SQLException {
    return getMoreResults();
  }

  /** {@inheritDoc} */
  @Override
  public Connection getConnection() throws SQLException {
    checkOpen();
    return connection;
  }

  /** {@inheritDoc} */
  @Override
  public void addBatch(String sql) throws SQLException {
    checkOpen();
    batch.add(sql);
  }

  /** {@inheritDoc} */
  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    batch.clear();
  }

  /** Runs the batch in one transaction: in auto-commit mode, one commit for the whole batch. */
  @Override
  public int[] executeBatch() throws SQLException {
    long[] counts = executeLargeBatch();
    int[] result = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      result[i] = (int) counts[i];
    }
    return result;
  }

  /** {@inheritDoc} */
  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    List<String> statements = new ArrayList<>(batch);
    batch.clear();
    long[] counts = new long[statements.size()];
    inOneTransaction(
        () -> {
          for (int i = 0; i < statements.size(); i++) {
            String sql = statements.get(i);
            // The one path of Statement.execute, inside the batch's transaction: DDL commits when
            // it runs, as it does in any transaction; the rest commits with the batch.
            if (executeNow(sql, StatementKind.Answer.EITHER)) {
              closeCurrent();
              throw SqlErrors.of(
                  FloeError.VALIDATION, "a batch statement returned a result set: " + sql);
            }
            counts[i] = Math.max(updateCount, 0);
          }
        });
    return counts;
  }

  /**
   * Runs work as one transaction: inside an explicit transaction it simply joins it; in auto-commit
   * mode it commits once at the end, or rolls back everything.
   */
  final void inOneTransaction(Work work) throws SQLException {
    cancellable(
        () -> {
          inOneTransactionNow(work);
          return false;
        });
  }

  private void inOneTransactionNow(Work work) throws SQLException {
    FloeSession session = session();
    try (ContextLoader ignored = ContextLoader.enter();
        FloeSession.Exclusive turn = session.exclusive()) {
      boolean auto = session.autoCommit();
      if (!auto) {
        work.run();
        return;
      }
      session.beginStatement();
      session.setAutoCommit(false);
      boolean done = false;
      try {
        work.run();
        session.commit();
        done = true;
      } finally {
        if (!done) {
          session.rollback();
        }
        session.setAutoCommit(true);
      }
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  /** A unit of work in a batch. */
  @FunctionalInterface
  interface Work {
    void run() throws SQLException;
  }

  void resultSetClosed(FloeResultSet resultSet) {
    if (current == resultSet) {
      current = null;
    }
  }

  private void closeCurrent() throws SQLException {
    if (current != null) {
      FloeResultSet rs = current;
      current = null;
      rs.close();
    }
  }

  /** {@inheritDoc} */
  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    running().finish();
    try (ContextLoader ignored = ContextLoader.enter()) {
      closeCurrent();
      calcite.close();
    } finally {
      connection.forget(this);
    }
  }

  /** {@inheritDoc} */
  @Override
  public boolean isClosed() {
    return closed;
  }

  /** Floe has no generated keys; the request is ignored and no keys are returned. */
  @Override
  public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
    return execute(sql);
  }

  /** As {@link #execute(String, int)}. */
  @Override
  public boolean execute(String sql, int[] columnIndexes) throws SQLException {
    return execute(sql);
  }

  /** As {@link #execute(String, int)}. */
  @Override
  public boolean execute(String sql, String[] columnNames) throws SQLException {
    return execute(sql);
  }

  /** As {@link #execute(String, int)}. */
  @Override
  public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
    return executeUpdate(sql);
  }

  /** As {@link #execute(String, int)}. */
  @Override
  public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
    return executeUpdate(sql);
  }

  /** As {@link #execute(String, int)}. */
  @Override
  public int executeUpdate(String sql, String[] columnNames) throws SQLException {
    return executeUpdate(sql);
  }

  /** As {@link #execute(String, int)}. */
  @Override
  public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
    return executeLargeUpdate(sql);
  }

  /** As {@link #execute(String, int)}. */
  @Override
  public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
    return executeLargeUpdate(sql);
  }

  /** As {@link #execute(String, int)}. */
  @Override
  public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
    return executeLargeUpdate(sql);
  }

  /** Floe generates no keys: always an empty result set. */
  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    checkOpen();
    return ((FloeDatabaseMetaData) connection.getMetaData()).generatedKeys();
  }

  /** A negative limit is refused (HY024), as JDBC asks. */
  @Override
  public void setMaxRows(int max) throws SQLException {
    checkOpen();
    if (max < 0) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT, "limit rows to " + max, "the limit is negative");
    }
    super.setMaxRows(max);
  }

  /** A negative fetch size is refused (HY024), as JDBC asks; any other is a hint. */
  @Override
  public void setFetchSize(int rows) throws SQLException {
    checkOpen();
    checkFetchSize(rows);
    super.setFetchSize(rows);
  }

  /** A direction other than ResultSet's three is refused (HY024); any of them is a hint. */
  @Override
  public void setFetchDirection(int direction) throws SQLException {
    checkOpen();
    checkFetchDirection(direction);
    super.setFetchDirection(direction);
  }

  /** Refuses a negative fetch size (HY024). */
  static void checkFetchSize(int rows) throws SQLException {
    if (rows < 0) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT, "set the fetch size to " + rows, "it is negative");
    }
  }

  /** Refuses a fetch direction that is none of ResultSet's three (HY024). */
  static void checkFetchDirection(int direction) throws SQLException {
    if (direction != java.sql.ResultSet.FETCH_FORWARD
        && direction != java.sql.ResultSet.FETCH_REVERSE
        && direction != java.sql.ResultSet.FETCH_UNKNOWN) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT,
          "set the fetch direction to " + direction,
          "it is none of ResultSet.FETCH_FORWARD, FETCH_REVERSE and FETCH_UNKNOWN");
    }
  }

  /** A negative timeout is refused (HY024), as JDBC asks. */
  @Override
  public void setQueryTimeout(int seconds) throws SQLException {
    checkOpen();
    if (seconds < 0) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT, "set the query timeout to " + seconds, "it is negative");
    }
    super.setQueryTimeout(seconds);
  }

  /** As {@link #setMaxRows(int)}; limits above {@code Integer.MAX_VALUE} mean no limit. */
  @Override
  public void setLargeMaxRows(long max) throws SQLException {
    if (max < 0) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT, "limit rows to " + max, "the limit is negative");
    }
    setMaxRows(max > Integer.MAX_VALUE ? 0 : (int) max);
  }

  /** {@inheritDoc} */
  @Override
  public long getLargeMaxRows() throws SQLException {
    return getMaxRows();
  }

  /** Floe has no positioned updates, so the cursor name is not used, as JDBC allows. */
  @Override
  public void setCursorName(String name) throws SQLException {
    checkOpen();
  }

  /**
   * Escapes ({@code {fn ...}}, {@code {d ...}}) are always processed; they cannot be turned off.
   */
  @Override
  public void setEscapeProcessing(boolean enable) throws SQLException {
    checkOpen();
    if (!enable) {
      throw SqlErrors.of(FloeError.NOT_SUPPORTED, "turning off escape processing");
    }
  }

  /** Values are never truncated; only 0 (no limit) is accepted. */
  @Override
  public void setMaxFieldSize(int max) throws SQLException {
    checkOpen();
    if (max < 0) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT, "limit fields to " + max + " bytes", "it is negative");
    }
    if (max != 0) {
      throw SqlErrors.of(FloeError.NOT_SUPPORTED, "truncating values to a maximum field size");
    }
  }

  /** {@inheritDoc} */
  @Override
  public int getMaxFieldSize() throws SQLException {
    checkOpen();
    return 0;
  }

  /** A hint Floe does not need: there is no statement pool. */
  @Override
  public void setPoolable(boolean poolable) throws SQLException {
    checkOpen();
    this.poolable = poolable;
  }

  /** {@inheritDoc} */
  @Override
  public boolean isPoolable() throws SQLException {
    checkOpen();
    return poolable;
  }

  /**
   * Stops the statement's running execution, or the reading of its result set: its next check (a
   * scan, a join, a written row) fails with 57014, files it wrote are deleted and its scans close
   * their files. Never waits for the statement; safe from any thread.
   */
  @Override
  public void cancel() throws SQLException {
    checkOpen();
    running().cancel();
  }
}
