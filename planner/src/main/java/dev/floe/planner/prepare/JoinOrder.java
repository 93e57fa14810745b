package dev.floe.planner.prepare;

import dev.floe.planner.adapter.LakeRules;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinAssociateRule;
import org.apache.calcite.rel.rules.JoinCommuteRule;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.rel.rules.MultiJoin;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The join order of a query that joins many tables, chosen by a heuristic instead of Volcano's
 * exhaustive search, as Calcite's {@code Programs.heuristicJoinOrder} does.
 *
 * <p>Calcite's default rules reorder joins by commuting and pushing one join through another, which
 * enumerates every order: planning a join of 5 tables took seconds, of 8 tables over a minute, and
 * of more tables did not end. When a query holds an inner join of {@link #MIN_TABLES} or more
 * inputs (after subqueries became joins), the filters above the joins are pushed into them, the
 * inner joins are gathered into one {@link MultiJoin} per connected tree, and {@code
 * LoptOptimizeJoinRule} orders each: it starts from the input with the fewest estimated rows and
 * then adds, one at a time, the input that joins the tree built so far most cheaply, preferring one
 * the join conditions connect it to, so each equality becomes the key of a join. Every join of such
 * a statement (also a smaller one elsewhere in it) is then in the heuristic's order, and Volcano
 * implements it without the rules that would reorder it again. A query with no inner join of that
 * many tables keeps Calcite's exhaustive search and its plan.
 *
 * <p>An outer join is never gathered across its null-generating side ({@code JoinToMultiJoinRule}
 * keeps that side as one input, and a tree holding an outer join as one input of the tree above),
 * semi- and anti-joins are not gathered at all, and a correlated subquery that stays a correlate is
 * one input.
 */
final class JoinOrder {
  /** The fewest inputs of one inner join for which the order is chosen by the heuristic. */
  static final int MIN_TABLES = 4;

  /**
   * The Hep programs, built when a statement first joins enough tables: their rules come from
   * Calcite's {@code CoreRules}, which a query without such a join never initializes.
   */
  private static final class Programs {
    /** Filters into joins and down to the scans, so that the joins are next to each other. */
    static final HepProgram GATHER =
        HepProgram.builder()
            .addRuleCollection(
                List.of(
                    CoreRules.FILTER_INTO_JOIN,
                    CoreRules.JOIN_CONDITION_PUSH,
                    CoreRules.FILTER_MERGE,
                    CoreRules.FILTER_PROJECT_TRANSPOSE,
                    CoreRules.PROJECT_MERGE,
                    CoreRules.PROJECT_REMOVE,
                    LakeRules.FILTER_SCAN,
                    LakeRules.PROJECT_SCAN))
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .build();

    /** Each gathered join in the heuristic's order. */
    static final HepProgram ORDER =
        HepProgram.builder().addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE).build();

    private Programs() {}
  }

  private JoinOrder() {}

  /**
   * The plan with its joins in the heuristic's order, or null when no inner join has {@link
   * #MIN_TABLES} inputs (or one could not be ordered), so the plan is left to Volcano as it is.
   */
  static @Nullable RelNode ordered(RelNode rel, RelOptPlanner planner) {
    if (RelOptUtil.countJoins(rel) < MIN_TABLES - 1) {
      return null;
    }
    RelNode gathered = run(Programs.GATHER, rel, planner);
    if (largestMultiJoin(gathered) < MIN_TABLES) {
      return null;
    }
    RelNode ordered = run(Programs.ORDER, gathered, planner);
    return largestMultiJoin(ordered) > 0 ? null : ordered;
  }

  private static RelNode run(HepProgram program, RelNode rel, RelOptPlanner planner) {
    HepPlanner hep = new LakePrepare.CancellableHepPlanner(program, planner.getContext());
    hep.setExecutor(planner.getExecutor());
    hep.setRoot(rel);
    return hep.findBestExp();
  }

  /** The number of inputs of the largest {@link MultiJoin} in a plan; 0 when there is none. */
  private static int largestMultiJoin(RelNode rel) {
    int[] largest = {0};
    new RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        if (node instanceof MultiJoin) {
          largest[0] = Math.max(largest[0], node.getInputs().size());
        }
        super.visit(node, ordinal, parent);
      }
    }.go(rel);
    return largest[0];
  }

  /**
   * Removes the rules that would enumerate join orders again (commuting a join, associating joins,
   * pushing one join through another) from a statement's planner.
   */
  static void withoutReordering(RelOptPlanner planner) {
    List<RelOptRule> reordering = new ArrayList<>();
    for (RelOptRule rule : planner.getRules()) {
      if (rule instanceof JoinCommuteRule
          || rule instanceof JoinAssociateRule
          || rule instanceof JoinPushThroughJoinRule) {
        reordering.add(rule);
      }
    }
    reordering.forEach(planner::removeRule);
  }
}
