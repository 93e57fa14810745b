package dev.floe.planner.prepare;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Conditions that OR several branches, rewritten so that joins get their keys and scans their
 * filters before the join order is chosen (TPC-H q19 and q07).
 *
 * <ol>
 *   <li>A conjunct common to every branch is taken out of the OR: {@code (a AND b) OR (a AND c)}
 *       becomes {@code a AND (b OR c)} (Calcite's {@code RexUtil.pullFactors}), so q19's {@code
 *       p_partkey = l_partkey}, written in each of three branches, is the key of the join instead
 *       of leaving {@code lineitem × part} a cross product.
 *   <li>Where the OR sits above a join (in the join's condition, or in a filter directly on it),
 *       each side gets the OR of what each branch says about that side alone, as a further
 *       conjunct, when every branch says something about it: {@code (p_brand = 'Brand#12' AND
 *       l_quantity <= 11) OR (p_brand = 'Brand#23' AND l_quantity <= 20)} implies {@code p_brand =
 *       'Brand#12' OR p_brand = 'Brand#23'} on {@code part} and {@code l_quantity <= 11 OR
 *       l_quantity <= 20} on {@code lineitem}, which Calcite's rules then push to the scans. The
 *       original OR stays, so the rows are the same; the implied ones only let fewer rows reach the
 *       join.
 * </ol>
 *
 * Both rewrites hold in SQL's three-valued logic (AND and OR distribute over each other, and an
 * implied condition that is UNKNOWN leaves the original one UNKNOWN or FALSE too).
 */
final class OrFactoring extends RelHomogeneousShuttle {
  private OrFactoring() {}

  /** The plan with its filters' and joins' OR conditions rewritten. */
  static RelNode apply(RelNode rel) {
    return rel.accept(new OrFactoring());
  }

  @Override
  public RelNode visit(RelNode other) {
    RelNode rel = super.visit(other);
    if (rel instanceof LogicalFilter filter) {
      RexNode condition = rewrite(filter, filter.getCondition(), filter.getInput());
      return condition == filter.getCondition()
          ? rel
          : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
    }
    if (rel instanceof LogicalJoin join && join.getJoinType().canPushIntoFromAbove()) {
      RexNode condition = rewrite(join, join.getCondition(), join);
      return condition == join.getCondition()
          ? rel
          : join.copy(
              join.getTraitSet(),
              condition,
              join.getLeft(),
              join.getRight(),
              join.getJoinType(),
              join.isSemiJoinDone());
    }
    return rel;
  }

  /**
   * The condition with common factors pulled out of its ORs and, when {@code over} is an inner join
   * whose fields it reads, the ORs implied for each side; the same object when nothing changes.
   */
  private static RexNode rewrite(RelNode rel, RexNode condition, RelNode over) {
    if (!RexUtil.find(SqlKind.OR).anyContain(List.of(condition))) {
      return condition;
    }
    RexBuilder rex = rel.getCluster().getRexBuilder();
    RexNode factored = RexUtil.pullFactors(rex, condition);
    if (!(over instanceof Join join) || !join.getJoinType().canPushIntoFromAbove()) {
      return factored.equals(condition) ? condition : factored;
    }
    int leftFields = join.getLeft().getRowType().getFieldCount();
    int allFields = join.getRowType().getFieldCount();
    ImmutableBitSet left = ImmutableBitSet.range(0, leftFields);
    ImmutableBitSet right = ImmutableBitSet.range(leftFields, allFields);
    List<RexNode> conjuncts = RelOptUtil.conjunctions(factored);
    List<RexNode> implied = new ArrayList<>();
    for (RexNode conjunct : conjuncts) {
      if (conjunct.getKind() != SqlKind.OR) {
        continue;
      }
      ImmutableBitSet used = RelOptUtil.InputFinder.bits(conjunct);
      if (left.contains(used) || right.contains(used)) {
        continue; // already one side's: pushed down as it is
      }
      for (ImmutableBitSet side : List.of(left, right)) {
        RexNode onSide = impliedOn(rex, conjunct, side);
        if (onSide != null && !conjuncts.contains(onSide) && !implied.contains(onSide)) {
          implied.add(onSide);
        }
      }
    }
    if (implied.isEmpty()) {
      return factored.equals(condition) ? condition : factored;
    }
    List<RexNode> all = new ArrayList<>(conjuncts);
    all.addAll(implied);
    return RexUtil.composeConjunction(rex, all);
  }

  /**
   * The OR over the branches of {@code or} of each branch's conjuncts that read only {@code side};
   * null when a branch has none.
   */
  private static RexNode impliedOn(RexBuilder rex, RexNode or, ImmutableBitSet side) {
    List<RexNode> branches = new ArrayList<>();
    for (RexNode branch : RelOptUtil.disjunctions(or)) {
      List<RexNode> mine = new ArrayList<>();
      for (RexNode conjunct : RelOptUtil.conjunctions(branch)) {
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(conjunct);
        if (!used.isEmpty() && side.contains(used) && RexUtil.isDeterministic(conjunct)) {
          mine.add(conjunct);
        }
      }
      if (mine.isEmpty()) {
        return null;
      }
      branches.add(RexUtil.composeConjunction(rex, mine));
    }
    return RexUtil.composeDisjunction(rex, branches);
  }
}
