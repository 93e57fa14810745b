package dev.floe.jdbc;

import dev.floe.command.dml.FastInsert;
import dev.floe.config.ContextLoader;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.planner.session.PlanCache;
import dev.floe.planner.type.TemporalValues;
import dev.floe.planner.write.InsertBatch;
import dev.floe.planner.write.ParameterAssigner;
import dev.floe.txn.FloeSession;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;

/**
 * A Floe prepared statement. Datetime parameters are handed to Calcite as the exact numbers Floe's
 * runtime holds (microseconds survive {@code setTimestamp}); a batch runs in one transaction, so in
 * auto-commit mode {@code executeBatch()} is one commit per table, never one per row.
 *
 * <p>Not thread-safe, except {@link #cancel()}.
 */
final class FloePreparedStatement extends ForwardingPreparedStatement {
  /** A parameter binding, replayed onto the Calcite statement for each batch entry. */
  @FunctionalInterface
  private interface Binding {
    void bind(PreparedStatement target) throws SQLException;
  }

  /** Marks a parameter of a plain INSERT as set: its value is kept, never bound to Calcite. */
  private static final Binding KEPT = target -> {};

  private PreparedStatement calcite;
  private final String sql;
  private final StatementKind kind;
  private ParameterMetaData parameters;
  private PlanCache.Entry plan;
  private final FastInsert fast;
  private final List<Binding[]> batch = new ArrayList<>();
  private final List<Object[]> batchValues = new ArrayList<>();

  /** For a plain INSERT: the first parameter not set in a batch entry added so far, or 0. */
  private int unsetInBatch;

  private Binding[] bindings;
  private Object[] values;

  private FloePreparedStatement(
      FloeConnection connection,
      PreparedStatement calcite,
      String sql,
      StatementKind kind,
      PlanCache.Entry plan)
      throws SQLException {
    super(connection, calcite);
    this.calcite = calcite;
    this.sql = sql;
    this.kind = kind;
    this.plan = plan;
    this.parameters = calcite.getParameterMetaData();
    this.bindings = new Binding[parameters.getParameterCount() + 1];
    this.values = new Object[bindings.length];
    this.fast = FastInsert.analyze(connection.commands(), sql);
    this.poolable = true;
  }

  /**
   * Prepares a statement Calcite runs; a statement Floe runs itself is a {@link PreparedCommand}
   * (the connection tells them apart).
   */
  static FloePreparedStatement prepare(FloeConnection connection, String sql, StatementKind kind)
      throws SQLException {
    try (ContextLoader ignored = ContextLoader.enter();
        FloeSession.Exclusive turn = connection.session().exclusiveKeepingAppends()) {
      connection.session().beginStatement();
      PreparedStatement prepared = connection.calcite().prepareStatement(sql);
      return new FloePreparedStatement(connection, prepared, sql, kind, PlanCache.lastUsed());
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    checkOpen();
    kind.check(StatementKind.Answer.ROWS, sql);
    if (!execute()) {
      throw SqlErrors.of(FloeError.VALIDATION, "the statement returns no result set: " + sql);
    }
    return getResultSet();
  }

  @Override
  public int executeUpdate() throws SQLException {
    return (int) executeLargeUpdate();
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    checkOpen();
    kind.check(StatementKind.Answer.COUNT, sql);
    if (execute()) {
      throw SqlErrors.of(FloeError.VALIDATION, "the statement returns a result set: " + sql);
    }
    return Math.max(getLargeUpdateCount(), 0);
  }

  @Override
  public boolean execute() throws SQLException {
    checkOpen();
    if (fast != null) {
      // A plain INSERT of parameters is written as a one-row batch: the same path, and the
      // same assignment of each value to its column, as executeBatch.
      Object[] row = new Object[values.length - 1];
      for (int i = 1; i < bindings.length; i++) {
        if (bindings[i] == null) {
          throw SqlErrors.of(FloeError.PARAMETER_COUNT, "parameter " + i + " is not set");
        }
        row[i - 1] = values[i];
      }
      write(List.<Object[]>of(row));
      updated(1);
      return false;
    }
    return cancellable(
        () -> {
          try (ContextLoader ignored = ContextLoader.enter();
              FloeSession.Exclusive turn = session().exclusive()) {
            closeResult();
            return run(
                () -> {
                  planAgainIfStale();
                  applyBindings();
                  return calcite.execute();
                });
          }
        });
  }

  /**
   * Plans the statement again when its plan no longer fits the tables as the running statement sees
   * them (a table dropped and created anew, or its schema, partition spec or sort order changed),
   * as running the statement's text anew would. Values bound so far stay bound.
   */
  private void planAgainIfStale() throws SQLException {
    if (plan == null || plan.valid(session())) {
      return;
    }
    PreparedStatement next = floeConnection().calcite().prepareStatement(sql);
    PlanCache.Entry nextPlan = PlanCache.lastUsed();
    PreparedStatement old = calcite;
    try {
      next.setMaxRows(old.getMaxRows());
      next.setQueryTimeout(old.getQueryTimeout());
      next.setFetchSize(old.getFetchSize());
    } catch (SQLException | RuntimeException e) {
      next.close();
      throw e;
    }
    calcite = next;
    replaceDelegate(next);
    parameters = next.getParameterMetaData();
    parameterTypes = null;
    plan = nextPlan;
    old.close();
  }

  private void closeResult() throws SQLException {
    ResultSet open = getResultSet();
    if (open != null) {
      open.close();
    }
  }

  @Override
  public void addBatch() throws SQLException {
    checkOpen();
    if (fast == null) {
      batch.add(bindings.clone());
    } else {
      for (int i = 1; i < bindings.length && unsetInBatch == 0; i++) {
        if (bindings[i] == null) {
          unsetInBatch = i;
        }
      }
    }
    Object[] row = new Object[values.length - 1];
    System.arraycopy(values, 1, row, 0, row.length);
    batchValues.add(row);
  }

  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    batch.clear();
    batchValues.clear();
    unsetInBatch = 0;
  }

  @Override
  public int[] executeBatch() throws SQLException {
    long[] counts = executeLargeBatch();
    int[] result = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      result[i] = (int) counts[i];
    }
    return result;
  }

  /**
   * Runs every batch entry in one transaction; nothing is published unless all succeed. INSERT rows
   * are collected and written once at the end, as one statement, so a batch makes a few data files,
   * not one per entry.
   */
  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    List<Binding[]> entries = new ArrayList<>(batch);
    List<Object[]> rows = new ArrayList<>(batchValues);
    int unset = unsetInBatch;
    batch.clear();
    batchValues.clear();
    unsetInBatch = 0;
    long[] counts = new long[rows.size()];
    if (fast != null) {
      if (unset > 0) {
        throw SqlErrors.of(
            FloeError.PARAMETER_COUNT, "parameter " + unset + " of a batch entry is not set");
      }
      write(rows);
      java.util.Arrays.fill(counts, 1);
      return counts;
    }
    for (Binding[] entry : entries) {
      checkBound(entry);
    }
    inOneTransaction(
        () -> {
          planAgainIfStale();
          InsertBatch inserts = new InsertBatch();
          session().collectInserts(inserts);
          try {
            for (int i = 0; i < entries.size(); i++) {
              for (Binding binding : entries.get(i)) {
                if (binding != null) {
                  binding.bind(calcite);
                }
              }
              if (calcite.execute()) {
                throw SqlErrors.of(FloeError.VALIDATION, "a batch statement returned a result set");
              }
              counts[i] = calcite.getLargeUpdateCount();
            }
          } finally {
            session().collectInserts(null);
          }
          inserts.flush();
        });
    return counts;
  }

  /**
   * Writes rows of the plain INSERT: inside a transaction they join the files kept open for the
   * table until the transaction next needs it; in auto-commit mode they are one commit.
   */
  private void write(List<Object[]> rows) throws SQLException {
    try (ContextLoader ignored = ContextLoader.enter();
        FloeSession.Exclusive turn = session().exclusiveKeepingAppends()) {
      if (!session().autoCommit()) {
        fast.append(session(), rows);
        return;
      }
    } catch (RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
    inOneTransaction(() -> fast.run(session(), rows));
  }

  @Override
  public void clearParameters() throws SQLException {
    checkOpen();
    bindings = new Binding[bindings.length];
    values = new Object[values.length];
    calcite.clearParameters();
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    checkOpen();
    ResultSetMetaData meta = calcite.getMetaData();
    return meta == null ? null : new FloeResultSetMetaData(floeConnection(), meta);
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    checkOpen();
    return parameters;
  }

  /**
   * Keeps the value of a plain INSERT's parameter as it is, to be assigned to its column when the
   * row is written (nothing is bound to Calcite's statement, which never runs); false for other
   * statements.
   */
  private boolean kept(int index, Object value) throws SQLException {
    if (fast == null) {
      return false;
    }
    checkIndex(index);
    bindings[index] = KEPT;
    values[index] = value;
    return true;
  }

  private void checkIndex(int index) throws SQLException {
    checkOpen();
    if (index < 1 || index >= bindings.length) {
      throw SqlErrors.of(
          FloeError.INVALID_INDEX, "set parameter " + index, "there are " + (bindings.length - 1));
    }
  }

  private void bind(int index, Object value, Binding binding) throws SQLException {
    if (kept(index, value)) {
      return;
    }
    checkIndex(index);
    if (value != null) {
      // The parameter's value, assigned to the parameter's type as any written value is; a plain
      // INSERT's values are assigned to their columns when written instead.
      Object assigned;
      try {
        assigned =
            ParameterAssigner.assign(
                "parameter " + index, parameterType(index), precision(index), scale(index), value);
      } catch (RuntimeException | Error e) {
        throw SqlErrors.toSql(e);
      }
      Binding exact = exactBinding(index, assigned);
      if (exact != null && assigned != value) {
        binding = exact;
      }
    }
    // Applied to Calcite's statement when it runs: a batch of a plain INSERT never needs it.
    bindings[index] = binding;
    values[index] = value;
  }

  /** Binds an assigned value as the Java type Calcite holds its parameter's type in. */
  private static Binding exactBinding(int index, Object value) {
    if (value instanceof Integer) {
      int v = (Integer) value;
      return target -> target.setInt(index, v);
    }
    if (value instanceof Long) {
      long v = (Long) value;
      return target -> target.setLong(index, v);
    }
    if (value instanceof java.math.BigDecimal) {
      java.math.BigDecimal v = (java.math.BigDecimal) value;
      return target -> target.setBigDecimal(index, v);
    }
    if (value instanceof Float) {
      float v = (Float) value;
      return target -> target.setFloat(index, v);
    }
    if (value instanceof Double) {
      double v = (Double) value;
      return target -> target.setDouble(index, v);
    }
    if (value instanceof Boolean) {
      boolean v = (Boolean) value;
      return target -> target.setBoolean(index, v);
    }
    if (value instanceof LocalDate) {
      int days = (int) ((LocalDate) value).toEpochDay();
      return target -> target.setInt(index, days);
    }
    return null;
  }

  private void applyBindings() throws SQLException {
    checkBound(bindings);
    for (Binding binding : bindings) {
      if (binding != null) {
        binding.bind(calcite);
      }
    }
  }

  /** Refuses (07001) a statement run with a parameter that is not set, before Calcite runs it. */
  private static void checkBound(Binding[] entry) throws SQLException {
    for (int i = 1; i < entry.length; i++) {
      if (entry[i] == null) {
        throw SqlErrors.of(
            FloeError.PARAMETER_COUNT,
            "parameter " + i + " is not set; bind every ? before running the statement");
      }
    }
  }

  /** Parameter types, looked up once: batches bind millions of values. */
  private int[] parameterTypes;

  private boolean[] localTimeZone;
  private int[] precisions;
  private int[] scales;

  private void describeParameters() {
    int n = bindings.length;
    parameterTypes = new int[n];
    localTimeZone = new boolean[n];
    precisions = new int[n];
    scales = new int[n];
    for (int i = 1; i < n; i++) {
      try {
        parameterTypes[i] = parameters.getParameterType(i);
        String name = parameters.getParameterTypeName(i);
        localTimeZone[i] = name != null && name.startsWith("TIMESTAMP_WITH_LOCAL_TIME_ZONE");
        precisions[i] = parameters.getPrecision(i);
        scales[i] = parameters.getScale(i);
      } catch (SQLException | RuntimeException e) {
        parameterTypes[i] = Types.OTHER;
        precisions[i] = 6;
      }
    }
  }

  private int parameterType(int index) {
    if (parameterTypes == null) {
      describeParameters();
    }
    return index < parameterTypes.length ? parameterTypes[index] : Types.OTHER;
  }

  private boolean isLocalTimeZone(int index) {
    if (parameterTypes == null) {
      describeParameters();
    }
    return index < localTimeZone.length && localTimeZone[index];
  }

  private int precision(int index) {
    if (parameterTypes == null) {
      describeParameters();
    }
    return index < precisions.length ? precisions[index] : 6;
  }

  private int scale(int index) {
    if (parameterTypes == null) {
      describeParameters();
    }
    return index < scales.length ? scales[index] : 0;
  }

  /** Binds a wall-clock timestamp as the number the parameter's type is held in. */
  private void bindDateTime(int index, LocalDateTime value, Instant instant, Object original)
      throws SQLException {
    if (kept(index, original)) {
      return;
    }
    switch (parameterType(index)) {
      case Types.DATE:
        {
          int days = (int) value.toLocalDate().toEpochDay();
          bind(index, original, target -> target.setInt(index, days));
          return;
        }
      case Types.TIME:
        {
          // Milliseconds as an int up to TIME(3); finer, a long in the unit of the precision.
          int precision = precision(index);
          long units = TemporalValues.fromLocalTime(value.toLocalTime(), precision);
          if (precision <= 3) {
            bind(index, original, target -> target.setInt(index, (int) units));
          } else {
            bind(index, original, target -> target.setLong(index, units));
          }
          return;
        }
      case Types.TIMESTAMP:
      case Types.TIMESTAMP_WITH_TIMEZONE:
        {
          LocalDateTime held =
              isLocalTimeZone(index)
                  ? LocalDateTime.ofInstant(
                      instant != null
                          ? instant
                          : value.atZone(session().timeZone().toZoneId()).toInstant(),
                      ZoneOffset.UTC)
                  : value;
          long units = TemporalValues.fromLocalDateTime(held, precision(index));
          bind(index, original, target -> target.setLong(index, units));
          return;
        }
      default:
        {
          String text = TemporalValues.format(TemporalValues.nanos(value), 9);
          bind(index, original, target -> target.setString(index, text));
        }
    }
  }

  @Override
  public void setTimestamp(int index, Timestamp x) throws SQLException {
    if (x == null) {
      setNull(index, Types.TIMESTAMP);
      return;
    }
    bindDateTime(index, x.toLocalDateTime(), null, x);
  }

  @Override
  public void setTimestamp(int index, Timestamp x, Calendar calendar) throws SQLException {
    if (x == null || calendar == null) {
      setTimestamp(index, x);
      return;
    }
    Instant instant = x.toInstant();
    bindDateTime(
        index,
        LocalDateTime.ofInstant(instant, calendar.getTimeZone().toZoneId()),
        instant,
        instant);
  }

  @Override
  public void setDate(int index, Date x) throws SQLException {
    if (x == null) {
      setNull(index, Types.DATE);
      return;
    }
    bindDateTime(index, x.toLocalDate().atStartOfDay(), null, x);
  }

  @Override
  public void setDate(int index, Date x, Calendar calendar) throws SQLException {
    setDate(index, x);
  }

  @Override
  public void setTime(int index, Time x) throws SQLException {
    if (x == null) {
      setNull(index, Types.TIME);
      return;
    }
    LocalTime time =
        x.toLocalTime().withNano((int) (Math.floorMod(x.getTime(), 1000L) * 1_000_000L));
    bindDateTime(index, LocalDate.ofEpochDay(0).atTime(time), null, time);
  }

  @Override
  public void setTime(int index, Time x, Calendar calendar) throws SQLException {
    setTime(index, x);
  }

  @Override
  public void setObject(int index, Object x) throws SQLException {
    if (x instanceof LocalDateTime) {
      bindDateTime(index, (LocalDateTime) x, null, x);
    } else if (x instanceof LocalDate) {
      bindDateTime(index, ((LocalDate) x).atStartOfDay(), null, x);
    } else if (x instanceof LocalTime) {
      bindDateTime(index, LocalDate.ofEpochDay(0).atTime((LocalTime) x), null, x);
    } else if (x instanceof OffsetDateTime) {
      Instant instant = ((OffsetDateTime) x).toInstant();
      bindDateTime(
          index,
          LocalDateTime.ofInstant(instant, session().timeZone().toZoneId()),
          instant,
          instant);
    } else if (x instanceof ZonedDateTime) {
      Instant instant = ((ZonedDateTime) x).toInstant();
      bindDateTime(
          index,
          LocalDateTime.ofInstant(instant, session().timeZone().toZoneId()),
          instant,
          instant);
    } else if (x instanceof Instant) {
      Instant instant = (Instant) x;
      bindDateTime(
          index,
          LocalDateTime.ofInstant(instant, session().timeZone().toZoneId()),
          instant,
          instant);
    } else if (x instanceof Timestamp) {
      setTimestamp(index, (Timestamp) x);
    } else if (x instanceof Date) {
      setDate(index, (Date) x);
    } else if (x instanceof Time) {
      setTime(index, (Time) x);
    } else if (!kept(index, x)) {
      bind(index, x, target -> target.setObject(index, x));
    }
  }

  @Override
  public void setObject(int index, Object x, int targetSqlType) throws SQLException {
    if (x == null) {
      setNull(index, targetSqlType);
    } else {
      setObject(index, x);
    }
  }

  @Override
  public void setObject(int index, Object x, int targetSqlType, int scaleOrLength)
      throws SQLException {
    setObject(index, x, targetSqlType);
  }

  /** As {@link #setObject(int, Object, int)}, for the types of {@link java.sql.JDBCType}. */
  @Override
  public void setObject(int index, Object x, SQLType targetSqlType) throws SQLException {
    setObject(index, x, jdbcType(targetSqlType));
  }

  /** As {@link #setObject(int, Object, int, int)}, for the types of {@link java.sql.JDBCType}. */
  @Override
  public void setObject(int index, Object x, SQLType targetSqlType, int scaleOrLength)
      throws SQLException {
    setObject(index, x, jdbcType(targetSqlType), scaleOrLength);
  }

  private int jdbcType(SQLType type) throws SQLException {
    checkOpen();
    if (!(type instanceof JDBCType)) {
      throw SqlErrors.of(FloeError.NOT_SUPPORTED, "parameters of SQL type " + type);
    }
    return type.getVendorTypeNumber();
  }

  @Override
  public void setNull(int index, int sqlType) throws SQLException {
    bind(index, null, target -> target.setNull(index, sqlType));
  }

  @Override
  public void setNull(int index, int sqlType, String typeName) throws SQLException {
    bind(index, null, target -> target.setNull(index, sqlType, typeName));
  }

  @Override
  public void setBoolean(int index, boolean x) throws SQLException {
    if (!kept(index, x)) {
      bind(index, x, target -> target.setBoolean(index, x));
    }
  }

  @Override
  public void setByte(int index, byte x) throws SQLException {
    if (!kept(index, x)) {
      bind(index, x, target -> target.setByte(index, x));
    }
  }

  @Override
  public void setShort(int index, short x) throws SQLException {
    if (!kept(index, x)) {
      bind(index, x, target -> target.setShort(index, x));
    }
  }

  @Override
  public void setInt(int index, int x) throws SQLException {
    if (!kept(index, x)) {
      bind(index, x, target -> target.setInt(index, x));
    }
  }

  @Override
  public void setLong(int index, long x) throws SQLException {
    if (!kept(index, x)) {
      bind(index, x, target -> target.setLong(index, x));
    }
  }

  @Override
  public void setFloat(int index, float x) throws SQLException {
    if (!kept(index, x)) {
      bind(index, x, target -> target.setFloat(index, x));
    }
  }

  @Override
  public void setDouble(int index, double x) throws SQLException {
    if (!kept(index, x)) {
      bind(index, x, target -> target.setDouble(index, x));
    }
  }

  @Override
  public void setBigDecimal(int index, java.math.BigDecimal x) throws SQLException {
    if (!kept(index, x)) {
      bind(index, x, target -> target.setBigDecimal(index, x));
    }
  }

  /** Text for a TIME parameter is read as a time of day, every digit kept (22007 if it is not). */
  @Override
  public void setString(int index, String x) throws SQLException {
    checkOpen();
    if (x != null && index >= 1 && index < bindings.length && parameterType(index) == Types.TIME) {
      LocalTime time;
      try {
        time = TemporalValues.parseTime(x);
      } catch (RuntimeException e) {
        throw SqlErrors.create(
            FloeError.INVALID_DATETIME.sqlState(),
            FloeError.INVALID_DATETIME.format("'" + x + "' for parameter " + index, "not a TIME"),
            e);
      }
      bindDateTime(index, LocalDate.ofEpochDay(0).atTime(time), null, x);
      return;
    }
    if (!kept(index, x)) {
      bind(index, x, target -> target.setString(index, x));
    }
  }

  @Override
  public void setNString(int index, String x) throws SQLException {
    if (!kept(index, x)) {
      bind(index, x, target -> target.setString(index, x));
    }
  }

  @Override
  public void setBytes(int index, byte[] x) throws SQLException {
    byte[] copy = x == null ? null : x.clone();
    bind(index, copy, target -> target.setBytes(index, copy));
  }
}
