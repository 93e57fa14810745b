package dev.floe.planner.scan;

import dev.floe.planner.scan.ScanExpression.Op;
import dev.floe.planner.scan.ScanExpression.Type;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.avatica.util.TimeUnitRange;

/**
 * A {@link ScanExpression} computed over a batch's column vectors into a vector of its own, a
 * primitive loop per operation: INTEGER and BIGINT in ints and longs (checked as Calcite checks
 * them), DOUBLE in doubles, DECIMAL as unscaled longs. A batch where a DECIMAL value does not fit a
 * long, or where a column does not come as the vector expected, is computed row by row with {@link
 * ScanExpression#evaluate} into a vector of boxed values instead: the same values either way.
 *
 * <p>{@code CASE} computes each branch only for the rows that take it, so a branch is computed (and
 * may fail) exactly for the rows Calcite's code computes it for. Not thread-safe: the vectors are
 * reused from batch to batch.
 */
final class ExpressionColumn {
  private final ScanExpression expression;
  private Value root;
  private ColumnVector boxed;

  ExpressionColumn(ScanExpression expression) {
    this.expression = expression;
    this.root = value(expression);
  }

  /**
   * The expression's values at rows {@code rows[0..count)} (or {@code 0..count)} when {@code rows}
   * is null, ascending) of {@code columns}, in a vector indexed as {@code columns} are; valid until
   * the next call.
   */
  ColumnVector compute(ColumnVector[] columns, int[] rows, int count) {
    int size = count == 0 ? 0 : (rows == null ? count : rows[count - 1] + 1);
    try {
      return root.values(columns, rows, count, size);
    } catch (NotInVectors e) {
      root = value(expression); // nodes may hold state from the batch left half done (an OR's)
      if (boxed == null) {
        boxed = new ColumnVector(ColumnVector.Kind.OBJECT);
      }
      boxed.reset(size);
      for (int i = 0; i < count; i++) {
        int r = rows == null ? i : rows[i];
        boxed.set(r, expression.evaluate(c -> columns[c].get(r)));
      }
      return boxed;
    }
  }

  /**
   * A condition ({@link ScanExpression#condition()}) selecting the rows of a batch for which it is
   * TRUE, a primitive loop per comparison; a batch whose columns do not come as the vectors
   * expected is tested row by row with {@link ScanExpression#evaluate}: the same rows either way.
   * Not thread-safe.
   */
  static final class Filter {
    private final ScanExpression expression;
    private Condition root;
    private int[] all = new int[0];
    private int[] scratch = new int[0];

    Filter(ScanExpression expression) {
      this.expression = expression;
      this.root = condition(expression);
    }

    /**
     * Writes to {@code out} those of the rows {@code rows[0..count)} (ascending; {@code 0..count)}
     * when null) for which the condition is TRUE, and returns how many; {@code out} may be {@code
     * rows}.
     */
    int select(ColumnVector[] columns, int[] rows, int count, int[] out) {
      if (count == 0) {
        return 0;
      }
      if (rows == null) {
        if (all.length < count) {
          all = new int[Math.max(count, BatchReader.BATCH_ROWS)];
          for (int i = 0; i < all.length; i++) {
            all[i] = i;
          }
        }
        rows = all;
      }
      if (scratch.length < count) {
        scratch = new int[Math.max(count, BatchReader.BATCH_ROWS)];
      }
      int size = rows[count - 1] + 1;
      int kept;
      try {
        kept = root.select(columns, rows, count, scratch, size);
      } catch (NotInVectors e) {
        root = condition(expression); // nodes may hold state from the batch left half done
        kept = 0;
        for (int i = 0; i < count; i++) {
          int r = rows[i];
          if (Boolean.TRUE.equals(expression.evaluate(c -> columns[c].get(r)))) {
            scratch[kept++] = r;
          }
        }
      }
      System.arraycopy(scratch, 0, out, 0, kept);
      return kept;
    }
  }

  /** Thrown inside a batch that must be computed row by row. */
  private static final class NotInVectors extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final NotInVectors INSTANCE = new NotInVectors();

    private NotInVectors() {
      super(null, null, false, false);
    }
  }

  private static Value value(ScanExpression e) {
    switch (e.op()) {
      case COLUMN:
        return new ColumnValue(e);
      case LITERAL:
        return new LiteralValue(e);
      case PLUS:
      case MINUS:
      case TIMES:
      case DIVIDE:
        return new Arithmetic(e, value(e.operands().get(0)), value(e.operands().get(1)));
      case CAST:
        return new Cast(e, value(e.operands().get(0)));
      case ABS:
        return new Abs(e, value(e.operands().get(0)));
      case EXTRACT:
        return new Extract(e, value(e.operands().get(0)));
      case CASE:
        return new Case(e);
      default:
        throw new IllegalArgumentException("Not a value: " + e.op());
    }
  }

  private static Condition condition(ScanExpression e) {
    switch (e.op()) {
      case AND:
      case OR:
        {
          List<ScanExpression> operands = e.operands();
          Condition[] parts = new Condition[operands.size()];
          for (int i = 0; i < parts.length; i++) {
            parts[i] = condition(operands.get(i));
          }
          return e.op() == Op.AND ? new And(parts) : new Or(parts);
        }
      case IS_NULL:
      case IS_NOT_NULL:
        return new NullTest(value(e.operands().get(0)), e.op() == Op.IS_NULL);
      case LIKE:
      case NOT_LIKE:
        return new Like(value(e.operands().get(0)), (LikePattern) e.literal(), e.op() == Op.LIKE);
      case IN_KEYS:
        return new KeyMatch(e.operands().get(0).column(), (RuntimeFilter.KeyTest) e.literal());
      default:
        return new Comparison(
            e.op(),
            value(e.operands().get(0)),
            e.operands().get(0),
            value(e.operands().get(1)),
            e.operands().get(1));
    }
  }

  /** The kind of vector that holds values of a type. */
  private static ColumnVector.Kind kind(Type type) {
    switch (type) {
      case INT:
      case DATE:
        return ColumnVector.Kind.INT;
      case STRING:
        return ColumnVector.Kind.OBJECT;
      case LONG:
        return ColumnVector.Kind.LONG;
      case DOUBLE:
        return ColumnVector.Kind.DOUBLE;
      case DECIMAL:
        return ColumnVector.Kind.DECIMAL;
      default:
        return ColumnVector.Kind.BOOLEAN;
    }
  }

  private static int row(int[] rows, int i) {
    return rows == null ? i : rows[i];
  }

  /** A value node: fills the selected rows of a vector. */
  private abstract static class Value {
    final ScanExpression expression;

    Value(ScanExpression expression) {
      this.expression = expression;
    }

    abstract ColumnVector values(ColumnVector[] columns, int[] rows, int count, int size);

    /** A vector of this node's type, made ready for {@code size} rows. */
    ColumnVector out(ColumnVector reuse, int size) {
      ColumnVector out =
          reuse != null ? reuse : new ColumnVector(kind(expression.type()), expression.scale());
      out.reset(Math.max(size, 1));
      return out;
    }
  }

  /** A scan column, used as decoded when its vector is of the expected kind. */
  private static final class ColumnValue extends Value {
    ColumnValue(ScanExpression e) {
      super(e);
    }

    @Override
    ColumnVector values(ColumnVector[] columns, int[] rows, int count, int size) {
      ColumnVector v = columns[expression.column()];
      if (v.kind != kind(expression.type())
          || v.kind == ColumnVector.Kind.DECIMAL && v.scale != expression.scale()) {
        throw NotInVectors.INSTANCE;
      }
      return v;
    }
  }

  private static final class LiteralValue extends Value {
    private ColumnVector out;

    LiteralValue(ScanExpression e) {
      super(e);
    }

    @Override
    ColumnVector values(ColumnVector[] columns, int[] rows, int count, int size) {
      if (out == null || out.nulls.length < size) {
        out = out(null, Math.max(size, BatchReader.BATCH_ROWS));
        int length = out.nulls.length;
        Object value = expression.literal();
        switch (out.kind) {
          case INT:
            Arrays.fill(out.ints, 0, length, ((Number) value).intValue());
            break;
          case LONG:
            Arrays.fill(out.longs, 0, length, ((Number) value).longValue());
            break;
          case DOUBLE:
            Arrays.fill(out.doubles, 0, length, ((Number) value).doubleValue());
            break;
          default:
            {
              long unscaled;
              try {
                unscaled =
                    ((java.math.BigDecimal) value)
                        .setScale(expression.scale())
                        .unscaledValue()
                        .longValueExact();
              } catch (ArithmeticException e) {
                out = null;
                throw NotInVectors.INSTANCE;
              }
              Arrays.fill(out.longs, 0, length, unscaled);
              break;
            }
        }
      }
      return out;
    }
  }

  /** The long value of a row of an INT, LONG or DECIMAL vector (unscaled). */
  private static long longAt(ColumnVector v, int r) {
    return v.kind == ColumnVector.Kind.INT ? v.ints[r] : v.longs[r];
  }

  private static double doubleAt(ColumnVector v, int r) {
    switch (v.kind) {
      case INT:
        return v.ints[r];
      case LONG:
        return v.longs[r];
      case DOUBLE:
        return v.doubles[r];
      default:
        throw NotInVectors.INSTANCE;
    }
  }

  private static final long[] POWERS = new long[19];

  static {
    POWERS[0] = 1;
    for (int i = 1; i < POWERS.length; i++) {
      POWERS[i] = POWERS[i - 1] * 10;
    }
  }

  /** The scale of a vector's values when taken as unscaled decimals (integers: 0). */
  private static int scaleOf(ColumnVector v) {
    return v.kind == ColumnVector.Kind.DECIMAL ? v.scale : 0;
  }

  /** An unscaled value multiplied up by {@code 10^by}, or NotInVectors when it does not fit. */
  private static long rescale(long value, int by) {
    if (by == 0) {
      return value;
    }
    if (by >= POWERS.length) {
      throw NotInVectors.INSTANCE;
    }
    long p = POWERS[by];
    long high = Math.multiplyHigh(value, p);
    long low = value * p;
    if ((high != 0 || low < 0) && (high != -1 || low >= 0)) {
      throw NotInVectors.INSTANCE;
    }
    return low;
  }

  private static final class Arithmetic extends Value {
    private final Value left;
    private final Value right;
    private ColumnVector out;

    Arithmetic(ScanExpression e, Value left, Value right) {
      super(e);
      this.left = left;
      this.right = right;
    }

    @Override
    ColumnVector values(ColumnVector[] columns, int[] rows, int count, int size) {
      ColumnVector a = left.values(columns, rows, count, size);
      ColumnVector b = right.values(columns, rows, count, size);
      out = out(out, size);
      ColumnVector o = out;
      boolean nullable = a.anyNull || b.anyNull;
      Op op = expression.op();
      switch (o.kind) {
        case INT:
          {
            if (a.kind != ColumnVector.Kind.INT || b.kind != ColumnVector.Kind.INT) {
              throw NotInVectors.INSTANCE;
            }
            int[] x = a.ints;
            int[] y = b.ints;
            int[] z = o.ints;
            for (int i = 0; i < count; i++) {
              int r = row(rows, i);
              if (nullable && (a.isNull(r) || b.isNull(r))) {
                o.setNull(r);
              } else if (op == Op.PLUS) {
                z[r] = Math.addExact(x[r], y[r]);
              } else if (op == Op.MINUS) {
                z[r] = Math.subtractExact(x[r], y[r]);
              } else if (op == Op.DIVIDE) {
                z[r] = ScanExpression.divide(x[r], y[r]);
              } else {
                z[r] = Math.multiplyExact(x[r], y[r]);
              }
            }
            return o;
          }
        case LONG:
          {
            if (a.kind == ColumnVector.Kind.DECIMAL || b.kind == ColumnVector.Kind.DECIMAL) {
              throw NotInVectors.INSTANCE;
            }
            long[] z = o.longs;
            for (int i = 0; i < count; i++) {
              int r = row(rows, i);
              if (nullable && (a.isNull(r) || b.isNull(r))) {
                o.setNull(r);
                continue;
              }
              long x = longAt(a, r);
              long y = longAt(b, r);
              z[r] =
                  switch (op) {
                    case PLUS -> Math.addExact(x, y);
                    case MINUS -> Math.subtractExact(x, y);
                    case DIVIDE -> ScanExpression.divide(x, y);
                    default -> Math.multiplyExact(x, y);
                  };
            }
            return o;
          }
        case DOUBLE:
          {
            double[] z = o.doubles;
            for (int i = 0; i < count; i++) {
              int r = row(rows, i);
              if (nullable && (a.isNull(r) || b.isNull(r))) {
                o.setNull(r);
                continue;
              }
              double x = doubleAt(a, r);
              double y = doubleAt(b, r);
              switch (op) {
                case PLUS:
                  z[r] = x + y;
                  break;
                case MINUS:
                  z[r] = x - y;
                  break;
                case TIMES:
                  z[r] = x * y;
                  break;
                default:
                  z[r] = x / y;
                  break;
              }
            }
            return o;
          }
        default:
          return decimal(a, b, o, rows, count, nullable, op);
      }
    }

    private ColumnVector decimal(
        ColumnVector a,
        ColumnVector b,
        ColumnVector o,
        int[] rows,
        int count,
        boolean nullable,
        Op op) {
      if (a.kind == ColumnVector.Kind.DOUBLE
          || b.kind == ColumnVector.Kind.DOUBLE
          || a.kind == ColumnVector.Kind.OBJECT
          || b.kind == ColumnVector.Kind.OBJECT) {
        throw NotInVectors.INSTANCE;
      }
      int sa = scaleOf(a);
      int sb = scaleOf(b);
      long[] z = o.longs;
      if (op == Op.TIMES) {
        if (sa + sb != o.scale) {
          throw NotInVectors.INSTANCE;
        }
        for (int i = 0; i < count; i++) {
          int r = row(rows, i);
          if (nullable && (a.isNull(r) || b.isNull(r))) {
            o.setNull(r);
            continue;
          }
          long x = longAt(a, r);
          long y = longAt(b, r);
          long high = Math.multiplyHigh(x, y);
          long low = x * y;
          if ((high != 0 || low < 0) && (high != -1 || low >= 0)) {
            throw NotInVectors.INSTANCE;
          }
          z[r] = fit(low);
        }
        return o;
      }
      if (Math.max(sa, sb) != o.scale) {
        throw NotInVectors.INSTANCE;
      }
      int ua = o.scale - sa;
      int ub = o.scale - sb;
      boolean plus = op == Op.PLUS;
      for (int i = 0; i < count; i++) {
        int r = row(rows, i);
        if (nullable && (a.isNull(r) || b.isNull(r))) {
          o.setNull(r);
          continue;
        }
        long x = rescale(longAt(a, r), ua);
        long y = rescale(longAt(b, r), ub);
        long result = plus ? x + y : x - y;
        boolean overflow = plus ? ((x ^ result) & (y ^ result)) < 0 : ((x ^ y) & (x ^ result)) < 0;
        if (overflow) {
          throw NotInVectors.INSTANCE;
        }
        z[r] = fit(result);
      }
      return o;
    }

    /**
     * An unscaled result of the type's scale, checked against its precision: one with more digits
     * is computed row by row, which fails as Calcite's code does.
     */
    private long fit(long unscaled) {
      int precision = expression.precision();
      if (precision < POWERS.length
          && (unscaled >= POWERS[precision] || unscaled <= -POWERS[precision])) {
        throw NotInVectors.INSTANCE;
      }
      return unscaled;
    }
  }

  /** {@code ABS} in a primitive loop of the operand's own kind. */
  private static final class Abs extends Value {
    private final Value operand;
    private ColumnVector out;

    Abs(ScanExpression e, Value operand) {
      super(e);
      this.operand = operand;
    }

    @Override
    ColumnVector values(ColumnVector[] columns, int[] rows, int count, int size) {
      ColumnVector a = operand.values(columns, rows, count, size);
      out = out(out, size);
      ColumnVector o = out;
      if (a.kind != o.kind || a.kind == ColumnVector.Kind.DECIMAL && a.scale != o.scale) {
        throw NotInVectors.INSTANCE;
      }
      for (int i = 0; i < count; i++) {
        int r = row(rows, i);
        if (a.anyNull && a.isNull(r)) {
          o.setNull(r);
          continue;
        }
        switch (o.kind) {
          case INT:
            o.ints[r] = Math.abs(a.ints[r]);
            break;
          case DOUBLE:
            o.doubles[r] = Math.abs(a.doubles[r]);
            break;
          case LONG:
          case DECIMAL:
            o.longs[r] = Math.abs(a.longs[r]);
            break;
          default:
            throw NotInVectors.INSTANCE;
        }
      }
      return o;
    }
  }

  private static final class Cast extends Value {
    private final Value operand;
    private ColumnVector out;

    Cast(ScanExpression e, Value operand) {
      super(e);
      this.operand = operand;
    }

    @Override
    ColumnVector values(ColumnVector[] columns, int[] rows, int count, int size) {
      ColumnVector a = operand.values(columns, rows, count, size);
      if (a.kind == ColumnVector.Kind.OBJECT || a.kind == ColumnVector.Kind.DOUBLE) {
        throw NotInVectors.INSTANCE;
      }
      out = out(out, size);
      ColumnVector o = out;
      int by = o.kind == ColumnVector.Kind.DECIMAL ? o.scale - scaleOf(a) : 0;
      if (by < 0 || o.kind != ColumnVector.Kind.DECIMAL && a.kind == ColumnVector.Kind.DECIMAL) {
        throw NotInVectors.INSTANCE;
      }
      for (int i = 0; i < count; i++) {
        int r = row(rows, i);
        if (a.isNull(r)) {
          o.setNull(r);
          continue;
        }
        long x = longAt(a, r);
        switch (o.kind) {
          case LONG:
            o.longs[r] = x;
            break;
          case DOUBLE:
            o.doubles[r] = x;
            break;
          default:
            {
              long unscaled = rescale(x, by);
              int precision = expression.precision();
              if (precision < POWERS.length
                  && (unscaled >= POWERS[precision] || unscaled <= -POWERS[precision])) {
                throw NotInVectors.INSTANCE;
              }
              o.longs[r] = unscaled;
              break;
            }
        }
      }
      return o;
    }
  }

  /**
   * A field of DATE day numbers, computed once per run of equal days (rows of one date come
   * together in most files).
   */
  private static final class Extract extends Value {
    private final Value operand;
    private final TimeUnitRange unit;
    private ColumnVector out;
    private int lastDay;
    private long lastField;
    private boolean any;

    Extract(ScanExpression e, Value operand) {
      super(e);
      this.operand = operand;
      this.unit = (TimeUnitRange) e.literal();
    }

    @Override
    ColumnVector values(ColumnVector[] columns, int[] rows, int count, int size) {
      ColumnVector a = operand.values(columns, rows, count, size);
      if (a.kind != ColumnVector.Kind.INT) {
        throw NotInVectors.INSTANCE;
      }
      out = out(out, size);
      ColumnVector o = out;
      for (int i = 0; i < count; i++) {
        int r = row(rows, i);
        if (a.isNull(r)) {
          o.setNull(r);
          continue;
        }
        int day = a.ints[r];
        if (!any || day != lastDay) {
          lastField = DateTimeUtils.unixDateExtract(unit, day);
          lastDay = day;
          any = true;
        }
        o.longs[r] = lastField;
      }
      return o;
    }
  }

  private static final class Case extends Value {
    private final Condition[] conditions;
    private final Value[] values;
    private final Value otherwise;
    private ColumnVector out;
    private int[] remaining = new int[0];
    private int[] taken = new int[0];

    Case(ScanExpression e) {
      super(e);
      List<ScanExpression> operands = e.operands();
      int pairs = operands.size() / 2;
      conditions = new Condition[pairs];
      values = new Value[pairs];
      for (int i = 0; i < pairs; i++) {
        conditions[i] = condition(operands.get(2 * i));
        values[i] = value(operands.get(2 * i + 1));
      }
      otherwise = operands.size() % 2 == 1 ? value(operands.get(operands.size() - 1)) : null;
    }

    @Override
    ColumnVector values(ColumnVector[] columns, int[] rows, int count, int size) {
      if (remaining.length < count) {
        remaining = new int[Math.max(count, BatchReader.BATCH_ROWS)];
        taken = new int[remaining.length];
      }
      int left = count;
      for (int i = 0; i < count; i++) {
        remaining[i] = row(rows, i);
      }
      // computed before out is reset: a branch may be this same node's type
      ColumnVector o = null;
      for (int p = 0; p < conditions.length && left > 0; p++) {
        int n = conditions[p].select(columns, remaining, left, taken, size);
        if (n > 0) {
          ColumnVector v = values[p].values(columns, taken, n, size);
          if (o == null) {
            out = out(out, size);
            o = out;
          }
          copy(v, o, taken, n);
          left = without(remaining, left, taken, n);
        }
      }
      if (o == null) {
        out = out(out, size);
        o = out;
      }
      if (left > 0) {
        if (otherwise != null) {
          copy(otherwise.values(columns, remaining, left, size), o, remaining, left);
        } else {
          for (int i = 0; i < left; i++) {
            o.setNull(remaining[i]);
          }
        }
      }
      return o;
    }

    /** Removes the ascending rows {@code taken[0..n)} from the ascending {@code rows[0..count)}. */
    private static int without(int[] rows, int count, int[] taken, int n) {
      int kept = 0;
      int t = 0;
      for (int i = 0; i < count; i++) {
        int r = rows[i];
        while (t < n && taken[t] < r) {
          t++;
        }
        if (t < n && taken[t] == r) {
          continue;
        }
        rows[kept++] = r;
      }
      return kept;
    }

    private static void copy(ColumnVector from, ColumnVector to, int[] rows, int n) {
      if (from.kind != to.kind || to.kind == ColumnVector.Kind.DECIMAL && from.scale != to.scale) {
        throw NotInVectors.INSTANCE;
      }
      for (int i = 0; i < n; i++) {
        int r = rows[i];
        if (from.isNull(r)) {
          to.setNull(r);
          continue;
        }
        switch (to.kind) {
          case INT:
            to.ints[r] = from.ints[r];
            break;
          case DOUBLE:
            to.doubles[r] = from.doubles[r];
            break;
          default:
            to.longs[r] = from.longs[r];
            break;
        }
      }
    }
  }

  /** A condition node: keeps the selected rows for which it is TRUE. */
  private abstract static class Condition {
    /**
     * Writes to {@code out} (ascending) those of the ascending rows {@code rows[0..count)} for
     * which the condition is TRUE; returns how many. {@code out} is not {@code rows}.
     */
    abstract int select(ColumnVector[] columns, int[] rows, int count, int[] out, int size);
  }

  private static final class Comparison extends Condition {
    private final Op op;
    private final Value left;
    private final Value right;
    private final boolean floating;

    Comparison(Op op, Value left, ScanExpression l, Value right, ScanExpression r) {
      this.op = op;
      this.left = left;
      this.right = right;
      this.floating = l.type() == Type.DOUBLE || r.type() == Type.DOUBLE;
    }

    @Override
    int select(ColumnVector[] columns, int[] rows, int count, int[] out, int size) {
      ColumnVector a = left.values(columns, rows, count, size);
      ColumnVector b = right.values(columns, rows, count, size);
      if (a.kind == ColumnVector.Kind.OBJECT || b.kind == ColumnVector.Kind.OBJECT) {
        throw NotInVectors.INSTANCE;
      }
      boolean nullable = a.anyNull || b.anyNull;
      int kept = 0;
      if (floating) {
        for (int i = 0; i < count; i++) {
          int r = rows[i];
          if (nullable && (a.isNull(r) || b.isNull(r))) {
            continue;
          }
          double x = doubleAt(a, r);
          double y = doubleAt(b, r);
          boolean pass;
          switch (op) {
            case LESS:
              pass = x < y;
              break;
            case LESS_EQUAL:
              pass = x <= y;
              break;
            case GREATER:
              pass = x > y;
              break;
            case GREATER_EQUAL:
              pass = x >= y;
              break;
            case EQUAL:
              pass = x == y;
              break;
            default:
              pass = x != y;
              break;
          }
          if (pass) {
            out[kept++] = r;
          }
        }
        return kept;
      }
      int scale = Math.max(scaleOf(a), scaleOf(b));
      int ua = scale - scaleOf(a);
      int ub = scale - scaleOf(b);
      for (int i = 0; i < count; i++) {
        int r = rows[i];
        if (nullable && (a.isNull(r) || b.isNull(r))) {
          continue;
        }
        int sign = Long.compare(rescale(longAt(a, r), ua), rescale(longAt(b, r), ub));
        boolean pass;
        switch (op) {
          case LESS:
            pass = sign < 0;
            break;
          case LESS_EQUAL:
            pass = sign <= 0;
            break;
          case GREATER:
            pass = sign > 0;
            break;
          case GREATER_EQUAL:
            pass = sign >= 0;
            break;
          case EQUAL:
            pass = sign == 0;
            break;
          default:
            pass = sign != 0;
            break;
        }
        if (pass) {
          out[kept++] = r;
        }
      }
      return kept;
    }
  }

  /** {@code col [NOT] LIKE pattern} on a string column: a NULL value passes neither. */
  private static final class Like extends Condition {
    private final Value operand;
    private final LikePattern pattern;
    private final boolean matching;

    Like(Value operand, LikePattern pattern, boolean matching) {
      this.operand = operand;
      this.pattern = pattern;
      this.matching = matching;
    }

    @Override
    int select(ColumnVector[] columns, int[] rows, int count, int[] out, int size) {
      ColumnVector a = operand.values(columns, rows, count, size);
      if (a.kind != ColumnVector.Kind.OBJECT) {
        throw NotInVectors.INSTANCE;
      }
      Object[] values = a.objects;
      int kept = 0;
      for (int i = 0; i < count; i++) {
        int r = rows[i];
        Object v = values[r];
        if (v != null && !a.isNull(r) && pattern.matches(v.toString()) == matching) {
          out[kept++] = r;
        }
      }
      return kept;
    }
  }

  /**
   * A column's value among a build side's keys: on INTEGER and BIGINT-like vectors looked up as
   * primitive longs, on others boxed, as {@link ScanExpression#evaluate} looks them up.
   */
  private static final class KeyMatch extends Condition {
    private final int column;
    private final RuntimeFilter.KeyTest keys;

    KeyMatch(int column, RuntimeFilter.KeyTest keys) {
      this.column = column;
      this.keys = keys;
    }

    @Override
    int select(ColumnVector[] columns, int[] rows, int count, int[] out, int size) {
      if (keys.off()) {
        System.arraycopy(rows, 0, out, 0, count);
        return count;
      }
      ColumnVector a = columns[column];
      int kept = 0;
      if (a.kind == ColumnVector.Kind.INT) {
        RuntimeFilter.LongKeys set = keys.primitive(true);
        int[] values = a.ints;
        for (int i = 0; i < count; i++) {
          int r = rows[i];
          if (set.contains(values[r]) && !a.isNull(r)) {
            out[kept++] = r;
          }
        }
      } else if (a.kind == ColumnVector.Kind.LONG) {
        RuntimeFilter.LongKeys set = keys.primitive(false);
        long[] values = a.longs;
        for (int i = 0; i < count; i++) {
          int r = rows[i];
          if (set.contains(values[r]) && !a.isNull(r)) {
            out[kept++] = r;
          }
        }
      } else {
        for (int i = 0; i < count; i++) {
          int r = rows[i];
          Object value = a.get(r);
          if (value != null && keys.contains(value)) {
            out[kept++] = r;
          }
        }
      }
      keys.counted(count, kept);
      return kept;
    }
  }

  private static final class NullTest extends Condition {
    private final Value operand;
    private final boolean isNull;

    NullTest(Value operand, boolean isNull) {
      this.operand = operand;
      this.isNull = isNull;
    }

    @Override
    int select(ColumnVector[] columns, int[] rows, int count, int[] out, int size) {
      ColumnVector a = operand.values(columns, rows, count, size);
      int kept = 0;
      for (int i = 0; i < count; i++) {
        if (a.isNull(rows[i]) == isNull) {
          out[kept++] = rows[i];
        }
      }
      return kept;
    }
  }

  private static final class And extends Condition {
    private final Condition[] parts;
    private int[] scratch = new int[0];

    And(Condition[] parts) {
      this.parts = parts;
    }

    @Override
    int select(ColumnVector[] columns, int[] rows, int count, int[] out, int size) {
      if (scratch.length < count) {
        scratch = new int[Math.max(count, BatchReader.BATCH_ROWS)];
      }
      int n = parts[0].select(columns, rows, count, out, size);
      for (int p = 1; p < parts.length && n > 0; p++) {
        System.arraycopy(out, 0, scratch, 0, n);
        n = parts[p].select(columns, scratch, n, out, size);
      }
      return n;
    }
  }

  private static final class Or extends Condition {
    private final Condition[] parts;
    private boolean[] passed = new boolean[0];
    private int[] scratch = new int[0];

    Or(Condition[] parts) {
      this.parts = parts;
    }

    @Override
    int select(ColumnVector[] columns, int[] rows, int count, int[] out, int size) {
      if (passed.length < size) {
        passed = new boolean[Math.max(size, BatchReader.BATCH_ROWS)];
      }
      if (scratch.length < count) {
        scratch = new int[Math.max(count, BatchReader.BATCH_ROWS)];
      }
      for (Condition part : parts) {
        int n = part.select(columns, rows, count, scratch, size);
        for (int i = 0; i < n; i++) {
          passed[scratch[i]] = true;
        }
      }
      int kept = 0;
      for (int i = 0; i < count; i++) {
        int r = rows[i];
        if (passed[r]) {
          passed[r] = false;
          out[kept++] = r;
        }
      }
      return kept;
    }
  }
}
