package dev.floe.planner.prepare;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexProgramBuilder;

/**
 * Keeps every row of the right side of a RIGHT or FULL nested-loop join that nothing matched.
 * Calcite's nested-loop join finds those rows in an identity set of the right side's rows; a right
 * side of one column has rows that are the column's values themselves, and equal small numbers (and
 * NULLs) are one object, so all but one of them were lost ({@code t a FULL JOIN t b ON FALSE} over
 * three rows whose value is NULL gave four rows). Such a right side is given a second, constant
 * column, so each of its rows is an array of its own, which a projection above the join drops
 * again.
 */
final class OuterJoinRows {
  private OuterJoinRows() {}

  /** The plan with every such join's right side widened. */
  static RelNode keep(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode kept = keep(input);
      inputs.add(kept);
      changed |= kept != input;
    }
    RelNode node = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (!(node instanceof EnumerableNestedLoopJoin)) {
      return node;
    }
    EnumerableNestedLoopJoin join = (EnumerableNestedLoopJoin) node;
    boolean nullsOnLeft =
        join.getJoinType() == JoinRelType.RIGHT || join.getJoinType() == JoinRelType.FULL;
    if (!nullsOnLeft || join.getRight().getRowType().getFieldCount() != 1) {
      return node;
    }
    RexBuilder rex = join.getCluster().getRexBuilder();
    RelNode right = join.getRight();
    RexProgramBuilder widen = new RexProgramBuilder(right.getRowType(), rex);
    widen.addProject(
        rex.makeInputRef(right, 0), right.getRowType().getFieldList().get(0).getName());
    widen.addProject(rex.makeLiteral(true), "$floe_row");
    RelNode wideRight = EnumerableCalc.create(right, widen.getProgram());
    RelNode wideJoin =
        join.copy(
            join.getTraitSet(),
            join.getCondition(),
            join.getLeft(),
            wideRight,
            join.getJoinType(),
            join.isSemiJoinDone());
    RexProgramBuilder narrow = new RexProgramBuilder(wideJoin.getRowType(), rex);
    List<RelDataTypeField> fields = join.getRowType().getFieldList();
    for (int i = 0; i < fields.size(); i++) {
      narrow.addProject(rex.makeInputRef(wideJoin, i), fields.get(i).getName());
    }
    return EnumerableCalc.create(wideJoin, narrow.getProgram());
  }
}
