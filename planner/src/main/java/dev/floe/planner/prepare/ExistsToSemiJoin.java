package dev.floe.planner.prepare;

import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code WHERE [NOT] EXISTS (SELECT ... FROM t WHERE <condition on t and the outer row>)} as a
 * semi-join (anti-join) of the outer rows with {@code t} on that condition, before Calcite turns
 * subqueries into correlates: the condition's equalities become the join's keys and the rest stays
 * in the join (TPC-H q04, q21, q22). Calcite's own path joins the outer rows with a distinct copy
 * of their keys, then with the subquery's table, then back: q21 read {@code lineitem} six times.
 *
 * <p>Only a conjunct of a filter's condition that is {@code EXISTS} or {@code NOT EXISTS} of a
 * query that is, under projections, one filter over an input that uses no outer column: its
 * condition may read the outer row's columns anywhere. {@code NOT EXISTS} keeps the outer rows for
 * which no row of {@code t} makes the condition TRUE, which is what an anti-join keeps (a row for
 * which it is UNKNOWN matches in neither). Any other subquery is left to Calcite.
 */
final class ExistsToSemiJoin extends RelHomogeneousShuttle {
  private ExistsToSemiJoin() {}

  static RelNode apply(RelNode rel) {
    return rel.accept(new ExistsToSemiJoin());
  }

  @Override
  public RelNode visit(RelNode other) {
    RelNode rel = super.visit(other);
    if (!(rel instanceof LogicalFilter filter) || filter.getVariablesSet().isEmpty()) {
      return rel;
    }
    RelNode input = filter.getInput();
    List<RexNode> kept = new ArrayList<>();
    boolean changed = false;
    for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
      boolean anti = conjunct.getKind() == SqlKind.NOT;
      RexNode inner = anti ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
      RelNode joined =
          inner instanceof RexSubQuery sub && sub.getKind() == SqlKind.EXISTS
              ? semiJoin(input, sub, filter.getVariablesSet(), anti)
              : null;
      if (joined == null) {
        kept.add(conjunct);
      } else {
        input = joined;
        changed = true;
      }
    }
    if (!changed) {
      return rel;
    }
    if (kept.isEmpty()) {
      return input;
    }
    RexNode rest = RexUtil.composeConjunction(filter.getCluster().getRexBuilder(), kept);
    return LogicalFilter.create(input, rest, ImmutableSet.copyOf(filter.getVariablesSet()));
  }

  /** The semi- or anti-join, or null when the subquery is not of the form handled. */
  private static @Nullable RelNode semiJoin(
      RelNode outer, RexSubQuery sub, Set<CorrelationId> variables, boolean anti) {
    RelNode rel = sub.rel;
    while (rel instanceof LogicalProject project
        && project.getProjects().stream().noneMatch(RexUtil::containsCorrelation)) {
      rel = project.getInput();
    }
    if (!(rel instanceof LogicalFilter where)) {
      return null;
    }
    RelNode table = where.getInput();
    if (!RelOptUtil.getVariablesUsed(table).isEmpty()
        || RexUtil.SubQueryFinder.find(where.getCondition()) != null) {
      return null;
    }
    int outerFields = outer.getRowType().getFieldCount();
    RexBuilder rex = outer.getCluster().getRexBuilder();
    boolean[] foreign = {false};
    RexNode condition =
        where
            .getCondition()
            .accept(
                new RexShuttle() {
                  @Override
                  public RexNode visitInputRef(RexInputRef ref) {
                    return rex.makeInputRef(ref.getType(), ref.getIndex() + outerFields);
                  }

                  @Override
                  public RexNode visitFieldAccess(RexFieldAccess access) {
                    if (access.getReferenceExpr() instanceof RexCorrelVariable v
                        && variables.contains(v.id)) {
                      int field = access.getField().getIndex();
                      return rex.makeInputRef(
                          outer.getRowType().getFieldList().get(field).getType(), field);
                    }
                    foreign[0] = true;
                    return super.visitFieldAccess(access);
                  }

                  @Override
                  public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                    foreign[0] = true;
                    return variable;
                  }
                });
    if (foreign[0] || !outer.getRowType().equals(correlatedRowType(where, variables, outer))) {
      return null;
    }
    return LogicalJoin.create(
        outer, table, List.of(), condition, Set.of(), anti ? JoinRelType.ANTI : JoinRelType.SEMI);
  }

  /**
   * The row type the subquery's correlation variable has (the outer filter's input): the same as
   * {@code outer} when the variable is the filter's own; {@code outer}'s when none is found.
   */
  private static org.apache.calcite.rel.type.RelDataType correlatedRowType(
      LogicalFilter where, Set<CorrelationId> variables, RelNode outer) {
    org.apache.calcite.rel.type.RelDataType[] found = {outer.getRowType()};
    where
        .getCondition()
        .accept(
            new RexShuttle() {
              @Override
              public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                if (variables.contains(variable.id)) {
                  found[0] = variable.getType();
                }
                return variable;
              }
            });
    return found[0];
  }
}
