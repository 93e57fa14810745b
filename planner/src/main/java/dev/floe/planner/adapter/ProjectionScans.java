package dev.floe.planner.adapter;

import dev.floe.planner.scan.LakeProjection;
import dev.floe.planner.scan.ScanExpression;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;

/**
 * Moves the projections of a chosen plan into the scans below them: a Calc that only projects (no
 * condition) the rows of a plain scan, with at least one expression the scan computes ({@link
 * ScanExpressions}: arithmetic, widening casts, {@code CASE}, {@code EXTRACT}) and every other
 * output a column, becomes that scan emitting the projection ({@link LakeProjection}); columns,
 * literals and casts alone stay a projection. The scan's workers then compute the expressions over
 * the decoded column vectors, in primitive loops, instead of the statement's thread computing them
 * row by row on boxed values in Calcite's generated code.
 *
 * <p>It runs on the plan Volcano chose, after every rule: no rule has to understand a scan whose
 * outputs are not its columns. A scan that aggregates, keeps a top-N's rows or carries row ids
 * (DELETE, UPDATE, MERGE) is left alone.
 */
public final class ProjectionScans {
  private ProjectionScans() {}

  /** {@code plan} with each Calc that a scan below it can compute moved into that scan. */
  public static RelNode apply(RelNode plan) {
    List<RelNode> inputs = plan.getInputs();
    List<RelNode> replaced = new ArrayList<>(inputs.size());
    boolean changed = false;
    for (RelNode input : inputs) {
      RelNode after = apply(input);
      replaced.add(after);
      changed |= after != input;
    }
    RelNode node = changed ? plan.copy(plan.getTraitSet(), replaced) : plan;
    if (node instanceof EnumerableCalc calc
        && calc.getInput() instanceof EnumerableLakeScan scan
        && plain(scan)) {
      RelNode computing = computing(calc, scan);
      if (computing != null) {
        return computing;
      }
    }
    return node;
  }

  /**
   * A scan emitting its columns, every row it reads: no aggregate, top-N, row ids or projection.
   */
  private static boolean plain(EnumerableLakeScan scan) {
    return !scan.spec().aggregated()
        && !scan.spec().rowIds()
        && scan.spec().topN() == null
        && scan.spec().projection() == null;
  }

  /**
   * Whether an expression computes something: not a literal, nor a cast of a column or a literal. A
   * projection of columns, constants and casts alone stays a projection: computing it in the scan
   * would gain nothing, and a cast of a join's key is where the join looks for the column to give
   * its run-time filter (prepare.LakeHashJoin).
   */
  private static boolean computes(ScanExpression expression) {
    switch (expression.op()) {
      case LITERAL:
      case COLUMN:
        return false;
      case CAST:
        return computes(expression.operands().get(0));
      default:
        return true;
    }
  }

  /** The scan computing the Calc's projection, or null when it cannot. */
  private static RelNode computing(EnumerableCalc calc, EnumerableLakeScan scan) {
    RexProgram program = calc.getProgram();
    if (program.getCondition() != null) {
      return null;
    }
    ScanExpressions translator =
        new ScanExpressions(scan.getRowType(), calc.getCluster().getRexBuilder());
    int width = scan.spec().columns().size();
    List<Integer> outputs = new ArrayList<>();
    List<ScanExpression> computed = new ArrayList<>();
    boolean computes = false;
    for (RexLocalRef ref : program.getProjectList()) {
      RexNode node = program.expandLocalRef(ref);
      if (node instanceof RexInputRef input) {
        outputs.add(input.getIndex());
        continue;
      }
      ScanExpression expression = translator.translate(node);
      if (expression == null) {
        return null;
      }
      if (expression.op() == ScanExpression.Op.COLUMN) {
        outputs.add(expression.column()); // a cast that changes nothing
        continue;
      }
      computes |= computes(expression);
      int at = computed.indexOf(expression);
      if (at < 0) {
        computed.add(expression);
        at = computed.size() - 1;
      }
      outputs.add(width + at);
    }
    if (!computes) {
      return null;
    }
    LakeTableScan logical =
        scan.logical().projecting(new LakeProjection(outputs, computed), calc.getRowType());
    return new EnumerableLakeScan(calc.getTraitSet(), logical);
  }
}
