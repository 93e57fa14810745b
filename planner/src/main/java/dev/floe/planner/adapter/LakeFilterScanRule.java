package dev.floe.planner.adapter;

import dev.floe.planner.scan.LakeScanSpec;
import dev.floe.planner.scan.ScanExpression;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Pushes what {@link RexToIceberg} can translate of a filter into the {@link LakeTableScan} below
 * it, and of the rest the conjuncts {@link ScanExpressions} translates (a column compared with
 * another, {@code LIKE}) as the scan's condition, tested on the batches it decodes; what is left
 * stays a filter above the scan.
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
                                      scan -> !scan.spec().truncated() && !scan.spec().aggregated())
                                  .noInputs()),
              config -> new LakeFilterScanRule(config)));

  private LakeFilterScanRule(LakeRuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Filter filter = call.rel(0);
    LakeTableScan scan = call.rel(1);
    RelNode pushed = pushed(scan, filter.getCondition());
    if (pushed instanceof Filter rest) {
      // the filter keeps its own kind and correlation variables
      call.transformTo(filter.copy(filter.getTraitSet(), rest.getInput(), rest.getCondition()));
    } else if (pushed != null) {
      call.transformTo(pushed);
    }
  }

  /**
   * The scan with what it tests of the condition pushed into it, under a filter of the rest when
   * some is left; null when the scan tests none of it. The one way a condition enters a scan: this
   * rule's, and {@link LakeAggregateJoinRule}'s for the conditions of a join on one of its sides.
   */
  static @Nullable RelNode pushed(LakeTableScan scan, RexNode filterCondition) {
    RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
    List<Integer> columns = new ArrayList<>(scan.spec().columns());
    if (scan.spec().rowIds()) {
      columns.add(-1);
      columns.add(-1);
    }
    RexToIceberg.Split split =
        new RexToIceberg(
                rexBuilder, scan.schema(), columns, scan.spec().session().timeZone().toZoneId())
            .split(filterCondition);
    List<RexNode> remaining = new ArrayList<>();
    ScanExpression condition = null;
    ScanExpressions translator =
        scan.spec().rowIds() ? null : new ScanExpressions(scan.getRowType(), rexBuilder);
    for (RexNode conjunct : split.remaining()) {
      ScanExpression tested = translator == null ? null : translator.condition(conjunct);
      if (tested == null) {
        remaining.add(conjunct);
        continue;
      }
      ScanExpression onTable = tested.mapColumns(c -> scan.spec().columns().get(c));
      condition =
          condition == null
              ? onTable
              : ScanExpression.call(
                  ScanExpression.Op.AND,
                  ScanExpression.Type.BOOLEAN,
                  0,
                  0,
                  List.of(condition, onTable));
    }
    if (!split.pushedAny() && condition == null) {
      return null;
    }
    LakeScanSpec spec = split.pushedAny() ? scan.spec().withFilter(split.pushed()) : scan.spec();
    if (condition != null) {
      spec = spec.withCondition(condition);
    }
    LakeTableScan pushed = scan.withSpec(spec);
    if (remaining.isEmpty()) {
      return pushed;
    }
    return LogicalFilter.create(pushed, RexUtil.composeConjunction(rexBuilder, remaining));
  }
}
