package dev.floe.planner.adapter;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Lets a scan stop reading once it has produced the rows an unordered {@code LIMIT} directly above
 * it needs; the limit itself stays in the plan.
 */
public final class LakeLimitScanRule extends RelRule<LakeRuleConfig> {
  static final LakeLimitScanRule DEFAULT =
      new LakeLimitScanRule(
          LakeRuleConfig.of(
              "LakeLimitScanRule",
              b0 ->
                  b0.operand(Sort.class)
                      .predicate(
                          sort ->
                              sort.fetch != null
                                  && sort.getCollation().getFieldCollations().isEmpty())
                      .oneInput(
                          b1 ->
                              b1.operand(LakeTableScan.class)
                                  .predicate(
                                      scan -> !scan.spec().truncated() && !scan.spec().aggregated())
                                  .noInputs()),
              config -> new LakeLimitScanRule(config)));

  private LakeLimitScanRule(LakeRuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Sort sort = call.rel(0);
    LakeTableScan scan = call.rel(1);
    Long fetch = value(sort.fetch);
    Long offset = sort.offset == null ? Long.valueOf(0) : value(sort.offset);
    if (fetch == null || offset == null) {
      return;
    }
    LakeTableScan limited = scan.withSpec(scan.spec().withLimit(fetch + offset));
    call.transformTo(sort.copy(sort.getTraitSet(), limited, sort.getCollation()));
  }

  /** A LIMIT's or OFFSET's value when it is a literal, else null. */
  static Long value(RexNode node) {
    return node instanceof RexLiteral ? ((RexLiteral) node).getValueAs(Long.class) : null;
  }
}
