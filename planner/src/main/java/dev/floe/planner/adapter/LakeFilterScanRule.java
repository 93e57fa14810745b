package dev.floe.planner.adapter;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexUtil;

/**
 * Pushes what {@link RexToIceberg} can translate of a filter into the {@link LakeTableScan} below
 * it, leaving the rest as a filter above the scan.
 */
public final class LakeFilterScanRule extends RelRule<LakeRuleConfig> {
  static final LakeFilterScanRule DEFAULT =
      new LakeFilterScanRule(
          LakeRuleConfig.of(
              "LakeFilterScanRule",
              b0 ->
                  b0.operand(LogicalFilter.class)
                      .oneInput(
                          b1 ->
                              b1.operand(LakeTableScan.class)
                                  .predicate(
                                      scan -> scan.spec().limit() < 0 && !scan.spec().aggregated())
                                  .noInputs()),
              config -> new LakeFilterScanRule(config)));

  private LakeFilterScanRule(LakeRuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Filter filter = call.rel(0);
    LakeTableScan scan = call.rel(1);
    List<Integer> columns = new ArrayList<>(scan.spec().columns());
    if (scan.spec().rowIds()) {
      columns.add(-1);
      columns.add(-1);
    }
    RexToIceberg.Split split =
        new RexToIceberg(
                filter.getCluster().getRexBuilder(),
                scan.schema(),
                columns,
                scan.spec().session().timeZone().toZoneId())
            .split(filter.getCondition());
    if (!split.pushedAny()) {
      return;
    }
    LakeTableScan pushed = scan.withSpec(scan.spec().withFilter(split.pushed()));
    if (split.remaining().isEmpty()) {
      call.transformTo(pushed);
    } else {
      call.transformTo(
          filter.copy(
              filter.getTraitSet(),
              pushed,
              RexUtil.composeConjunction(filter.getCluster().getRexBuilder(), split.remaining())));
    }
  }
}
