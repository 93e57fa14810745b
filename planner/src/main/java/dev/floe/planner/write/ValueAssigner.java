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

/**
 * SQL assignment of one value to one Iceberg field: converts from Calcite's runtime form to the
 * form Iceberg's generic writers take, and refuses what does not fit with the SQLState standard
 * SQL gives it (22003 out of range, 22001 too long, 22018 bad text, 23502 NULL in a required
 * column). Thread-safe.
 */
final class ValueAssigner {
  private final String column;
  private final Types.NestedField field;
  private final WritePlan.SourceType source;
  private final List<ValueAssigner> children;

  ValueAssigner(String column, Types.NestedField field, WritePlan.SourceType source) {
    this.column = column;
    this.field = field;
    this.source = source;
    this.children = new ArrayList<>();
    if (field.type().isStructType()) {
      for (Types.NestedField child : field.type().asStructType().fields()) {
        children.add(new ValueAssigner(column + "." + child.name(), child, null));
      }
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
    return convert(field.type(), value, source);
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
        return value instanceof ByteString ? ((ByteString) value).toBase64String() : value.toString();
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
            time = TemporalValues.toLocalTime((Integer) value);
          } else if (value instanceof Long && isTimestamp(from)) {
            time = TemporalValues.toLocalDateTime((Long) value, from.precision()).toLocalTime();
          } else if (value instanceof Long) {
            // A TIME finer than milliseconds, as Calcite's runtime holds it (micros when nested).
            int precision = from != null && "TIME".equals(from.typeName()) ? from.precision() : 6;
            time = TemporalValues.toLocalTime((Long) value, precision);
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
          Object[] values = (Object[]) value;
          Record record = GenericRecord.create(type.asStructType());
          for (int i = 0; i < children.size() && i < values.length; i++) {
            record.set(i, children.get(i).assign(values[i]));
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
            result.add(item == null ? null : convert(list.elementType(), item, null));
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
                convert(map.keyType(), e.getKey(), null),
                v == null ? null : convert(map.valueType(), v, null));
          }
          return result;
        }
      default:
        throw FloeError.NOT_SUPPORTED.error("writing " + type + " column " + column);
    }
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
    if (value instanceof Long || value instanceof Integer || value instanceof Short
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
