package dev.floe.jdbc;

import dev.floe.config.ContextLoader;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.jdbc.forwarding.ForwardingResultSet;
import dev.floe.planner.scan.ColumnarScan;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.type.TemporalValues;
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
import java.util.Locale;
import java.util.TimeZone;
import java.util.UUID;
import java.util.function.Function;
import org.apache.calcite.avatica.AvaticaSite;
import org.apache.calcite.avatica.util.Cursor;

/**
 * A Floe result set. Dates, times and timestamps travel as numbers (days, times of the day and
 * timestamps since the epoch in the unit of their precision: milliseconds up to 3, microseconds up
 * to 6, nanoseconds above) from the Parquet page to here, and this class builds the JDBC objects
 * from them exactly, in the proleptic Gregorian calendar: microseconds survive {@code
 * getTimestamp}, {@code getString} and {@code getObject(i, LocalTime.class)}, {@code 0001-01-01}
 * stays {@code 0001-01-01}, and the JDBC 4.2 {@code java.time} getters work. A TIME finer than
 * milliseconds is read as the raw number Avatica holds for it (its own TIME getters would read it
 * as milliseconds).
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
    TIMESTAMP_LTZ,
    /** A ROW, ARRAY or MAP with a TIME or TIMESTAMP inside, which Avatica would convert wrongly. */
    NESTED_TEMPORAL
  }

  /** A TIME or TIMESTAMP type in a nested type's name; a field's name is followed by ':'. */
  private static final java.util.regex.Pattern NESTED_TEMPORAL =
      java.util.regex.Pattern.compile("\\b(TIME|TIMESTAMP)\\b(?!:)");

  private final FloeStatement statement;
  private final ResultSet calcite;
  private final Kind[] kinds;
  private final int[] precisions;
  private final ZoneId sessionZone;
  private final Cancellation cancellation;
  private final JdbcTemporals temporals = JdbcTemporals.forDefaultZone();
  private final Cursor.Accessor[] accessors;

  /**
   * The scan whose column batches this result set reads, when its query is a plain scan; null: rows
   * come through Calcite's cursor.
   */
  private final ColumnarScan columnar;

  private final ChunkCursor chunkCursor;

  /** The rows of a scroll-insensitive result set, kept as they are read; null: forward-only. */
  private final ScrollRows scroll;

  private final long maxRows;
  private int chunkRow;
  private int chunkRows;
  private long rowNumber;
  private boolean afterLast;

  /** For a ROW, ARRAY or MAP column holding times or timestamps: its type, to build it exactly. */
  private final org.apache.calcite.rel.type.RelDataType[] nestedTypes;

  private final NestedValues nestedValues = new NestedValues(temporals);
  private final int[] types;
  private final boolean[] signed;
  private final Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"), Locale.ROOT);
  private boolean closed;
  private FloeResultSetMetaData metaData;
  private final ResultLabels labels;

  FloeResultSet(FloeStatement statement, ResultSet calcite) throws SQLException {
    this(statement, calcite, null, 0);
  }

  /**
   * A result set reading {@code columnar}'s column batches when it is not null (and Avatica's
   * column descriptions can be read), at most {@code maxRows} rows (0: all); otherwise Calcite's
   * rows.
   */
  FloeResultSet(FloeStatement statement, ResultSet calcite, ColumnarScan columnar, long maxRows)
      throws SQLException {
    this(statement, calcite, columnar, maxRows, statement.running());
  }

  /**
   * The rows a command answers once its work is done and committed (a procedure's counts), held in
   * memory: reading them is not stopped by the statement's cancel or timeout, which could no longer
   * undo the work (an optimize that committed was reported as timed out when its deadline passed
   * before its row of counts was read).
   */
  static FloeResultSet answered(FloeStatement statement, ResultSet rows) throws SQLException {
    return new FloeResultSet(statement, rows, null, 0, Cancellation.NONE);
  }

  private FloeResultSet(
      FloeStatement statement,
      ResultSet calcite,
      ColumnarScan columnar,
      long maxRows,
      Cancellation cancellation)
      throws SQLException {
    super(calcite);
    this.statement = statement;
    this.cancellation = cancellation;
    this.calcite = calcite;
    this.sessionZone = statement.session().timeZone().toZoneId();
    ResultSetMetaData meta = calcite.getMetaData();
    this.labels = ResultLabels.of(meta);
    int n = meta.getColumnCount();
    this.kinds = new Kind[n + 1];
    this.precisions = new int[n + 1];
    this.types = new int[n + 1];
    this.signed = new boolean[n + 1];
    for (int i = 1; i <= n; i++) {
      types[i] = meta.getColumnType(i);
      signed[i] = meta.isSigned(i);
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
      } else if ((type == Types.STRUCT || type == Types.ARRAY || type == Types.OTHER)
          && (holdsTemporal(typeName) || holdsTemporal(getMetaData().getColumnTypeName(i)))) {
        kinds[i] = Kind.NESTED_TEMPORAL;
      } else {
        kinds[i] = Kind.OTHER;
      }
    }
    java.util.List<org.apache.calcite.avatica.ColumnMetaData> columns =
        columnar == null && !statement.scrollable() ? null : RowAccessors.columns(calcite);
    if (columnar != null) {
      if (columns == null
          || columns.size() != n
          || !(calcite instanceof org.apache.calcite.avatica.AvaticaResultSet)) {
        // Calcite's cursor was told not to read this scan: there is no other way to its rows.
        calcite.close();
        throw SqlErrors.of(FloeError.INTERNAL, "the columns of a scan's result cannot be read");
      }
      org.apache.calcite.avatica.AvaticaResultSet avatica =
          (org.apache.calcite.avatica.AvaticaResultSet) calcite;
      // Avatica's own accessors, over the scan's column batches instead of Calcite's rows.
      this.chunkCursor = new ChunkCursor();
      this.columnar = columnar;
      this.accessors = accessors(chunkCursor, columns, avatica);
      this.scroll = null;
    } else if (statement.scrollable()) {
      // Calcite's rows, kept as its accessors hold them and read back through a cursor of Floe's.
      Cursor.Accessor[] source = RowAccessors.of(calcite, n);
      if (columns == null || columns.size() != n || !readsRaw(source)) {
        calcite.close();
        throw SqlErrors.of(FloeError.INTERNAL, "the rows of a result cannot be kept to scroll");
      }
      org.apache.calcite.avatica.AvaticaResultSet avatica =
          (org.apache.calcite.avatica.AvaticaResultSet) calcite;
      this.chunkCursor = new ChunkCursor();
      this.columnar = null;
      this.accessors = accessors(chunkCursor, columns, avatica);
      this.scroll =
          new ScrollRows(
              new ScrollRows.Source() {
                @Override
                public boolean next() throws SQLException {
                  return nextInCalcite();
                }

                @Override
                public Object value(int column) throws SQLException {
                  return RowAccessors.raw(source[column + 1]);
                }
              },
              n,
              ScrollRows.MAX_ROWS,
              chunkCursor);
    } else {
      this.chunkCursor = null;
      this.columnar = null;
      this.accessors = RowAccessors.of(calcite, n);
      this.scroll = null;
      if (accessors == null) {
        calcite.close();
        throw SqlErrors.of(FloeError.INTERNAL, "the columns of a result cannot be read");
      }
    }

    this.maxRows = maxRows;
    this.nestedTypes = new org.apache.calcite.rel.type.RelDataType[n + 1];
    org.apache.calcite.rel.type.RelDataType rowType = RowAccessors.rowType(calcite);
    for (int i = 1; i <= n; i++) {
      if (kinds[i] == Kind.NESTED_TEMPORAL
          && RowAccessors.readsRaw(accessors[i])
          && rowType != null
          && rowType.getFieldCount() == n
          && NestedValues.holdsTemporal(rowType.getFieldList().get(i - 1).getType())) {
        nestedTypes[i] = rowType.getFieldList().get(i - 1).getType();
      }
    }
  }

  /** Avatica's accessors of {@code columns} over a cursor of Floe's, indexed by column. */
  private static Cursor.Accessor[] accessors(
      ChunkCursor cursor,
      java.util.List<org.apache.calcite.avatica.ColumnMetaData> columns,
      org.apache.calcite.avatica.AvaticaResultSet avatica)
      throws SQLException {
    java.util.List<Cursor.Accessor> list =
        cursor.createAccessors(columns, avatica.getLocalCalendar(), avatica);
    Cursor.Accessor[] accessors = new Cursor.Accessor[list.size() + 1];
    for (int i = 0; i < list.size(); i++) {
      accessors[i + 1] = list.get(i);
    }
    return accessors;
  }

  /** Whether every accessor's run-time value can be read (to keep it). */
  private static boolean readsRaw(Cursor.Accessor[] accessors) {
    if (accessors == null) {
      return false;
    }
    for (int i = 1; i < accessors.length; i++) {
      if (!RowAccessors.readsRaw(accessors[i])) {
        return false;
      }
    }
    return true;
  }

  /** Whether a nested type's name (Calcite's or Floe's) names a TIME or TIMESTAMP inside it. */
  private static boolean holdsTemporal(String typeName) {
    return typeName != null && NESTED_TEMPORAL.matcher(typeName).find();
  }

  private Kind kind(int column) throws SQLException {
    checkOpen();
    if (column < 1 || column >= kinds.length) {
      throw SqlErrors.of(
          FloeError.INVALID_INDEX, "read column " + column, "there are " + (kinds.length - 1));
    }
    return kinds[column];
  }

  // ---- the current row, through Avatica's accessors ----------------------------------------

  /**
   * The accessor of a column: every getter reads the current row through it, whether the row is
   * Calcite's, a scan's column batch's or one a scroll-insensitive result set keeps.
   */
  private Cursor.Accessor accessor(int column) throws SQLException {
    kind(column);
    if (scroll != null && !scroll.onRow()) {
      throw SqlErrors.of(FloeError.NO_CURRENT_ROW, column, scroll.where());
    }
    return accessors[column];
  }

  /** A read of one value through a column's accessor. */
  @FunctionalInterface
  private interface Read<T> {
    T from(Cursor.Accessor accessor) throws SQLException;
  }

  /**
   * Reads a column of the current row; a failure becomes an SQLException with Floe's state. The
   * getters a scan's rows are read with most write the same out, without the indirection.
   */
  private <T> T read(int column, Read<T> read) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return read.from(accessor);
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  private long longAt(int column) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getLong();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  private int intAt(int column) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getInt();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  /**
   * Refuses to read a ROW, ARRAY or MAP value holding a TIME or TIMESTAMP as a whole where Floe
   * cannot build it itself ({@link NestedValues}, from the column's SQL type): Avatica would build
   * its java.sql.Time and Timestamp attributes from microseconds as if they were milliseconds.
   */
  private void checkNotNestedTemporal(int column) throws SQLException {
    if (kind(column) == Kind.NESTED_TEMPORAL && nestedTypes[column] == null) {
      throw SqlErrors.of(
          FloeError.NOT_SUPPORTED,
          "reading column "
              + column
              + " as a whole: a TIME or TIMESTAMP inside a ROW, ARRAY or MAP would lose digits;"
              + " select its fields or elements instead (st.ts, a[1], m['k'])");
    }
  }

  /** A ROW, ARRAY or MAP column holding times or timestamps, built exactly by Floe. */
  private Object nestedAt(int column) throws SQLException {
    try {
      return nestedValues.toJdbc(RowAccessors.raw(accessors[column]), nestedTypes[column]);
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  private String stringAt(int column) throws SQLException {
    checkNotNestedTemporal(column);
    if (nestedTypes[column] != null) {
      Object value = nestedAt(column);
      return value == null ? null : value.toString();
    }
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getString();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  /** As Avatica's {@code getObject}: the accessor's value converted for the column's JDBC type. */
  private Object objectAt(int column) throws SQLException {
    checkNotNestedTemporal(column);
    if (nestedTypes[column] != null) {
      return nestedAt(column);
    }
    Cursor.Accessor accessor = accessor(column);
    try {
      return AvaticaSite.get(accessor, types[column], signed[column], utc);
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  /** Whether the last value read was NULL; every accessor shares the cursor's flag. */
  private boolean lastWasNull() throws SQLException {
    return accessors.length >= 2 && accessors[1].wasNull();
  }

  @Override
  public boolean wasNull() throws SQLException {
    checkOpen();
    return lastWasNull();
  }

  @Override
  public long getLong(int column) throws SQLException {
    return longAt(column);
  }

  @Override
  public int getInt(int column) throws SQLException {
    return intAt(column);
  }

  @Override
  public short getShort(int column) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getShort();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  @Override
  public byte getByte(int column) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getByte();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  @Override
  public boolean getBoolean(int column) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getBoolean();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  @Override
  public double getDouble(int column) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getDouble();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  @Override
  public float getFloat(int column) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getFloat();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  @Override
  public BigDecimal getBigDecimal(int column) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getBigDecimal();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  @Override
  public byte[] getBytes(int column) throws SQLException {
    Cursor.Accessor accessor = accessor(column);
    try {
      return accessor.getBytes();
    } catch (SQLException | RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  @Override
  public java.sql.Array getArray(int column) throws SQLException {
    checkNotNestedTemporal(column);
    if (nestedTypes[column] != null) {
      Object value = nestedAt(column);
      if (value == null || value instanceof java.sql.Array) {
        return (java.sql.Array) value;
      }
      throw SqlErrors.create(
          FloeError.INVALID_CAST.sqlState(), "Cannot read column " + column + " as an array", null);
    }
    return read(column, Cursor.Accessor::getArray);
  }

  @Override
  public java.sql.Array getArray(String label) throws SQLException {
    return getArray(findColumn(label));
  }

  @Override
  public boolean next() throws SQLException {
    checkOpen();
    if (columnar != null) {
      return nextInChunk();
    }
    if (scroll != null) {
      return scroll.next();
    }
    return nextInCalcite();
  }

  /** The next row of Calcite's cursor. */
  private boolean nextInCalcite() throws SQLException {
    try (ContextLoader ignored = ContextLoader.enter()) {
      cancellation.check();
      // Calcite plans a Statement's limit into the query, but a PreparedStatement is planned
      // before setMaxRows can be called: its limit holds here.
      if (maxRows > 0 && rowNumber >= maxRows) {
        return false;
      }
      boolean more = calcite.next();
      if (more) {
        rowNumber++;
      }
      return more;
    } catch (SQLException | RuntimeException | Error e) {
      throw failed(e);
    }
  }

  /** The next row of the scan's column batches: a new batch only once this one is read. */
  private boolean nextInChunk() throws SQLException {
    try {
      columnar.checkCancelled();
      if (maxRows > 0 && rowNumber >= maxRows) {
        return end();
      }
      if (++chunkRow >= chunkRows) {
        if (afterLast) {
          return false;
        }
        try (ContextLoader ignored = ContextLoader.enter()) {
          if (!columnar.nextChunk()) {
            return end();
          }
        }
        chunkRow = 0;
        chunkRows = columnar.count();
        chunkCursor.at(columnar.columns(), columnar.row(0));
      } else {
        chunkCursor.at(columnar.row(chunkRow));
      }
      rowNumber++;
      return true;
    } catch (RuntimeException | Error e) {
      throw failed(e);
    }
  }

  private boolean end() {
    afterLast = true;
    chunkRow = 0;
    chunkRows = 0;
    return false;
  }

  /** The failure of moving to the next row; a cancelled scan is closed at once. */
  private SQLException failed(Throwable e) {
    SQLException failure = SqlErrors.toSql(e);
    if (FloeError.CANCELLED.sqlState().equals(failure.getSQLState())) {
      // A cancelled or timed-out scan stops here: close it now, so its workers end and its
      // files are closed without waiting for the caller to close the result set.
      try {
        close();
      } catch (SQLException suppressed) {
        failure.addSuppressed(suppressed);
      }
    }
    return failure;
  }

  /** A negative fetch size is refused (HY024), as JDBC asks; any other is a hint. */
  @Override
  public void setFetchSize(int rows) throws SQLException {
    checkOpen();
    FloeStatement.checkFetchSize(rows);
    super.setFetchSize(rows);
  }

  /** A direction other than ResultSet's three is refused (HY024); any of them is a hint. */
  @Override
  public void setFetchDirection(int direction) throws SQLException {
    checkOpen();
    FloeStatement.checkFetchDirection(direction);
    super.setFetchDirection(direction);
  }

  @Override
  public int findColumn(String label) throws SQLException {
    checkOpen();
    labels.check(label);
    return super.findColumn(label);
  }

  private void checkOpen() throws SQLException {
    if (closed) {
      throw SqlErrors.of(FloeError.CLOSED, "result set");
    }
  }

  /** Every call forwarded to Calcite checks first that this result set is open. */
  @Override
  protected ResultSet open() throws SQLException {
    checkOpen();
    return calcite;
  }

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    if (scroll != null) {
      scroll.close();
    }
    try (ContextLoader ignored = ContextLoader.enter()) {
      calcite.close();
    } finally {
      statement.resultSetClosed(this);
    }
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

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
    long raw = longAt(column);
    if (lastWasNull()) {
      return null;
    }
    return temporals.localDateTime(raw, precisions[column]);
  }

  private Instant instant(int column) throws SQLException {
    LocalDateTime utc = localDateTime(column);
    return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
  }

  private LocalDate localDate(int column) throws SQLException {
    switch (kind(column)) {
      case DATE:
        {
          int days = intAt(column);
          return lastWasNull() ? null : temporals.localDate(days);
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
          String text = stringAt(column);
          return text == null ? null : parse(column, text, t -> LocalDate.parse(t.trim()));
        }
    }
  }

  private LocalTime localTime(int column) throws SQLException {
    switch (kind(column)) {
      case TIME:
        {
          long units = longAt(column);
          return lastWasNull() ? null : TemporalValues.toLocalTime(units, precisions[column]);
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
          String text = stringAt(column);
          return text == null ? null : parse(column, text, t -> LocalTime.parse(t.trim()));
        }
    }
  }

  /**
   * The wall-clock time of a timestamp column (session time for TIMESTAMP WITH LOCAL TIME ZONE).
   */
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
          String text = stringAt(column);
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
      throw SqlErrors.create(
          FloeError.INVALID_DATETIME.sqlState(),
          FloeError.INVALID_DATETIME.format("'" + text + "' in column " + column, e.getMessage()),
          e);
    }
  }

  @Override
  public Timestamp getTimestamp(int column) throws SQLException {
    Kind kind = kind(column);
    if (kind == Kind.TIMESTAMP_LTZ) {
      Instant value = instant(column);
      return value == null ? null : Timestamp.from(value);
    }
    if (kind == Kind.TIMESTAMP) {
      long raw = longAt(column);
      if (lastWasNull()) {
        return null;
      }
      long perSecond = TemporalValues.unitsPerSecond(precisions[column]);
      long nanosPerUnit = 1_000_000_000L / perSecond;
      return temporals.timestamp(
          Math.floorDiv(raw, perSecond), (int) (Math.floorMod(raw, perSecond) * nanosPerUnit));
    }
    LocalDateTime value = wallClock(column);
    return value == null ? null : temporals.timestamp(value);
  }

  @Override
  public Timestamp getTimestamp(int column, Calendar calendar) throws SQLException {
    if (calendar == null || kind(column) == Kind.TIMESTAMP_LTZ) {
      return getTimestamp(column);
    }
    LocalDateTime value = wallClock(column);
    return value == null
        ? null
        : Timestamp.from(value.atZone(calendar.getTimeZone().toZoneId()).toInstant());
  }

  @Override
  public Date getDate(int column) throws SQLException {
    if (kind(column) == Kind.DATE) {
      int days = intAt(column);
      return lastWasNull() ? null : temporals.date(days);
    }
    LocalDate value = localDate(column);
    return value == null ? null : temporals.date(value);
  }

  @Override
  public Date getDate(int column, Calendar calendar) throws SQLException {
    if (calendar == null) {
      return getDate(column);
    }
    LocalDate value = localDate(column);
    return value == null
        ? null
        : new Date(
            value.atStartOfDay(calendar.getTimeZone().toZoneId()).toInstant().toEpochMilli());
  }

  @Override
  public Time getTime(int column) throws SQLException {
    LocalTime value = localTime(column);
    if (value == null) {
      return null;
    }
    // java.sql.Time holds milliseconds: the digits below are cut, never rounded up.
    Time time = Time.valueOf(value);
    return new Time(time.getTime() + value.getNano() / 1_000_000);
  }

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
          return value == null ? null : TemporalValues.formatTime(value);
        }
      case TIMESTAMP:
        {
          long raw = longAt(column);
          return lastWasNull() ? null : TemporalValues.format(raw, precisions[column]);
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
        return stringAt(column);
    }
  }

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
        return objectAt(column);
    }
  }

  /** Supports the JDBC 4.2 {@code java.time} classes as well as the usual ones. */
  @Override
  public <T> T getObject(int column, Class<T> type) throws SQLException {
    kind(column);
    if (type == null) {
      throw SqlErrors.of(
          FloeError.INVALID_ARGUMENT, "convert column " + column, "the type is null");
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
      Object raw = objectAt(column);
      try {
        value = raw == null || raw instanceof UUID ? raw : UUID.fromString(raw.toString());
      } catch (IllegalArgumentException e) {
        throw SqlErrors.of(
            FloeError.INVALID_CAST,
            "column " + column + " of " + raw.getClass().getName(),
            "it is no " + UUID.class.getName());
      }
    } else if (type == Integer.class) {
      int v = getInt(column);
      value = lastWasNull() ? null : v;
    } else if (type == Long.class) {
      long v = getLong(column);
      value = lastWasNull() ? null : v;
    } else if (type == Short.class) {
      short v = getShort(column);
      value = lastWasNull() ? null : v;
    } else if (type == Byte.class) {
      byte v = getByte(column);
      value = lastWasNull() ? null : v;
    } else if (type == Double.class) {
      double v = getDouble(column);
      value = lastWasNull() ? null : v;
    } else if (type == Float.class) {
      float v = getFloat(column);
      value = lastWasNull() ? null : v;
    } else if (type == Boolean.class) {
      boolean v = getBoolean(column);
      value = lastWasNull() ? null : v;
    } else if (type == BigDecimal.class) {
      value = getBigDecimal(column);
    } else if (type == byte[].class) {
      value = getBytes(column);
    } else {
      value = getObject(column);
      if (value != null && !type.isInstance(value)) {
        throw SqlErrors.of(
            FloeError.INVALID_CAST,
            "column " + column + " of " + value.getClass().getName(),
            "it is no " + type.getName());
      }
    }
    return type.cast(value);
  }

  private Instant toInstant(LocalDateTime local) {
    return local == null ? null : local.atZone(sessionZone).toInstant();
  }

  // ---- by column label -------------------------------------------------------------------

  @Override
  public Timestamp getTimestamp(String label) throws SQLException {
    return getTimestamp(findColumn(label));
  }

  @Override
  public Timestamp getTimestamp(String label, Calendar calendar) throws SQLException {
    return getTimestamp(findColumn(label), calendar);
  }

  @Override
  public Date getDate(String label) throws SQLException {
    return getDate(findColumn(label));
  }

  @Override
  public Date getDate(String label, Calendar calendar) throws SQLException {
    return getDate(findColumn(label), calendar);
  }

  @Override
  public Time getTime(String label) throws SQLException {
    return getTime(findColumn(label));
  }

  @Override
  public Time getTime(String label, Calendar calendar) throws SQLException {
    return getTime(findColumn(label), calendar);
  }

  @Override
  public String getString(String label) throws SQLException {
    return getString(findColumn(label));
  }

  @Override
  public Object getObject(String label) throws SQLException {
    return getObject(findColumn(label));
  }

  @Override
  public <T> T getObject(String label, Class<T> type) throws SQLException {
    return getObject(findColumn(label), type);
  }

  // ---- the other getters: the column's accessor, as Avatica reads it -----------------------

  @Override
  @SuppressWarnings("deprecation")
  public BigDecimal getBigDecimal(int column, int scale) throws SQLException {
    return read(column, a -> a.getBigDecimal(scale));
  }

  @Override
  public java.io.InputStream getAsciiStream(int column) throws SQLException {
    return read(column, Cursor.Accessor::getAsciiStream);
  }

  @Override
  @SuppressWarnings("deprecation")
  public java.io.InputStream getUnicodeStream(int column) throws SQLException {
    return read(column, Cursor.Accessor::getUnicodeStream);
  }

  @Override
  public java.io.InputStream getBinaryStream(int column) throws SQLException {
    return read(column, Cursor.Accessor::getBinaryStream);
  }

  @Override
  public java.io.Reader getCharacterStream(int column) throws SQLException {
    return read(column, Cursor.Accessor::getCharacterStream);
  }

  @Override
  public Object getObject(int column, java.util.Map<String, Class<?>> map) throws SQLException {
    return read(column, a -> a.getObject(map));
  }

  @Override
  public java.sql.Ref getRef(int column) throws SQLException {
    return read(column, Cursor.Accessor::getRef);
  }

  @Override
  public java.sql.Blob getBlob(int column) throws SQLException {
    return read(column, Cursor.Accessor::getBlob);
  }

  @Override
  public java.sql.Clob getClob(int column) throws SQLException {
    return read(column, Cursor.Accessor::getClob);
  }

  @Override
  public java.net.URL getURL(int column) throws SQLException {
    return read(column, Cursor.Accessor::getURL);
  }

  @Override
  public java.sql.NClob getNClob(int column) throws SQLException {
    return read(column, Cursor.Accessor::getNClob);
  }

  @Override
  public java.sql.SQLXML getSQLXML(int column) throws SQLException {
    return read(column, Cursor.Accessor::getSQLXML);
  }

  @Override
  public String getNString(int column) throws SQLException {
    return read(column, Cursor.Accessor::getNString);
  }

  @Override
  public java.io.Reader getNCharacterStream(int column) throws SQLException {
    return read(column, Cursor.Accessor::getNCharacterStream);
  }

  // ---- by column label: through the getters by index, so both ways read the same row ------

  @Override
  public boolean getBoolean(String label) throws SQLException {
    return getBoolean(findColumn(label));
  }

  @Override
  public byte getByte(String label) throws SQLException {
    return getByte(findColumn(label));
  }

  @Override
  public short getShort(String label) throws SQLException {
    return getShort(findColumn(label));
  }

  @Override
  public int getInt(String label) throws SQLException {
    return getInt(findColumn(label));
  }

  @Override
  public long getLong(String label) throws SQLException {
    return getLong(findColumn(label));
  }

  @Override
  public float getFloat(String label) throws SQLException {
    return getFloat(findColumn(label));
  }

  @Override
  public double getDouble(String label) throws SQLException {
    return getDouble(findColumn(label));
  }

  @Override
  @SuppressWarnings("deprecation")
  public BigDecimal getBigDecimal(String label, int scale) throws SQLException {
    return getBigDecimal(findColumn(label), scale);
  }

  @Override
  public byte[] getBytes(String label) throws SQLException {
    return getBytes(findColumn(label));
  }

  @Override
  public java.io.InputStream getAsciiStream(String label) throws SQLException {
    return getAsciiStream(findColumn(label));
  }

  @Override
  @SuppressWarnings("deprecation")
  public java.io.InputStream getUnicodeStream(String label) throws SQLException {
    return getUnicodeStream(findColumn(label));
  }

  @Override
  public java.io.InputStream getBinaryStream(String label) throws SQLException {
    return getBinaryStream(findColumn(label));
  }

  @Override
  public java.io.Reader getCharacterStream(String label) throws SQLException {
    return getCharacterStream(findColumn(label));
  }

  @Override
  public BigDecimal getBigDecimal(String label) throws SQLException {
    return getBigDecimal(findColumn(label));
  }

  @Override
  public Object getObject(String label, java.util.Map<String, Class<?>> map) throws SQLException {
    return getObject(findColumn(label), map);
  }

  @Override
  public java.sql.Ref getRef(String label) throws SQLException {
    return getRef(findColumn(label));
  }

  @Override
  public java.sql.Blob getBlob(String label) throws SQLException {
    return getBlob(findColumn(label));
  }

  @Override
  public java.sql.Clob getClob(String label) throws SQLException {
    return getClob(findColumn(label));
  }

  @Override
  public java.net.URL getURL(String label) throws SQLException {
    return getURL(findColumn(label));
  }

  @Override
  public java.sql.RowId getRowId(String label) throws SQLException {
    return getRowId(findColumn(label));
  }

  @Override
  public java.sql.NClob getNClob(String label) throws SQLException {
    return getNClob(findColumn(label));
  }

  @Override
  public java.sql.SQLXML getSQLXML(String label) throws SQLException {
    return getSQLXML(findColumn(label));
  }

  @Override
  public String getNString(String label) throws SQLException {
    return getNString(findColumn(label));
  }

  @Override
  public java.io.Reader getNCharacterStream(String label) throws SQLException {
    return getNCharacterStream(findColumn(label));
  }

  // ---- the position: Calcite's cursor's, the scan's batches' or the kept rows' -------------

  @Override
  public int getRow() throws SQLException {
    checkOpen();
    if (scroll != null) {
      return scroll.row();
    }
    return columnar == null ? super.getRow() : afterLast ? 0 : (int) rowNumber;
  }

  @Override
  public boolean isBeforeFirst() throws SQLException {
    checkOpen();
    if (scroll != null) {
      return scroll.isBeforeFirst();
    }
    return columnar == null ? super.isBeforeFirst() : rowNumber == 0;
  }

  @Override
  public boolean isAfterLast() throws SQLException {
    checkOpen();
    if (scroll != null) {
      return scroll.isAfterLast();
    }
    return columnar == null ? super.isAfterLast() : afterLast;
  }

  @Override
  public boolean isFirst() throws SQLException {
    checkOpen();
    if (scroll != null) {
      return scroll.isFirst();
    }
    return columnar == null ? super.isFirst() : !afterLast && rowNumber == 1;
  }

  @Override
  public boolean isLast() throws SQLException {
    checkOpen();
    return scroll == null ? super.isLast() : scroll.isLast();
  }

  @Override
  public boolean previous() throws SQLException {
    return scrolling("previous()").previous();
  }

  @Override
  public boolean absolute(int row) throws SQLException {
    return scrolling("absolute(int)").absolute(row);
  }

  @Override
  public boolean relative(int rows) throws SQLException {
    return scrolling("relative(int)").relative(rows);
  }

  @Override
  public boolean first() throws SQLException {
    return scrolling("first()").first();
  }

  @Override
  public boolean last() throws SQLException {
    return scrolling("last()").last();
  }

  @Override
  public void beforeFirst() throws SQLException {
    scrolling("beforeFirst()").beforeFirst();
  }

  @Override
  public void afterLast() throws SQLException {
    scrolling("afterLast()").afterLast();
  }

  /** The kept rows of a scroll-insensitive result set; a forward-only one refuses to scroll. */
  private ScrollRows scrolling(String call) throws SQLException {
    checkOpen();
    if (scroll == null) {
      throw SqlErrors.of(
          FloeError.NOT_SUPPORTED,
          call
              + " on a forward-only result set; create the statement with"
              + " ResultSet.TYPE_SCROLL_INSENSITIVE to move back and forth");
    }
    return scroll;
  }

  @Override
  public int getType() throws SQLException {
    checkOpen();
    return scroll == null ? TYPE_FORWARD_ONLY : TYPE_SCROLL_INSENSITIVE;
  }

  /** Calcite's result set behind this one. */
  java.sql.ResultSet calcite() {
    return delegate();
  }
}
