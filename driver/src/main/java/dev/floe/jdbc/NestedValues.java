package dev.floe.jdbc;

import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.planner.type.TemporalValues;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Builds the JDBC value of a ROW, ARRAY or MAP column from Calcite's run-time value and the
 * column's SQL type, so that the dates, times and timestamps inside it are exact: Avatica would
 * read a timestamp's microseconds as milliseconds. A ROW becomes a {@link java.sql.Struct}, an
 * ARRAY a {@link java.sql.Array} and a MAP a {@link Map}, as Avatica gives them; a TIMESTAMP
 * inside becomes a {@code Timestamp} with every digit, a TIME a {@code Time} (milliseconds: the
 * digits below are cut), a DATE a {@code Date}, and a binary value {@code byte[]}.
 */
final class NestedValues {
  private final JdbcTemporals temporals;

  NestedValues(JdbcTemporals temporals) {
    this.temporals = temporals;
  }

  /** The JDBC value of {@code raw}, a run-time value of {@code type}; null stays null. */
  Object toJdbc(Object raw, RelDataType type) throws SQLException {
    if (raw == null) {
      return null;
    }
    SqlTypeName name = type.getSqlTypeName();
    switch (name) {
      case ROW:
        {
          List<RelDataTypeField> fields = type.getFieldList();
          Object[] values = raw instanceof Object[] ? (Object[]) raw : ((List<?>) raw).toArray();
          Object[] attributes = new Object[fields.size()];
          for (int i = 0; i < attributes.length; i++) {
            attributes[i] = toJdbc(values[i], fields.get(i).getType());
          }
          return new FloeStruct(type.getFullTypeString(), attributes);
        }
      case ARRAY:
      case MULTISET:
        {
          RelDataType component = type.getComponentType();
          List<?> list = raw instanceof List ? (List<?>) raw : List.of((Object[]) raw);
          Object[] elements = new Object[list.size()];
          for (int i = 0; i < elements.length; i++) {
            elements[i] = toJdbc(list.get(i), component);
          }
          return new FloeArray(component.getSqlTypeName().getJdbcOrdinal(), component.getSqlTypeName().getName(), elements);
        }
      case MAP:
        {
          Map<Object, Object> map = new LinkedHashMap<>();
          for (Map.Entry<?, ?> entry : ((Map<?, ?>) raw).entrySet()) {
            map.put(
                toJdbc(entry.getKey(), type.getKeyType()),
                toJdbc(entry.getValue(), type.getValueType()));
          }
          return map;
        }
      case DATE:
        return temporals.date(((Number) raw).longValue());
      case TIME:
        {
          long units = ((Number) raw).longValue();
          LocalTime time =
              type.getPrecision() > 3
                  ? TemporalValues.toLocalTime(units, type.getPrecision())
                  : LocalTime.ofNanoOfDay(units * 1_000_000L);
          // java.sql.Time holds milliseconds: the digits below are cut, never rounded up.
          return new Time(Time.valueOf(time).getTime() + time.getNano() / 1_000_000);
        }
      case TIMESTAMP:
        {
          long units = ((Number) raw).longValue();
          long perSecond = TemporalValues.unitsPerSecond(type.getPrecision());
          return temporals.timestamp(
              Math.floorDiv(units, perSecond),
              (int) (Math.floorMod(units, perSecond) * (1_000_000_000L / perSecond)));
        }
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        {
          long units = ((Number) raw).longValue();
          long perSecond = TemporalValues.unitsPerSecond(type.getPrecision());
          return Timestamp.from(
              Instant.ofEpochSecond(
                  Math.floorDiv(units, perSecond),
                  Math.floorMod(units, perSecond) * (1_000_000_000L / perSecond)));
        }
      case BINARY:
      case VARBINARY:
        return raw instanceof ByteString ? ((ByteString) raw).getBytes() : raw;
      default:
        return raw;
    }
  }

  /** Whether a type holds, at any depth, a value Avatica would convert wrongly. */
  static boolean holdsTemporal(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return true;
      case ROW:
        for (RelDataTypeField field : type.getFieldList()) {
          if (holdsTemporal(field.getType())) {
            return true;
          }
        }
        return false;
      case ARRAY:
      case MULTISET:
        return holdsTemporal(type.getComponentType());
      case MAP:
        return holdsTemporal(type.getKeyType()) || holdsTemporal(type.getValueType());
      default:
        return false;
    }
  }

  /** A ROW value: its attributes, already JDBC values. */
  static final class FloeStruct implements java.sql.Struct {
    private final String typeName;
    private final Object[] attributes;

    FloeStruct(String typeName, Object[] attributes) {
      this.typeName = typeName;
      this.attributes = attributes;
    }

    @Override
    public String getSQLTypeName() {
      return typeName;
    }

    @Override
    public Object[] getAttributes() {
      return attributes.clone();
    }

    @Override
    public Object[] getAttributes(Map<String, Class<?>> map) {
      return getAttributes();
    }

    @Override
    public String toString() {
      return java.util.Arrays.toString(attributes);
    }
  }

  /** An ARRAY value: its elements, already JDBC values. */
  static final class FloeArray implements java.sql.Array {
    private final int baseType;
    private final String baseTypeName;
    private final Object[] elements;

    FloeArray(int baseType, String baseTypeName, Object[] elements) {
      this.baseType = baseType;
      this.baseTypeName = baseTypeName;
      this.elements = elements;
    }

    @Override
    public String getBaseTypeName() {
      return baseTypeName;
    }

    @Override
    public int getBaseType() {
      return baseType;
    }

    @Override
    public Object getArray() {
      return elements.clone();
    }

    @Override
    public Object getArray(Map<String, Class<?>> map) {
      return getArray();
    }

    @Override
    public Object getArray(long index, int count) throws SQLException {
      if (index < 1 || count < 0 || index - 1 + count > elements.length) {
        throw SqlErrors.of(
            FloeError.INVALID_INDEX,
            "read elements " + index + ".." + (index + count - 1),
            "the array has " + elements.length);
      }
      return java.util.Arrays.copyOfRange(elements, (int) index - 1, (int) index - 1 + count);
    }

    @Override
    public Object getArray(long index, int count, Map<String, Class<?>> map) throws SQLException {
      return getArray(index, count);
    }

    @Override
    public java.sql.ResultSet getResultSet() throws SQLException {
      throw SqlErrors.of(
          FloeError.NOT_SUPPORTED, "an array's elements as a result set; use getArray()");
    }

    @Override
    public java.sql.ResultSet getResultSet(Map<String, Class<?>> map) throws SQLException {
      return getResultSet();
    }

    @Override
    public java.sql.ResultSet getResultSet(long index, int count) throws SQLException {
      return getResultSet();
    }

    @Override
    public java.sql.ResultSet getResultSet(long index, int count, Map<String, Class<?>> map)
        throws SQLException {
      return getResultSet();
    }

    @Override
    public void free() {}

    @Override
    public String toString() {
      return java.util.Arrays.toString(elements);
    }
  }
}
