package dev.floe.planner.prepare;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.SemiJoinRule;

/**
 * Calcite's rewrite of a join with an aggregate into a semi-join, kept where it is sound: the
 * aggregate groups by the join keys, so it returns one row for each key its input holds.
 *
 * <p>Calcite's own rules also take an aggregate without GROUP BY (a join on {@code true} with it),
 * which returns exactly one row even when its input is empty, and put a semi-join with that input
 * in its place, which returns no rows when the input is empty. That is the shape Calcite gives
 * {@code x = 10 OR x IN (SELECT ...)}: with an empty subquery, the rewrite lost every row, the
 * {@code x = 10} ones too. The rule over a join alone ({@code SemiJoinRule:join}) fires only on
 * such an aggregate, so it is left out altogether.
 */
final class SemiJoinRules {
  private SemiJoinRules() {}

  /** A project of the left side over an inner or left join with a grouping aggregate. */
  static final RelOptRule PROJECT_TO_SEMI_JOIN =
      SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.DEFAULT
          .withDescription("LakeSemiJoinRule:project")
          .withOperandSupplier(
              b0 ->
                  b0.operand(Project.class)
                      .oneInput(
                          b1 ->
                              b1.operand(Join.class)
                                  .predicate(SemiJoinRules::innerOrLeft)
                                  .inputs(
                                      b2 -> b2.operand(RelNode.class).anyInputs(),
                                      b3 ->
                                          b3.operand(Aggregate.class)
                                              .predicate(aggregate -> aggregate.getGroupCount() > 0)
                                              .anyInputs())))
          .as(SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.class)
          .toRule();

  private static boolean innerOrLeft(Join join) {
    return join.getJoinType() == JoinRelType.INNER || join.getJoinType() == JoinRelType.LEFT;
  }
}
