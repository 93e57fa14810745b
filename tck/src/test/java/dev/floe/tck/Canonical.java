package dev.floe.tck;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Struct;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * One canonical text form for a value of an Iceberg type, reached from both sides explicitly: from
 * the value Iceberg's generic reader returns, and from a JDBC result set through the typed getter
 * the type table (docs/sql.md, "Types") promises for that type. Two values are equal exactly when
 * their canonical forms are, so -0.0 differs from 0.0, NaN equals NaN, a decimal's scale counts,
 * and a timestamp keeps all six fractional digits.
 */
final class Canonical {
  static final String NULL = "NULL";

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");
  private static final int LONG_STRING = 120;

  private Canonical() {}

  /** The canonical form of a value as Iceberg's generic reader returns it. */
  static String ofReference(Type type, Object value) {
    if (value == null) {
      return NULL;
    }
    switch (type.typeId()) {
      case BOOLEAN:
      case INTEGER:
      case LONG:
      case UUID:
        return value.toString();
      case FLOAT:
        return Float.toString((Float) value);
      case DOUBLE:
        return Double.toString((Double) value);
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case DATE:
        return ((LocalDate) value).toString();
      case TIME:
        return TIME.format((LocalTime) value);
      case TIMESTAMP:
        if (((Types.TimestampType) type).shouldAdjustToUTC()) {
          return instant(((OffsetDateTime) value).toInstant());
        }
        return TIMESTAMP.format((LocalDateTime) value);
      case STRING:
        return string(value.toString());
      case FIXED:
        return hex((byte[]) value);
      case BINARY:
        return hex(bytes((ByteBuffer) value));
      case STRUCT:
        {
          StructLike struct = (StructLike) value;
          List<Types.NestedField> fields = type.asStructType().fields();
          List<String> parts = new ArrayList<>();
          for (int i = 0; i < fields.size(); i++) {
            parts.add(ofReference(fields.get(i).type(), struct.get(i, Object.class)));
          }
          return "{" + String.join(", ", parts) + "}";
        }
      case LIST:
        {
          List<String> parts = new ArrayList<>();
          for (Object element : (List<?>) value) {
            parts.add(ofReference(type.asListType().elementType(), element));
          }
          return "[" + String.join(", ", parts) + "]";
        }
      case MAP:
        {
          List<String> parts = new ArrayList<>();
          for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
            parts.add(
                ofReference(type.asMapType().keyType(), entry.getKey())
                    + "="
                    + ofReference(type.asMapType().valueType(), entry.getValue()));
          }
          parts.sort(null);
          return "map{" + String.join(", ", parts) + "}";
        }
      default:
        throw new IllegalArgumentException("No canonical form for " + type);
    }
  }

  /**
   * The canonical form of a column read through the JDBC getter the type table names for its type
   * (docs/sql.md, "Types").
   */
  static String ofJdbc(ResultSet rs, int column, Type type) throws SQLException {
    String result;
    switch (type.typeId()) {
      case BOOLEAN:
        {
          boolean v = rs.getBoolean(column);
          result = rs.wasNull() ? NULL : Boolean.toString(v);
          break;
        }
      case INTEGER:
        {
          int v = rs.getInt(column);
          result = rs.wasNull() ? NULL : Integer.toString(v);
          break;
        }
      case LONG:
        {
          long v = rs.getLong(column);
          result = rs.wasNull() ? NULL : Long.toString(v);
          break;
        }
      case FLOAT:
        {
          float v = rs.getFloat(column);
          result = rs.wasNull() ? NULL : Float.toString(v);
          break;
        }
      case DOUBLE:
        {
          double v = rs.getDouble(column);
          result = rs.wasNull() ? NULL : Double.toString(v);
          break;
        }
      case DECIMAL:
        {
          BigDecimal v = rs.getBigDecimal(column);
          result = v == null ? NULL : v.toPlainString();
          break;
        }
      case DATE:
        {
          LocalDate v = rs.getObject(column, LocalDate.class);
          result = v == null ? NULL : v.toString();
          break;
        }
      case TIME:
        {
          LocalTime v = rs.getObject(column, LocalTime.class);
          result = v == null ? NULL : TIME.format(v);
          break;
        }
      case TIMESTAMP:
        if (((Types.TimestampType) type).shouldAdjustToUTC()) {
          OffsetDateTime v = rs.getObject(column, OffsetDateTime.class);
          result = v == null ? NULL : instant(v.toInstant());
        } else {
          LocalDateTime v = rs.getObject(column, LocalDateTime.class);
          result = v == null ? NULL : TIMESTAMP.format(v);
        }
        break;
      case STRING:
        {
          String v = rs.getString(column);
          result = v == null ? NULL : string(v);
          break;
        }
      case UUID:
        {
          UUID v = rs.getObject(column, UUID.class);
          result = v == null ? NULL : v.toString();
          break;
        }
      case FIXED:
      case BINARY:
        {
          byte[] v = rs.getBytes(column);
          result = v == null ? NULL : hex(v);
          break;
        }
      case STRUCT:
      case LIST:
      case MAP:
        result = ofJdbcNested(type, rs.getObject(column));
        break;
      default:
        throw new IllegalArgumentException("No canonical form for " + type);
    }
    return result;
  }

  /**
   * The canonical form of a nested value as {@code getObject} returns it: a {@link Struct}, an
   * {@link Array} and a {@link Map}, whose elements are the objects {@code getObject} would return
   * for a top-level column of their type.
   */
  static String ofJdbcNested(Type type, Object value) throws SQLException {
    if (value == null) {
      return NULL;
    }
    switch (type.typeId()) {
      case STRUCT:
        {
          Object[] attributes =
              value instanceof Struct ? ((Struct) value).getAttributes() : (Object[]) value;
          List<Types.NestedField> fields = type.asStructType().fields();
          List<String> parts = new ArrayList<>();
          for (int i = 0; i < fields.size(); i++) {
            parts.add(ofJdbcNested(fields.get(i).type(), attributes[i]));
          }
          return "{" + String.join(", ", parts) + "}";
        }
      case LIST:
        {
          List<?> elements =
              value instanceof Array
                  ? Arrays.asList((Object[]) ((Array) value).getArray())
                  : (List<?>) value;
          List<String> parts = new ArrayList<>();
          for (Object element : elements) {
            parts.add(ofJdbcNested(type.asListType().elementType(), element));
          }
          return "[" + String.join(", ", parts) + "]";
        }
      case MAP:
        {
          List<String> parts = new ArrayList<>();
          for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
            parts.add(
                ofJdbcNested(type.asMapType().keyType(), entry.getKey())
                    + "="
                    + ofJdbcNested(type.asMapType().valueType(), entry.getValue()));
          }
          parts.sort(null);
          return "map{" + String.join(", ", parts) + "}";
        }
      case DATE:
        // getObject's default for DATE is java.sql.Date; anything else is reported as such.
        return value instanceof java.sql.Date
            ? ((java.sql.Date) value).toLocalDate().toString()
            : value instanceof LocalDate ? value.toString() : describe(value);
      case INTEGER:
        return value instanceof Integer ? value.toString() : describe(value);
      case LONG:
        return value instanceof Long ? value.toString() : describe(value);
      case DOUBLE:
        return value instanceof Double ? value.toString() : describe(value);
      case STRING:
        return value instanceof String ? string((String) value) : describe(value);
      case DECIMAL:
        return value instanceof BigDecimal ? ((BigDecimal) value).toPlainString() : describe(value);
      default:
        throw new IllegalArgumentException("No nested canonical form for " + type);
    }
  }

  /** Canonical rows of a result set, each column read for its Iceberg type. */
  static List<List<String>> rows(ResultSet rs, List<Type> types) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    while (rs.next()) {
      List<String> row = new ArrayList<>(types.size());
      for (int i = 0; i < types.size(); i++) {
        row.add(ofJdbc(rs, i + 1, types.get(i)));
      }
      rows.add(row);
    }
    return rows;
  }

  /** Rows in one order, for comparing results of queries without ORDER BY. */
  static List<List<String>> sorted(List<List<String>> rows) {
    List<List<String>> copy = new ArrayList<>(rows);
    copy.sort((a, b) -> String.join("\u0001", a).compareTo(String.join("\u0001", b)));
    return copy;
  }

  private static String describe(Object value) {
    return value.getClass().getSimpleName() + ":" + value;
  }

  private static String instant(Instant instant) {
    return TIMESTAMP.format(instant.atOffset(ZoneOffset.UTC)) + "Z";
  }

  /** Strings quoted, so the string "NULL" differs from NULL; long ones by length and digest. */
  private static String string(String s) {
    if (s.length() <= LONG_STRING) {
      return "'" + s + "'";
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      return "'" + s.substring(0, 20) + "…' (" + s.length() + " chars, sha256 " + hex(digest) + ")";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer copy = buffer.duplicate();
    byte[] bytes = new byte[copy.remaining()];
    copy.get(bytes);
    return bytes;
  }

  private static String hex(byte[] bytes) {
    return "x'" + HexFormat.of().formatHex(bytes) + "'";
  }
}
