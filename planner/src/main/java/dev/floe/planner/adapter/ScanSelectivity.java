package dev.floe.planner.adapter;

import dev.floe.planner.scan.ScanExpression;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Not;
import org.apache.iceberg.expressions.Or;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The share of a table's rows a scan keeps: its pushed Iceberg filter and the condition it tests on
 * decoded batches, term by term, from the table's statistics ({@link TableStatistics}) where they
 * tell and else Calcite's guesses ({@code RelMdUtil.guessSelectivity}).
 *
 * <ul>
 *   <li>{@code c = v}: 1 / NDV(c) (ANALYZE's sketch, a key, the width of an integer column's
 *       bounds), else {@value #EQUAL}; {@code c <> v}: one minus that;
 *   <li>{@code c IN (v1, ..., vk)}: k times the equality's, at most 1; {@code NOT IN}: one minus;
 *   <li>{@code c < v} and the other ranges: on an INT, BIGINT or DATE column whose files all have
 *       bounds, the part of [min, max] the conjunction of the column's ranges leaves (so {@code d
 *       >= DATE '1993-07-01' AND d < DATE '1993-10-01'} keeps 92 days of the table's span), else
 *       {@value #COMPARISON} each;
 *   <li>{@code c IS NULL}: the files' null counts over the rows, else {@value #IS_NULL}; {@code IS
 *       NOT NULL}: one minus that, and 1 beside a comparison of the same column in a conjunction
 *       (the comparison already keeps no NULL: Floe pushes the two together);
 *   <li>{@code LIKE 'p%'} and any other test: {@value #OTHER}; NOT: one minus;
 *   <li>AND: the product; OR: the sum, at most 1.
 * </ul>
 */
final class ScanSelectivity {
  /** Calcite's guess for an equality whose column nothing tells about. */
  static final double EQUAL = 0.15;

  /** Calcite's guess for a comparison other than equality. */
  static final double COMPARISON = 0.5;

  /** One minus Calcite's guess for IS NOT NULL (0.9). */
  static final double IS_NULL = 0.1;

  /** Calcite's guess for any other condition. */
  static final double OTHER = 0.25;

  private final Schema schema;
  private final @Nullable TableStatistics statistics;

  ScanSelectivity(Schema schema, @Nullable TableStatistics statistics) {
    this.schema = schema;
    this.statistics = statistics;
  }

  /** The share of rows a pushed filter keeps, in [0, 1]. */
  double of(Expression filter) {
    if (filter.op() == Expression.Operation.TRUE) {
      return 1d;
    }
    Expression bound;
    try {
      bound = Binder.bind(schema.asStruct(), filter, true);
    } catch (RuntimeException e) {
      return OTHER; // a filter that does not bind is not one to reason about
    }
    return clamp(filter(bound));
  }

  /** The share of rows a batch condition keeps (its columns the table's), in [0, 1]. */
  double of(ScanExpression condition) {
    return clamp(condition(condition));
  }

  // -- the terms, one place for each whatever the form they come in

  private double equal(int fieldId) {
    double d = statistics == null ? -1 : statistics.distinctValues(fieldId);
    return d > 0 ? 1d / d : EQUAL;
  }

  private double isNull(int fieldId) {
    double f = statistics == null ? -1 : statistics.nullFraction(fieldId);
    return f >= 0 ? f : IS_NULL;
  }

  private double @Nullable [] range(int fieldId) {
    return statistics == null ? null : statistics.range(fieldId);
  }

  // -- Iceberg filters

  private double filter(Expression e) {
    switch (e.op()) {
      case TRUE:
        return 1d;
      case FALSE:
        return 0d;
      case AND:
        return conjunction(e);
      case OR:
        {
          Or or = (Or) e;
          return Math.min(1d, filter(or.left()) + filter(or.right()));
        }
      case NOT:
        return 1d - filter(((Not) e).child());
      default:
        break;
    }
    if (!(e instanceof BoundPredicate<?> p)) {
      return OTHER;
    }
    int id = p.ref().fieldId();
    switch (e.op()) {
      case IS_NULL:
        return isNull(id);
      case NOT_NULL:
        return 1d - isNull(id);
      case EQ:
        return equal(id);
      case NOT_EQ:
        return 1d - equal(id);
      case IN:
        return Math.min(1d, p.asSetPredicate().literalSet().size() * equal(id));
      case NOT_IN:
        return Math.max(0d, 1d - p.asSetPredicate().literalSet().size() * equal(id));
      case LT:
      case LT_EQ:
      case GT:
      case GT_EQ:
        {
          Interval interval = interval(p);
          return interval == null ? COMPARISON : interval.share();
        }
      case NOT_STARTS_WITH:
      case NOT_NAN:
        return 1d - OTHER;
      default:
        return OTHER;
    }
  }

  /**
   * The product of a conjunction's terms, the ranges of one bounded column first narrowed to one
   * interval, and an IS NOT NULL beside a comparison of its column taken as 1.
   */
  private double conjunction(Expression e) {
    List<Expression> terms = new ArrayList<>();
    flatten(e, terms);
    Set<Integer> compared = new java.util.HashSet<>();
    Map<Integer, Interval> intervals = new HashMap<>();
    double share = 1d;
    for (Expression term : terms) {
      if (term instanceof BoundPredicate<?> p && term.op() != Expression.Operation.NOT_NULL) {
        compared.add(p.ref().fieldId());
        Interval interval = isRange(term) ? interval(p) : null;
        if (interval != null) {
          intervals.merge(p.ref().fieldId(), interval, Interval::and);
          continue;
        }
      }
      if (term.op() != Expression.Operation.NOT_NULL) {
        share *= filter(term);
      }
    }
    for (Expression term : terms) {
      if (term.op() == Expression.Operation.NOT_NULL
          && !(term instanceof BoundPredicate<?> p && compared.contains(p.ref().fieldId()))) {
        share *= filter(term);
      }
    }
    for (Interval interval : intervals.values()) {
      share *= interval.share();
    }
    return share;
  }

  private static boolean isRange(Expression e) {
    return switch (e.op()) {
      case LT, LT_EQ, GT, GT_EQ -> true;
      default -> false;
    };
  }

  private static void flatten(Expression e, List<Expression> into) {
    if (e.op() == Expression.Operation.AND) {
      And and = (And) e;
      flatten(and.left(), into);
      flatten(and.right(), into);
    } else {
      into.add(e);
    }
  }

  /** The values a range keeps of its bounded integer column, or null when it has no bounds. */
  private @Nullable Interval interval(BoundPredicate<?> p) {
    double[] bounds = range(p.ref().fieldId());
    if (bounds == null || !p.isLiteralPredicate()) {
      return null;
    }
    Object value = p.asLiteralPredicate().literal().value();
    if (!(value instanceof Integer || value instanceof Long)) {
      return null;
    }
    double v = ((Number) value).doubleValue();
    double lo = bounds[0];
    double hi = bounds[1];
    return switch (p.op()) {
      case LT -> new Interval(bounds, lo, Math.min(hi, v - 1));
      case LT_EQ -> new Interval(bounds, lo, Math.min(hi, v));
      case GT -> new Interval(bounds, Math.max(lo, v + 1), hi);
      case GT_EQ -> new Interval(bounds, Math.max(lo, v), hi);
      default -> null;
    };
  }

  /** The integers [from, to] of a column's [min, max] a range keeps. */
  private record Interval(double[] bounds, double from, double to) {
    Interval and(Interval other) {
      return new Interval(bounds, Math.max(from, other.from), Math.min(to, other.to));
    }

    double share() {
      double all = bounds[1] - bounds[0] + 1;
      return all <= 0 ? COMPARISON : Math.max(0d, to - from + 1) / all;
    }
  }

  // -- batch conditions

  private double condition(ScanExpression e) {
    List<ScanExpression> operands = e.operands();
    switch (e.op()) {
      case AND:
        {
          double share = 1d;
          for (ScanExpression operand : operands) {
            share *= condition(operand);
          }
          return share;
        }
      case OR:
        {
          double share = 0d;
          for (ScanExpression operand : operands) {
            share += condition(operand);
          }
          return Math.min(1d, share);
        }
      case EQUAL:
        return columnEqual(operands);
      case NOT_EQUAL:
        return 1d - columnEqual(operands);
      case LESS:
      case LESS_EQUAL:
      case GREATER:
      case GREATER_EQUAL:
        return COMPARISON;
      case IS_NULL:
        return nullTest(operands.get(0));
      case IS_NOT_NULL:
        return 1d - nullTest(operands.get(0));
      case NOT_LIKE:
        return 1d - OTHER;
      default:
        return OTHER;
    }
  }

  /** A column's equality to a constant, from its distinct values; Calcite's guess otherwise. */
  private double columnEqual(List<ScanExpression> operands) {
    ScanExpression a = operands.get(0);
    ScanExpression b = operands.get(1);
    ScanExpression column =
        a.op() == ScanExpression.Op.COLUMN && b.op() == ScanExpression.Op.LITERAL
            ? a
            : b.op() == ScanExpression.Op.COLUMN && a.op() == ScanExpression.Op.LITERAL ? b : null;
    Integer id = column == null ? null : fieldId(column.column());
    return id == null ? EQUAL : equal(id);
  }

  private double nullTest(ScanExpression operand) {
    Integer id = operand.op() == ScanExpression.Op.COLUMN ? fieldId(operand.column()) : null;
    return id == null ? IS_NULL : isNull(id);
  }

  private @Nullable Integer fieldId(int column) {
    return column >= 0 && column < schema.columns().size()
        ? schema.columns().get(column).fieldId()
        : null;
  }

  private static double clamp(double share) {
    return Double.isNaN(share) ? OTHER : Math.max(0d, Math.min(1d, share));
  }
}
