package dev.floe.planner.scan;

import dev.floe.planner.scan.LakeAggregation.Call;
import dev.floe.planner.scan.LakeAggregation.Kind;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.iceberg.types.Type;

/**
 * One aggregate call's running value over part of a scan's rows, computed as Calcite's own
 * Enumerable aggregate computes it (so the answer is the same): NULLs are skipped; {@code MIN} and
 * {@code MAX} start from Calcite's sentinels and compare with its {@code lesser}/{@code greater}
 * (so -0.0 and 0.0 tie, and the first or last of them is kept as Calcite keeps it); sums add in the
 * Java type of their SQL result. Integer sums are exact and fail with an {@link
 * ArithmeticException} (22003) when the result does not fit its type, where Calcite's wraps around.
 *
 * <p>Partial values of consecutive pieces of a scan merge in scan order, which gives the value of
 * one pass over all rows, except for REAL/DOUBLE sums (added in another order, the last bits may
 * differ) and for a REAL/DOUBLE {@code MAX} that met NaN (see {@link #ordered()}).
 */
abstract class Accumulator {
  /** Adds one value, which may be NULL. */
  abstract void add(Object value);

  /** Adds {@code values[rows[i]]} for {@code i < count}, or {@code values[0..count)}. */
  void addAll(Object[] values, int[] rows, int count) {
    if (rows == null) {
      for (int i = 0; i < count; i++) {
        add(values[i]);
      }
    } else {
      for (int i = 0; i < count; i++) {
        add(values[rows[i]]);
      }
    }
  }

  /** Adds {@code n} counted rows; only counts accept it. */
  void addCount(long n) {
    throw new IllegalStateException("Cannot add a count to " + getClass().getSimpleName());
  }

  /** Merges the value of the rows that follow this one's. */
  abstract void merge(Accumulator later);

  /** The value in Calcite's runtime form. */
  abstract Object result();

  /**
   * Whether merging partial values in order gives the one-pass value: false once a REAL/DOUBLE
   * {@code MAX} met NaN, since Calcite's {@code greater} takes NaN and then drops it for the next
   * value, which depends on where pieces were cut.
   */
  boolean ordered() {
    return true;
  }

  /** A new accumulator for a call whose argument (if any) has Iceberg type {@code type}. */
  static Accumulator of(Call call, Type type) {
    switch (call.kind()) {
      case COUNT_ROWS:
        return new CountRows();
      case COUNT:
        return new CountValues();
      case SUM:
      case SUM0:
        return sum(call);
      case MIN:
      case MAX:
        return minMax(call.kind() == Kind.MIN, type);
      default:
        throw new IllegalStateException("Cannot aggregate " + call.kind());
    }
  }

  private static Accumulator sum(Call call) {
    boolean zeroWhenEmpty = call.kind() == Kind.SUM0;
    switch (call.adder()) {
      case INT:
        return new IntegerSum(zeroWhenEmpty, true);
      case LONG:
        return new IntegerSum(zeroWhenEmpty, false);
      case FLOAT:
        return new FloatSum(zeroWhenEmpty);
      case DOUBLE:
        return new DoubleSum(zeroWhenEmpty);
      case DECIMAL:
        return new DecimalSum(zeroWhenEmpty);
      default:
        throw new IllegalStateException("Cannot sum in " + call.adder());
    }
  }

  private static Accumulator minMax(boolean min, Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return new BooleanMinMax(min);
      case INTEGER:
      case DATE:
        return new IntMinMax(min);
      case LONG:
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        return new LongMinMax(min);
      case FLOAT:
        return new FloatMinMax(min);
      case DOUBLE:
        return new DoubleMinMax(min);
      default:
        return new ObjectMinMax(min);
    }
  }

  /** {@code COUNT(*)}. */
  static final class CountRows extends Accumulator {
    private long count;

    @Override
    void add(Object value) {
      count++;
    }

    @Override
    void addAll(Object[] values, int[] rows, int n) {
      count += n;
    }

    @Override
    void addCount(long n) {
      count += n;
    }

    @Override
    void merge(Accumulator later) {
      count += ((CountRows) later).count;
    }

    @Override
    Object result() {
      return count;
    }
  }

  /** {@code COUNT(col)}. */
  static final class CountValues extends Accumulator {
    private long count;

    @Override
    void add(Object value) {
      if (value != null) {
        count++;
      }
    }

    @Override
    void addCount(long n) {
      count += n;
    }

    @Override
    void merge(Accumulator later) {
      count += ((CountValues) later).count;
    }

    @Override
    Object result() {
      return count;
    }
  }

  /**
   * A sum of INTEGER or BIGINT values, exact whatever the order: a long that turns into a
   * BigInteger when it would overflow; the result must fit the SQL type.
   */
  static final class IntegerSum extends Accumulator {
    private final boolean zeroWhenEmpty;
    private final boolean integer;
    private long sum;
    private BigInteger big;
    private boolean seen;

    IntegerSum(boolean zeroWhenEmpty, boolean integer) {
      this.zeroWhenEmpty = zeroWhenEmpty;
      this.integer = integer;
    }

    @Override
    void add(Object value) {
      if (value != null) {
        seen = true;
        plus(((Number) value).longValue());
      }
    }

    private void plus(long value) {
      long result = sum + value;
      if (((sum ^ result) & (value ^ result)) < 0) {
        big = (big == null ? BigInteger.ZERO : big).add(BigInteger.valueOf(sum));
        result = value;
      }
      sum = result;
    }

    @Override
    void merge(Accumulator later) {
      IntegerSum other = (IntegerSum) later;
      if (other.seen) {
        seen = true;
        plus(other.sum);
        if (other.big != null) {
          big = (big == null ? BigInteger.ZERO : big).add(other.big);
        }
      }
    }

    @Override
    Object result() {
      if (!seen && !zeroWhenEmpty) {
        return null;
      }
      BigInteger total = big == null ? null : big.add(BigInteger.valueOf(sum));
      long value;
      if (total == null) {
        value = sum;
      } else if (total.bitLength() < 64) {
        value = total.longValue();
      } else {
        throw overflow(total);
      }
      if (integer) {
        if (value != (int) value) {
          throw overflow(BigInteger.valueOf(value));
        }
        return (int) value;
      }
      return value;
    }

    private ArithmeticException overflow(BigInteger total) {
      return new ArithmeticException(
          "the sum " + total + " does not fit type " + (integer ? "INTEGER" : "BIGINT"));
    }
  }

  /** A sum of REAL values, added in {@code float} as Calcite adds them. */
  static final class FloatSum extends Accumulator {
    private final boolean zeroWhenEmpty;
    private float sum;
    private boolean seen;

    FloatSum(boolean zeroWhenEmpty) {
      this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override
    void add(Object value) {
      if (value != null) {
        seen = true;
        sum += ((Number) value).floatValue();
      }
    }

    @Override
    void merge(Accumulator later) {
      FloatSum other = (FloatSum) later;
      if (other.seen) {
        seen = true;
        sum += other.sum;
      }
    }

    @Override
    Object result() {
      return seen || zeroWhenEmpty ? (Object) sum : null;
    }
  }

  /** A sum of DOUBLE values. */
  static final class DoubleSum extends Accumulator {
    private final boolean zeroWhenEmpty;
    private double sum;
    private boolean seen;

    DoubleSum(boolean zeroWhenEmpty) {
      this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override
    void add(Object value) {
      if (value != null) {
        seen = true;
        sum += ((Number) value).doubleValue();
      }
    }

    @Override
    void addAll(Object[] values, int[] rows, int count) {
      double s = sum;
      boolean any = false;
      if (rows == null) {
        for (int i = 0; i < count; i++) {
          Object value = values[i];
          if (value != null) {
            s += ((Number) value).doubleValue();
            any = true;
          }
        }
      } else {
        for (int i = 0; i < count; i++) {
          Object value = values[rows[i]];
          if (value != null) {
            s += ((Number) value).doubleValue();
            any = true;
          }
        }
      }
      sum = s;
      seen |= any;
    }

    @Override
    void merge(Accumulator later) {
      DoubleSum other = (DoubleSum) later;
      if (other.seen) {
        seen = true;
        sum += other.sum;
      }
    }

    @Override
    Object result() {
      return seen || zeroWhenEmpty ? (Object) sum : null;
    }
  }

  /** A sum of DECIMAL values, exact as BigDecimal's. */
  static final class DecimalSum extends Accumulator {
    private final boolean zeroWhenEmpty;
    private BigDecimal sum = BigDecimal.ZERO;
    private boolean seen;

    DecimalSum(boolean zeroWhenEmpty) {
      this.zeroWhenEmpty = zeroWhenEmpty;
    }

    @Override
    void add(Object value) {
      if (value != null) {
        seen = true;
        sum = sum.add((BigDecimal) value);
      }
    }

    @Override
    void merge(Accumulator later) {
      DecimalSum other = (DecimalSum) later;
      if (other.seen) {
        seen = true;
        sum = sum.add(other.sum);
      }
    }

    @Override
    Object result() {
      return seen || zeroWhenEmpty ? sum : null;
    }
  }

  /** MIN and MAX of BOOLEAN: Calcite's {@code lesser} is AND, {@code greater} OR. */
  static final class BooleanMinMax extends Accumulator {
    private final boolean min;
    private boolean value;
    private boolean seen;

    BooleanMinMax(boolean min) {
      this.min = min;
      this.value = min;
    }

    @Override
    void add(Object v) {
      if (v != null) {
        seen = true;
        value = min ? value && (Boolean) v : value || (Boolean) v;
      }
    }

    @Override
    void merge(Accumulator later) {
      BooleanMinMax other = (BooleanMinMax) later;
      if (other.seen) {
        add(other.value);
      }
    }

    @Override
    Object result() {
      return seen ? (Object) value : null;
    }
  }

  /** MIN and MAX of INTEGER and DATE. */
  static final class IntMinMax extends Accumulator {
    private final boolean min;
    private int value;
    private boolean seen;

    IntMinMax(boolean min) {
      this.min = min;
      this.value = (Integer) (min ? Primitive.INT.max : Primitive.INT.min);
    }

    @Override
    void add(Object v) {
      if (v != null) {
        seen = true;
        int x = (Integer) v;
        value = min ? (value > x ? x : value) : (value > x ? value : x);
      }
    }

    @Override
    void merge(Accumulator later) {
      IntMinMax other = (IntMinMax) later;
      if (other.seen) {
        add(other.value);
      }
    }

    @Override
    Object result() {
      return seen ? (Object) value : null;
    }
  }

  /** MIN and MAX of BIGINT, TIME and TIMESTAMP. */
  static final class LongMinMax extends Accumulator {
    private final boolean min;
    private long value;
    private boolean seen;

    LongMinMax(boolean min) {
      this.min = min;
      this.value = (Long) (min ? Primitive.LONG.max : Primitive.LONG.min);
    }

    @Override
    void add(Object v) {
      if (v != null) {
        seen = true;
        long x = (Long) v;
        value = min ? (value > x ? x : value) : (value > x ? value : x);
      }
    }

    @Override
    void merge(Accumulator later) {
      LongMinMax other = (LongMinMax) later;
      if (other.seen) {
        add(other.value);
      }
    }

    @Override
    Object result() {
      return seen ? (Object) value : null;
    }
  }

  /** MIN and MAX of REAL. */
  static final class FloatMinMax extends Accumulator {
    private final boolean min;
    private float value;
    private boolean seen;
    private boolean nan;

    FloatMinMax(boolean min) {
      this.min = min;
      this.value = (Float) (min ? Primitive.FLOAT.max : Primitive.FLOAT.min);
    }

    @Override
    void add(Object v) {
      if (v != null) {
        seen = true;
        float x = (Float) v;
        nan |= x != x;
        value = min ? (value > x ? x : value) : (value > x ? value : x);
      }
    }

    @Override
    void merge(Accumulator later) {
      FloatMinMax other = (FloatMinMax) later;
      nan |= other.nan;
      if (other.seen) {
        add(other.value);
      }
    }

    @Override
    boolean ordered() {
      return min || !nan;
    }

    @Override
    Object result() {
      return seen ? (Object) value : null;
    }
  }

  /** MIN and MAX of DOUBLE. */
  static final class DoubleMinMax extends Accumulator {
    private final boolean min;
    private double value;
    private boolean seen;
    private boolean nan;

    DoubleMinMax(boolean min) {
      this.min = min;
      this.value = (Double) (min ? Primitive.DOUBLE.max : Primitive.DOUBLE.min);
    }

    @Override
    void add(Object v) {
      if (v != null) {
        seen = true;
        double x = (Double) v;
        nan |= x != x;
        value = min ? (value > x ? x : value) : (value > x ? value : x);
      }
    }

    @Override
    void merge(Accumulator later) {
      DoubleMinMax other = (DoubleMinMax) later;
      nan |= other.nan;
      if (other.seen) {
        add(other.value);
      }
    }

    @Override
    boolean ordered() {
      return min || !nan;
    }

    @Override
    Object result() {
      return seen ? (Object) value : null;
    }
  }

  /**
   * MIN and MAX of values compared with {@code compareTo} (strings, decimals): ties keep the value
   * met first, as Calcite's {@code lesser}/{@code greater} of objects do.
   */
  static final class ObjectMinMax extends Accumulator {
    private final boolean min;
    private Comparable<Object> value;

    ObjectMinMax(boolean min) {
      this.min = min;
    }

    @Override
    @SuppressWarnings("unchecked")
    void add(Object v) {
      if (v == null) {
        return;
      }
      if (value == null) {
        value = (Comparable<Object>) v;
      } else if (min ? value.compareTo(v) > 0 : value.compareTo(v) < 0) {
        value = (Comparable<Object>) v;
      }
    }

    @Override
    void merge(Accumulator later) {
      add(((ObjectMinMax) later).value);
    }

    @Override
    Object result() {
      return value;
    }
  }
}
