package dev.floe.planner.adapter;

import java.util.List;
import org.apache.calcite.plan.RelOptRule;

/** The one holder of Floe's planner rules, registered by every Floe scan. */
public final class LakeRules {
  private LakeRules() {}

  /** Pushes the translatable part of a filter into the scan below it. */
  public static final LakeFilterScanRule FILTER_SCAN = LakeFilterScanRule.DEFAULT;

  /** Reads only the columns the project above the scan uses. */
  public static final LakeProjectScanRule PROJECT_SCAN = LakeProjectScanRule.DEFAULT;

  /** Stops the scan after the rows a LIMIT directly above it needs. */
  public static final LakeLimitScanRule LIMIT_SCAN = LakeLimitScanRule.DEFAULT;

  /** Lets a scan under a plain {@code COUNT(*)} count files from their metadata. */
  public static final LakeCountScanRule COUNT_SCAN = LakeCountScanRule.DEFAULT;

  /** Turns a logical table modification into its Enumerable implementation. */
  public static final RelOptRule MODIFY = LakeTableModify.ENUMERABLE_RULE;

  /** Every rule, in an immutable list. */
  public static final List<RelOptRule> RULES =
      List.of(FILTER_SCAN, PROJECT_SCAN, LIMIT_SCAN, COUNT_SCAN, MODIFY);
}
