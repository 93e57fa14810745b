package dev.floe.tck.fuzz;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Values of the fuzzer's column types: random ones, their literals in each dialect, how a
 * PreparedStatement binds them, and the one canonical form in which Floe's, DuckDB's and Iceberg's
 * answers are compared.
 *
 * <p>Values are Java objects: Boolean, Integer, Long, Float, Double, BigDecimal (of the column's
 * scale), LocalDate, LocalTime, LocalDateTime, OffsetDateTime (UTC), String, UUID and byte[].
 *
 * <p>Floating-point values are multiples of 1/8 (sums of a few thousand are exact in both engines)
 * and never NaN, infinite or -0.0: the engines order and compare those differently (DuckDB: NaN is
 * larger than every number and equal to itself; Floe: Java's IEEE comparisons), which is a choice
 * of semantics, not a defect either side.
 */
final class Values {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter TIMESTAMP_NS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSSSS");

  /** Texts that make LIKE, quoting, case and UTF-8 interesting, and a few that collide often. */
  private static final List<String> TEXTS =
      List.of(
          "",
          "a",
          "A",
          "ab",
          "abc",
          "b",
          "ba",
          "B",
          "z",
          "é",
          "É",
          "日本",
          "a b",
          "x'y",
          "NULL",
          "%",
          "_",
          "a%b",
          "100",
          "-1",
          "ÿ",
          "Zürich",
          "aa",
          "abcdefghijklmnopqrstuvwxyz");

  private static final LocalDate[] DATES = {
    LocalDate.of(1970, 1, 1),
    LocalDate.of(1969, 12, 31),
    LocalDate.of(2024, 2, 29),
    LocalDate.of(2024, 3, 1),
    LocalDate.of(2000, 1, 1),
    LocalDate.of(1, 1, 1),
    LocalDate.of(9999, 12, 31),
    LocalDate.of(1582, 10, 15),
    LocalDate.of(1900, 2, 28),
    LocalDate.of(2023, 12, 31)
  };

  private Values() {}

  /** A random value of a type; {@code null} with probability {@code nulls}. */
  static Object random(Random rnd, ColumnType type, double nulls) {
    if (rnd.nextDouble() < nulls) {
      return null;
    }
    switch (type.kind()) {
      case BOOLEAN:
        return rnd.nextBoolean();
      case INT:
        return (int) integer(rnd, 1_000_000);
      case BIGINT:
        return rnd.nextInt(10) == 0 ? rnd.nextLong() >> 24 : integer(rnd, 1_000_000);
      case REAL:
        return (float) (integer(rnd, 80_000) / 8.0);
      case DOUBLE:
        return rnd.nextInt(10) == 0 ? (double) (rnd.nextLong() >> 12) : integer(rnd, 80_000) / 8.0;
      case DECIMAL:
        return decimal(rnd, type);
      case DATE:
        return date(rnd);
      case TIME:
        return time(rnd);
      case TIMESTAMP:
        return timestamp(rnd, false);
      case TIMESTAMP_NS:
        return timestamp(rnd, true);
      case TIMESTAMPTZ:
        return timestamp(rnd, false).atOffset(ZoneOffset.UTC);
      case TIMESTAMPTZ_NS:
        return timestamp(rnd, true).atOffset(ZoneOffset.UTC);
      case VARCHAR:
        return rnd.nextInt(3) == 0 ? letters(rnd) : TEXTS.get(rnd.nextInt(TEXTS.size()));
      case UUID:
        return rnd.nextInt(3) == 0
            ? new UUID(rnd.nextInt(4) - 2, rnd.nextInt(4) - 2)
            : new UUID(rnd.nextLong(), rnd.nextLong());
      case FIXED:
        {
          byte[] bytes = new byte[type.length()];
          if (rnd.nextBoolean()) {
            rnd.nextBytes(bytes);
          } else {
            bytes[0] = (byte) (rnd.nextInt(4) * 0x55);
          }
          return bytes;
        }
      case BINARY:
        {
          byte[] bytes = new byte[rnd.nextInt(5)];
          if (rnd.nextBoolean()) {
            rnd.nextBytes(bytes);
          } else if (bytes.length > 0) {
            bytes[0] = (byte) (rnd.nextInt(4) * 0x55);
          }
          return bytes;
        }
      default:
        throw new IllegalArgumentException("No values of " + type);
    }
  }

  /** Mostly small numbers that collide (groups, joins), sometimes wider ones. */
  private static long integer(Random rnd, int wide) {
    switch (rnd.nextInt(4)) {
      case 0:
        return rnd.nextInt(2 * wide + 1) - wide;
      case 1:
        return rnd.nextInt(201) - 100;
      default:
        return rnd.nextInt(11) - 5;
    }
  }

  private static BigDecimal decimal(Random rnd, ColumnType type) {
    // Leave three digits of headroom so the sums of a few hundred values fit the type.
    int integerDigits = Math.max(0, Math.min(type.precision() - type.scale() - 3, 15));
    long unscaledBound = 1;
    for (int i = 0; i < integerDigits + type.scale() && unscaledBound < Long.MAX_VALUE / 10; i++) {
      unscaledBound *= 10;
    }
    long unscaled;
    if (rnd.nextInt(3) == 0 || unscaledBound < 20) {
      unscaled = rnd.nextInt(21) - 10;
    } else {
      unscaled = (rnd.nextLong() % unscaledBound);
    }
    return BigDecimal.valueOf(unscaled, type.scale());
  }

  private static LocalDate date(Random rnd) {
    if (rnd.nextInt(3) == 0) {
      return DATES[rnd.nextInt(DATES.length)];
    }
    return LocalDate.of(2024, 1, 1).plusDays(rnd.nextInt(120) - 60);
  }

  private static LocalTime time(Random rnd) {
    switch (rnd.nextInt(4)) {
      case 0:
        return LocalTime.of(rnd.nextInt(24), 0);
      case 1:
        return LocalTime.ofNanoOfDay(rnd.nextInt(5) * 1_000L);
      default:
        return LocalTime.ofNanoOfDay((long) (rnd.nextDouble() * 86_400_000_000L) * 1_000L);
    }
  }

  private static LocalDateTime timestamp(Random rnd, boolean nanos) {
    LocalDateTime base;
    switch (rnd.nextInt(5)) {
      case 0:
        base = LocalDateTime.of(1969, 12, 31, 23, 59, 59);
        break;
      case 1:
        base = LocalDateTime.of(1900 + rnd.nextInt(300), 1 + rnd.nextInt(12), 1, 0, 0);
        break;
      default:
        base = LocalDateTime.of(2024, 1, 1, 0, 0).plusHours(rnd.nextInt(24 * 90) - 24 * 45);
        break;
    }
    long fraction = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(1_000_000) * 1_000L;
    if (nanos && rnd.nextBoolean()) {
      fraction += rnd.nextInt(1000);
    }
    return base.plusMinutes(rnd.nextInt(4) * 15L).plusNanos(fraction);
  }

  private static String letters(Random rnd) {
    StringBuilder s = new StringBuilder();
    int n = 1 + rnd.nextInt(6);
    for (int i = 0; i < n; i++) {
      s.append((char) ('a' + rnd.nextInt(4)));
    }
    return s.toString();
  }

  /** The literal of a value in a dialect, of the value's natural literal type. */
  static String literal(Object value, ColumnType type, Dialect dialect) {
    if (value == null) {
      return "NULL";
    }
    boolean floe = dialect == Dialect.FLOE;
    switch (type.kind()) {
      case BOOLEAN:
        return (Boolean) value ? "TRUE" : "FALSE";
      case INT:
      case BIGINT:
        return value.toString();
      case REAL:
        return "CAST(" + plain((Float) value) + " AS REAL)";
      case DOUBLE:
        return "CAST(" + plain((Double) value) + " AS DOUBLE)";
      case DECIMAL:
      case EXACT:
        return ((BigDecimal) value).toPlainString();
      case DATE:
        return "DATE '" + value + "'";
      case TIME:
        return "TIME '" + TIME.format((LocalTime) value) + "'";
      case TIMESTAMP:
        return "TIMESTAMP '" + TIMESTAMP.format((LocalDateTime) value) + "'";
      case TIMESTAMP_NS:
        return (floe ? "TIMESTAMP '" : "TIMESTAMP_NS '")
            + TIMESTAMP_NS.format((LocalDateTime) value)
            + "'";
      case TIMESTAMPTZ:
        {
          String text = TIMESTAMP.format(utc(value));
          return floe
              ? "TIMESTAMP WITH LOCAL TIME ZONE '" + text + "'"
              : "TIMESTAMPTZ '" + text + "+00'";
        }
      case TIMESTAMPTZ_NS:
        {
          String text = TIMESTAMP_NS.format(utc(value));
          return floe
              ? "TIMESTAMP WITH LOCAL TIME ZONE '" + text + "'"
              : "TIMESTAMP_NS '" + text + "'";
        }
      case VARCHAR:
        return "'" + ((String) value).replace("'", "''") + "'";
      case UUID:
        return "UUID '" + value + "'";
      case FIXED:
      case BINARY:
        {
          String hex = HexFormat.of().formatHex((byte[]) value);
          if (floe) {
            return "X'" + hex + "'";
          }
          StringBuilder s = new StringBuilder("'");
          for (int i = 0; i < hex.length(); i += 2) {
            s.append("\\x").append(hex, i, i + 2);
          }
          return s.append("'::BLOB").toString();
        }
      default:
        throw new IllegalArgumentException("No literal of " + type);
    }
  }

  /** A literal of exactly the column's type (VALUES lists, whose column types the rows decide). */
  static String typedLiteral(Object value, ColumnType type, Dialect dialect) {
    String ddl = dialect == Dialect.FLOE ? type.floeDdl() : type.duckDdl();
    if (value == null) {
      return "CAST(NULL AS " + ddl + ")";
    }
    switch (type.kind()) {
      case BOOLEAN:
      case REAL:
      case DOUBLE:
      case DATE:
      case TIME:
      case TIMESTAMP:
      case TIMESTAMPTZ:
      case TIMESTAMP_NS:
      case TIMESTAMPTZ_NS:
      case UUID:
        return literal(value, type, dialect);
      case VARCHAR:
        // A character literal is CHAR(n) in Floe's SQL; the cast makes every row VARCHAR.
        return "CAST(" + literal(value, type, dialect) + " AS " + ddl + ")";
      default:
        return "CAST(" + literal(value, type, dialect) + " AS " + ddl + ")";
    }
  }

  private static LocalDateTime utc(Object value) {
    return ((OffsetDateTime) value).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
  }

  private static String plain(double d) {
    return new BigDecimal(d).toPlainString();
  }

  /** Binds a value to a parameter the way an application would. */
  static void bind(PreparedStatement ps, int index, Object value, ColumnType type)
      throws SQLException {
    if (value == null) {
      ps.setNull(index, sqlType(type));
      return;
    }
    switch (type.kind()) {
      case BOOLEAN:
        ps.setBoolean(index, (Boolean) value);
        break;
      case INT:
        ps.setInt(index, (Integer) value);
        break;
      case BIGINT:
        ps.setLong(index, (Long) value);
        break;
      case REAL:
        ps.setFloat(index, (Float) value);
        break;
      case DOUBLE:
        ps.setDouble(index, (Double) value);
        break;
      case DECIMAL:
        ps.setBigDecimal(index, (BigDecimal) value);
        break;
      case FIXED:
      case BINARY:
        ps.setBytes(index, (byte[]) value);
        break;
      case VARCHAR:
        ps.setString(index, (String) value);
        break;
      default:
        // java.time values and UUIDs: JDBC 4.2's setObject
        ps.setObject(index, value);
        break;
    }
  }

  private static int sqlType(ColumnType type) {
    switch (type.kind()) {
      case BOOLEAN:
        return Types.BOOLEAN;
      case INT:
        return Types.INTEGER;
      case BIGINT:
        return Types.BIGINT;
      case REAL:
        return Types.REAL;
      case DOUBLE:
        return Types.DOUBLE;
      case DECIMAL:
        return Types.DECIMAL;
      case DATE:
        return Types.DATE;
      case TIME:
        return Types.TIME;
      case TIMESTAMP:
      case TIMESTAMP_NS:
        return Types.TIMESTAMP;
      case TIMESTAMPTZ:
      case TIMESTAMPTZ_NS:
        return Types.TIMESTAMP_WITH_TIMEZONE;
      case VARCHAR:
        return Types.VARCHAR;
      case FIXED:
        return Types.BINARY;
      case BINARY:
        return Types.VARBINARY;
      default:
        return Types.OTHER;
    }
  }

  /** The marker of SQL's NULL among canonical values. */
  static final String NULL = "NULL";

  /**
   * The canonical form of a value: a string compared exactly, or a Double compared within a
   * tolerance for {@link ColumnType.Kind#APPROX}.
   */
  static Object canonical(Object value, ColumnType type) {
    if (value == null) {
      return NULL;
    }
    switch (type.kind()) {
      case BOOLEAN:
      case INT:
      case BIGINT:
      case UUID:
        return value.toString();
      case REAL:
        return Float.toString(((Number) value).floatValue());
      case DOUBLE:
        return Double.toString(((Number) value).doubleValue());
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case EXACT:
        {
          BigDecimal d = value instanceof BigDecimal ? (BigDecimal) value : exact((Number) value);
          return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
        }
      case APPROX:
        return ((Number) value).doubleValue();
      case DATE:
        return value.toString();
      case TIME:
        return TIME.format((LocalTime) value);
      case TIMESTAMP:
        return TIMESTAMP.format((LocalDateTime) value);
      case TIMESTAMP_NS:
        return TIMESTAMP_NS.format((LocalDateTime) value);
      case TIMESTAMPTZ:
        return TIMESTAMP.format(utc(value)) + "Z";
      case TIMESTAMPTZ_NS:
        return TIMESTAMP_NS.format(utc(value)) + "Z";
      case VARCHAR:
        return "'" + value + "'";
      case FIXED:
      case BINARY:
        return "x'" + HexFormat.of().formatHex(bytes(value)) + "'";
      default:
        throw new IllegalArgumentException("No canonical form of " + type);
    }
  }

  private static BigDecimal exact(Number n) {
    if (n instanceof BigInteger) {
      return new BigDecimal((BigInteger) n);
    }
    if (n instanceof Double || n instanceof Float) {
      return BigDecimal.valueOf(n.doubleValue());
    }
    return BigDecimal.valueOf(n.longValue());
  }

  private static byte[] bytes(Object value) {
    if (value instanceof ByteBuffer) {
      ByteBuffer copy = ((ByteBuffer) value).duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return bytes;
    }
    return (byte[]) value;
  }

  /** A value read from Floe through the getter of the type table (docs/sql.md, "Types"). */
  static Object readFloe(ResultSet rs, int column, ColumnType type) throws SQLException {
    Object value;
    switch (type.kind()) {
      case BOOLEAN:
        {
          boolean v = rs.getBoolean(column);
          value = rs.wasNull() ? null : v;
          break;
        }
      case INT:
        {
          int v = rs.getInt(column);
          value = rs.wasNull() ? null : v;
          break;
        }
      case BIGINT:
        {
          long v = rs.getLong(column);
          value = rs.wasNull() ? null : v;
          break;
        }
      case REAL:
        {
          float v = rs.getFloat(column);
          value = rs.wasNull() ? null : v;
          break;
        }
      case DOUBLE:
      case APPROX:
        {
          double v = rs.getDouble(column);
          value = rs.wasNull() ? null : v;
          break;
        }
      case DECIMAL:
      case EXACT:
        value = rs.getBigDecimal(column);
        break;
      case DATE:
        value = rs.getObject(column, LocalDate.class);
        break;
      case TIME:
        value = rs.getObject(column, LocalTime.class);
        break;
      case TIMESTAMP:
      case TIMESTAMP_NS:
        value = rs.getObject(column, LocalDateTime.class);
        break;
      case TIMESTAMPTZ:
      case TIMESTAMPTZ_NS:
        value = rs.getObject(column, OffsetDateTime.class);
        break;
      case VARCHAR:
        value = rs.getString(column);
        break;
      case UUID:
        value = rs.getObject(column, UUID.class);
        break;
      case FIXED:
      case BINARY:
        value = rs.getBytes(column);
        break;
      default:
        throw new IllegalArgumentException("Cannot read " + type);
    }
    return canonical(value, type);
  }

  /** A value read from DuckDB, converted to the canonical form of the fuzzer's type. */
  static Object readDuck(ResultSet rs, int column, ColumnType type) throws SQLException {
    Object value;
    switch (type.kind()) {
      case FIXED:
      case BINARY:
        value = rs.getBytes(column);
        break;
      case TIMESTAMP:
      case TIMESTAMP_NS:
        value = rs.getObject(column, LocalDateTime.class);
        break;
      case TIMESTAMPTZ_NS:
        {
          LocalDateTime v = rs.getObject(column, LocalDateTime.class);
          value = v == null ? null : v.atOffset(ZoneOffset.UTC);
          break;
        }
      case TIMESTAMPTZ:
        {
          Object v = rs.getObject(column);
          value = v == null ? null : ((OffsetDateTime) v).withOffsetSameInstant(ZoneOffset.UTC);
          break;
        }
      case VARCHAR:
        value = rs.getString(column);
        break;
      case DECIMAL:
        {
          BigDecimal v = rs.getBigDecimal(column);
          value = v == null ? null : v.setScale(type.scale(), RoundingMode.UNNECESSARY);
          break;
        }
      case EXACT:
        {
          Object v = rs.getObject(column);
          value = v == null ? null : v instanceof BigDecimal ? v : exact((Number) v);
          break;
        }
      case APPROX:
      case REAL:
      case DOUBLE:
        {
          Object v = rs.getObject(column);
          value = v == null ? null : ((Number) v).doubleValue();
          if (value != null && type.kind() == ColumnType.Kind.REAL) {
            value = ((Double) value).floatValue();
          }
          break;
        }
      case INT:
        {
          Object v = rs.getObject(column);
          value = v == null ? null : ((Number) v).intValue();
          break;
        }
      case BIGINT:
        {
          Object v = rs.getObject(column);
          value = v == null ? null : ((Number) v).longValue();
          break;
        }
      default:
        value = rs.getObject(column);
        break;
    }
    return canonical(value, type);
  }

  /** A value as Iceberg's generic reader returns it, in canonical form. */
  static Object readIceberg(Object value, ColumnType type) {
    if (value instanceof CharSequence) {
      value = value.toString();
    }
    if (value instanceof Long
        && (type.kind() == ColumnType.Kind.TIMESTAMP_NS
            || type.kind() == ColumnType.Kind.TIMESTAMPTZ_NS)) {
      // Iceberg 1.12's generic reader gives an identity partition's nanosecond timestamp as the
      // number it is stored as (IdentityPartitionConverters knows no TIMESTAMP_NANO).
      long nanos = (Long) value;
      OffsetDateTime instant =
          Instant.ofEpochSecond(
                  Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L))
              .atOffset(ZoneOffset.UTC);
      value = type.kind() == ColumnType.Kind.TIMESTAMP_NS ? instant.toLocalDateTime() : instant;
    }
    return canonical(value, type);
  }

  /** The value as Iceberg's generic records hold it, for computing partitions. */
  static Object toGeneric(Object value, ColumnType type) {
    if (value == null) {
      return null;
    }
    if (type.kind() == ColumnType.Kind.BINARY) {
      return ByteBuffer.wrap((byte[]) value);
    }
    return value;
  }

  /** The instant of a value of a TIMESTAMP WITH LOCAL TIME ZONE column. */
  static Instant instant(Object value) {
    return ((OffsetDateTime) value).toInstant();
  }
}
