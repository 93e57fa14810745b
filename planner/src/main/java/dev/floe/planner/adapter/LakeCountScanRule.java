package dev.floe.planner.adapter;

import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlKind;

/**
 * Marks the scan under an aggregate that only counts rows ({@code COUNT(*)}, no grouping, no
 * DISTINCT, no FILTER) as count-only: at run time a file that no delete applies to, and that the
 * pushed filter selects whole, is counted from the record count in its manifest entry instead of
 * being read. Files with deletes, or that the filter selects only in part, are still read.
 */
public final class LakeCountScanRule extends RelRule<LakeRuleConfig> {
  static final LakeCountScanRule DEFAULT =
      new LakeCountScanRule(
          LakeRuleConfig.of(
              "LakeCountScanRule",
              b0 ->
                  b0.operand(Aggregate.class)
                      .predicate(LakeCountScanRule::countsRowsOnly)
                      .oneInput(
                          b1 ->
                              b1.operand(LakeTableScan.class)
                                  .predicate(
                                      scan -> !scan.spec().countOnly() && !scan.spec().rowIds())
                                  .noInputs()),
              config -> new LakeCountScanRule(config)));

  private LakeCountScanRule(LakeRuleConfig config) {
    super(config);
  }

  private static boolean countsRowsOnly(Aggregate aggregate) {
    if (!aggregate.getGroupSet().isEmpty() || aggregate.getAggCallList().isEmpty()) {
      return false;
    }
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (call.getAggregation().getKind() != SqlKind.COUNT
          || !call.getArgList().isEmpty()
          || call.isDistinct()
          || call.filterArg >= 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Aggregate aggregate = call.rel(0);
    LakeTableScan scan = call.rel(1);
    LakeTableScan counted = scan.withSpec(scan.spec().withCountOnly());
    call.transformTo(aggregate.copy(aggregate.getTraitSet(), List.of(counted)));
  }
}
