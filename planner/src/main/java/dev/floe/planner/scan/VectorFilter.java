package dev.floe.planner.scan;

import java.util.List;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.BoundReference;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Not;
import org.apache.iceberg.expressions.Or;
import org.apache.iceberg.types.Types;

/**
 * A residual filter tested on column vectors, giving exactly what Iceberg's {@link Evaluator} gives
 * on the same row. Comparisons of numeric, DATE, TIME and TIMESTAMP columns with a literal ({@code
 * <, <=, >, >=, =, <>}, compared as the literal's comparator compares: natural order, {@code
 * Double.compare} for floating point) and {@code IN}/{@code NOT IN} lists of INT and LONG columns
 * are tested on the primitive values without boxing; every other predicate of one column (strings,
 * {@code STARTS_WITH}, NaN tests, large decimals) is decided by the bound predicate on the row's
 * value, a string column's answers kept per value ({@link #decided}). {@code IS NULL}, {@code IS
 * NOT NULL}, {@code AND}, {@code OR}, {@code NOT} combine them. A row where a column the filter
 * reads is NULL goes to the {@link Evaluator} itself, so NULL semantics are Iceberg's by
 * construction. A filter on anything but a column (a transform) is not compiled ({@link #compile}
 * gives null) and every row is evaluated.
 */
final class VectorFilter {
  private final Node root;
  private final int[] columns;

  /**
   * When the filter is a conjunction of comparisons ({@code <, <=, >, >=, =}) of one INT or LONG
   * column with literals: that column, and the closed range {@code [low, high]} it must fall in;
   * else -1.
   */
  private int rangeColumn = -1;

  private long low = Long.MIN_VALUE;
  private long high = Long.MAX_VALUE;

  private VectorFilter(Node root, int[] columns) {
    this.root = root;
    this.columns = columns;
  }

  /** The compiled form of {@code residual} over a batch of {@code schema}'s columns, or null. */
  static VectorFilter compile(Expression residual, Types.StructType schema) {
    Expression bound = Binder.bind(schema, residual, true);
    java.util.Set<Integer> used = new java.util.TreeSet<>();
    Node root = node(bound, schema.fields(), used);
    if (root == null) {
      return null;
    }
    VectorFilter filter =
        new VectorFilter(root, used.stream().mapToInt(Integer::intValue).toArray());
    if (filter.columns.length == 1 && filter.range(bound, schema.fields())) {
      filter.rangeColumn = filter.columns[0];
    }
    return filter;
  }

  /** Narrows {@code [low, high]} by a conjunction of comparisons; false if not one. */
  private boolean range(Expression e, List<Types.NestedField> fields) {
    if (e.op() == Expression.Operation.AND) {
      return range(((And) e).left(), fields) && range(((And) e).right(), fields);
    }
    if (!(e instanceof BoundPredicate<?> predicate) || !predicate.isLiteralPredicate()) {
      return false;
    }
    ColumnVector.Kind kind = ColumnVector.kindOf(fields.get(columns[0]).type());
    Object value = predicate.asLiteralPredicate().literal().value();
    long x;
    if (kind == ColumnVector.Kind.INT && value instanceof Integer i) {
      x = i;
    } else if (kind == ColumnVector.Kind.LONG && value instanceof Long l) {
      x = l;
    } else {
      return false;
    }
    switch (predicate.op()) {
      case LT:
        if (x == Long.MIN_VALUE) {
          return false;
        }
        high = Math.min(high, x - 1);
        return true;
      case LT_EQ:
        high = Math.min(high, x);
        return true;
      case GT:
        if (x == Long.MAX_VALUE) {
          return false;
        }
        low = Math.max(low, x + 1);
        return true;
      case GT_EQ:
        low = Math.max(low, x);
        return true;
      case EQ:
        low = Math.max(low, x);
        high = Math.min(high, x);
        return true;
      default:
        return false;
    }
  }

  /**
   * Keeps, of the rows {@code rows[0..count)} of {@code batch} (rows {@code 0..count)} when {@code
   * rows} is null), those that pass, writing them to {@code live} in order; returns how many.
   * {@code live} may be {@code rows}.
   */
  int select(
      ColumnBatch batch,
      int[] rows,
      int count,
      int[] live,
      Evaluator evaluator,
      ColumnBatch.RowView view) {
    int kept = 0;
    if (rangeColumn >= 0 && !batch.vectors[rangeColumn].anyNull) {
      ColumnVector column = batch.vectors[rangeColumn];
      long lo = low;
      long hi = high;
      if (column.kind == ColumnVector.Kind.LONG) {
        long[] values = column.longs;
        for (int i = 0; i < count; i++) {
          int row = rows == null ? i : rows[i];
          long x = values[row];
          if (x >= lo && x <= hi) {
            live[kept++] = row;
          }
        }
      } else {
        int[] values = column.ints;
        for (int i = 0; i < count; i++) {
          int row = rows == null ? i : rows[i];
          long x = values[row];
          if (x >= lo && x <= hi) {
            live[kept++] = row;
          }
        }
      }
      return kept;
    }
    for (int i = 0; i < count; i++) {
      int row = rows == null ? i : rows[i];
      if (test(batch, row, evaluator, view)) {
        live[kept++] = row;
      }
    }
    return kept;
  }

  /**
   * Whether row {@code row} passes; rows with a NULL in a column the filter reads are evaluated by
   * {@code evaluator} over {@code view}.
   */
  boolean test(ColumnBatch batch, int row, Evaluator evaluator, ColumnBatch.RowView view) {
    ColumnVector[] vectors = batch.vectors;
    for (int column : columns) {
      if (vectors[column].isNull(row)) {
        return evaluator.eval(view.at(batch, row));
      }
    }
    return root.test(vectors, row);
  }

  /** A compiled part of the filter, tested on a row none of whose read columns is NULL. */
  private interface Node {
    boolean test(ColumnVector[] vectors, int row);
  }

  private static Node node(
      Expression e, List<Types.NestedField> fields, java.util.Set<Integer> used) {
    switch (e.op()) {
      case TRUE:
        return (v, r) -> true;
      case FALSE:
        return (v, r) -> false;
      case AND:
        {
          Node left = node(((And) e).left(), fields, used);
          Node right = node(((And) e).right(), fields, used);
          return left == null || right == null
              ? null
              : (v, r) -> left.test(v, r) && right.test(v, r);
        }
      case OR:
        {
          Node left = node(((Or) e).left(), fields, used);
          Node right = node(((Or) e).right(), fields, used);
          return left == null || right == null
              ? null
              : (v, r) -> left.test(v, r) || right.test(v, r);
        }
      case NOT:
        {
          Node child = node(((Not) e).child(), fields, used);
          return child == null ? null : (v, r) -> !child.test(v, r);
        }
      default:
        break;
    }
    if (!(e instanceof BoundPredicate<?> predicate)
        || !(predicate.term() instanceof BoundReference<?> ref)) {
      return null;
    }
    int column = -1;
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).fieldId() == ref.fieldId()) {
        column = i;
      }
    }
    if (column < 0) {
      return null;
    }
    int c = column;
    ColumnVector.Kind kind = ColumnVector.kindOf(fields.get(c).type());
    used.add(c);
    if (predicate.isUnaryPredicate()) {
      switch (predicate.op()) {
        case IS_NULL:
          // reached only for rows where the column is not NULL (see test)
          return (v, r) -> false;
        case NOT_NULL:
          return (v, r) -> true;
        default:
          // IS_NAN, NOT_NAN
          return decided(c, kind, predicate);
      }
    }
    if (predicate.isSetPredicate()) {
      Node in = inList(c, kind, predicate.asSetPredicate().literalSet(), predicate.op());
      return in != null ? in : decided(c, kind, predicate);
    }
    if (!predicate.isLiteralPredicate()) {
      return decided(c, kind, predicate);
    }
    Object literal = predicate.asLiteralPredicate().literal().value();
    Expression.Operation op = predicate.op();
    Node compare = compared(c, kind, literal, op, fields);
    return compare != null ? compare : decided(c, kind, predicate);
  }

  /**
   * A comparison of a numeric, DATE, TIME or TIMESTAMP column with a literal of its type, on the
   * primitive values; null for other columns, literals or operations.
   */
  private static Node compared(
      int c,
      ColumnVector.Kind kind,
      Object literal,
      Expression.Operation op,
      List<Types.NestedField> fields) {
    Node compare;
    switch (kind) {
      case INT:
        {
          if (!(literal instanceof Integer)) {
            return null;
          }
          int x = (Integer) literal;
          compare = comparison(op, (v, r) -> Integer.compare(v[c].ints[r], x));
          break;
        }
      case LONG:
        {
          if (!(literal instanceof Long)) {
            return null;
          }
          long x = (Long) literal;
          compare = comparison(op, (v, r) -> Long.compare(v[c].longs[r], x));
          break;
        }
      case FLOAT:
        {
          if (!(literal instanceof Float)) {
            return null;
          }
          float x = (Float) literal;
          compare = comparison(op, (v, r) -> Float.compare(v[c].floats[r], x));
          break;
        }
      case DOUBLE:
        {
          if (!(literal instanceof Double)) {
            return null;
          }
          double x = (Double) literal;
          compare = comparison(op, (v, r) -> Double.compare(v[c].doubles[r], x));
          break;
        }
      case DECIMAL:
        {
          // the literal as an unscaled value of the column's scale, when it is one exactly
          if (!(literal instanceof java.math.BigDecimal decimal)) {
            return null;
          }
          long x;
          try {
            x =
                decimal
                    .setScale(((Types.DecimalType) fields.get(c).type()).scale())
                    .unscaledValue()
                    .longValueExact();
          } catch (ArithmeticException notExact) {
            return null;
          }
          compare = comparison(op, (v, r) -> Long.compare(v[c].longs[r], x));
          break;
        }
      default:
        return null;
    }
    return compare;
  }

  /** Lists longer than this are tested as a run-time filter's keys are; shorter ones searched. */
  private static final int SEARCHED_UP_TO = 8;

  /**
   * {@code IN} or {@code NOT IN} a list of literals of an INT or LONG column's type (INTEGER, DATE,
   * BIGINT, TIME, TIMESTAMP): for more than {@value #SEARCHED_UP_TO} values in the lookup a
   * run-time filter tests its keys with ({@link RuntimeFilter.LongKeys}: a bitmap of a dense range,
   * else an open-addressing set), for fewer by a binary search in the sorted literals; null for
   * other lists.
   */
  private static Node inList(
      int c, ColumnVector.Kind kind, java.util.Set<?> literals, Expression.Operation op) {
    if (op != Expression.Operation.IN && op != Expression.Operation.NOT_IN) {
      return null;
    }
    boolean in = op == Expression.Operation.IN;
    Class<?> type =
        kind == ColumnVector.Kind.INT
            ? Integer.class
            : kind == ColumnVector.Kind.LONG ? Long.class : null;
    if (type == null) {
      return null;
    }
    long[] sorted = new long[literals.size()];
    int n = 0;
    for (Object literal : literals) {
      if (!type.isInstance(literal)) {
        return null;
      }
      sorted[n++] = ((Number) literal).longValue();
    }
    java.util.Arrays.sort(sorted);
    // a search takes a branch it cannot predict per step: a join's 204 keys published to a scan
    // of 6,000,000 rows spent half the scan in it
    if (n > SEARCHED_UP_TO) {
      RuntimeFilter.LongKeys keys = RuntimeFilter.LongKeys.of(literals, type);
      return kind == ColumnVector.Kind.INT
          ? (v, r) -> keys.contains(v[c].ints[r]) == in
          : (v, r) -> keys.contains(v[c].longs[r]) == in;
    }
    return kind == ColumnVector.Kind.INT
        ? (v, r) -> (java.util.Arrays.binarySearch(sorted, v[c].ints[r]) >= 0) == in
        : (v, r) -> (java.util.Arrays.binarySearch(sorted, v[c].longs[r]) >= 0) == in;
  }

  /**
   * Any other predicate of one column, decided on the row's value (not NULL) by the predicate
   * itself, as Iceberg's evaluator decides it: comparisons, {@code IN}, {@code NOT IN} and {@code
   * STARTS_WITH} of strings and other values. A string column's answers are kept for the last
   * string seen in each of 256 slots by its hash: a column's values repeat (a dictionary's strings
   * are one object each), so most rows are answered by one comparison of the value with the kept
   * one.
   */
  @SuppressWarnings("unchecked")
  private static Node decided(int c, ColumnVector.Kind kind, BoundPredicate<?> bound) {
    BoundPredicate<Object> predicate = (BoundPredicate<Object>) bound;
    if (kind != ColumnVector.Kind.OBJECT) {
      return (v, r) -> predicate.test(v[c].get(r));
    }
    Decided[] answers = new Decided[256];
    return (v, r) -> {
      Object value = v[c].objects[r];
      if (!(value instanceof String)) {
        return predicate.test(value);
      }
      int slot = value.hashCode() & 255;
      Decided answer = answers[slot];
      if (answer != null && (answer.value == value || answer.value.equals(value))) {
        return answer.passes;
      }
      boolean passes = predicate.test(value);
      answers[slot] = new Decided(value, passes);
      return passes;
    };
  }

  /** A string's answer kept by {@link #decided} (immutable: workers may share the slots). */
  private record Decided(Object value, boolean passes) {}

  /** The sign of a value compared with a literal. */
  private interface Comparison {
    int compare(ColumnVector[] vectors, int row);
  }

  private static Node comparison(Expression.Operation op, Comparison cmp) {
    switch (op) {
      case LT:
        return (v, r) -> cmp.compare(v, r) < 0;
      case LT_EQ:
        return (v, r) -> cmp.compare(v, r) <= 0;
      case GT:
        return (v, r) -> cmp.compare(v, r) > 0;
      case GT_EQ:
        return (v, r) -> cmp.compare(v, r) >= 0;
      case EQ:
        return (v, r) -> cmp.compare(v, r) == 0;
      case NOT_EQ:
        return (v, r) -> cmp.compare(v, r) != 0;
      default:
        return null;
    }
  }
}
