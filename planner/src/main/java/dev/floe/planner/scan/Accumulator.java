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

  /**
   * Adds rows {@code rows[i]} of {@code values} for {@code i < count} (rows {@code 0..count)} when
   * {@code rows} is null); {@code values} is null for {@code COUNT(*)}.
   */
  void addAll(ColumnVector values, int[] rows, int count) {
    for (int i = 0; i < count; i++) {
      add(values == null ? null : values.get(rows == null ? i : rows[i]));
    }
  }

  /**
   * Adds, for {@code i < count}, row {@code rows[i]} (or {@code i}) of {@code values} to {@code
   * group[groupOf[i]]}: {@code group} holds accumulators of this one's class, this one among them.
   * Subclasses add primitive vectors without boxing, a whole batch in one loop.
   */
  void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int count) {
    for (int i = 0; i < count; i++) {
      group[groupOf[i]].add(values == null ? null : values.get(rows == null ? i : rows[i]));
    }
  }

  /** Row {@code i} of a selection: {@code rows[i]}, or {@code i} when {@code rows} is null. */
  static int row(int[] rows, int i) {
    return rows == null ? i : rows[i];
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

  /**
   * The estimated bytes one accumulator of this class holds (64-bit JVM, compressed pointers): its
   * object, and what its fields point to that no other group shares. Most hold a few primitives.
   */
  long bytes() {
    return 24;
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
    void addAll(ColumnVector values, int[] rows, int n) {
      count += n;
    }

    @Override
    void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int n) {
      for (int i = 0; i < n; i++) {
        ((CountRows) group[groupOf[i]]).count++;
      }
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
    void addAll(ColumnVector values, int[] rows, int n) {
      if (!values.anyNull) {
        count += n;
        return;
      }
      for (int i = 0; i < n; i++) {
        if (!values.nulls[row(rows, i)]) {
          count++;
        }
      }
    }

    @Override
    void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int n) {
      boolean anyNull = values.anyNull;
      boolean[] nulls = values.nulls;
      for (int i = 0; i < n; i++) {
        if (!anyNull || !nulls[row(rows, i)]) {
          ((CountValues) group[groupOf[i]]).count++;
        }
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

    @Override
    long bytes() {
      return 32; // a BigInteger only once a sum passes a long
    }

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

    @Override
    void addAll(ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.INT && values.kind != ColumnVector.Kind.LONG) {
        super.addAll(values, rows, n);
        return;
      }
      boolean ints = values.kind == ColumnVector.Kind.INT;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          seen = true;
          plus(ints ? values.ints[r] : values.longs[r]);
        }
      }
    }

    @Override
    void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.INT && values.kind != ColumnVector.Kind.LONG) {
        super.addGrouped(group, groupOf, values, rows, n);
        return;
      }
      boolean ints = values.kind == ColumnVector.Kind.INT;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          IntegerSum sum = (IntegerSum) group[groupOf[i]];
          sum.seen = true;
          sum.plus(ints ? values.ints[r] : values.longs[r]);
        }
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

  /**
   * A sum of DOUBLE values, or of REAL values widened to {@code double} (a SUM of REAL is DOUBLE).
   */
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
    void addAll(ColumnVector values, int[] rows, int count) {
      if (values.kind == ColumnVector.Kind.FLOAT) {
        addFloats(values, rows, count);
        return;
      }
      if (values.kind != ColumnVector.Kind.DOUBLE) {
        super.addAll(values, rows, count);
        return;
      }
      double s = sum;
      boolean any = false;
      double[] doubles = values.doubles;
      if (!values.anyNull) {
        any = count > 0;
        if (rows == null) {
          for (int i = 0; i < count; i++) {
            s += doubles[i];
          }
        } else {
          for (int i = 0; i < count; i++) {
            s += doubles[rows[i]];
          }
        }
      } else {
        boolean[] nulls = values.nulls;
        for (int i = 0; i < count; i++) {
          int r = row(rows, i);
          if (!nulls[r]) {
            s += doubles[r];
            any = true;
          }
        }
      }
      sum = s;
      seen |= any;
    }

    private void addFloats(ColumnVector values, int[] rows, int count) {
      float[] floats = values.floats;
      for (int i = 0; i < count; i++) {
        int r = row(rows, i);
        if (!values.anyNull || !values.nulls[r]) {
          sum += floats[r];
          seen = true;
        }
      }
    }

    @Override
    void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int n) {
      if (values.kind == ColumnVector.Kind.FLOAT) {
        float[] floats = values.floats;
        for (int i = 0; i < n; i++) {
          int r = row(rows, i);
          if (!values.anyNull || !values.nulls[r]) {
            DoubleSum sum = (DoubleSum) group[groupOf[i]];
            sum.seen = true;
            sum.sum += floats[r];
          }
        }
        return;
      }
      if (values.kind != ColumnVector.Kind.DOUBLE) {
        super.addGrouped(group, groupOf, values, rows, n);
        return;
      }
      double[] doubles = values.doubles;
      boolean anyNull = values.anyNull;
      boolean[] nulls = values.nulls;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!anyNull || !nulls[r]) {
          DoubleSum sum = (DoubleSum) group[groupOf[i]];
          sum.seen = true;
          sum.sum += doubles[r];
        }
      }
    }

    /**
     * Adds a batch of DOUBLE values without NULLs to {@code groups} groups' sums through a
     * primitive array: each group's sum is copied into {@code sums}, the values are added there in
     * row order (the very additions {@link #addGrouped} makes, so the sums are the same to the
     * bit), and the sums of the groups with rows ({@code tally[g] > 0}) are copied back.
     */
    static void addDense(
        Accumulator[] group,
        int groups,
        int[] tally,
        int[] groupOf,
        double[] values,
        int[] rows,
        int n,
        double[] sums) {
      for (int g = 0; g < groups; g++) {
        sums[g] = ((DoubleSum) group[g]).sum;
      }
      if (rows == null) {
        for (int i = 0; i < n; i++) {
          sums[groupOf[i]] += values[i];
        }
      } else {
        for (int i = 0; i < n; i++) {
          sums[groupOf[i]] += values[rows[i]];
        }
      }
      for (int g = 0; g < groups; g++) {
        if (tally[g] != 0) {
          DoubleSum sum = (DoubleSum) group[g];
          sum.sum = sums[g];
          sum.seen = true;
        }
      }
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

  /**
   * A sum of DECIMAL values, exact as BigDecimal's: values of a {@link ColumnVector.Kind#DECIMAL}
   * vector are added as unscaled longs of their scale while they fit, the rest as BigDecimal; the
   * result has the value and the scale (the largest of the values') of BigDecimal's sum in any
   * order.
   */
  static final class DecimalSum extends Accumulator {
    private final boolean zeroWhenEmpty;
    private BigDecimal sum = BigDecimal.ZERO;
    private boolean seen;

    @Override
    long bytes() {
      return 32 + 48; // the running BigDecimal and its digits
    }

    /** The unscaled sum of the values added as longs since the last {@link #flush}. */
    private long small;

    /** The scale of {@link #small}, or -1 when no value is held there. */
    private int scale = -1;

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

    /** Adds an unscaled value of scale {@code valueScale}. */
    private void plus(long value, int valueScale) {
      if (scale != valueScale) {
        flush();
        scale = valueScale;
      }
      long result = small + value;
      if (((small ^ result) & (value ^ result)) < 0) {
        sum = sum.add(BigDecimal.valueOf(small, scale));
        result = value;
      }
      small = result;
    }

    private void flush() {
      if (scale >= 0) {
        sum = sum.add(BigDecimal.valueOf(small, scale));
        small = 0;
        scale = -1;
      }
    }

    @Override
    void addAll(ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.DECIMAL) {
        super.addAll(values, rows, n);
        return;
      }
      long[] xs = values.longs;
      int valueScale = values.scale;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          seen = true;
          plus(xs[r], valueScale);
        }
      }
    }

    @Override
    void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.DECIMAL) {
        super.addGrouped(group, groupOf, values, rows, n);
        return;
      }
      long[] xs = values.longs;
      int valueScale = values.scale;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          DecimalSum acc = (DecimalSum) group[groupOf[i]];
          acc.seen = true;
          acc.plus(xs[r], valueScale);
        }
      }
    }

    @Override
    void merge(Accumulator later) {
      DecimalSum other = (DecimalSum) later;
      if (other.seen) {
        seen = true;
        other.flush();
        sum = sum.add(other.sum);
      }
    }

    @Override
    Object result() {
      flush();
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
    void addAll(ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.INT) {
        super.addAll(values, rows, n);
        return;
      }
      int[] xs = values.ints;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          seen = true;
          int x = xs[r];
          value = min ? (value > x ? x : value) : (value > x ? value : x);
        }
      }
    }

    @Override
    void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.INT) {
        super.addGrouped(group, groupOf, values, rows, n);
        return;
      }
      int[] xs = values.ints;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          IntMinMax acc = (IntMinMax) group[groupOf[i]];
          acc.seen = true;
          int x = xs[r];
          acc.value = acc.min ? (acc.value > x ? x : acc.value) : (acc.value > x ? acc.value : x);
        }
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
    void addAll(ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.LONG) {
        super.addAll(values, rows, n);
        return;
      }
      long[] xs = values.longs;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          seen = true;
          long x = xs[r];
          value = min ? (value > x ? x : value) : (value > x ? value : x);
        }
      }
    }

    @Override
    void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.LONG) {
        super.addGrouped(group, groupOf, values, rows, n);
        return;
      }
      long[] xs = values.longs;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          LongMinMax acc = (LongMinMax) group[groupOf[i]];
          acc.seen = true;
          long x = xs[r];
          acc.value = acc.min ? (acc.value > x ? x : acc.value) : (acc.value > x ? acc.value : x);
        }
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
    void addAll(ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.FLOAT) {
        super.addAll(values, rows, n);
        return;
      }
      float[] xs = values.floats;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          seen = true;
          float x = xs[r];
          nan |= x != x;
          value = min ? (value > x ? x : value) : (value > x ? value : x);
        }
      }
    }

    @Override
    void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.FLOAT) {
        super.addGrouped(group, groupOf, values, rows, n);
        return;
      }
      float[] xs = values.floats;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          FloatMinMax acc = (FloatMinMax) group[groupOf[i]];
          acc.seen = true;
          float x = xs[r];
          acc.nan |= x != x;
          acc.value = acc.min ? (acc.value > x ? x : acc.value) : (acc.value > x ? acc.value : x);
        }
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
    void addAll(ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.DOUBLE) {
        super.addAll(values, rows, n);
        return;
      }
      double[] xs = values.doubles;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          seen = true;
          double x = xs[r];
          nan |= x != x;
          value = min ? (value > x ? x : value) : (value > x ? value : x);
        }
      }
    }

    @Override
    void addGrouped(Accumulator[] group, int[] groupOf, ColumnVector values, int[] rows, int n) {
      if (values.kind != ColumnVector.Kind.DOUBLE) {
        super.addGrouped(group, groupOf, values, rows, n);
        return;
      }
      double[] xs = values.doubles;
      for (int i = 0; i < n; i++) {
        int r = row(rows, i);
        if (!values.isNull(r)) {
          DoubleMinMax acc = (DoubleMinMax) group[groupOf[i]];
          acc.seen = true;
          double x = xs[r];
          acc.nan |= x != x;
          acc.value = acc.min ? (acc.value > x ? x : acc.value) : (acc.value > x ? acc.value : x);
        }
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

    @Override
    long bytes() {
      return 24 + 48; // the least or greatest value so far: a string or a wide decimal
    }

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
