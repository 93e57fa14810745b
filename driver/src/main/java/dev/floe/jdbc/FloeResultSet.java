package dev.floe.jdbc;

import dev.floe.error.FloeError;
import dev.floe.planner.rel.TemporalValues;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Calendar;
import java.util.UUID;
import java.util.function.Function;

/**
 * A Floe result set. Dates, times and timestamps travel as numbers (days, milliseconds of the day,
 * and microseconds or nanoseconds since the epoch) from the Parquet page to here, and this class
 * builds the JDBC objects from them exactly, in the proleptic Gregorian calendar: microseconds
 * survive {@code getTimestamp}, {@code 0001-01-01} stays {@code 0001-01-01}, and the JDBC 4.2
 * {@code java.time} getters work.
 *
 * <p>Not thread-safe.
 */
final class FloeResultSet extends ForwardingResultSet {
  /** How a column's value is held, for the getters that need to know. */
  private enum Kind {
    OTHER,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMP_LTZ
  }

  private final FloeStatement statement;
  private final ResultSet calcite;
  private final Kind[] kinds;
  private final int[] precisions;
  private final ZoneId sessionZone;
  private boolean closed;
  private FloeResultSetMetaData metaData;

  FloeResultSet(FloeStatement statement, ResultSet calcite) throws SQLException {
    super(calcite);
    this.statement = statement;
    this.calcite = calcite;
    this.sessionZone = statement.session().timeZone().toZoneId();
    ResultSetMetaData meta = calcite.getMetaData();
    int n = meta.getColumnCount();
    this.kinds = new Kind[n + 1];
    this.precisions = new int[n + 1];
    for (int i = 1; i <= n; i++) {
      String typeName = meta.getColumnTypeName(i);
      int type = meta.getColumnType(i);
      precisions[i] = meta.getPrecision(i);
      if (type == Types.DATE) {
        kinds[i] = Kind.DATE;
      } else if (type == Types.TIME) {
        kinds[i] = Kind.TIME;
      } else if (typeName != null && typeName.startsWith("TIMESTAMP_WITH_LOCAL_TIME_ZONE")) {
        kinds[i] = Kind.TIMESTAMP_LTZ;
      } else if (type == Types.TIMESTAMP) {
        kinds[i] = Kind.TIMESTAMP;
      } else {
        kinds[i] = Kind.OTHER;
      }
    }
  }

  private Kind kind(int column) throws SQLException {
    checkOpen();
    if (column < 1 || column >= kinds.length) {
      throw Errors.create("07009", "Cannot read column " + column + ": there are " + (kinds.length - 1), null);
    }
    return kinds[column];
  }

  /** {@inheritDoc} */
  @Override
  public boolean next() throws SQLException {
    checkOpen();
    try (ContextLoader ignored = ContextLoader.enter()) {
      return calcite.next();
    } catch (SQLException | RuntimeException | ExceptionInInitializerError e) {
      SQLException failure = Errors.toSql(e);
      if (FloeError.CANCELLED.sqlState().equals(failure.getSQLState())) {
        // A cancelled or timed-out scan stops here: close it now, so its workers end and its
        // files are closed without waiting for the caller to close the result set.
        try {
          close();
        } catch (SQLException suppressed) {
          failure.addSuppressed(suppressed);
        }
      }
      throw failure;
    }
  }

  private void checkOpen() throws SQLException {
    if (closed) {
      throw Errors.of(FloeError.CLOSED, "result set");
    }
  }

  /** Every call forwarded to Calcite checks first that this result set is open. */
  @Override
  ResultSet open() throws SQLException {
    checkOpen();
    return calcite;
  }

  /** {@inheritDoc} */
  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    try (ContextLoader ignored = ContextLoader.enter()) {
      calcite.close();
    } finally {
      statement.resultSetClosed(this);
    }
  }

  /** {@inheritDoc} */
  @Override
  public boolean isClosed() {
    return closed;
  }

  /** {@inheritDoc} */
  @Override
  public Statement getStatement() throws SQLException {
    checkOpen();
    return statement;
  }

  /** The columns as {@code DatabaseMetaData.getColumns} describes them. */
  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    checkOpen();
    if (metaData == null) {
      metaData = new FloeResultSetMetaData(statement.floeConnection(), calcite.getMetaData());
    }
    return metaData;
  }

  // ---- exact datetime values --------------------------------------------------------------

  private LocalDateTime localDateTime(int column) throws SQLException {
    long raw = calcite.getLong(column);
    if (calcite.wasNull()) {
      return null;
    }
    return TemporalValues.toLocalDateTime(raw, precisions[column]);
  }

  private Instant instant(int column) throws SQLException {
    LocalDateTime utc = localDateTime(column);
    return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
  }

  private LocalDate localDate(int column) throws SQLException {
    switch (kind(column)) {
      case DATE:
        {
          int days = calcite.getInt(column);
          return calcite.wasNull() ? null : LocalDate.ofEpochDay(days);
        }
      case TIMESTAMP:
        {
          LocalDateTime value = localDateTime(column);
          return value == null ? null : value.toLocalDate();
        }
      case TIMESTAMP_LTZ:
        {
          Instant value = instant(column);
          return value == null ? null : value.atZone(sessionZone).toLocalDate();
        }
      default:
        {
          String text = calcite.getString(column);
          return text == null ? null : parse(column, text, t -> LocalDate.parse(t.trim()));
        }
    }
  }

  private LocalTime localTime(int column) throws SQLException {
    switch (kind(column)) {
      case TIME:
        {
          int millis = calcite.getInt(column);
          return calcite.wasNull() ? null : TemporalValues.toLocalTime(millis);
        }
      case TIMESTAMP:
        {
          LocalDateTime value = localDateTime(column);
          return value == null ? null : value.toLocalTime();
        }
      case TIMESTAMP_LTZ:
        {
          Instant value = instant(column);
          return value == null ? null : value.atZone(sessionZone).toLocalTime();
        }
      default:
        {
          String text = calcite.getString(column);
          return text == null ? null : parse(column, text, t -> LocalTime.parse(t.trim()));
        }
    }
  }

  /** The wall-clock time of a timestamp column (session time for TIMESTAMP WITH LOCAL TIME ZONE). */
  private LocalDateTime wallClock(int column) throws SQLException {
    switch (kind(column)) {
      case TIMESTAMP:
        return localDateTime(column);
      case TIMESTAMP_LTZ:
        {
          Instant value = instant(column);
          return value == null ? null : LocalDateTime.ofInstant(value, sessionZone);
        }
      case DATE:
        {
          LocalDate date = localDate(column);
          return date == null ? null : date.atStartOfDay();
        }
      case TIME:
        {
          LocalTime time = localTime(column);
          return time == null ? null : LocalDate.ofEpochDay(0).atTime(time);
        }
      default:
        {
          String text = calcite.getString(column);
          return text == null
              ? null
              : parse(column, text, t -> TemporalValues.parse(t.replace('T', ' ')));
        }
    }
  }

  /** Reads a datetime from a column that holds text (or a number); a bad one is 22007. */
  private static <T> T parse(int column, String text, Function<String, T> parser)
      throws SQLException {
    try {
      return parser.apply(text);
    } catch (RuntimeException e) {
      throw Errors.create(
          FloeError.INVALID_DATETIME.sqlState(),
          FloeError.INVALID_DATETIME.format("'" + text + "' in column " + column, e.getMessage()),
          e);
    }
  }

  /** {@inheritDoc} */
  @Override
  public Timestamp getTimestamp(int column) throws SQLException {
    if (kind(column) == Kind.TIMESTAMP_LTZ) {
      Instant value = instant(column);
      return value == null ? null : Timestamp.from(value);
    }
    LocalDateTime value = wallClock(column);
    return value == null ? null : Timestamp.valueOf(value);
  }

  /** {@inheritDoc} */
  @Override
  public Timestamp getTimestamp(int column, Calendar calendar) throws SQLException {
    if (calendar == null || kind(column) == Kind.TIMESTAMP_LTZ) {
      return getTimestamp(column);
    }
    LocalDateTime value = wallClock(column);
    return value == null ? null : Timestamp.from(value.atZone(calendar.getTimeZone().toZoneId()).toInstant());
  }

  /** {@inheritDoc} */
  @Override
  public Date getDate(int column) throws SQLException {
    LocalDate value = localDate(column);
    return value == null ? null : Date.valueOf(value);
  }

  /** {@inheritDoc} */
  @Override
  public Date getDate(int column, Calendar calendar) throws SQLException {
    if (calendar == null) {
      return getDate(column);
    }
    LocalDate value = localDate(column);
    return value == null
        ? null
        : new Date(value.atStartOfDay(calendar.getTimeZone().toZoneId()).toInstant().toEpochMilli());
  }

  /** {@inheritDoc} */
  @Override
  public Time getTime(int column) throws SQLException {
    LocalTime value = localTime(column);
    if (value == null) {
      return null;
    }
    Time time = Time.valueOf(value);
    return new Time(time.getTime() + value.getNano() / 1_000_000);
  }

  /** {@inheritDoc} */
  @Override
  public Time getTime(int column, Calendar calendar) throws SQLException {
    if (calendar == null) {
      return getTime(column);
    }
    LocalTime value = localTime(column);
    return value == null
        ? null
        : new Time(
            LocalDate.ofEpochDay(0)
                .atTime(value)
                .atZone(calendar.getTimeZone().toZoneId())
                .toInstant()
                .toEpochMilli());
  }

  /** {@inheritDoc} */
  @Override
  public String getString(int column) throws SQLException {
    switch (kind(column)) {
      case DATE:
        {
          LocalDate value = localDate(column);
          return value == null ? null : value.toString();
        }
      case TIME:
        {
          LocalTime value = localTime(column);
          return value == null ? null : value.toString();
        }
      case TIMESTAMP:
        {
          long raw = calcite.getLong(column);
          return calcite.wasNull() ? null : TemporalValues.format(raw, precisions[column]);
        }
      case TIMESTAMP_LTZ:
        {
          Instant value = instant(column);
          if (value == null) {
            return null;
          }
          LocalDateTime local = LocalDateTime.ofInstant(value, sessionZone);
          long units = TemporalValues.fromLocalDateTime(local, precisions[column]);
          return TemporalValues.format(units, precisions[column])
              + " "
              + sessionZone.getRules().getOffset(value).getId().replace("Z", "UTC");
        }
      default:
        return calcite.getString(column);
    }
  }

  /** {@inheritDoc} */
  @Override
  public Object getObject(int column) throws SQLException {
    switch (kind(column)) {
      case DATE:
        return getDate(column);
      case TIME:
        return getTime(column);
      case TIMESTAMP:
      case TIMESTAMP_LTZ:
        return getTimestamp(column);
      default:
        return calcite.getObject(column);
    }
  }

  /** Supports the JDBC 4.2 {@code java.time} classes as well as the usual ones. */
  @Override
  public <T> T getObject(int column, Class<T> type) throws SQLException {
    kind(column);
    if (type == null) {
      throw Errors.create("HY000", "Cannot convert a column to a null type", null);
    }
    Object value;
    if (type == LocalDate.class) {
      value = localDate(column);
    } else if (type == LocalTime.class) {
      value = localTime(column);
    } else if (type == LocalDateTime.class) {
      value = wallClock(column);
    } else if (type == Instant.class) {
      value = kind(column) == Kind.TIMESTAMP_LTZ ? instant(column) : toInstant(wallClock(column));
    } else if (type == OffsetDateTime.class) {
      if (kind(column) == Kind.TIMESTAMP_LTZ) {
        Instant instant = instant(column);
        value = instant == null ? null : instant.atOffset(ZoneOffset.UTC);
      } else {
        LocalDateTime local = wallClock(column);
        value = local == null ? null : local.atOffset(ZoneOffset.UTC);
      }
    } else if (type == ZonedDateTime.class) {
      Instant instant =
          kind(column) == Kind.TIMESTAMP_LTZ ? instant(column) : toInstant(wallClock(column));
      value = instant == null ? null : instant.atZone(sessionZone);
    } else if (type == Timestamp.class) {
      value = getTimestamp(column);
    } else if (type == Date.class) {
      value = getDate(column);
    } else if (type == Time.class) {
      value = getTime(column);
    } else if (type == String.class) {
      value = getString(column);
    } else if (type == UUID.class) {
      Object raw = calcite.getObject(column);
      value = raw == null || raw instanceof UUID ? raw : UUID.fromString(raw.toString());
    } else if (type == Integer.class) {
      int v = calcite.getInt(column);
      value = calcite.wasNull() ? null : v;
    } else if (type == Long.class) {
      long v = calcite.getLong(column);
      value = calcite.wasNull() ? null : v;
    } else if (type == Short.class) {
      short v = calcite.getShort(column);
      value = calcite.wasNull() ? null : v;
    } else if (type == Byte.class) {
      byte v = calcite.getByte(column);
      value = calcite.wasNull() ? null : v;
    } else if (type == Double.class) {
      double v = calcite.getDouble(column);
      value = calcite.wasNull() ? null : v;
    } else if (type == Float.class) {
      float v = calcite.getFloat(column);
      value = calcite.wasNull() ? null : v;
    } else if (type == Boolean.class) {
      boolean v = calcite.getBoolean(column);
      value = calcite.wasNull() ? null : v;
    } else if (type == BigDecimal.class) {
      value = calcite.getBigDecimal(column);
    } else if (type == byte[].class) {
      value = calcite.getBytes(column);
    } else {
      value = getObject(column);
      if (value != null && !type.isInstance(value)) {
        throw Errors.create(
            "22018",
            "Cannot convert column " + column + " of " + value.getClass().getName() + " to " + type.getName(),
            null);
      }
    }
    return type.cast(value);
  }

  private Instant toInstant(LocalDateTime local) {
    return local == null ? null : local.atZone(sessionZone).toInstant();
  }

  // ---- by column label -------------------------------------------------------------------

  /** {@inheritDoc} */
  @Override
  public Timestamp getTimestamp(String label) throws SQLException {
    return getTimestamp(findColumn(label));
  }

  /** {@inheritDoc} */
  @Override
  public Timestamp getTimestamp(String label, Calendar calendar) throws SQLException {
    return getTimestamp(findColumn(label), calendar);
  }

  /** {@inheritDoc} */
  @Override
  public Date getDate(String label) throws SQLException {
    return getDate(findColumn(label));
  }

  /** {@inheritDoc} */
  @Override
  public Date getDate(String label, Calendar calendar) throws SQLException {
    return getDate(findColumn(label), calendar);
  }

  /** {@inheritDoc} */
  @Override
  public Time getTime(String label) throws SQLException {
    return getTime(findColumn(label));
  }

  /** {@inheritDoc} */
  @Override
  public Time getTime(String label, Calendar calendar) throws SQLException {
    return getTime(findColumn(label), calendar);
  }

  /** {@inheritDoc} */
  @Override
  public String getString(String label) throws SQLException {
    return getString(findColumn(label));
  }

  /** {@inheritDoc} */
  @Override
  public Object getObject(String label) throws SQLException {
    return getObject(findColumn(label));
  }

  /** {@inheritDoc} */
  @Override
  public <T> T getObject(String label, Class<T> type) throws SQLException {
    return getObject(findColumn(label), type);
  }
}
