package dev.floe.planner.adapter;

import dev.floe.planner.scan.LikePattern;
import dev.floe.planner.scan.ScanExpression;
import dev.floe.planner.scan.ScanExpression.Op;
import dev.floe.planner.scan.ScanExpression.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.NlsString;

/**
 * Translates the expressions of a project over a scan into {@link ScanExpression}s the aggregating
 * scan computes, or says it cannot: arithmetic ({@code + - *} on INTEGER, BIGINT, DOUBLE and
 * DECIMAL, {@code /} on DOUBLE, and on INTEGER and BIGINT as Calcite's checked division), {@code
 * ABS}, widening casts, and {@code CASE WHEN} whose conditions compare columns and constants
 * ({@code AND}, {@code OR}, {@code IS [NOT] NULL}, {@code BETWEEN}, a DATE column with another,
 * {@code [NOT] LIKE} of a VARCHAR column with a pattern of text and {@code %}, a VARCHAR column
 * {@code =} or {@code <>} a string literal without {@code %}, {@code _} or a backslash, as the LIKE
 * of that literal, {@code IS TRUE}), {@code EXTRACT} of a year, quarter, month or day from a DATE
 * column; and the conditions of a filter above a scan ({@link #condition}), which the scan then
 * tests on its batches. Anything else (other string and date expressions, functions, DECIMAL
 * division, a DECIMAL whose scale is not BigDecimal's) stays with Calcite's generated code.
 */
final class ScanExpressions {
  private final RelDataType input;
  private final RexBuilder rexBuilder;

  /**
   * @param input the scan's row type
   * @param rexBuilder for expanding {@code SEARCH} into comparisons
   */
  ScanExpressions(RelDataType input, RexBuilder rexBuilder) {
    this.input = input;
    this.rexBuilder = rexBuilder;
  }

  /** The expression the scan computes for {@code node}, or null when it does not compute it. */
  ScanExpression translate(RexNode node) {
    return value(node);
  }

  /**
   * The condition the scan tests for a filter's conjunct {@code node} (rows where it is TRUE pass),
   * or null when it does not test it.
   */
  ScanExpression condition(RexNode node) {
    ScanExpression condition = conditionOf(node);
    return condition == null || comparesFloating(condition) ? null : condition;
  }

  /**
   * Whether a condition compares DOUBLE values: those stay with Calcite's filter, as comparisons
   * with literals do (docs/limits.md: -0.0, NaN).
   */
  private static boolean comparesFloating(ScanExpression e) {
    if (e.op() != Op.AND && e.op() != Op.OR && e.op() != Op.CASE && e.type() == Type.DOUBLE) {
      return true;
    }
    for (ScanExpression operand : e.operands()) {
      if (comparesFloating(operand)) {
        return true;
      }
    }
    return false;
  }

  /** The value type of a SQL type, or null. */
  private static Type type(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case INTEGER:
        return Type.INT;
      case BIGINT:
        return Type.LONG;
      case DOUBLE:
        return Type.DOUBLE;
      case DECIMAL:
        return Type.DECIMAL;
      case BOOLEAN:
        return Type.BOOLEAN;
      case DATE:
        return Type.DATE;
      case VARCHAR:
        return Type.STRING;
      default:
        return null;
    }
  }

  private static int precision(RelDataType type) {
    return type.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL
        ? type.getPrecision()
        : 0;
  }

  private static int scale(RelDataType type) {
    return type.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL
        ? type.getScale()
        : 0;
  }

  /** The digits before the point a value of this type may have. */
  private static int integerDigits(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case INTEGER:
        return 10;
      case BIGINT:
        return 19;
      case DECIMAL:
        return type.getPrecision() - type.getScale();
      default:
        return Integer.MAX_VALUE;
    }
  }

  private ScanExpression value(RexNode node) {
    Type type = type(node.getType());
    if (type == null || type == Type.BOOLEAN) {
      return null;
    }
    if ((type == Type.DATE || type == Type.STRING) && !(node instanceof RexInputRef)) {
      return null; // dates and strings: columns, compared or matched, and nothing computed
    }
    int scale = scale(node.getType());
    if (node instanceof RexInputRef ref) {
      RelDataType columnType = input.getFieldList().get(ref.getIndex()).getType();
      if (type(columnType) != type || scale(columnType) != scale) {
        return null;
      }
      return ScanExpression.column(ref.getIndex(), type, precision(node.getType()), scale);
    }
    if (node instanceof RexLiteral literal) {
      return literal(literal, type, precision(node.getType()), scale);
    }
    if (!(node instanceof RexCall call)) {
      return null;
    }
    switch (call.getKind()) {
      case PLUS:
      case MINUS:
      case TIMES:
      case DIVIDE:
      case CHECKED_PLUS:
      case CHECKED_MINUS:
      case CHECKED_TIMES:
      case CHECKED_DIVIDE:
        return arithmetic(call, type, scale);
      case CAST:
        return cast(call, type, scale);
      case CASE:
        return caseWhen(call, type, scale);
      case EXTRACT:
        return extract(call, type);
      default:
        return call.getOperator() == SqlStdOperatorTable.ABS ? abs(call, type, scale) : null;
    }
  }

  /** {@code ABS(x)}, of x's own type. */
  private ScanExpression abs(RexCall call, Type type, int scale) {
    ScanExpression operand = value(call.getOperands().get(0));
    if (operand == null
        || operand.type() != type
        || operand.scale() != scale
        || type == Type.DATE
        || type == Type.STRING) {
      return null;
    }
    return ScanExpression.call(Op.ABS, type, precision(call.getType()), scale, List.of(operand));
  }

  /** {@code EXTRACT(unit FROM date column)} for the units whose field of a date is a plain one. */
  private ScanExpression extract(RexCall call, Type type) {
    if (type != Type.LONG
        || !(call.getOperands().get(0) instanceof RexLiteral flag)
        || !(flag.getValue() instanceof TimeUnitRange unit)) {
      return null;
    }
    switch (unit) {
      case YEAR:
      case QUARTER:
      case MONTH:
      case DAY:
        break;
      default:
        return null;
    }
    ScanExpression date = value(call.getOperands().get(1));
    if (date == null || date.op() != Op.COLUMN || date.type() != Type.DATE) {
      return null;
    }
    return new ScanExpression(Op.EXTRACT, Type.LONG, 0, 0, -1, unit, List.of(date));
  }

  private static ScanExpression literal(RexLiteral literal, Type type, int precision, int scale) {
    if (literal.isNull()) {
      return null;
    }
    switch (type) {
      case INT:
        return ScanExpression.literal(literal.getValueAs(Integer.class), type, 0, 0);
      case LONG:
        return ScanExpression.literal(literal.getValueAs(Long.class), type, 0, 0);
      case DOUBLE:
        return ScanExpression.literal(literal.getValueAs(Double.class), type, 0, 0);
      default:
        {
          BigDecimal value = literal.getValueAs(BigDecimal.class);
          if (value == null || value.scale() != scale) {
            return null;
          }
          return ScanExpression.literal(value, type, precision, scale);
        }
    }
  }

  private static Op arithmeticOp(SqlKind kind) {
    switch (kind) {
      case PLUS:
      case CHECKED_PLUS:
        return Op.PLUS;
      case MINUS:
      case CHECKED_MINUS:
        return Op.MINUS;
      case TIMES:
      case CHECKED_TIMES:
        return Op.TIMES;
      default:
        return Op.DIVIDE;
    }
  }

  private ScanExpression arithmetic(RexCall call, Type type, int scale) {
    Op op = arithmeticOp(call.getKind());
    ScanExpression a = value(call.getOperands().get(0));
    ScanExpression b = value(call.getOperands().get(1));
    if (a == null || b == null) {
      return null;
    }
    // an integer division is Calcite's checked one; an unchecked one wraps, which is not taken
    boolean integerDivision = call.getKind() == SqlKind.CHECKED_DIVIDE;
    switch (type) {
      case INT:
        if (op == Op.DIVIDE && !integerDivision || a.type() != Type.INT || b.type() != Type.INT) {
          return null;
        }
        break;
      case LONG:
        if (op == Op.DIVIDE && !integerDivision || !integer(a) || !integer(b)) {
          return null;
        }
        break;
      case DOUBLE:
        if (integerDivision || a.type() == Type.DECIMAL || b.type() == Type.DECIMAL) {
          return null;
        }
        break;
      default:
        {
          if (op == Op.DIVIDE || a.type() == Type.DOUBLE || b.type() == Type.DOUBLE) {
            return null;
          }
          int natural = op == Op.TIMES ? a.scale() + b.scale() : Math.max(a.scale(), b.scale());
          if (natural != scale) {
            return null;
          }
          break;
        }
    }
    return ScanExpression.call(op, type, precision(call.getType()), scale, List.of(a, b));
  }

  private static boolean integer(ScanExpression e) {
    return e.type() == Type.INT || e.type() == Type.LONG;
  }

  private ScanExpression cast(RexCall call, Type type, int scale) {
    RexNode operand = call.getOperands().get(0);
    ScanExpression from = value(operand);
    if (from == null) {
      return null;
    }
    RelDataType fromType = operand.getType();
    if (from.type() == type && from.scale() == scale) {
      if (type == Type.DECIMAL && integerDigits(call.getType()) < integerDigits(fromType)) {
        return null; // a narrowing cast may fail
      }
      return from;
    }
    switch (type) {
      case LONG:
        if (from.type() != Type.INT) {
          return null;
        }
        break;
      case DOUBLE:
        if (!integer(from)) {
          return null;
        }
        break;
      case DECIMAL:
        if (from.type() == Type.DOUBLE
            || scale < from.scale()
            || integerDigits(call.getType()) < integerDigits(fromType)) {
          return null;
        }
        break;
      default:
        return null;
    }
    return ScanExpression.call(Op.CAST, type, precision(call.getType()), scale, List.of(from));
  }

  private ScanExpression caseWhen(RexCall call, Type type, int scale) {
    List<RexNode> operands = call.getOperands();
    List<ScanExpression> translated = new ArrayList<>();
    for (int i = 0; i + 1 < operands.size(); i += 2) {
      ScanExpression when = conditionOf(operands.get(i));
      ScanExpression then = branch(operands.get(i + 1), type, scale);
      if (when == null || then == null) {
        return null;
      }
      translated.add(when);
      translated.add(then);
    }
    RexNode otherwise = operands.get(operands.size() - 1);
    if (!(otherwise instanceof RexLiteral literal && literal.isNull())) {
      ScanExpression value = branch(otherwise, type, scale);
      if (value == null) {
        return null;
      }
      translated.add(value);
    }
    return ScanExpression.call(Op.CASE, type, precision(call.getType()), scale, translated);
  }

  /** A CASE branch's value, which must be of the CASE's own type. */
  private ScanExpression branch(RexNode node, Type type, int scale) {
    ScanExpression value = value(node);
    return value != null && value.type() == type && value.scale() == scale ? value : null;
  }

  private ScanExpression conditionOf(RexNode node) {
    if (node.getKind() == SqlKind.SEARCH) {
      node = RexUtil.expandSearch(rexBuilder, null, node);
    }
    if (!(node instanceof RexCall call)) {
      return null;
    }
    switch (call.getKind()) {
      case AND:
      case OR:
        {
          List<ScanExpression> parts = new ArrayList<>();
          for (RexNode operand : call.getOperands()) {
            ScanExpression part = conditionOf(operand);
            if (part == null) {
              return null;
            }
            parts.add(part);
          }
          return ScanExpression.call(
              call.getKind() == SqlKind.AND ? Op.AND : Op.OR, Type.BOOLEAN, 0, 0, parts);
        }
      case IS_TRUE:
        // TRUE exactly where its operand is: a condition keeps the same rows (and AND and OR are
        // TRUE exactly where their operands' TRUEs make them); Calcite writes an aggregate's
        // FILTER so
        return conditionOf(call.getOperands().get(0));
      case IS_NULL:
      case IS_NOT_NULL:
        {
          ScanExpression operand = simple(call.getOperands().get(0));
          if (operand == null) {
            return null;
          }
          return ScanExpression.call(
              call.getKind() == SqlKind.IS_NULL ? Op.IS_NULL : Op.IS_NOT_NULL,
              Type.BOOLEAN,
              0,
              0,
              List.of(operand));
        }
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
      case EQUALS:
      case NOT_EQUALS:
        {
          ScanExpression text = stringEquals(call);
          if (text != null) {
            return text;
          }
          ScanExpression a = simple(call.getOperands().get(0));
          ScanExpression b = simple(call.getOperands().get(1));
          if (a == null
              || b == null
              || a.type() == Type.STRING
              || b.type() == Type.STRING
              || (a.type() == Type.DATE) != (b.type() == Type.DATE)) {
            return null;
          }
          boolean floating = a.type() == Type.DOUBLE || b.type() == Type.DOUBLE;
          if (floating
              && (a.type() == Type.DECIMAL
                  || b.type() == Type.DECIMAL
                  || call.getKind() == SqlKind.EQUALS
                  || call.getKind() == SqlKind.NOT_EQUALS)) {
            return null;
          }
          return ScanExpression.call(comparison(call.getKind()), Type.BOOLEAN, 0, 0, List.of(a, b));
        }
      case LIKE:
        return like(call, true);
      case NOT:
        {
          RexNode operand = call.getOperands().get(0);
          return operand instanceof RexCall like && like.getKind() == SqlKind.LIKE
              ? like(like, false)
              : null;
        }
      default:
        return null;
    }
  }

  /**
   * {@code col LIKE 'pattern'} (or its negation) for Calcite's own LIKE (not ILIKE or SIMILAR TO)
   * without ESCAPE, on a VARCHAR column, with a pattern {@link LikePattern} takes.
   */
  private ScanExpression like(RexCall call, boolean matching) {
    if (call.getOperator() != SqlStdOperatorTable.LIKE
        || call.getOperands().size() != 2
        || !(call.getOperands().get(0) instanceof RexInputRef)
        || !(call.getOperands().get(1) instanceof RexLiteral literal)) {
      return null;
    }
    NlsString text = literal.getValueAs(NlsString.class);
    return text == null ? null : like(call.getOperands().get(0), text.getValue(), matching);
  }

  /** {@code column LIKE 'text'} (or its negation) of a VARCHAR column, or null. */
  private ScanExpression like(RexNode operand, String text, boolean matching) {
    ScanExpression column = value(operand);
    if (column == null || column.type() != Type.STRING) {
      return null;
    }
    LikePattern pattern = LikePattern.of(text);
    if (pattern == null) {
      return null;
    }
    return new ScanExpression(
        matching ? Op.LIKE : Op.NOT_LIKE, Type.BOOLEAN, 0, 0, -1, pattern, List.of(column));
  }

  /**
   * {@code col = 'text'} (or {@code <>}) of a VARCHAR column and a string literal holding neither
   * {@code %} nor {@code _}: the LIKE of that literal, which matches exactly the equal strings
   * (NULL alike), or null.
   */
  private ScanExpression stringEquals(RexCall call) {
    if (call.getKind() != SqlKind.EQUALS && call.getKind() != SqlKind.NOT_EQUALS) {
      return null; // an order of strings (s < 'M') stays Calcite's
    }
    RexNode left = call.getOperands().get(0);
    RexNode right = call.getOperands().get(1);
    if (right instanceof RexInputRef && left instanceof RexLiteral) {
      RexNode swap = left;
      left = right;
      right = swap;
    }
    if (!(left instanceof RexInputRef)
        || !(right instanceof RexLiteral literal)
        || !org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(left.getType())
        || !org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(literal.getType())) {
      return null;
    }
    NlsString text = literal.getValueAs(NlsString.class);
    if (text == null
        || text.getValue().indexOf('%') >= 0
        || text.getValue().indexOf('_') >= 0
        || text.getValue().indexOf('\\') >= 0) {
      return null;
    }
    return like(left, text.getValue(), call.getKind() == SqlKind.EQUALS);
  }

  /**
   * An aggregate call's FILTER condition as a computed INTEGER column: 1 where the condition is
   * TRUE, 0 where it is FALSE or NULL; or null when the scan does not test it.
   */
  ScanExpression filterFlag(RexNode node) {
    ScanExpression when = conditionOf(node);
    if (when == null) {
      return null;
    }
    return ScanExpression.call(
        Op.CASE,
        Type.INT,
        0,
        0,
        List.of(
            when,
            ScanExpression.literal(Integer.valueOf(1), Type.INT, 0, 0),
            ScanExpression.literal(Integer.valueOf(0), Type.INT, 0, 0)));
  }

  /**
   * A comparison's operand: a column or a constant, maybe cast, whose computing cannot fail (so
   * that conditions may be computed for rows Calcite's code would not reach).
   */
  private ScanExpression simple(RexNode node) {
    ScanExpression value = value(node);
    if (value == null) {
      return null;
    }
    ScanExpression inner = value.op() == Op.CAST ? value.operands().get(0) : value;
    return inner.op() == Op.COLUMN || inner.op() == Op.LITERAL ? value : null;
  }

  private static Op comparison(SqlKind kind) {
    switch (kind) {
      case LESS_THAN:
        return Op.LESS;
      case LESS_THAN_OR_EQUAL:
        return Op.LESS_EQUAL;
      case GREATER_THAN:
        return Op.GREATER;
      case GREATER_THAN_OR_EQUAL:
        return Op.GREATER_EQUAL;
      case EQUALS:
        return Op.EQUAL;
      default:
        return Op.NOT_EQUAL;
    }
  }
}
