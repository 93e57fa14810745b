package dev.floe.planner.prepare;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggImplementor;
import org.apache.calcite.adapter.enumerable.AggResetContext;
import org.apache.calcite.adapter.enumerable.AggResultContext;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.EnumerableAggregateBase;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.adapter.enumerable.StrictAggImplementor;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableAggFunction;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

/**
 * BIGINT sums that are exact and fail with {@code 22003} when the total does not fit, instead of
 * wrapping around. Calcite's runtime adds a {@code SUM} of BIGINT (and the {@code $SUM0} it
 * rewrites sums into) with Java's {@code +}, so a total past 2^63 came back negative; every
 * expression Floe evaluates is checked already (checked arithmetic), and the sums the scan computes
 * itself are exact. This pass runs on the chosen plan, after the cost-based planner (so every rule
 * that knows {@code SUM} has seen the standard function), and gives the row-by-row aggregates and
 * window aggregates of Calcite's runtime a {@code SUM} of the same name and kind computed by {@link
 * ExactSum}. (Sums of smaller integers are BIGINT, {@code LakeTypeSystem}.)
 */
final class CheckedSums extends RelShuttleImpl {
  private static final SqlAggFunction SUM = checked(SqlStdOperatorTable.SUM);
  private static final SqlAggFunction SUM0 = checked(SqlStdOperatorTable.SUM0);

  private CheckedSums() {}

  /**
   * The plan with every integer sum of Calcite's runtime checked. A shuttle of its own for each
   * plan: {@code RelShuttleImpl} keeps the path it walks in a stack, which statements preparing on
   * several threads at once shared and emptied under each other (NoSuchElementException, seen when
   * four connections inserted into one table while it was optimized).
   */
  static RelNode apply(RelNode plan) {
    return plan.accept(new CheckedSums());
  }

  @Override
  public RelNode visit(RelNode other) {
    RelNode rel = visitChildren(other);
    if (rel instanceof EnumerableAggregateBase) {
      Aggregate aggregate = (Aggregate) rel;
      List<AggregateCall> calls = new ArrayList<>();
      boolean changed = false;
      for (AggregateCall call : aggregate.getAggCallList()) {
        SqlAggFunction checked = replacement(call.getAggregation(), call.getType());
        if (checked == null) {
          calls.add(call);
        } else {
          changed = true;
          calls.add(
              AggregateCall.create(
                  call.getParserPosition(),
                  checked,
                  call.isDistinct(),
                  call.isApproximate(),
                  call.ignoreNulls(),
                  call.rexList,
                  call.getArgList(),
                  call.filterArg,
                  call.distinctKeys,
                  call.collation,
                  call.getType(),
                  call.getName()));
        }
      }
      return changed
          ? aggregate.copy(
              aggregate.getTraitSet(),
              aggregate.getInput(),
              aggregate.getGroupSet(),
              aggregate.getGroupSets(),
              calls)
          : rel;
    }
    if (rel instanceof EnumerableWindow) {
      return window((EnumerableWindow) rel);
    }
    return rel;
  }

  private static RelNode window(EnumerableWindow window) {
    List<Window.Group> groups = new ArrayList<>();
    boolean changed = false;
    for (Window.Group group : window.groups) {
      List<Window.RexWinAggCall> calls = new ArrayList<>();
      for (Window.RexWinAggCall call : group.aggCalls) {
        SqlAggFunction checked = replacement((SqlAggFunction) call.getOperator(), call.getType());
        if (checked == null) {
          calls.add(call);
        } else {
          changed = true;
          calls.add(
              new Window.RexWinAggCall(
                  call.getParserPosition(),
                  checked,
                  call.getType(),
                  call.getOperands(),
                  call.ordinal,
                  call.distinct,
                  call.ignoreNulls));
        }
      }
      groups.add(
          new Window.Group(
              group.keys,
              group.isRows,
              group.lowerBound,
              group.upperBound,
              group.exclude,
              group.orderKeys,
              calls));
    }
    if (!changed) {
      return window;
    }
    LogicalWindow logical =
        LogicalWindow.create(
            window.getTraitSet().replace(Convention.NONE),
            window.getInput(),
            window.getConstants(),
            window.getRowType(),
            groups);
    // The rule's class is package-private; its public ConverterRule face converts.
    ConverterRule rule = EnumerableRules.ENUMERABLE_WINDOW_RULE;
    return rule.convert(logical);
  }

  /** The checked sum standing for a standard sum of an integer type, or null. */
  private static SqlAggFunction replacement(SqlAggFunction function, RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    if (name != SqlTypeName.BIGINT) {
      return null;
    }
    if (function == SqlStdOperatorTable.SUM) {
      return SUM;
    }
    if (function == SqlStdOperatorTable.SUM0) {
      return SUM0;
    }
    return null;
  }

  private static SqlAggFunction checked(SqlAggFunction standard) {
    return new SqlUserDefinedAggFunction(
        new SqlIdentifier(standard.getName(), SqlParserPos.ZERO),
        standard.getKind(),
        standard.getReturnTypeInference(),
        standard.getOperandTypeInference(),
        null,
        CheckedSum.INSTANCE,
        false,
        false,
        Optionality.FORBIDDEN);
  }

  /** The function behind a checked sum: its implementor, for the row runtime and for windows. */
  private static final class CheckedSum implements ImplementableAggFunction {
    static final CheckedSum INSTANCE = new CheckedSum();

    @Override
    public AggImplementor getImplementor(boolean windowContext) {
      return new Implementor();
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
      throw new UnsupportedOperationException("a checked sum's type is its call's");
    }

    @Override
    public List<FunctionParameter> getParameters() {
      return List.of();
    }
  }

  /**
   * Calcite's sum of BIGINT, kept exact ({@link ExactSum}): the state is the wrapped sum and the
   * count of wraps; empty input is null or zero by the call's type, as for Calcite's (a {@code
   * $SUM0} is NOT NULL).
   */
  private static final class Implementor extends StrictAggImplementor {
    @Override
    public List<Type> getNotNullState(AggContext info) {
      return List.of(long.class, long.class);
    }

    @Override
    protected void implementNotNullReset(AggContext info, AggResetContext reset) {
      for (Expression acc : reset.accumulator().subList(0, 2)) {
        reset
            .currentBlock()
            .add(Expressions.statement(Expressions.assign(acc, Expressions.constant(0L))));
      }
    }

    @Override
    protected void implementNotNullAdd(AggContext info, AggAddContext add) {
      Expression sum = add.accumulator().get(0);
      Expression carry = add.accumulator().get(1);
      Expression value =
          add.currentBlock().append("value", EnumUtils.convert(add.arguments().get(0), long.class));
      add.currentBlock()
          .add(
              Expressions.statement(
                  Expressions.assign(
                      carry, Expressions.call(ExactSum.class, "carry", carry, sum, value))));
      add.currentBlock()
          .add(Expressions.statement(Expressions.assign(sum, Expressions.add(sum, value))));
    }

    @Override
    protected Expression implementNotNullResult(AggContext info, AggResultContext result) {
      return Expressions.call(
          ExactSum.class, "result", result.accumulator().get(0), result.accumulator().get(1));
    }
  }
}
