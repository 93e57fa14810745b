package dev.floe.planner.adapter;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexPermuteInputsShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

/**
 * Narrows a {@link LakeTableScan} to the columns the project above it uses, so only those are read
 * from Parquet.
 *
 * <p>A project holding a subquery is left alone: a correlated subquery reads the scan's row through
 * its correlation variable, by field position, which the project's input references do not show;
 * narrowing the scan under it would leave those positions pointing at other columns or past the
 * row's end. Calcite's field trimmer remaps such variables when it narrows the scan, and once
 * subqueries are turned into joins this rule applies to the projects that remain.
 */
public final class LakeProjectScanRule extends RelRule<LakeRuleConfig> {
  static final LakeProjectScanRule DEFAULT =
      new LakeProjectScanRule(
          LakeRuleConfig.of(
              "LakeProjectScanRule",
              b0 ->
                  b0.operand(LogicalProject.class)
                      .predicate(LakeProjectScanRule::readsOnlyItsInput)
                      .oneInput(
                          b1 ->
                              b1.operand(LakeTableScan.class)
                                  .predicate(
                                      scan ->
                                          !scan.spec().aggregated() && scan.spec().topN() == null)
                                  .noInputs()),
              config -> new LakeProjectScanRule(config)));

  private LakeProjectScanRule(LakeRuleConfig config) {
    super(config);
  }

  /** Whether every column the project reads from its input shows as an input reference. */
  private static boolean readsOnlyItsInput(LogicalProject project) {
    return project.getVariablesSet().isEmpty() && !RexUtil.SubQueryFinder.containsSubQuery(project);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    LogicalProject project = call.rel(0);
    LakeTableScan scan = call.rel(1);
    int fieldCount = scan.getRowType().getFieldCount();
    int columnCount = scan.spec().columns().size();
    ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), null);
    if (scan.spec().rowIds()) {
      used = used.set(columnCount).set(columnCount + 1);
    }
    if (used.cardinality() == fieldCount) {
      return;
    }
    List<Integer> newColumns = new ArrayList<>();
    for (int field : used) {
      if (field < columnCount) {
        newColumns.add(scan.spec().columns().get(field));
      }
    }
    if (newColumns.isEmpty() && columnCount > 0) {
      // count(*) and friends: still read one column so rows can be counted.
      newColumns.add(scan.spec().columns().get(0));
      used = used.set(0);
    }
    LakeTableScan narrowed = scan.withSpec(scan.spec().withColumns(newColumns));
    java.util.Map<Integer, Integer> oldToNew = new java.util.HashMap<>();
    for (int field : used) {
      oldToNew.put(field, oldToNew.size());
    }
    Mappings.TargetMapping mapping = Mappings.target(oldToNew, fieldCount, used.cardinality());
    List<RexNode> projects = new ArrayList<>();
    RexPermuteInputsShuttle shuttle = RexPermuteInputsShuttle.of(mapping);
    for (RexNode node : project.getProjects()) {
      projects.add(node.accept(shuttle));
    }
    if (RexUtil.isIdentity(projects, narrowed.getRowType())) {
      call.transformTo(narrowed);
    } else {
      call.transformTo(
          project.copy(project.getTraitSet(), narrowed, projects, project.getRowType()));
    }
  }
}
