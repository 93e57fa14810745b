package dev.floe.planner.scan;

import java.math.BigDecimal;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * One column of a batch decoded into a primitive array where its type allows (no object per value):
 * BOOLEAN in {@link #booleans}, INTEGER and DATE in {@link #ints}, BIGINT, TIME and TIMESTAMP in
 * {@link #longs}, REAL in {@link #floats}, DOUBLE in {@link #doubles}, DECIMAL of at most {@link
 * #MAX_LONG_PRECISION} digits as unscaled values in {@link #longs} (with {@link #scale}), strings
 * and wider decimals in {@link #objects}. Row {@code r} is NULL when {@link #anyNull} and {@code
 * nulls[r]}; the primitive slot of a NULL holds no meaningful value. {@link #get} gives a value in
 * the form Calcite's runtime holds.
 */
final class ColumnVector {
  /** Which array holds the values. */
  enum Kind {
    BOOLEAN,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    /** DECIMAL as unscaled longs of the vector's {@link #scale}. */
    DECIMAL,
    OBJECT
  }

  /** The most digits of a DECIMAL held as unscaled longs. */
  static final int MAX_LONG_PRECISION = 18;

  final Kind kind;

  /** For {@link Kind#DECIMAL}, the scale of the unscaled values; else 0. */
  final int scale;

  boolean[] booleans;
  int[] ints;
  long[] longs;
  float[] floats;
  double[] doubles;
  Object[] objects;
  boolean[] nulls;
  boolean anyNull;

  ColumnVector(Kind kind) {
    this(kind, 0);
  }

  ColumnVector(Kind kind, int scale) {
    this.kind = kind;
    this.scale = scale;
  }

  /** An empty vector for values of an Iceberg type. */
  static ColumnVector of(Type type) {
    Kind kind = kindOf(type);
    return new ColumnVector(kind, kind == Kind.DECIMAL ? ((Types.DecimalType) type).scale() : 0);
  }

  /** The kind of vector that holds values of an Iceberg type. */
  static Kind kindOf(Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return Kind.BOOLEAN;
      case INTEGER:
      case DATE:
        return Kind.INT;
      case LONG:
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        return Kind.LONG;
      case FLOAT:
        return Kind.FLOAT;
      case DOUBLE:
        return Kind.DOUBLE;
      case DECIMAL:
        return ((Types.DecimalType) type).precision() <= MAX_LONG_PRECISION
            ? Kind.DECIMAL
            : Kind.OBJECT;
      default:
        return Kind.OBJECT;
    }
  }

  /** Makes room for {@code rows} rows; the values are then written by the decoder. */
  void reset(int rows) {
    if (nulls == null || nulls.length < rows) {
      nulls = new boolean[rows];
    } else if (anyNull) {
      java.util.Arrays.fill(nulls, false);
    }
    anyNull = false;
    switch (kind) {
      case BOOLEAN:
        if (booleans == null || booleans.length < rows) {
          booleans = new boolean[rows];
        }
        break;
      case INT:
        if (ints == null || ints.length < rows) {
          ints = new int[rows];
        }
        break;
      case LONG:
      case DECIMAL:
        if (longs == null || longs.length < rows) {
          longs = new long[rows];
        }
        break;
      case FLOAT:
        if (floats == null || floats.length < rows) {
          floats = new float[rows];
        }
        break;
      case DOUBLE:
        if (doubles == null || doubles.length < rows) {
          doubles = new double[rows];
        }
        break;
      default:
        if (objects == null || objects.length < rows) {
          objects = new Object[rows];
        }
        break;
    }
  }

  /** Whether row {@code row} is NULL. */
  boolean isNull(int row) {
    return anyNull && nulls[row];
  }

  /** Row {@code row}'s value as Calcite's runtime holds it (boxed), or null. */
  Object get(int row) {
    if (anyNull && nulls[row]) {
      return null;
    }
    switch (kind) {
      case BOOLEAN:
        return booleans[row];
      case INT:
        return ints[row];
      case LONG:
        return longs[row];
      case FLOAT:
        return floats[row];
      case DOUBLE:
        return doubles[row];
      case DECIMAL:
        return BigDecimal.valueOf(longs[row], scale);
      default:
        return objects[row];
    }
  }

  /** Marks row {@code row} NULL. */
  void setNull(int row) {
    nulls[row] = true;
    anyNull = true;
  }

  /**
   * Sets row {@code row} (not NULL so far) to {@code value}: null or of this vector's Java type.
   */
  void set(int row, Object value) {
    if (value == null) {
      setNull(row);
      return;
    }
    switch (kind) {
      case BOOLEAN:
        booleans[row] = (Boolean) value;
        break;
      case INT:
        ints[row] = (Integer) value;
        break;
      case LONG:
        longs[row] = (Long) value;
        break;
      case FLOAT:
        floats[row] = (Float) value;
        break;
      case DOUBLE:
        doubles[row] = (Double) value;
        break;
      case DECIMAL:
        longs[row] = ((BigDecimal) value).setScale(scale).unscaledValue().longValueExact();
        break;
      default:
        objects[row] = value;
        break;
    }
  }
}
