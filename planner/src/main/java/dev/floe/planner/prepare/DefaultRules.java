package dev.floe.planner.prepare;

import com.google.common.collect.Range;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableLimitSortRule;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.config.CalciteSystemProperty;
import org.apache.calcite.interpreter.Bindables;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.volcano.AbstractConverter;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.rules.AggregateCaseToFilterRule;
import org.apache.calcite.rel.rules.AggregateExpandDistinctAggregatesRule;
import org.apache.calcite.rel.rules.AggregateExpandWithinDistinctRule;
import org.apache.calcite.rel.rules.AggregateJoinTransposeRule;
import org.apache.calcite.rel.rules.AggregateMergeRule;
import org.apache.calcite.rel.rules.AggregateProjectMergeRule;
import org.apache.calcite.rel.rules.AggregateProjectPullUpConstantsRule;
import org.apache.calcite.rel.rules.AggregateProjectStarTableRule;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.rules.AggregateRemoveRule;
import org.apache.calcite.rel.rules.AggregateStarTableRule;
import org.apache.calcite.rel.rules.CalcMergeRule;
import org.apache.calcite.rel.rules.CalcRemoveRule;
import org.apache.calcite.rel.rules.DateRangeRules;
import org.apache.calcite.rel.rules.ExchangeRemoveConstantKeysRule;
import org.apache.calcite.rel.rules.FilterAggregateTransposeRule;
import org.apache.calcite.rel.rules.FilterCalcMergeRule;
import org.apache.calcite.rel.rules.FilterJoinRule;
import org.apache.calcite.rel.rules.FilterMergeRule;
import org.apache.calcite.rel.rules.FilterProjectTransposeRule;
import org.apache.calcite.rel.rules.FilterSampleTransposeRule;
import org.apache.calcite.rel.rules.FilterTableScanRule;
import org.apache.calcite.rel.rules.FilterToCalcRule;
import org.apache.calcite.rel.rules.FilterWindowTransposeRule;
import org.apache.calcite.rel.rules.IntersectToDistinctRule;
import org.apache.calcite.rel.rules.JoinAssociateRule;
import org.apache.calcite.rel.rules.JoinCommuteRule;
import org.apache.calcite.rel.rules.JoinPushExpressionsRule;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.rel.rules.MatchRule;
import org.apache.calcite.rel.rules.MinusToDistinctRule;
import org.apache.calcite.rel.rules.ProjectAggregateMergeRule;
import org.apache.calcite.rel.rules.ProjectCalcMergeRule;
import org.apache.calcite.rel.rules.ProjectFilterTransposeRule;
import org.apache.calcite.rel.rules.ProjectMergeRule;
import org.apache.calcite.rel.rules.ProjectOverSumToSum0Rule;
import org.apache.calcite.rel.rules.ProjectRemoveRule;
import org.apache.calcite.rel.rules.ProjectTableScanRule;
import org.apache.calcite.rel.rules.ProjectToCalcRule;
import org.apache.calcite.rel.rules.ProjectToWindowRule;
import org.apache.calcite.rel.rules.ProjectWindowTransposeRule;
import org.apache.calcite.rel.rules.PruneEmptyRules;
import org.apache.calcite.rel.rules.ReduceExpressionsRule;
import org.apache.calcite.rel.rules.SampleToFilterRule;
import org.apache.calcite.rel.rules.SemiJoinRule;
import org.apache.calcite.rel.rules.SingleValuesOptimizationRules;
import org.apache.calcite.rel.rules.SortJoinTransposeRule;
import org.apache.calcite.rel.rules.SortProjectTransposeRule;
import org.apache.calcite.rel.rules.SortRemoveConstantKeysRule;
import org.apache.calcite.rel.rules.SortRemoveRule;
import org.apache.calcite.rel.rules.SortUnionTransposeRule;
import org.apache.calcite.rel.rules.SubQueryRemoveRule;
import org.apache.calcite.rel.rules.UnionMergeRule;
import org.apache.calcite.rel.rules.UnionPullUpConstantsRule;
import org.apache.calcite.rel.rules.UnionToDistinctRule;
import org.apache.calcite.rel.rules.UnionToValuesRule;
import org.apache.calcite.rel.rules.materialize.MaterializedViewRules;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Sarg;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rules of Calcite's default planner ({@code RelOptUtil.registerDefaultRules}) and of its
 * standard program's heuristic phases ({@link StandardProgram}), each built on its own from its
 * configuration exactly as Calcite's {@code CoreRules} builds it, in the order Calcite registers
 * them.
 *
 * <p>Calcite's holders build every rule they hold when first touched: {@code CoreRules} alone is
 * some 150 rules, with their configuration classes and operand lambdas, of which a planner uses
 * about 60. A fresh JVM spent 0.3 to 0.4 s of CPU time initializing it before its first row; only
 * what a plan can use is built here. A correlated subquery still initializes {@code CoreRules} when
 * Calcite's decorrelator runs, which changes nothing but when that cost is paid.
 *
 * <p>Left out: Calcite's stream rules ({@code StreamRules.RULES}), which rewrite only a {@code
 * Delta}, the node of {@code SELECT STREAM}; a Floe table is not a streamable table, so the
 * validator refuses {@code SELECT STREAM} from it before a plan exists. Calcite's rules that turn a
 * join with an aggregate into a semi-join give their place to {@link SemiJoinRules}.
 */
final class DefaultRules {
  private DefaultRules() {}

  // The rules used in more than one list or phase, built once as in CoreRules.
  static final RelOptRule FILTER_INTO_JOIN =
      FilterJoinRule.FilterIntoJoinRule.FilterIntoJoinRuleConfig.DEFAULT.toRule();
  static final RelOptRule JOIN_CONDITION_PUSH =
      FilterJoinRule.JoinConditionPushRule.JoinConditionPushRuleConfig.DEFAULT.toRule();
  static final RelOptRule JOIN_COMMUTE = JoinCommuteRule.Config.DEFAULT.toRule();
  static final RelOptRule JOIN_ON_UNIQUE_TO_SEMI_JOIN =
      SemiJoinRule.JoinOnUniqueToSemiJoinRule.JoinOnUniqueToSemiJoinRuleConfig.DEFAULT.toRule();
  static final RelOptRule PROJECT_REMOVE = ProjectRemoveRule.Config.DEFAULT.toRule();
  static final RelOptRule PROJECT_OVER_SUM_TO_SUM0 =
      ProjectOverSumToSum0Rule.Config.DEFAULT.toRule();
  static final @Nullable RelOptRule JOIN_ASSOCIATE =
      CalciteSystemProperty.COMMUTE.value() ? JoinAssociateRule.Config.DEFAULT.toRule() : null;
  static final RelOptRule PROJECT_MERGE = ProjectMergeRule.Config.DEFAULT.toRule();

  /** The most rows (OFFSET + FETCH) a top-N keeps; a larger one sorts every row in the budget. */
  static final long TOP_N_ROWS = dev.floe.planner.scan.LakeTopN.MAX_ROWS;

  /**
   * Calcite's top-N ({@code EnumerableLimitSort}, not in its list of enumerable rules) for an ORDER
   * BY whose LIMIT and OFFSET are literals keeping at most {@value #TOP_N_ROWS} rows: it keeps its
   * first OFFSET + FETCH rows as it reads, unaccounted, where a full sort reserves every row in the
   * statement's budget and spills. The 20 largest prices of TPC-H SF1 lineitem took 11.2 s sorted
   * (DuckDB 0.14 s), 0.8 s so.
   */
  static final RelOptRule TOP_N =
      EnumerableLimitSortRule.Config.DEFAULT
          .withOperandSupplier(
              b -> b.operand(LogicalSort.class).predicate(DefaultRules::smallTopN).anyInputs())
          .as(EnumerableLimitSortRule.Config.class)
          .toRule();

  private static boolean smallTopN(LogicalSort sort) {
    if (sort.getCollation().getFieldCollations().isEmpty()
        || !(sort.fetch instanceof RexLiteral fetch)
        || sort.offset != null && !(sort.offset instanceof RexLiteral)) {
      return false;
    }
    Long rows = fetch.getValueAs(Long.class);
    Long skipped =
        sort.offset == null ? Long.valueOf(0) : ((RexLiteral) sort.offset).getValueAs(Long.class);
    // compared without adding: OFFSET 9223372036854775807 would wrap the sum
    return rows != null
        && skipped != null
        && rows >= 0
        && skipped >= 0
        && rows <= TOP_N_ROWS - skipped;
  }

  static final RelOptRule PROJECT_TABLE_SCAN = ProjectTableScanRule.Config.DEFAULT.toRule();
  static final RelOptRule PROJECT_INTERPRETER_TABLE_SCAN =
      ProjectTableScanRule.Config.INTERPRETER.toRule();
  static final RelOptRule FILTER_REDUCE_EXPRESSIONS =
      ReduceExpressionsRule.FilterReduceExpressionsRule.FilterReduceExpressionsRuleConfig.DEFAULT
          .toRule();

  /**
   * {@code RelOptRules.ABSTRACT_RELATIONAL_RULES} without {@code PROJECT_TO_SEMI_JOIN} and {@code
   * JOIN_TO_SEMI_JOIN} ({@link SemiJoinRules}).
   */
  /**
   * {@code DateRangeRules.FILTER_INSTANCE} (a comparison of {@code EXTRACT(YEAR FROM d)} becomes a
   * range of {@code d}, which the scan can prune by), applied only where the years compared with
   * lie between 1 and 9999: for others Calcite's rule computes an empty range (the filter then
   * drops every row: {@code EXTRACT(YEAR FROM d) >= 0}) or fails.
   */
  static final RelOptRule DATE_RANGE =
      DateRangeRules.FilterDateRangeRule.FilterDateRangeRuleConfig.DEFAULT
          .withOperandSupplier(
              b -> b.operand(Filter.class).predicate(DefaultRules::yearsInRange).anyInputs())
          .as(DateRangeRules.FilterDateRangeRule.FilterDateRangeRuleConfig.class)
          .toRule();

  /**
   * {@code EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE}, for joins whose keys are not UUIDs: Calcite
   * writes the merge join's comparator of keys held as {@code Object} with the same signature as
   * its bridge method, which Janino refuses ("Redeclaration of compare(Object, Object)"). Such
   * joins are hash joins.
   */
  static final RelOptRule MERGE_JOIN = mergeJoin();

  private static RelOptRule mergeJoin() {
    ConverterRule rule = (ConverterRule) EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE;
    return rule.config
        .withConversion(
            LogicalJoin.class,
            DefaultRules::withoutUuidKeys,
            rule.config.inTrait(),
            rule.config.outTrait(),
            "EnumerableMergeJoinRule")
        .toRule();
  }

  private static boolean withoutUuidKeys(LogicalJoin join) {
    List<RelDataTypeField> left = join.getLeft().getRowType().getFieldList();
    for (int key : join.analyzeCondition().leftKeys) {
      if (left.get(key).getType().getSqlTypeName() == SqlTypeName.UUID) {
        return false;
      }
    }
    return true;
  }

  /** Whether every number a filter with an {@code EXTRACT(YEAR ...)} holds is a year 1..9999. */
  static boolean yearsInRange(Filter filter) {
    RexNode condition = filter.getCondition();
    boolean[] year = {false};
    boolean[] outside = {false};
    condition.accept(
        new RexVisitorImpl<Void>(true) {
          @Override
          public Void visitCall(RexCall call) {
            if (call.getKind() == SqlKind.EXTRACT
                && call.getOperands().get(0) instanceof RexLiteral
                && ((RexLiteral) call.getOperands().get(0)).getValue() == TimeUnitRange.YEAR) {
              year[0] = true;
            }
            return super.visitCall(call);
          }

          @Override
          public Void visitLiteral(RexLiteral literal) {
            Object value = literal.getValue();
            if (value instanceof Sarg) {
              for (Range<?> range : ((Sarg<?>) value).rangeSet.asRanges()) {
                if (range.hasLowerBound()) {
                  check(range.lowerEndpoint());
                }
                if (range.hasUpperBound()) {
                  check(range.upperEndpoint());
                }
              }
            } else {
              check(value);
            }
            return null;
          }

          private void check(Object value) {
            if (value instanceof BigDecimal) {
              BigDecimal n = (BigDecimal) value;
              if (n.compareTo(BigDecimal.ONE) < 0 || n.compareTo(BigDecimal.valueOf(9999)) > 0) {
                outside[0] = true;
              }
            }
          }
        });
    return !(year[0] && outside[0]);
  }

  private static final List<RelOptRule> ABSTRACT_RELATIONAL_RULES =
      List.of(
          FILTER_INTO_JOIN,
          JOIN_CONDITION_PUSH,
          AbstractConverter.ExpandConversionRule.INSTANCE,
          JOIN_COMMUTE,
          JOIN_ON_UNIQUE_TO_SEMI_JOIN,
          AggregateRemoveRule.Config.DEFAULT.toRule(),
          UnionToDistinctRule.Config.DEFAULT.toRule(),
          UnionToValuesRule.Config.DEFAULT.toRule(),
          PROJECT_REMOVE,
          ProjectAggregateMergeRule.Config.DEFAULT.toRule(),
          AggregateJoinTransposeRule.Config.DEFAULT.toRule(),
          AggregateMergeRule.Config.DEFAULT.toRule(),
          AggregateProjectMergeRule.Config.DEFAULT.toRule(),
          CalcRemoveRule.Config.DEFAULT.toRule(),
          SortRemoveRule.Config.DEFAULT.toRule());

  /** {@code RelOptRules.ABSTRACT_RULES}. */
  private static final List<RelOptRule> ABSTRACT_RULES =
      List.of(
          AggregateProjectPullUpConstantsRule.Config.ANY.toRule(),
          UnionPullUpConstantsRule.Config.DEFAULT.toRule(),
          PruneEmptyRules.UNION_INSTANCE,
          PruneEmptyRules.INTERSECT_INSTANCE,
          PruneEmptyRules.MINUS_INSTANCE,
          PruneEmptyRules.PROJECT_INSTANCE,
          PruneEmptyRules.FILTER_INSTANCE,
          PruneEmptyRules.SORT_INSTANCE,
          PruneEmptyRules.AGGREGATE_INSTANCE,
          PruneEmptyRules.WINDOW_INSTANCE,
          PruneEmptyRules.JOIN_LEFT_INSTANCE,
          PruneEmptyRules.JOIN_RIGHT_INSTANCE,
          PruneEmptyRules.SORT_FETCH_ZERO_INSTANCE,
          PruneEmptyRules.EMPTY_TABLE_INSTANCE,
          SingleValuesOptimizationRules.JOIN_LEFT_INSTANCE,
          SingleValuesOptimizationRules.JOIN_RIGHT_INSTANCE,
          SingleValuesOptimizationRules.JOIN_LEFT_PROJECT_INSTANCE,
          SingleValuesOptimizationRules.JOIN_RIGHT_PROJECT_INSTANCE,
          UnionMergeRule.Config.DEFAULT.toRule(),
          UnionMergeRule.Config.INTERSECT.toRule(),
          UnionMergeRule.Config.MINUS.toRule(),
          PROJECT_OVER_SUM_TO_SUM0,
          ProjectToWindowRule.ProjectToLogicalProjectAndWindowRule
              .ProjectToLogicalProjectAndWindowRuleConfig.DEFAULT
              .toRule(),
          FilterMergeRule.Config.DEFAULT.toRule(),
          DATE_RANGE,
          IntersectToDistinctRule.Config.DEFAULT.toRule(),
          MinusToDistinctRule.Config.DEFAULT.toRule());

  /** {@code RelOptRules.BASE_RULES}. */
  private static final List<RelOptRule> BASE_RULES =
      List.of(
          AggregateStarTableRule.Config.DEFAULT.toRule(),
          AggregateProjectStarTableRule.Config.DEFAULT.toRule(),
          JOIN_ASSOCIATE != null ? JOIN_ASSOCIATE : PROJECT_MERGE,
          FilterTableScanRule.Config.DEFAULT.toRule(),
          ProjectFilterTransposeRule.Config.DEFAULT.toRule(),
          FilterProjectTransposeRule.Config.DEFAULT.toRule(),
          FILTER_INTO_JOIN,
          JoinPushExpressionsRule.Config.DEFAULT.toRule(),
          AggregateExpandDistinctAggregatesRule.Config.DEFAULT.toRule(),
          AggregateExpandWithinDistinctRule.Config.DEFAULT.toRule(),
          AggregateCaseToFilterRule.Config.DEFAULT.toRule(),
          AggregateReduceFunctionsRule.Config.DEFAULT.toRule(),
          FilterAggregateTransposeRule.Config.DEFAULT.toRule(),
          ProjectWindowTransposeRule.Config.DEFAULT.toRule(),
          MatchRule.Config.DEFAULT.toRule(),
          JOIN_COMMUTE,
          JoinPushThroughJoinRule.RIGHT,
          JoinPushThroughJoinRule.LEFT,
          SortProjectTransposeRule.Config.DEFAULT.toRule(),
          SortJoinTransposeRule.Config.DEFAULT.toRule(),
          SortRemoveConstantKeysRule.Config.DEFAULT.toRule(),
          SortUnionTransposeRule.Config.DEFAULT.toRule(),
          ExchangeRemoveConstantKeysRule.Config.DEFAULT.toRule(),
          ExchangeRemoveConstantKeysRule.Config.SORT.toRule(),
          SampleToFilterRule.Config.DEFAULT.toRule(),
          FilterSampleTransposeRule.Config.DEFAULT.toRule(),
          FilterWindowTransposeRule.Config.DEFAULT.toRule());

  /**
   * The rules of the standard program's sub-query phase ({@code Programs.subQuery}): sub-queries
   * become correlates.
   */
  static final List<RelOptRule> SUB_QUERY_RULES;

  /** As {@link #SUB_QUERY_RULES}, making mark joins (when the connection decorrelates top-down). */
  static final List<RelOptRule> SUB_QUERY_MARK_JOIN_RULES;

  static {
    RelOptRule join = SubQueryRemoveRule.Config.JOIN.toRule();
    SUB_QUERY_RULES =
        List.of(
            SubQueryRemoveRule.Config.FILTER.toRule(),
            SubQueryRemoveRule.Config.PROJECT.toRule(),
            join,
            PROJECT_OVER_SUM_TO_SUM0);
    SUB_QUERY_MARK_JOIN_RULES =
        List.of(
            SubQueryRemoveRule.Config.FILTER_ENABLE_MARK_JOIN.toRule(),
            SubQueryRemoveRule.Config.PROJECT_ENABLE_MARK_JOIN.toRule(),
            join,
            PROJECT_OVER_SUM_TO_SUM0);
  }

  /** {@code RelOptRules.CALC_RULES}: the standard program's last phase. */
  static final List<RelOptRule> CALC_RULES =
      List.of(
          Bindables.FROM_NONE_RULE,
          EnumerableRules.ENUMERABLE_CALC_RULE,
          EnumerableRules.ENUMERABLE_FILTER_TO_CALC_RULE,
          EnumerableRules.ENUMERABLE_PROJECT_TO_CALC_RULE,
          FilterToCalcRule.Config.DEFAULT.toRule(),
          ProjectToCalcRule.Config.DEFAULT.toRule(),
          CalcMergeRule.Config.DEFAULT.toRule(),
          FilterCalcMergeRule.Config.DEFAULT.toRule(),
          ProjectCalcMergeRule.Config.DEFAULT.toRule());

  /** Registers Calcite's default rules, as {@code RelOptUtil.registerDefaultRules} does. */
  static void register(
      RelOptPlanner planner, boolean enableMaterializations, boolean enableBindable) {
    if (CalciteSystemProperty.ENABLE_COLLATION_TRAIT.value()) {
      ABSTRACT_RELATIONAL_RULES.forEach(planner::addRule);
      if (JOIN_ASSOCIATE != null) {
        planner.addRule(JOIN_ASSOCIATE);
      }
    }
    ABSTRACT_RULES.forEach(planner::addRule);
    BASE_RULES.forEach(planner::addRule);
    if (enableMaterializations) {
      List.of(
              MaterializedViewRules.FILTER_SCAN,
              MaterializedViewRules.PROJECT_FILTER,
              MaterializedViewRules.FILTER,
              MaterializedViewRules.PROJECT_JOIN,
              MaterializedViewRules.JOIN,
              MaterializedViewRules.PROJECT_AGGREGATE,
              MaterializedViewRules.AGGREGATE)
          .forEach(planner::addRule);
    }
    if (enableBindable) {
      Bindables.RULES.forEach(planner::addRule);
    }
    planner.addRule(Bindables.BINDABLE_TABLE_SCAN_RULE);
    planner.addRule(PROJECT_TABLE_SCAN);
    planner.addRule(PROJECT_INTERPRETER_TABLE_SCAN);
    if (CalciteSystemProperty.ENABLE_ENUMERABLE.value()) {
      for (RelOptRule rule : EnumerableRules.ENUMERABLE_RULES) {
        planner.addRule(rule == EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE ? MERGE_JOIN : rule);
      }
      planner.addRule(TOP_N);
      planner.addRule(EnumerableRules.TO_INTERPRETER);
    }
    if (enableBindable && CalciteSystemProperty.ENABLE_ENUMERABLE.value()) {
      planner.addRule(EnumerableRules.TO_BINDABLE);
    }
    planner.addRule(FILTER_REDUCE_EXPRESSIONS);
    planner.addRule(SemiJoinRules.PROJECT_TO_SEMI_JOIN);
  }
}
