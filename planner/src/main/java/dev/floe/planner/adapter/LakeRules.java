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

  /** Lets the scan keep only the first rows in the order of a top-N directly above it. */
  public static final LakeTopNScanRule TOP_N_SCAN = LakeTopNScanRule.DEFAULT;

  /** Moves an aggregate into the scan directly below it. */
  public static final LakeAggregateScanRule AGGREGATE_SCAN = LakeAggregateScanRule.DIRECT;

  /** Moves an aggregate into the scan below a project that only picks columns. */
  public static final LakeAggregateScanRule AGGREGATE_PROJECT_SCAN =
      LakeAggregateScanRule.THROUGH_PROJECT;

  /**
   * Calcite's rewrite of {@code AVG} and {@code SUM} into the sums and counts a scan computes, for
   * aggregates over a scan, run before {@link #AGGREGATE_SCAN}.
   */
  public static final List<RelOptRule> REDUCE_AGGREGATES =
      List.of(LakeAggregateScanRule.REDUCE, LakeAggregateScanRule.REDUCE_THROUGH_PROJECT);

  /**
   * Aggregates the scan on one side of a join below an aggregate of the join first (eager
   * aggregation), after Calcite's rewrite of the averages it combines; run before {@link
   * #REDUCE_AGGREGATES}, which then takes the partial aggregates it makes into their scans.
   */
  public static final List<RelOptRule> AGGREGATE_JOINS =
      List.of(LakeAggregateJoinRule.REDUCE_AVERAGES, LakeAggregateJoinRule.INSTANCE);

  /** Turns a logical table modification into its Enumerable implementation. */
  public static final RelOptRule MODIFY = LakeTableModify.ENUMERABLE_RULE;

  /** Every rule, in an immutable list. */
  public static final List<RelOptRule> RULES =
      List.of(
          FILTER_SCAN, PROJECT_SCAN, LIMIT_SCAN, AGGREGATE_SCAN, AGGREGATE_PROJECT_SCAN, MODIFY);
}
