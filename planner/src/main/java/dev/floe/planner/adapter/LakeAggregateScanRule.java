package dev.floe.planner.adapter;

import dev.floe.planner.scan.LakeAggregation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Moves an aggregate into the {@link LakeTableScan} below it (directly, or through a project whose
 * expressions the scan computes, {@link ScanExpressions}): {@code COUNT}, {@code SUM}, {@code MIN}
 * and {@code MAX} over flat columns or over such expressions ({@code SUM(price * (1 - discount))}),
 * with or without {@code GROUP BY} on columns, without {@code DISTINCT}, with a {@code FILTER} only
 * of a condition the scan tests ({@link ScanExpressions#filterFlag}). The scan then computes the
 * aggregate's rows from the column batches it decodes, or from manifest statistics where they
 * answer (docs/sql.md, "EXPLAIN"). {@code AVG} arrives here as {@code SUM} and {@code COUNT} with
 * Calcite's division above, because {@link #REDUCE} rewrites it first as Calcite's own planner
 * would.
 */
public final class LakeAggregateScanRule extends RelRule<LakeRuleConfig> {
  static final LakeAggregateScanRule DIRECT =
      new LakeAggregateScanRule(
          LakeRuleConfig.of(
              "LakeAggregateScanRule",
              b0 ->
                  b0.operand(LogicalAggregate.class)
                      .oneInput(
                          b1 ->
                              b1.operand(LakeTableScan.class)
                                  .predicate(LakeAggregateScanRule::plainScan)
                                  .noInputs()),
              LakeAggregateScanRule::new));

  static final LakeAggregateScanRule THROUGH_PROJECT =
      new LakeAggregateScanRule(
          LakeRuleConfig.of(
              "LakeAggregateProjectScanRule",
              b0 ->
                  b0.operand(LogicalAggregate.class)
                      .oneInput(
                          b1 ->
                              b1.operand(LogicalProject.class)
                                  .predicate(LakeAggregateScanRule::computable)
                                  .oneInput(
                                      b2 ->
                                          b2.operand(LakeTableScan.class)
                                              .predicate(LakeAggregateScanRule::plainScan)
                                              .noInputs())),
              LakeAggregateScanRule::new));

  /**
   * Calcite's rewrite of {@code AVG(x)} into {@code SUM(x) / COUNT(x)} and of {@code SUM(x)} into
   * {@code CASE COUNT(x) WHEN 0 THEN NULL ELSE $SUM0(x) END}, for aggregates directly over a scan,
   * so that the scan computes their parts.
   */
  static final AggregateReduceFunctionsRule REDUCE =
      AggregateReduceFunctionsRule.Config.DEFAULT
          .withFunctionsToReduce(Set.of(SqlKind.AVG, SqlKind.SUM))
          .withOperandSupplier(
              b0 ->
                  b0.operand(LogicalAggregate.class)
                      .oneInput(
                          b1 ->
                              b1.operand(LakeTableScan.class)
                                  .predicate(LakeAggregateScanRule::plainScan)
                                  .noInputs()))
          .withDescription("LakeAggregateReduceFunctionsRule")
          .as(AggregateReduceFunctionsRule.Config.class)
          .toRule();

  /** {@link #REDUCE} for an aggregate over a project that only picks columns of a scan. */
  static final AggregateReduceFunctionsRule REDUCE_THROUGH_PROJECT =
      AggregateReduceFunctionsRule.Config.DEFAULT
          .withFunctionsToReduce(Set.of(SqlKind.AVG, SqlKind.SUM))
          .withOperandSupplier(
              b0 ->
                  b0.operand(LogicalAggregate.class)
                      .oneInput(
                          b1 ->
                              b1.operand(LogicalProject.class)
                                  .predicate(LakeAggregateScanRule::computable)
                                  .oneInput(
                                      b2 ->
                                          b2.operand(LakeTableScan.class)
                                              .predicate(LakeAggregateScanRule::plainScan)
                                              .noInputs())))
          .withDescription("LakeAggregateProjectReduceFunctionsRule")
          .as(AggregateReduceFunctionsRule.Config.class)
          .toRule();

  private LakeAggregateScanRule(LakeRuleConfig config) {
    super(config);
  }

  /**
   * A scan emitting every row it reads: no aggregation yet, no limit, no row ids. Also the scans
   * {@link LakeAggregateJoinRule} aggregates.
   */
  static boolean plainScan(LakeTableScan scan) {
    return !scan.spec().aggregated() && !scan.spec().rowIds() && !scan.spec().truncated();
  }

  /**
   * Whether the scan can compute every expression of the project from its columns: as a value, or
   * for a BOOLEAN one as the condition of an aggregate's FILTER.
   */
  private static boolean computable(Project project) {
    if (!project.getVariablesSet().isEmpty()) {
      return false;
    }
    ScanExpressions translator =
        new ScanExpressions(project.getInput().getRowType(), project.getCluster().getRexBuilder());
    for (RexNode node : project.getProjects()) {
      if (!(node instanceof RexInputRef)
          && translator.translate(node) == null
          && (node.getType().getSqlTypeName() != SqlTypeName.BOOLEAN
              || translator.filterFlag(node) == null)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The positions of the aggregate's input fields in the scan's columns then the computed ones: a
   * project's expressions are computed, each once, in the order the aggregate first uses them.
   */
  private static final class Inputs {
    private final Project project;
    private final int width;
    private final ScanExpressions translator;
    private final java.util.Map<Integer, Integer> positions = new java.util.HashMap<>();

    /** The FILTER fields' computed columns ({@link #filterPosition}). */
    private final java.util.Map<Integer, Integer> filters = new java.util.HashMap<>();

    final List<dev.floe.planner.scan.ScanExpression> computed = new ArrayList<>();

    Inputs(Project project, LakeTableScan scan) {
      this.project = project;
      this.width = scan.getRowType().getFieldCount();
      this.translator =
          project == null
              ? null
              : new ScanExpressions(scan.getRowType(), scan.getCluster().getRexBuilder());
    }

    /** The position of the aggregate's input field {@code field}. */
    int position(int field) {
      if (project == null) {
        return field;
      }
      RexNode node = project.getProjects().get(field);
      if (node instanceof RexInputRef ref) {
        return ref.getIndex();
      }
      return positions.computeIfAbsent(
          field,
          f -> {
            computed.add(translator.translate(node));
            return width + computed.size() - 1;
          });
    }

    /**
     * The position of the computed column that is 1 for the rows an aggregate's FILTER field takes
     * ({@link ScanExpressions#filterFlag}), or -1 when the scan does not compute it (a filter not
     * computed by the project above the scan, or a condition the scan does not test).
     */
    int filterPosition(int field) {
      if (project == null) {
        return -1;
      }
      Integer known = filters.get(field);
      if (known != null) {
        return known;
      }
      dev.floe.planner.scan.ScanExpression flag =
          translator.filterFlag(project.getProjects().get(field));
      if (flag == null) {
        return -1;
      }
      computed.add(flag);
      int position = width + computed.size() - 1;
      filters.put(field, position);
      return position;
    }

    /** Whether the scan reads or computes the field's values (a condition's are not values). */
    boolean hasValues(int field) {
      return project == null
          || project.getProjects().get(field) instanceof RexInputRef
          || translator.translate(project.getProjects().get(field)) != null;
    }

    /** Whether the field is a column of the scan (not computed). */
    boolean isColumn(int field) {
      return project == null || project.getProjects().get(field) instanceof RexInputRef;
    }

    /** The SQL type of the aggregate's input field {@code field}. */
    RelDataType type(LakeTableScan scan, int field) {
      return project == null
          ? scan.getRowType().getFieldList().get(field).getType()
          : project.getProjects().get(field).getType();
    }
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Aggregate aggregate = call.rel(0);
    LakeTableScan scan = call.rel(call.getRelList().size() - 1);
    Project project = call.getRelList().size() == 3 ? call.rel(1) : null;
    LakeTableScan aggregating = aggregating(aggregate, project, scan);
    if (aggregating != null) {
      call.transformTo(aggregating);
    }
  }

  /**
   * Whether the scan would compute this aggregate: it is directly over a scan that emits every row
   * it reads, or over a project of such a scan whose expressions the scan computes, and every key
   * and call is one the scan computes. The one test of {@link LakeAggregateJoinRule}, which builds
   * aggregates for this rule to move into scans.
   */
  static boolean accepts(Aggregate aggregate) {
    RelNode input = aggregate.getInput().stripped();
    Project project = null;
    if (input instanceof LogicalProject logical && computable(logical)) {
      project = logical;
      input = logical.getInput().stripped();
    }
    return input instanceof LakeTableScan scan
        && plainScan(scan)
        && aggregating(aggregate, project, scan) != null;
  }

  /** The scan computing the aggregate, or null when it does not compute it. */
  private static LakeTableScan aggregating(
      Aggregate aggregate, Project project, LakeTableScan scan) {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      return null;
    }
    Inputs inputs = new Inputs(project, scan);
    List<Integer> groups = new ArrayList<>();
    for (int field : aggregate.getGroupSet()) {
      if (!inputs.hasValues(field)) {
        return null;
      }
      SqlTypeName type = inputs.type(scan, field).getSqlTypeName();
      if (!groupable(type) || !inputs.isColumn(field) && !computedKey(type)) {
        return null;
      }
      groups.add(inputs.position(field));
    }
    List<LakeAggregation.Call> calls = new ArrayList<>();
    for (AggregateCall aggregateCall : aggregate.getAggCallList()) {
      LakeAggregation.Call lakeCall = translate(aggregateCall, inputs, scan);
      if (lakeCall == null) {
        return null;
      }
      calls.add(lakeCall);
    }
    return scan.aggregating(
        new LakeAggregation(groups, calls, inputs.computed), aggregate.getRowType());
  }

  private static LakeAggregation.Call translate(
      AggregateCall call, Inputs inputs, LakeTableScan scan) {
    LakeAggregation.Call translated = unfiltered(call, inputs, scan);
    if (translated == null || !call.hasFilter()) {
      return translated;
    }
    int filter = inputs.filterPosition(call.filterArg);
    return filter < 0 ? null : translated.filtered(filter);
  }

  private static LakeAggregation.Call unfiltered(
      AggregateCall call, Inputs inputs, LakeTableScan scan) {
    if (call.isDistinct()
        || call.isApproximate()
        || call.distinctKeys != null
        || !call.collation.equals(RelCollations.EMPTY)
        || call.getArgList().size() > 1) {
      return null;
    }
    boolean noArg = call.getArgList().isEmpty();
    if (!noArg && !inputs.hasValues(call.getArgList().get(0))) {
      return null; // a condition as an argument (COUNT(a > b)): computed as a value nowhere here
    }
    SqlTypeName argType =
        noArg ? null : inputs.type(scan, call.getArgList().get(0)).getSqlTypeName();
    if (!noArg
        && !inputs.isColumn(call.getArgList().get(0))
        && call.getAggregation().getKind() != SqlKind.COUNT
        && adder(argType) == null) {
      return null;
    }
    int arg = noArg ? -1 : inputs.position(call.getArgList().get(0));
    switch (call.getAggregation().getKind()) {
      case COUNT:
        if (noArg) {
          return new LakeAggregation.Call(
              LakeAggregation.Kind.COUNT_ROWS, -1, LakeAggregation.Adder.NONE);
        }
        return new LakeAggregation.Call(
            LakeAggregation.Kind.COUNT, arg, LakeAggregation.Adder.NONE);
      case SUM:
      case SUM0:
        {
          LakeAggregation.Adder adder = adder(call.getType().getSqlTypeName());
          LakeAggregation.Adder from = adder(argType);
          // An INTEGER's sum is BIGINT (LakeTypeSystem): added in a long, as BIGINT's.
          boolean widened =
              from == LakeAggregation.Adder.INT && adder == LakeAggregation.Adder.LONG;
          if (noArg || adder == null || (from != adder && !widened)) {
            return null;
          }
          return new LakeAggregation.Call(
              call.getAggregation().getKind() == SqlKind.SUM
                  ? LakeAggregation.Kind.SUM
                  : LakeAggregation.Kind.SUM0,
              arg,
              adder);
        }
      case MIN:
      case MAX:
        if (noArg || !comparable(argType)) {
          return null;
        }
        return new LakeAggregation.Call(
            call.getAggregation().getKind() == SqlKind.MIN
                ? LakeAggregation.Kind.MIN
                : LakeAggregation.Kind.MAX,
            arg,
            LakeAggregation.Adder.NONE);
      default:
        return null;
    }
  }

  /**
   * The Java type Calcite adds a sum of this SQL type in, or null when the scan does not add it (a
   * sum of REAL is DOUBLE, {@code LakeTypeSystem}).
   */
  private static LakeAggregation.Adder adder(SqlTypeName type) {
    switch (type) {
      case INTEGER:
        return LakeAggregation.Adder.INT;
      case BIGINT:
        return LakeAggregation.Adder.LONG;
      case REAL:
      case DOUBLE:
        return LakeAggregation.Adder.DOUBLE;
      case DECIMAL:
        return LakeAggregation.Adder.DECIMAL;
      default:
        return null;
    }
  }

  /** Types whose values the scan orders as Calcite does (numbers, dates and times, text). */
  private static boolean comparable(SqlTypeName type) {
    switch (type) {
      case BOOLEAN:
      case INTEGER:
      case BIGINT:
      case REAL:
      case DOUBLE:
      case DECIMAL:
      case DATE:
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      case CHAR:
      case VARCHAR:
        return true;
      default:
        return false;
    }
  }

  /**
   * Types of computed values the scan groups by ({@code EXTRACT(YEAR FROM d)}, {@code k + 1}):
   * integers, held in primitive vectors and told apart by their value.
   */
  private static boolean computedKey(SqlTypeName type) {
    return type == SqlTypeName.INTEGER || type == SqlTypeName.BIGINT;
  }

  /** Types whose values group as Calcite groups them (by {@code equals}): the flat ones. */
  private static boolean groupable(SqlTypeName type) {
    return comparable(type);
  }
}
