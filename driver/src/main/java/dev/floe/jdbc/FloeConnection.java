package dev.floe.jdbc;

import dev.floe.command.CommandContext;
import dev.floe.command.QueryRows;
import dev.floe.command.ddl.Ddl;
import dev.floe.command.dml.Etl;
import dev.floe.command.procedure.Maintenance;
import dev.floe.config.ContextLoader;
import dev.floe.config.FloeProperty;
import dev.floe.config.Quantities;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.jdbc.forwarding.ForwardingConnection;
import dev.floe.jdbc.meta.FloeDatabaseMetaData;
import dev.floe.jdbc.meta.LakeSchemas;
import dev.floe.jdbc.meta.MetadataSource;
import dev.floe.planner.spi.LakeCatalog;
import dev.floe.storage.LakeLocation;
import dev.floe.txn.FloeSession;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Savepoint;
import java.sql.ShardingKey;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * A Floe connection: Calcite plans and runs its SQL, and Floe owns what Calcite cannot do for an
 * Iceberg lake: transactions ({@link FloeSession}), DDL, exact values in result sets and
 * parameters, metadata, and SQLStates.
 *
 * <p>Not thread-safe: use one connection from one thread at a time, as JDBC expects; {@link
 * Statement#cancel()} may be called from another thread.
 */
public final class FloeConnection extends ForwardingConnection {
  private final CalciteConnection calcite;
  private final FloeSession session;
  private final LakeLocation location;
  private final Properties properties;

  /** The bytes one statement's operators may hold (connection property memoryBudget). */
  private final long memoryBudget;

  /** The bytes one statement's spill files may hold at once (connection property spillLimit). */
  private final dev.floe.planner.session.SpillLimit spillLimit;

  private final boolean columnarResults;
  private final CommandContext commands;
  private final Ddl ddl;
  private final Etl etl;
  private final List<FloeStatement> statements = new ArrayList<>();
  private final Properties clientInfo = new Properties();

  /** Texts of statements run here that Calcite runs (not Floe's own commands), most recent last. */
  private final java.util.Map<String, StatementKind> calciteTexts =
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, StatementKind> eldest) {
          return size() > dev.floe.planner.session.PlanCache.CAPACITY;
        }
      };

  private SQLWarning warnings;
  private volatile boolean closed;

  FloeConnection(
      CalciteConnection calcite,
      FloeSession session,
      LakeLocation location,
      Properties properties) {
    super(calcite);
    this.calcite = calcite;
    this.session = session;
    this.location = location;
    this.properties = properties;
    this.columnarResults = dev.floe.config.FloeProperty.COLUMNAR_RESULTS.isTrue(properties);
    this.memoryBudget = dev.floe.config.FloeProperty.memoryBudget(properties);
    this.spillLimit = dev.floe.config.FloeProperty.spillLimit(properties);
    this.commands = new Commands();
    this.ddl = new Ddl(commands);
    this.etl = new Etl(commands);
  }

  FloeSession session() {
    return session;
  }

  /**
   * The kind of a statement text known to be one Calcite runs, so that Floe need not parse it again
   * to tell (the grammar is fixed, so the answer never changes); null when not known.
   */
  synchronized StatementKind knownCalciteText(String sql) {
    return calciteTexts.get(sql);
  }

  /** Remembers that Calcite runs a statement text, of a kind. */
  synchronized void rememberCalciteText(String sql, StatementKind kind) {
    calciteTexts.put(sql, kind);
  }

  CalciteConnection calcite() {
    return calcite;
  }

  /** The connection as its commands see it. */
  CommandContext commands() {
    return commands;
  }

  Ddl ddl() {
    return ddl;
  }

  Etl etl() {
    return etl;
  }

  /** Table maintenance, with the connection's minimum retention. */
  Maintenance maintenance() throws SQLException {
    // Checked at connect (FloeProperty.validate): a duration that fits.
    String text = FloeProperty.MAINTENANCE_MIN_RETENTION.in(properties);
    java.time.Duration minRetention =
        Quantities.duration(FloeProperty.MAINTENANCE_MIN_RETENTION.key(), text);
    return new Maintenance(commands, minRetention);
  }

  LakeLocation location() {
    return location;
  }

  Properties properties() {
    return properties;
  }

  /** The bytes one statement's operators may hold (connection property memoryBudget). */
  long memoryBudget() {
    return memoryBudget;
  }

  /** The bytes one statement's spill files may hold (connection property spillLimit). */
  dev.floe.planner.session.SpillLimit spillLimit() {
    return spillLimit;
  }

  /** Whether a plain scan's result is read from its column batches ({@code columnarResults}). */
  boolean columnarResults() {
    return columnarResults;
  }

  void checkOpen() throws SQLException {
    if (closed) {
      throw SqlErrors.of(FloeError.CLOSED, "connection to " + location);
    }
  }

  /** Every call forwarded to Calcite checks first that this connection is open. */
  @Override
  protected Connection open() throws SQLException {
    checkOpen();
    return calcite;
  }

  /** {@inheritDoc} */
  @Override
  public Statement createStatement() throws SQLException {
    checkOpen();
    return track(new FloeStatement(this, calcite.createStatement()));
  }

  /**
   * Floe's result sets are forward-only or scroll-insensitive, and read-only; asked for another
   * kind, the statement makes the nearest (scroll-insensitive for scroll-sensitive, read-only for
   * updatable) and the connection gets a warning, as JDBC prescribes.
   */
  @Override
  public Statement createStatement(int resultSetType, int resultSetConcurrency)
      throws SQLException {
    return createStatement(resultSetType, resultSetConcurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
  }

  /** As {@link #createStatement(int, int)}. */
  @Override
  public Statement createStatement(
      int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    checkOpen();
    boolean scroll = downgrade(resultSetType, resultSetConcurrency, resultSetHoldability);
    FloeStatement statement = (FloeStatement) createStatement();
    return scroll ? statement.scrollInsensitive() : statement;
  }

  /** {@inheritDoc} */
  @Override
  public PreparedStatement prepareStatement(String sql) throws SQLException {
    checkOpen();
    StatementKind.Parsed parsed = PreparedCommand.classify(sql);
    if (parsed.kind().command()) {
      return track(new PreparedCommand(this, calcite.createStatement(), sql));
    }
    return track(FloePreparedStatement.prepare(this, sql, parsed.kind()));
  }

  /** As {@link #createStatement(int, int)}. */
  @Override
  public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
      throws SQLException {
    return prepareStatement(
        sql, resultSetType, resultSetConcurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
  }

  /** As {@link #createStatement(int, int)}. */
  @Override
  public PreparedStatement prepareStatement(
      String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
      throws SQLException {
    checkOpen();
    boolean scroll = downgrade(resultSetType, resultSetConcurrency, resultSetHoldability);
    PreparedStatement statement = prepareStatement(sql);
    if (scroll) {
      ((FloeStatement) statement).scrollInsensitive();
    }
    return statement;
  }

  /** A holdability other than ResultSet's two is refused (HY024). */
  @Override
  public void setHoldability(int holdability) throws SQLException {
    checkOpen();
    if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT
        && holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT,
          "set the holdability to " + holdability,
          "it is neither ResultSet.HOLD_CURSORS_OVER_COMMIT nor CLOSE_CURSORS_AT_COMMIT");
    }
    super.setHoldability(holdability);
  }

  /** A negative timeout is refused (HY024), as JDBC asks. */
  @Override
  public void setNetworkTimeout(java.util.concurrent.Executor executor, int milliseconds)
      throws SQLException {
    checkOpen();
    if (milliseconds < 0) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT,
          "set the network timeout to " + milliseconds + " ms",
          "it is negative");
    }
    super.setNetworkTimeout(executor, milliseconds);
  }

  /**
   * Refuses a result set type, concurrency or holdability that is none of ResultSet's constants
   * (HY024); a valid one Floe does not make is downgraded with a warning. Whether the statement
   * makes scroll-insensitive result sets.
   */
  private boolean downgrade(int type, int concurrency, int holdability) throws SQLException {
    if (type != ResultSet.TYPE_FORWARD_ONLY
            && type != ResultSet.TYPE_SCROLL_INSENSITIVE
            && type != ResultSet.TYPE_SCROLL_SENSITIVE
        || concurrency != ResultSet.CONCUR_READ_ONLY && concurrency != ResultSet.CONCUR_UPDATABLE
        || holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT
            && holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT,
          "make a statement of result set type "
              + type
              + ", concurrency "
              + concurrency
              + " and holdability "
              + holdability,
          "each must be one of ResultSet's constants for it");
    }
    if (type == ResultSet.TYPE_SCROLL_SENSITIVE) {
      warn(
          "Floe's result sets do not see changes made after they are read; the statement makes"
              + " scroll-insensitive result sets");
    }
    if (concurrency != ResultSet.CONCUR_READ_ONLY) {
      warn("Floe's result sets are read-only; the statement makes read-only result sets");
    }
    if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
      warn("Floe's result sets are held over commit; the statement makes such result sets");
    }
    return type != ResultSet.TYPE_FORWARD_ONLY;
  }

  /** Adds a warning to the connection's chain (SQLState 01000). */
  void warn(String message) {
    SQLWarning warning = SqlErrors.warning(message);
    if (warnings == null) {
      warnings = warning;
    } else {
      warnings.setNextWarning(warning);
    }
  }

  /** Generated keys do not exist in Iceberg tables; the statement is prepared without them. */
  @Override
  public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
    return prepareStatement(sql);
  }

  /** {@inheritDoc} */
  @Override
  public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
    return prepareStatement(sql);
  }

  /** {@inheritDoc} */
  @Override
  public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
    return prepareStatement(sql);
  }

  private <T extends FloeStatement> T track(T statement) {
    synchronized (statements) {
      statements.add(statement);
    }
    return statement;
  }

  void forget(FloeStatement statement) {
    synchronized (statements) {
      statements.remove(statement);
    }
  }

  /** {@inheritDoc} */
  @Override
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    checkOpen();
    try (ContextLoader ignored = ContextLoader.enter();
        FloeSession.Exclusive turn = session.exclusive()) {
      session.setAutoCommit(autoCommit);
    } catch (RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  /** {@inheritDoc} */
  @Override
  public boolean getAutoCommit() throws SQLException {
    checkOpen();
    return session.autoCommit();
  }

  /**
   * Publishes the transaction's changes, one snapshot per changed table; returns once the new
   * metadata is durable and visible to every other connection.
   */
  @Override
  public void commit() throws SQLException {
    checkOpen();
    if (session.autoCommit()) {
      throw SqlErrors.of(FloeError.INVALID_TRANSACTION_STATE, "commit", "auto-commit is on");
    }
    try (ContextLoader ignored = ContextLoader.enter();
        FloeSession.Exclusive turn = session.exclusive()) {
      session.commit();
    } catch (RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  /** Discards the transaction's changes and deletes every file they wrote. */
  @Override
  public void rollback() throws SQLException {
    checkOpen();
    if (session.autoCommit()) {
      throw SqlErrors.of(FloeError.INVALID_TRANSACTION_STATE, "roll back", "auto-commit is on");
    }
    try (ContextLoader ignored = ContextLoader.enter();
        FloeSession.Exclusive turn = session.exclusiveKeepingAppends()) {
      session.rollback();
    } catch (RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  /**
   * Snapshot isolation is reported as {@code TRANSACTION_REPEATABLE_READ}; {@code
   * TRANSACTION_SERIALIZABLE} adds Iceberg's validation that no conflicting data was appended.
   * Weaker levels are raised to repeatable read, as JDBC allows.
   */
  @Override
  public void setTransactionIsolation(int level) throws SQLException {
    checkOpen();
    switch (level) {
      case Connection.TRANSACTION_SERIALIZABLE:
        session.setIsolation(level);
        break;
      case Connection.TRANSACTION_READ_UNCOMMITTED:
      case Connection.TRANSACTION_READ_COMMITTED:
      case Connection.TRANSACTION_REPEATABLE_READ:
        session.setIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        break;
      default:
        throw SqlErrors.of(FloeError.NOT_SUPPORTED, "transaction isolation level " + level);
    }
  }

  /** {@inheritDoc} */
  @Override
  public int getTransactionIsolation() throws SQLException {
    checkOpen();
    return session.isolation();
  }

  /** {@inheritDoc} */
  @Override
  public void setReadOnly(boolean readOnly) throws SQLException {
    checkOpen();
    if (!readOnly && FloeProperty.READ_ONLY.isTrue(properties)) {
      return; // opened read-only: stays read-only
    }
    session.setReadOnly(readOnly);
  }

  /** {@inheritDoc} */
  @Override
  public boolean isReadOnly() throws SQLException {
    checkOpen();
    return session.readOnly();
  }

  /** {@inheritDoc} */
  @Override
  public DatabaseMetaData getMetaData() throws SQLException {
    checkOpen();
    return new FloeDatabaseMetaData(new Metadata(), calcite.getMetaData());
  }

  /** Valid while open and while the lake's root can be reached. */
  @Override
  public boolean isValid(int timeout) throws SQLException {
    if (timeout < 0) {
      throw SqlErrors.of(FloeError.INVALID_ARGUMENT, "check validity", "the timeout is negative");
    }
    return !closed && session.folders().rootExists();
  }

  /** {@inheritDoc} */
  @Override
  public boolean isClosed() {
    return closed;
  }

  /** Closes the connection; pending work is rolled back and its files deleted. */
  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    try (ContextLoader ignored = ContextLoader.enter()) {
      List<FloeStatement> open;
      synchronized (statements) {
        open = new ArrayList<>(statements);
      }
      for (FloeStatement statement : open) {
        statement.close();
      }
      try (FloeSession.Exclusive turn = session.exclusiveKeepingAppends()) {
        session.close();
      } finally {
        calcite.close();
      }
    } catch (RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  /** {@inheritDoc} */
  @Override
  public SQLWarning getWarnings() throws SQLException {
    checkOpen();
    return warnings;
  }

  /** {@inheritDoc} */
  @Override
  public void clearWarnings() throws SQLException {
    checkOpen();
    warnings = null;
  }

  /** Kept with the connection for the client to read back; Floe has no server to send it to. */
  @Override
  public void setClientInfo(String name, String value) throws SQLClientInfoException {
    checkClientInfo();
    if (value == null) {
      clientInfo.remove(name);
    } else {
      clientInfo.setProperty(name, value);
    }
  }

  /** As {@link #setClientInfo(String, String)}; replaces all client info. */
  @Override
  public void setClientInfo(Properties properties) throws SQLClientInfoException {
    checkClientInfo();
    clientInfo.clear();
    if (properties != null) {
      clientInfo.putAll(properties);
    }
  }

  /** {@inheritDoc} */
  @Override
  public String getClientInfo(String name) throws SQLException {
    checkOpen();
    return clientInfo.getProperty(name);
  }

  /** {@inheritDoc} */
  @Override
  public Properties getClientInfo() throws SQLException {
    checkOpen();
    Properties copy = new Properties();
    copy.putAll(clientInfo);
    return copy;
  }

  private void checkClientInfo() throws SQLClientInfoException {
    if (closed) {
      SQLException e = SqlErrors.of(FloeError.CLOSED, "connection to " + location);
      throw new SQLClientInfoException(e.getMessage(), e.getSQLState(), Map.of(), e);
    }
  }

  /** Savepoints are not supported (0A000): an Iceberg transaction cannot be partly undone. */
  @Override
  public Savepoint setSavepoint() throws SQLException {
    checkOpen();
    throw SqlErrors.of(FloeError.NOT_SUPPORTED, "savepoints");
  }

  /** As {@link #setSavepoint()}. */
  @Override
  public Savepoint setSavepoint(String name) throws SQLException {
    return setSavepoint();
  }

  /** As {@link #setSavepoint()}. */
  @Override
  public void rollback(Savepoint savepoint) throws SQLException {
    setSavepoint();
  }

  /** As {@link #setSavepoint()}. */
  @Override
  public void releaseSavepoint(Savepoint savepoint) throws SQLException {
    setSavepoint();
  }

  /** Floe has no stored procedures to call (0A000). */
  @Override
  public CallableStatement prepareCall(String sql) throws SQLException {
    checkOpen();
    throw SqlErrors.of(FloeError.NOT_SUPPORTED, "stored procedures (prepareCall)");
  }

  /** As {@link #prepareCall(String)}. */
  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency)
      throws SQLException {
    return prepareCall(sql);
  }

  /** As {@link #prepareCall(String)}. */
  @Override
  public CallableStatement prepareCall(
      String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
      throws SQLException {
    return prepareCall(sql);
  }

  /** Floe's SQL is what runs: JDBC escapes are understood as they are. */
  @Override
  public String nativeSQL(String sql) throws SQLException {
    checkOpen();
    return sql;
  }

  /** No user-defined types are mapped: always an empty map. */
  @Override
  public Map<String, Class<?>> getTypeMap() throws SQLException {
    checkOpen();
    return new HashMap<>();
  }

  /** Only an empty type map is accepted: Floe has no user-defined types to map. */
  @Override
  public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
    checkOpen();
    if (map != null && !map.isEmpty()) {
      throw SqlErrors.of(FloeError.NOT_SUPPORTED, "mapping user-defined types");
    }
  }

  /** Floe is not sharded (0A000). */
  @Override
  public void setShardingKey(ShardingKey shardingKey, ShardingKey superShardingKey)
      throws SQLException {
    checkOpen();
    throw SqlErrors.of(FloeError.NOT_SUPPORTED, "sharding keys");
  }

  /** As {@link #setShardingKey(ShardingKey, ShardingKey)}. */
  @Override
  public void setShardingKey(ShardingKey shardingKey) throws SQLException {
    setShardingKey(shardingKey, null);
  }

  /** As {@link #setShardingKey(ShardingKey, ShardingKey)}. */
  @Override
  public boolean setShardingKeyIfValid(
      ShardingKey shardingKey, ShardingKey superShardingKey, int timeout) throws SQLException {
    setShardingKey(shardingKey, superShardingKey);
    return false;
  }

  /** As {@link #setShardingKey(ShardingKey, ShardingKey)}. */
  @Override
  public boolean setShardingKeyIfValid(ShardingKey shardingKey, int timeout) throws SQLException {
    setShardingKey(shardingKey, null);
    return false;
  }

  /** Closes the connection at once, rolling back pending work, as {@link #close()} does. */
  @Override
  public void abort(Executor executor) throws SQLException {
    if (executor == null) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT, "abort the connection", "the executor is null");
    }
    close();
  }

  /** {@inheritDoc} */
  @Override
  public String getCatalog() throws SQLException {
    checkOpen();
    return null;
  }

  /** Floe has no catalogs; the call is ignored, as JDBC allows. */
  @Override
  public void setCatalog(String catalog) throws SQLException {
    checkOpen();
  }

  /** The current schema, by its JDBC name ({@link LakeSchemas}). */
  @Override
  public String getSchema() throws SQLException {
    checkOpen();
    return calcite.getSchema();
  }

  /**
   * Makes a schema current, by its JDBC name as {@code getSchemas} reports it ({@code main}, {@code
   * sales}, {@code sales.eu}; an unambiguous spelling in another case also works). Unqualified
   * table names are then looked up in that schema first, then in {@code main}; CREATE TABLE of an
   * unqualified name creates it there. An unknown schema is 3F000.
   */
  @Override
  public void setSchema(String schema) throws SQLException {
    checkOpen();
    if (schema == null) {
      throw SqlErrors.of(FloeError.SCHEMA_NOT_FOUND, "null");
    }
    List<String> path;
    try (ContextLoader ignored = ContextLoader.enter()) {
      path = LakeSchemas.resolve(session.catalog(), schema);
    } catch (RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
    if (path == null) {
      throw SqlErrors.of(FloeError.SCHEMA_NOT_FOUND, schema + " under " + location);
    }
    calcite.setSchema(LakeSchemas.name(path));
  }

  /** The path under the root of the current schema. */
  List<String> schemaPath() throws SQLException {
    String name = getSchema();
    if (name == null || name.equals(LakeSchemas.ROOT)) {
      return List.of();
    }
    List<String> path = LakeSchemas.resolve(session.catalog(), name);
    if (path == null) {
      throw SqlErrors.of(FloeError.SCHEMA_NOT_FOUND, name + " under " + location);
    }
    return path;
  }

  @Override
  public String toString() {
    return "FloeConnection(" + location + ")";
  }

  /** The connection as its commands see it. */
  private final class Commands implements CommandContext {
    @Override
    public FloeSession session() {
      return session;
    }

    @Override
    public List<String> schemaPath() throws SQLException {
      return FloeConnection.this.schemaPath();
    }

    @Override
    public Statement createStatement() throws SQLException {
      return ((FloeStatement) FloeConnection.this.createStatement()).withCalciteRows();
    }

    @Override
    public Statement calciteStatement() throws SQLException {
      return calcite.createStatement();
    }

    @Override
    public ResultSet calciteResults(ResultSet results) throws SQLException {
      return ((FloeResultSet) results).calcite();
    }

    @Override
    public QueryRows queryRows(ResultSet results) throws SQLException {
      return RawRows.of(results instanceof FloeResultSet ? calciteResults(results) : results);
    }
  }

  /** The connection as its metadata sees it. */
  private final class Metadata implements MetadataSource {
    @Override
    public Connection connection() {
      return FloeConnection.this;
    }

    @Override
    public void checkOpen() throws SQLException {
      FloeConnection.this.checkOpen();
    }

    @Override
    public boolean isClosed() {
      return FloeConnection.this.isClosed();
    }

    @Override
    public boolean isReadOnly() throws SQLException {
      return FloeConnection.this.isReadOnly();
    }

    @Override
    public Properties properties() {
      return properties;
    }

    @Override
    public LakeLocation location() {
      return location;
    }

    @Override
    public LakeCatalog catalog() {
      return session.catalog();
    }

    @Override
    public CalciteConnection calcite() {
      return calcite;
    }
  }
}
