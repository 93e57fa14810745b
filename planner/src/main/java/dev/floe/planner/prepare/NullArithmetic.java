package dev.floe.planner.prepare;

import java.util.Set;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Calcite's conversion of SQL to expressions, with arithmetic that is always NULL written as the
 * NULL it is: {@code x / -CAST(NULL AS INTEGER)} becomes {@code NULL}, not a division.
 *
 * <p>Calcite's executor already answers NULL for arithmetic on a NULL operand without computing the
 * other operand, so the answer is the same. The reason is planning: Calcite takes a division with a
 * NULL operand for a constant, and its sort-order derivation for a projection reads a constant
 * operand of a multiplication as a literal, which fails with an internal error when it is such a
 * division ({@code SELECT 1 / -CAST(NULL AS INTEGER) * -45}, {@code SELECT x / -CAST(NULL AS
 * INTEGER) * 2 FROM t}). Calcite's simplifier folds such a division only when it sees the NULL
 * before it simplifies the operands, and a negated NULL or a CASE that can only be NULL hides it.
 * Deciding for each arithmetic call as it is converted, innermost first, leaves no such division
 * behind.
 */
final class NullArithmetic implements SqlRexConvertletTable {
  static final NullArithmetic INSTANCE = new NullArithmetic();

  /** Arithmetic whose result is NULL when any operand is NULL. */
  private static final Set<SqlKind> STRICT =
      Set.of(
          SqlKind.PLUS,
          SqlKind.MINUS,
          SqlKind.TIMES,
          SqlKind.DIVIDE,
          SqlKind.MOD,
          SqlKind.PLUS_PREFIX,
          SqlKind.MINUS_PREFIX);

  /**
   * Leaves constants as they are: the simplifier here only decides whether a call is NULL, and
   * computing a constant would compile code for it.
   */
  private static final RexExecutor NO_FOLDING =
      (rexBuilder, constExps, reducedValues) -> reducedValues.addAll(constExps);

  private NullArithmetic() {}

  @Override
  public SqlRexConvertlet get(SqlCall call) {
    SqlRexConvertlet standard = StandardConvertletTable.INSTANCE.get(call);
    if (standard == null || !strict(call.getOperator())) {
      return standard;
    }
    return (cx, sqlCall) -> {
      RexNode converted = standard.convertCall(cx, sqlCall);
      RexBuilder rexBuilder = cx.getRexBuilder();
      if (converted instanceof RexCall
          && converted.getType().isNullable()
          && alwaysNull(
              new RexSimplify(rexBuilder, RelOptPredicateList.EMPTY, NO_FOLDING)
                  .simplify(converted))) {
        return rexBuilder.makeNullLiteral(converted.getType());
      }
      return converted;
    };
  }

  /** NULL, or arithmetic (perhaps cast) with a NULL among its operands. */
  private static boolean alwaysNull(RexNode node) {
    if (RexUtil.isNullLiteral(node, true)) {
      return true;
    }
    if (!(node instanceof RexCall call)) {
      return false;
    }
    if (call.getKind() == SqlKind.CAST) {
      return alwaysNull(call.getOperands().get(0));
    }
    return strict(call.getOperator())
        && call.getOperands().stream().anyMatch(operand -> RexUtil.isNullLiteral(operand, true));
  }

  /**
   * Arithmetic whose result is NULL when any operand is NULL, and {@code ABS}: Calcite types {@code
   * ABS(NULL)} with the NULL type, which its code generator cannot implement.
   */
  private static boolean strict(SqlOperator operator) {
    return STRICT.contains(operator.getKind()) || operator == SqlStdOperatorTable.ABS;
  }
}
