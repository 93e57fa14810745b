package dev.floe.planner.write;

import dev.floe.error.FloeError;
import dev.floe.planner.type.TemporalValues;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * SQL assignment of one value to one Iceberg field: converts from Calcite's runtime form or a JDBC
 * parameter's Java object to the form Iceberg's generic writers take ({@link #assign}) or to
 * Iceberg's internal representation, the form data files are written from ({@link
 * #assignInternal}), and refuses what does not fit with the SQLState standard SQL gives it (22003
 * out of range, 22001 too long, 22018 bad text, 23502 NULL in a required column). Thread-safe.
 */
final class ValueAssigner {
  private final String column;
  private final Types.NestedField field;
  private final WritePlan.SourceType source;
  private final List<ValueAssigner> children;
  private final Type.TypeID typeId;

  ValueAssigner(String column, Types.NestedField field, WritePlan.SourceType source) {
    this.column = column;
    this.field = field;
    this.source = source;
    this.children = new ArrayList<>();
    this.typeId = field.type().typeId();
    if (field.type().isStructType()) {
      List<Types.NestedField> fields = field.type().asStructType().fields();
      for (int i = 0; i < fields.size(); i++) {
        Types.NestedField child = fields.get(i);
        WritePlan.SourceType nested =
            source == null || source == WritePlan.SourceType.JDBC ? null : source.child(i);
        children.add(new ValueAssigner(column + "." + child.name(), child, nested));
      }
    }
    if (source != null && source != WritePlan.SourceType.JDBC) {
      Assignability.check(column, source.typeName(), sqlTypeName(field.type()));
    }
  }

  /** Converts a value for this field. */
  Object assign(Object value) {
    if (value == null) {
      if (field.isRequired()) {
        throw FloeError.NULL_NOT_ALLOWED.error(column);
      }
      return null;
    }
    if (source == WritePlan.SourceType.JDBC) {
      Assignability.check(column, jdbcTypeName(value), sqlTypeName(field.type()));
      if (!convertible(value)
          || (!field.type().isNestedType()
              && (value instanceof List || value instanceof Map || value instanceof Object[]))) {
        throw FloeError.PARAMETER_TYPE.error(
            "for " + column,
            "a " + value.getClass().getName() + " cannot be converted to " + field.type());
      }
      return convert(field.type(), value, null);
    }
    return convert(field.type(), value, source);
  }

  /**
   * Converts a value for this field into Iceberg's internal representation (see {@link
   * AssignedRow}): the value {@link #assign} gives, in the form Iceberg's internal writers take.
   */
  Object assignInternal(Object value) {
    Object same = value == null ? null : unchanged(value);
    return same != null ? same : internal(field.type(), assign(value));
  }

  /**
   * The internal value of the values whose assignment cannot fail and is a change of form only,
   * whatever their source (a JDBC parameter, Calcite's runtime form): a number, text or boolean of
   * exactly the column's type, a {@code java.time} or {@code java.sql} date or timestamp into a
   * DATE or TIMESTAMP column, the day number Calcite holds a DATE in (a JDBC {@code Integer} is
   * never a date), a DECIMAL of the column's scale that fits its precision; null for every other
   * value, which {@link #assign} converts. The same result as {@link #assign} followed by {@link
   * #internal}, without the checks and objects in between (batches assign millions).
   */
  private Object unchanged(Object value) {
    Class<?> type = value.getClass();
    switch (typeId) {
      case LONG:
        if (type == Long.class) {
          return value;
        }
        return type == Integer.class ? Long.valueOf((Integer) value) : null;
      case INTEGER:
        return type == Integer.class ? value : null;
      case DOUBLE:
        return type == Double.class ? value : null;
      case FLOAT:
        return type == Float.class ? value : null;
      case BOOLEAN:
        return type == Boolean.class ? value : null;
      case STRING:
        return type == String.class ? value : null;
      case DECIMAL:
        {
          if (type != BigDecimal.class) {
            return null;
          }
          Types.DecimalType decimal = (Types.DecimalType) field.type();
          BigDecimal d = (BigDecimal) value;
          return d.scale() == decimal.scale() && d.precision() <= decimal.precision() ? d : null;
        }
      case DATE:
        if (type == LocalDate.class) {
          return (int) ((LocalDate) value).toEpochDay();
        }
        if (type == java.sql.Date.class) {
          return (int) ((java.sql.Date) value).toLocalDate().toEpochDay();
        }
        // Calcite's runtime holds a DATE as its day number (a JDBC Integer is never a date).
        return type == Integer.class && source != WritePlan.SourceType.JDBC ? value : null;
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        {
          LocalDateTime time =
              type == LocalDateTime.class
                  ? (LocalDateTime) value
                  : type == java.sql.Timestamp.class
                      ? ((java.sql.Timestamp) value).toLocalDateTime()
                      : null;
          if (time == null) {
            return null;
          }
          long seconds = time.toEpochSecond(ZoneOffset.UTC);
          // TIMESTAMP keeps microseconds (finer digits are cut, as assign does); v3's
          // TIMESTAMP_NANO
          // keeps nanoseconds. A value outside the long range fails as Iceberg's writers fail.
          return typeId == Type.TypeID.TIMESTAMP
              ? Math.addExact(Math.multiplyExact(seconds, 1_000_000L), time.getNano() / 1000)
              : Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), time.getNano());
        }
      default:
        return null;
    }
  }

  /**
   * A value in the form {@link #assign} gives it, in Iceberg's internal representation: days,
   * microseconds or nanoseconds for dates, times and timestamps, a buffer for a fixed-length value,
   * an {@link AssignedRow} for a struct, recursively through lists and maps.
   */
  static Object internal(Type type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type.typeId()) {
      case DATE:
        return DateTimeUtil.daysFromDate((LocalDate) value);
      case TIME:
        return DateTimeUtil.microsFromTime((LocalTime) value);
      case TIMESTAMP:
        return value instanceof OffsetDateTime
            ? DateTimeUtil.microsFromTimestamptz((OffsetDateTime) value)
            : DateTimeUtil.microsFromTimestamp((LocalDateTime) value);
      case TIMESTAMP_NANO:
        return value instanceof OffsetDateTime
            ? DateTimeUtil.nanosFromTimestamptz((OffsetDateTime) value)
            : DateTimeUtil.nanosFromTimestamp((LocalDateTime) value);
      case FIXED:
        return ByteBuffer.wrap((byte[]) value);
      case STRUCT:
        {
          Record record = (Record) value;
          List<Types.NestedField> fields = type.asStructType().fields();
          AssignedRow row = new AssignedRow(fields.size());
          for (int i = 0; i < fields.size(); i++) {
            row.set(i, internal(fields.get(i).type(), record.get(i)));
          }
          return row;
        }
      case LIST:
        {
          Type element = type.asListType().elementType();
          List<Object> result = new ArrayList<>();
          for (Object item : (List<?>) value) {
            result.add(internal(element, item));
          }
          return result;
        }
      case MAP:
        {
          Types.MapType map = type.asMapType();
          Map<Object, Object> result = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            result.put(
                internal(map.keyType(), e.getKey()), internal(map.valueType(), e.getValue()));
          }
          return result;
        }
      default:
        return value;
    }
  }

  /** The SQL type name of an Iceberg type, for {@link Assignability}; null for other types. */
  static String sqlTypeName(Type type) {
    return switch (type.typeId()) {
      case BOOLEAN -> "BOOLEAN";
      case INTEGER -> "INTEGER";
      case LONG -> "BIGINT";
      case FLOAT -> "REAL";
      case DOUBLE -> "DOUBLE";
      case DECIMAL -> "DECIMAL";
      case DATE -> "DATE";
      case TIME -> "TIME";
      case TIMESTAMP, TIMESTAMP_NANO -> "TIMESTAMP";
      case STRING -> "VARCHAR";
      default -> null;
    };
  }

  /** The SQL type of a JDBC parameter value, by its Java class; null when it has none. */
  static String jdbcTypeName(Object value) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return "INTEGER";
    }
    if (value instanceof Long) {
      return "BIGINT";
    }
    if (value instanceof BigDecimal || value instanceof BigInteger) {
      return "DECIMAL";
    }
    if (value instanceof Float) {
      return "REAL";
    }
    if (value instanceof Double) {
      return "DOUBLE";
    }
    if (value instanceof Boolean) {
      return "BOOLEAN";
    }
    return value instanceof String ? "VARCHAR" : null;
  }

  /** Whether a JDBC parameter value is of a Java type Floe converts at all. */
  private static boolean convertible(Object value) {
    return value instanceof Number
        || value instanceof String
        || value instanceof Boolean
        || value instanceof java.util.Date
        || value instanceof java.time.temporal.Temporal
        || value instanceof UUID
        || value instanceof byte[]
        || value instanceof ByteBuffer
        || value instanceof ByteString
        || value instanceof List
        || value instanceof Map
        || value instanceof Object[];
  }

  private Object convert(Type type, Object raw, WritePlan.SourceType from) {
    Object value = fromJdbc(raw);
    switch (type.typeId()) {
      case BOOLEAN:
        if (value instanceof Boolean) {
          return value;
        }
        throw FloeError.INVALID_CAST.error(quote(value), "not a BOOLEAN for " + column);
      case INTEGER:
        {
          long v = integral(value, Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER");
          return (int) v;
        }
      case LONG:
        return integral(value, Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
      case FLOAT:
        {
          double d = number(value).doubleValue();
          float f = (float) d;
          if (Float.isInfinite(f) && !Double.isInfinite(d)) {
            throw FloeError.NUMERIC_OUT_OF_RANGE.error(column, value + " does not fit REAL");
          }
          return f;
        }
      case DOUBLE:
        return number(value).doubleValue();
      case DECIMAL:
        {
          Types.DecimalType decimal = (Types.DecimalType) type;
          BigDecimal d = decimal(value).setScale(decimal.scale(), RoundingMode.HALF_UP);
          if (d.precision() > decimal.precision()) {
            throw FloeError.NUMERIC_OUT_OF_RANGE.error(
                column,
                value
                    + " does not fit DECIMAL("
                    + decimal.precision()
                    + ", "
                    + decimal.scale()
                    + ")");
          }
          return d;
        }
      case STRING:
        return text(value, from);
      case DATE:
        if (value instanceof LocalDate) {
          return value;
        }
        if (value instanceof LocalDateTime) {
          return ((LocalDateTime) value).toLocalDate();
        }
        if (value instanceof Integer) {
          return LocalDate.ofEpochDay((Integer) value);
        }
        if (value instanceof Long && isTimestamp(from)) {
          return TemporalValues.toLocalDateTime((Long) value, from.precision()).toLocalDate();
        }
        if (value instanceof String) {
          return parseDatetime(() -> LocalDate.parse(((String) value).trim()), value);
        }
        throw FloeError.INVALID_CAST.error(quote(value), "not a DATE for " + column);
      case TIME:
        {
          LocalTime time;
          if (value instanceof LocalTime) {
            time = (LocalTime) value;
          } else if (value instanceof LocalDateTime) {
            time = ((LocalDateTime) value).toLocalTime();
          } else if (value instanceof Integer) {
            // out of a day's range (a nested value of unknown source): 22007, not a bare error
            time = parseDatetime(() -> TemporalValues.toLocalTime((Integer) value), value);
          } else if (value instanceof Long && isTimestamp(from)) {
            time =
                parseDatetime(
                    () ->
                        TemporalValues.toLocalDateTime((Long) value, from.precision())
                            .toLocalTime(),
                    value);
          } else if (value instanceof Long) {
            // A TIME finer than milliseconds, as Calcite's runtime holds it (micros when nested).
            int precision = from != null && "TIME".equals(from.typeName()) ? from.precision() : 6;
            time = parseDatetime(() -> TemporalValues.toLocalTime((Long) value, precision), value);
          } else if (value instanceof String) {
            time = parseDatetime(() -> LocalTime.parse(((String) value).trim()), value);
          } else {
            throw FloeError.INVALID_CAST.error(quote(value), "not a TIME for " + column);
          }
          // Iceberg keeps microseconds; finer digits are cut, as a cast to TIME(6) does.
          return time.withNano(time.getNano() / 1000 * 1000);
        }
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        {
          LocalDateTime time = timestamp(value, from);
          boolean utc =
              type instanceof Types.TimestampType
                  ? ((Types.TimestampType) type).shouldAdjustToUTC()
                  : ((Types.TimestampNanoType) type).shouldAdjustToUTC();
          if (type.typeId() == Type.TypeID.TIMESTAMP) {
            time = time.withNano(time.getNano() / 1000 * 1000);
          }
          return utc ? time.atOffset(ZoneOffset.UTC) : time;
        }
      case UUID:
        if (value instanceof UUID) {
          return value;
        }
        if (value instanceof String) {
          return parse(() -> UUID.fromString(((String) value).trim()), value);
        }
        throw FloeError.INVALID_CAST.error(quote(value), "not a UUID for " + column);
      case FIXED:
        {
          byte[] bytes = bytes(value);
          int length = ((Types.FixedType) type).length();
          if (bytes.length > length) {
            throw FloeError.STRING_TOO_LONG.error(
                column, bytes.length + " bytes do not fit BINARY(" + length + ")");
          }
          if (bytes.length < length) {
            bytes = java.util.Arrays.copyOf(bytes, length);
          }
          return bytes;
        }
      case BINARY:
        return ByteBuffer.wrap(bytes(value));
      case STRUCT:
        {
          Object[] values = value instanceof List ? ((List<?>) value).toArray() : (Object[]) value;
          Record record = GenericRecord.create(type.asStructType());
          List<Types.NestedField> fields = type.asStructType().fields();
          boolean own = type == field.type();
          for (int i = 0; i < fields.size() && i < values.length; i++) {
            if (own) {
              record.set(i, children.get(i).assign(values[i]));
            } else if (values[i] == null) {
              // a struct inside a list or map: its fields are assigned here
              if (fields.get(i).isRequired()) {
                throw FloeError.NULL_NOT_ALLOWED.error(column + "." + fields.get(i).name());
              }
            } else {
              record.set(i, convert(fields.get(i).type(), values[i], nested(from, i)));
            }
          }
          return record;
        }
      case LIST:
        {
          Types.ListType list = type.asListType();
          List<Object> result = new ArrayList<>();
          for (Object item : (List<?>) value) {
            if (item == null && !list.isElementOptional()) {
              throw FloeError.NULL_NOT_ALLOWED.error(column + ".element");
            }
            result.add(item == null ? null : convert(list.elementType(), item, nested(from, 0)));
          }
          return result;
        }
      case MAP:
        {
          Types.MapType map = type.asMapType();
          Map<Object, Object> result = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            Object v = e.getValue();
            if (v == null && !map.isValueOptional()) {
              throw FloeError.NULL_NOT_ALLOWED.error(column + ".value");
            }
            result.put(
                convert(map.keyType(), e.getKey(), nested(from, 0)),
                v == null ? null : convert(map.valueType(), v, nested(from, 1)));
          }
          return result;
        }
      default:
        throw FloeError.NOT_SUPPORTED.error("writing " + type + " column " + column);
    }
  }

  /**
   * A value as text for a VARCHAR column: a value of a SQL type (not a JDBC parameter) reads as a
   * cast to VARCHAR shows it, every digit of a time or timestamp kept; the days and microseconds
   * Calcite's runtime holds datetimes in are never written as numbers.
   */
  private String text(Object value, WritePlan.SourceType from) {
    String kind = from == null || from == WritePlan.SourceType.JDBC ? "" : from.typeName();
    switch (kind) {
      case "DATE":
        if (value instanceof Integer) {
          return LocalDate.ofEpochDay((Integer) value).toString();
        }
        break;
      case "TIME":
        if (value instanceof Integer || value instanceof Long) {
          return TemporalValues.formatTime((LocalTime) convert(Types.TimeType.get(), value, from));
        }
        break;
      case "TIMESTAMP":
        if (value instanceof Long) {
          return TemporalValues.format((Long) value, from.precision());
        }
        break;
      case "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
        if (value instanceof Long) {
          return TemporalValues.format((Long) value, from.precision()) + " UTC";
        }
        break;
      case "BOOLEAN":
        return value.toString().toUpperCase(java.util.Locale.ROOT);
      case "BINARY":
      case "VARBINARY":
        if (value instanceof ByteString) {
          return ((ByteString) value).toString();
        }
        break;
      default:
        break;
    }
    return value instanceof ByteString ? ((ByteString) value).toBase64String() : value.toString();
  }

  /** The SQL type of values nested in a value of a SQL type, when it is known. */
  private static WritePlan.SourceType nested(WritePlan.SourceType from, int i) {
    return from == null || from == WritePlan.SourceType.JDBC ? null : from.child(i);
  }

  private LocalDateTime timestamp(Object value, WritePlan.SourceType from) {
    if (value instanceof LocalDateTime) {
      return (LocalDateTime) value;
    }
    if (value instanceof LocalDate) {
      return ((LocalDate) value).atStartOfDay();
    }
    if (value instanceof java.time.Instant) {
      return LocalDateTime.ofInstant((java.time.Instant) value, ZoneOffset.UTC);
    }
    if (value instanceof Long) {
      int precision = from == null ? 6 : isTimestamp(from) ? from.precision() : 6;
      return TemporalValues.toLocalDateTime((Long) value, precision);
    }
    if (value instanceof Integer && from != null && "DATE".equals(from.typeName())) {
      return LocalDate.ofEpochDay((Integer) value).atStartOfDay();
    }
    if (value instanceof String) {
      String text = ((String) value).trim().replace('T', ' ');
      if (text.length() == 10) {
        text += " 00:00:00";
      }
      String parsed = text;
      return parseDatetime(() -> TemporalValues.parse(parsed), value);
    }
    throw FloeError.INVALID_CAST.error(quote(value), "not a TIMESTAMP for " + column);
  }

  private static boolean isTimestamp(WritePlan.SourceType from) {
    return from != null
        && (from.typeName().equals("TIMESTAMP")
            || from.typeName().equals("TIMESTAMP_WITH_LOCAL_TIME_ZONE")
            || from.typeName().equals("TIMESTAMP_TZ"));
  }

  /**
   * JDBC parameter objects as batches pass them: {@code java.sql} datetimes become {@code
   * java.time} values with every digit, offsets become instants.
   */
  private static Object fromJdbc(Object value) {
    if (value instanceof java.sql.Timestamp) {
      return ((java.sql.Timestamp) value).toLocalDateTime();
    }
    if (value instanceof java.sql.Date) {
      return ((java.sql.Date) value).toLocalDate();
    }
    if (value instanceof java.sql.Time) {
      java.sql.Time time = (java.sql.Time) value;
      return time.toLocalTime().withNano((int) (Math.floorMod(time.getTime(), 1000L) * 1_000_000L));
    }
    if (value instanceof java.time.OffsetDateTime) {
      return ((java.time.OffsetDateTime) value).toInstant();
    }
    if (value instanceof java.time.ZonedDateTime) {
      return ((java.time.ZonedDateTime) value).toInstant();
    }
    if (value instanceof java.util.UUID || value instanceof byte[]) {
      return value;
    }
    return value;
  }

  private long integral(Object value, long min, long max, String typeName) {
    if (value instanceof BigInteger) {
      value = new BigDecimal((BigInteger) value);
    }
    BigDecimal d = decimal(value);
    BigInteger rounded = d.setScale(0, RoundingMode.HALF_UP).toBigIntegerExact();
    if (rounded.compareTo(BigInteger.valueOf(min)) < 0
        || rounded.compareTo(BigInteger.valueOf(max)) > 0) {
      throw FloeError.NUMERIC_OUT_OF_RANGE.error(column, value + " does not fit " + typeName);
    }
    return rounded.longValue();
  }

  private BigDecimal decimal(Object value) {
    if (value instanceof BigDecimal) {
      return (BigDecimal) value;
    }
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw FloeError.NUMERIC_OUT_OF_RANGE.error(column, value + " is not a finite number");
      }
      return BigDecimal.valueOf(d);
    }
    if (value instanceof String) {
      return parse(() -> new BigDecimal(((String) value).trim()), value);
    }
    throw FloeError.INVALID_CAST.error(quote(value), "not a number for " + column);
  }

  private Number number(Object value) {
    if (value instanceof Number) {
      return (Number) value;
    }
    return decimal(value);
  }

  private byte[] bytes(Object value) {
    if (value instanceof ByteString) {
      return ((ByteString) value).getBytes();
    }
    if (value instanceof byte[]) {
      return (byte[]) value;
    }
    if (value instanceof ByteBuffer) {
      ByteBuffer buffer = ((ByteBuffer) value).duplicate();
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return bytes;
    }
    throw FloeError.INVALID_CAST.error(quote(value), "not binary for " + column);
  }

  private <T> T parse(java.util.function.Supplier<T> parser, Object value) {
    try {
      return parser.get();
    } catch (RuntimeException e) {
      throw FloeError.INVALID_CAST.error(e, quote(value), "not valid for " + column);
    }
  }

  private <T> T parseDatetime(java.util.function.Supplier<T> parser, Object value) {
    try {
      return parser.get();
    } catch (RuntimeException e) {
      throw FloeError.INVALID_DATETIME.error(e, quote(value), "not valid for " + column);
    }
  }

  private static String quote(Object value) {
    return "'" + value + "'";
  }
}
