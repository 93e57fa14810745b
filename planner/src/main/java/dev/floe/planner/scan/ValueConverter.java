package dev.floe.planner.scan;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Turns values in Iceberg's internal representation (int days, long micros, ByteBuffer, nested
 * StructLike) into the values Calcite's runtime holds for the column's SQL type: dates stay int
 * days, times stay long micros of the day (a TIME(6) is a {@code long} at run time, see {@link
 * dev.floe.planner.type.LakeJavaTypeFactory}) and timestamps stay long micros (nanos for v3
 * nanosecond columns) all the way to the JDBC getter; nothing builds a {@code java.sql} or {@code
 * java.time} object per row.
 */
@FunctionalInterface
public interface ValueConverter {
  /** Converts one non-null value. */
  Object convert(Object value);

  /** The identity converter: the internal form is already Calcite's. */
  ValueConverter IDENTITY = value -> value;

  /** The converter for an Iceberg type, from internal form to Calcite's runtime form. */
  static ValueConverter toCalcite(Type type) {
    switch (type.typeId()) {
      case FIXED:
      case BINARY:
        return value -> {
          if (value instanceof byte[]) {
            return new ByteString((byte[]) value);
          }
          ByteBuffer buffer = ((ByteBuffer) value).duplicate();
          byte[] bytes = new byte[buffer.remaining()];
          buffer.get(bytes);
          return new ByteString(bytes);
        };
      case STRING:
        return value -> value instanceof String ? value : value.toString();
      case STRUCT:
        {
          List<Types.NestedField> fields = type.asStructType().fields();
          ValueConverter[] converters = new ValueConverter[fields.size()];
          for (int i = 0; i < converters.length; i++) {
            converters[i] = toCalcite(fields.get(i).type());
          }
          return value -> {
            StructLike struct = (StructLike) value;
            Object[] row = new Object[converters.length];
            for (int i = 0; i < converters.length; i++) {
              Object field = struct.get(i, Object.class);
              row[i] = field == null ? null : converters[i].convert(field);
            }
            return row;
          };
        }
      case LIST:
        {
          ValueConverter element = toCalcite(type.asListType().elementType());
          return value -> {
            List<?> list = (List<?>) value;
            List<Object> result = new ArrayList<>(list.size());
            for (Object item : list) {
              result.add(item == null ? null : element.convert(item));
            }
            return result;
          };
        }
      case MAP:
        {
          ValueConverter key = toCalcite(type.asMapType().keyType());
          ValueConverter val = toCalcite(type.asMapType().valueType());
          return value -> {
            Map<?, ?> map = (Map<?, ?>) value;
            Map<Object, Object> result = new LinkedHashMap<>(map.size() * 2);
            for (Map.Entry<?, ?> entry : map.entrySet()) {
              Object v = entry.getValue();
              result.put(key.convert(entry.getKey()), v == null ? null : val.convert(v));
            }
            return result;
          };
        }
      case BOOLEAN:
      case INTEGER:
      case LONG:
      case FLOAT:
      case DOUBLE:
      case DECIMAL:
      case DATE:
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_NANO:
      case UUID:
        return IDENTITY;
      default:
        return Object::toString;
    }
  }
}
