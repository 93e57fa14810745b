package dev.floe.planner.adapter;

import dev.floe.planner.scan.LakeTopN;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Sort;
import org.apache.iceberg.types.Type;

/**
 * Lets a scan keep only the rows an {@code ORDER BY ... LIMIT} (with or without {@code OFFSET})
 * directly above it can return ({@link LakeTopN}): the scan compares each row with the worst of its
 * best rows on the decoded column vectors, on every scan worker, and the top-N above orders the few
 * rows left and applies the OFFSET and LIMIT. Taken when the LIMIT and OFFSET are literals keeping
 * at most {@link LakeTopN#MAX_ROWS} rows and every sort key is a column of a type the scan compares
 * as the top-N does ({@link LakeTopN#sortable}), with NULLs placed explicitly first or last.
 */
public final class LakeTopNScanRule extends RelRule<LakeRuleConfig> {
  static final LakeTopNScanRule DEFAULT =
      new LakeTopNScanRule(
          LakeRuleConfig.of(
              "LakeTopNScanRule",
              b0 ->
                  b0.operand(Sort.class)
                      .predicate(
                          sort ->
                              sort.fetch != null
                                  && !sort.getCollation().getFieldCollations().isEmpty())
                      .oneInput(
                          b1 ->
                              b1.operand(LakeTableScan.class)
                                  .predicate(LakeAggregateScanRule::plainScan)
                                  .noInputs()),
              LakeTopNScanRule::new));

  private LakeTopNScanRule(LakeRuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Sort sort = call.rel(0);
    LakeTableScan scan = call.rel(1);
    Long fetch = LakeLimitScanRule.value(sort.fetch);
    Long offset = sort.offset == null ? Long.valueOf(0) : LakeLimitScanRule.value(sort.offset);
    if (fetch == null
        || offset == null
        || fetch <= 0
        || offset < 0
        || fetch > LakeTopN.MAX_ROWS - offset) {
      return; // no rows, or more than a top-N keeps (the sum may not fit a long)
    }
    long rows = fetch + offset;
    List<Integer> columns = scan.spec().columns();
    List<LakeTopN.Key> keys = new ArrayList<>();
    for (RelFieldCollation field : sort.getCollation().getFieldCollations()) {
      int column = field.getFieldIndex();
      Type type = scan.schema().columns().get(columns.get(column)).type();
      if (!LakeTopN.sortable(type)
          || field.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED) {
        return;
      }
      boolean descending = field.getDirection() == RelFieldCollation.Direction.DESCENDING;
      if (!descending && field.getDirection() != RelFieldCollation.Direction.ASCENDING) {
        return;
      }
      keys.add(
          new LakeTopN.Key(
              column, descending, field.nullDirection == RelFieldCollation.NullDirection.FIRST));
    }
    LakeTableScan kept = scan.withSpec(scan.spec().withTopN(new LakeTopN(keys, rows)));
    call.transformTo(sort.copy(sort.getTraitSet(), kept, sort.getCollation()));
  }
}
