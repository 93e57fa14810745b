package dev.floe.planner.adapter;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Eager aggregation: an aggregate over a join whose aggregated values all come from one side, a
 * Floe scan, aggregates that scan first, grouped by its join keys (and by the aggregate's keys that
 * come from it), so that the scan computes the partial counts, sums, minima and maxima on the
 * column batches it decodes, in parallel ({@link LakeAggregateScanRule}), and the join meets one
 * row per key instead of every row. The aggregate above the join combines the partial values: the
 * sum of the partial counts, sums ({@code SUM} and {@code $SUM0}), the least of the minima, the
 * greatest of the maxima; {@code AVG} is first Calcite's {@code SUM / COUNT} ({@link
 * #REDUCE_AVERAGES}). Every joined row belongs to exactly one partial row, so the groups and values
 * are the aggregate's own.
 *
 * <p>It takes an inner join, a left join aggregating its right side and a right join aggregating
 * its left side, whose condition (and the condition of a filter directly above an inner join: a
 * join written with commas) is a conjunction of equalities between a column of each side, of
 * conditions on the aggregated side alone (pushed into its scan, which must test them all), and of
 * conditions on the other side alone (kept in the join's condition). It leaves:
 *
 * <ul>
 *   <li>{@code DISTINCT}, {@code FILTER} and ordered aggregates, and functions other than {@code
 *       COUNT}, {@code SUM}, {@code $SUM0}, {@code MIN}, {@code MAX} and {@code AVG};
 *   <li>sums and averages of floating-point values, whose rounding depends on the order they are
 *       added in, and of BIGINT values, whose partial sums may overflow where the total does not;
 *   <li>arguments and keys of the aggregated side that are expressions rather than columns: the
 *       partial aggregate computes them on rows the join drops (where an overflow would fail the
 *       query), and below an outer join an expression of the NULLs an unmatched row is joined to
 *       need not be NULL ({@code COALESCE}, {@code CASE WHEN x IS NULL});
 *   <li>{@code COUNT(*)} over an outer join, which counts the row an unmatched row is joined to;
 *   <li>an inner join whose other side is filtered: the rows of the aggregated side it drops are
 *       cheaper dropped by the keys the join publishes to the scan ({@code RuntimeFilter}) than
 *       aggregated first;
 *   <li>an aggregated side whose keys are known to repeat less than twice on average (table
 *       statistics), where the partial aggregate would not make fewer rows.
 * </ul>
 */
public final class LakeAggregateJoinRule extends RelRule<LakeRuleConfig> {
  static final LakeAggregateJoinRule INSTANCE =
      new LakeAggregateJoinRule(
          LakeRuleConfig.of(
              "LakeAggregateJoinRule",
              b0 ->
                  b0.operand(LogicalAggregate.class)
                      .predicate(aggregate -> plan(aggregate, false) != null)
                      .anyInputs(),
              LakeAggregateJoinRule::new));

  /**
   * Calcite's rewrite of {@code AVG(x)} into {@code SUM(x) / COUNT(x)}, for an aggregate this rule
   * then rewrites, run before it.
   */
  static final AggregateReduceFunctionsRule REDUCE_AVERAGES =
      AggregateReduceFunctionsRule.Config.DEFAULT
          .withFunctionsToReduce(Set.of(SqlKind.AVG))
          .withOperandSupplier(
              b0 ->
                  b0.operand(LogicalAggregate.class)
                      .predicate(
                          aggregate -> hasAverage(aggregate) && plan(aggregate, true) != null)
                      .anyInputs())
          .withDescription("LakeAggregateJoinReduceAveragesRule")
          .as(AggregateReduceFunctionsRule.Config.class)
          .toRule();

  /** A partial aggregate must make at most this share of its side's rows, when that is known. */
  private static final double MOST_KEPT = 0.5;

  private LakeAggregateJoinRule(LakeRuleConfig config) {
    super(config);
  }

  private static boolean hasAverage(Aggregate aggregate) {
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (call.getAggregation().getKind() == SqlKind.AVG) {
        return true;
      }
    }
    return false;
  }

  /** What the rule found under an aggregate it rewrites. */
  private record Plan(
      Aggregate aggregate,
      LogicalJoin join,
      List<RexNode> exprs,
      boolean aggregatedLeft,
      RelNode side,
      List<int[]> keys,
      List<RexNode> sideConditions,
      List<RexNode> otherConditions) {}

  @Override
  public void onMatch(RelOptRuleCall call) {
    Plan plan = plan(call.rel(0), false);
    if (plan == null) {
      return;
    }
    RelNode rewritten = rewrite(plan, call.getMetadataQuery());
    if (rewritten != null) {
      call.transformTo(rewritten);
    }
  }

  /**
   * What the aggregate's input holds when the rule applies to it, or null. With {@code averages},
   * {@code AVG} of an exact number counts as the sum and count it becomes.
   */
  private static @Nullable Plan plan(Aggregate aggregate, boolean averages) {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || !aggregate.getHints().isEmpty()) {
      return null;
    }
    RelNode input = aggregate.getInput().stripped();
    List<RexNode> exprs = null;
    if (input instanceof LogicalProject project) {
      if (!project.getVariablesSet().isEmpty() || !usable(project.getProjects())) {
        return null;
      }
      exprs = project.getProjects();
      input = project.getInput().stripped();
    }
    List<RexNode> conditions = new ArrayList<>();
    boolean filtered = false;
    if (input instanceof LogicalFilter filter) {
      if (!filter.getVariablesSet().isEmpty()) {
        return null;
      }
      conditions.addAll(RelOptUtil.conjunctions(filter.getCondition()));
      filtered = true;
      input = filter.getInput().stripped();
    }
    if (!(input instanceof LogicalJoin join) || !join.getVariablesSet().isEmpty()) {
      return null;
    }
    JoinRelType type = join.getJoinType();
    if (type != JoinRelType.INNER
        && (filtered || type != JoinRelType.LEFT && type != JoinRelType.RIGHT)) {
      return null;
    }
    conditions.addAll(RelOptUtil.conjunctions(join.getCondition()));
    if (!usable(conditions)) {
      return null;
    }
    int leftWidth = join.getLeft().getRowType().getFieldCount();
    int width = join.getRowType().getFieldCount();
    if (exprs == null) {
      exprs = new ArrayList<>();
      for (RelDataType ignored : RelOptUtil.getFieldTypeList(join.getRowType())) {
        exprs.add(new RexInputRef(exprs.size(), ignored));
      }
    }
    ImmutableBitSet left = ImmutableBitSet.range(0, leftWidth);
    ImmutableBitSet right = ImmutableBitSet.range(leftWidth, width);

    // the side whose values are aggregated
    ImmutableBitSet.Builder argumentBits = ImmutableBitSet.builder();
    for (AggregateCall call : aggregate.getAggCallList()) {
      RelDataType argType =
          call.getArgList().size() == 1 ? exprs.get(call.getArgList().get(0)).getType() : null;
      if (!combinable(call, argType, averages)) {
        return null;
      }
      for (int arg : call.getArgList()) {
        // a column, never an expression: the partial aggregate computes its arguments on rows the
        // join would drop (an overflow there fails a query that would not fail), and below an
        // outer join, where an expression of the NULLs an unmatched row is joined to need not be
        // NULL (CASE WHEN s.id IS NULL THEN 1 END, COALESCE, a constant)
        if (!(exprs.get(arg) instanceof RexInputRef ref)) {
          return null;
        }
        argumentBits.set(ref.getIndex());
      }
    }
    ImmutableBitSet arguments = argumentBits.build();
    boolean aggregatedLeft;
    if (type == JoinRelType.LEFT) {
      aggregatedLeft = false;
    } else if (type == JoinRelType.RIGHT) {
      aggregatedLeft = true;
    } else if (!arguments.isEmpty()) {
      aggregatedLeft = left.contains(arguments);
    } else {
      RelMetadataQuery mq = join.getCluster().getMetadataQuery();
      Double leftRows = mq.getRowCount(join.getLeft());
      Double rightRows = mq.getRowCount(join.getRight());
      aggregatedLeft = leftRows != null && rightRows != null && leftRows > rightRows;
    }
    ImmutableBitSet aggregated = aggregatedLeft ? left : right;
    if (!aggregated.contains(arguments)) {
      return null;
    }
    if (type != JoinRelType.INNER) {
      for (AggregateCall call : aggregate.getAggCallList()) {
        if (call.getArgList().isEmpty()) {
          return null;
        }
      }
    }
    RelNode side = (aggregatedLeft ? join.getLeft() : join.getRight()).stripped();
    RelNode other = (aggregatedLeft ? join.getRight() : join.getLeft()).stripped();
    if (side instanceof LakeTableScan scan
        ? !LakeAggregateScanRule.plainScan(scan)
        : !innerJoin(side)) {
      return null;
    }

    // the condition: keys, conditions on the aggregated side, conditions on the other side
    List<int[]> keys = new ArrayList<>();
    List<RexNode> sideConditions = new ArrayList<>();
    List<RexNode> otherConditions = new ArrayList<>();
    for (RexNode conjunct : conditions) {
      if (conjunct.isAlwaysTrue()) {
        continue;
      }
      ImmutableBitSet bits = RelOptUtil.InputFinder.bits(conjunct);
      if (!bits.isEmpty() && aggregated.contains(bits)) {
        sideConditions.add(conjunct);
      } else if (!bits.intersects(aggregated)) {
        if (type == JoinRelType.INNER && !columnEquality(conjunct)) {
          return null; // the other side is filtered
        }
        otherConditions.add(conjunct);
      } else {
        int[] key = key(conjunct, aggregated);
        if (key == null) {
          return null;
        }
        keys.add(key);
      }
    }
    if (keys.isEmpty() || type == JoinRelType.INNER && !complete(other)) {
      return null;
    }
    // the aggregate's keys: each from one side (or from neither: a constant)
    for (int field : aggregate.getGroupSet()) {
      // those of the aggregated side columns, for the reasons the arguments are
      ImmutableBitSet bits = RelOptUtil.InputFinder.bits(exprs.get(field));
      if (bits.intersects(aggregated) && !(exprs.get(field) instanceof RexInputRef)) {
        return null;
      }
    }
    return new Plan(
        aggregate, join, exprs, aggregatedLeft, side, keys, sideConditions, otherConditions);
  }

  /** Expressions the rule may move: no sub-queries, windows or non-deterministic calls. */
  private static boolean usable(List<RexNode> nodes) {
    for (RexNode node : nodes) {
      if (RexUtil.SubQueryFinder.find(node) != null
          || RexOver.containsOver(node)
          || !RexUtil.isDeterministic(node)) {
        return false;
      }
    }
    return true;
  }

  /** Whether the call's value is a combination of the values of its parts. */
  private static boolean combinable(
      AggregateCall call, @Nullable RelDataType argType, boolean averages) {
    if (call.isDistinct()
        || call.isApproximate()
        || call.hasFilter()
        || call.distinctKeys != null
        || !call.collation.equals(RelCollations.EMPTY)
        || !call.rexList.isEmpty()
        || call.getArgList().size() > 1) {
      return false;
    }
    switch (call.getAggregation().getKind()) {
      case COUNT:
        return true;
      case MIN:
      case MAX:
        return call.getArgList().size() == 1;
      case SUM:
      case SUM0:
        return argType != null && summable(argType);
      case AVG:
        // an average of integers is a DOUBLE (LakeTypeSystem): of an exact sum and count
        return averages && argType != null && summable(argType);
      default:
        return false;
    }
  }

  /**
   * Whether partial sums of the type add up to the sum of its values, in any order, and never fail
   * where the whole sum does not: an INTEGER's sum is a BIGINT (LakeTypeSystem), which one key's
   * rows cannot overflow, and a DECIMAL's sum has as many digits as it needs. A BIGINT's partial
   * sum may overflow for a key where the total does not, or for rows the join drops; REAL and
   * DOUBLE round differently in another order.
   */
  private static boolean summable(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    return name == SqlTypeName.TINYINT
        || name == SqlTypeName.SMALLINT
        || name == SqlTypeName.INTEGER
        || name == SqlTypeName.DECIMAL;
  }

  /**
   * The pair (column of the aggregated side, column of the other) of an equality of a column of
   * each side, of one type, or null.
   */
  private static int @Nullable [] key(RexNode conjunct, ImmutableBitSet aggregated) {
    if (!columnEquality(conjunct)) {
      return null;
    }
    List<RexNode> operands = ((RexCall) conjunct).getOperands();
    int a = ((RexInputRef) operands.get(0)).getIndex();
    int b = ((RexInputRef) operands.get(1)).getIndex();
    if (aggregated.get(a) == aggregated.get(b)
        || !SqlTypeUtil.equalSansNullability(
            operands.get(0).getType(), operands.get(1).getType())) {
      return null;
    }
    return aggregated.get(a) ? new int[] {a, b} : new int[] {b, a};
  }

  /** An equality ({@code =}, which no NULL satisfies) of two columns. */
  private static boolean columnEquality(RexNode conjunct) {
    return conjunct.getKind() == SqlKind.EQUALS
        && ((RexCall) conjunct).getOperands().get(0) instanceof RexInputRef
        && ((RexCall) conjunct).getOperands().get(1) instanceof RexInputRef;
  }

  /**
   * An inner join, under which the partial aggregate is split again ({@link #rewrite}): the
   * aggregated table may be joined to other tables before the join the aggregate is over.
   */
  private static boolean innerJoin(RelNode rel) {
    return rel instanceof LogicalJoin join
        && join.getJoinType() == JoinRelType.INNER
        && join.getVariablesSet().isEmpty();
  }

  /**
   * Whether a relation keeps every row of its tables: unfiltered scans, projects of them, and inner
   * and left joins of them on equal columns. Joined to such a relation by its key, a table's rows
   * all find their match, so none is aggregated in vain.
   */
  private static boolean complete(RelNode rel) {
    if (rel instanceof LakeTableScan scan) {
      return LakeAggregateScanRule.plainScan(scan)
          && !scan.spec().filtered()
          && scan.spec().condition() == null;
    }
    if (rel instanceof LogicalProject project) {
      return complete(project.getInput().stripped());
    }
    if (rel instanceof LogicalJoin join) {
      if (join.getJoinType() != JoinRelType.INNER && join.getJoinType() != JoinRelType.LEFT) {
        return false;
      }
      for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
        if (!conjunct.isAlwaysTrue() && !columnEquality(conjunct)) {
          return false;
        }
      }
      return complete(join.getLeft().stripped()) && complete(join.getRight().stripped());
    }
    return false;
  }

  private static @Nullable RelNode rewrite(Plan plan, RelMetadataQuery mq) {
    Aggregate aggregate = plan.aggregate();
    LogicalJoin join = plan.join();
    RexBuilder rex = join.getCluster().getRexBuilder();
    int leftWidth = join.getLeft().getRowType().getFieldCount();
    int sideOffset = plan.aggregatedLeft() ? 0 : leftWidth;
    int otherOffset = plan.aggregatedLeft() ? leftWidth : 0;
    RelNode otherSide = plan.aggregatedLeft() ? join.getRight() : join.getLeft();
    int otherWidth = otherSide.getRowType().getFieldCount();
    ImmutableBitSet aggregated =
        ImmutableBitSet.range(sideOffset, sideOffset + plan.side().getRowType().getFieldCount());

    // the side's columns as the side types them (a left join's right columns are nullable above it)
    RelNode sideInput = plan.side();
    RexShuttle sideFields =
        new RexShuttle() {
          @Override
          public RexNode visitInputRef(RexInputRef ref) {
            return rex.makeInputRef(sideInput, ref.getIndex() - sideOffset);
          }
        };
    // the aggregated side with the conditions on it: a scan must test them all
    RelNode side = plan.side();
    if (!plan.sideConditions().isEmpty()) {
      RexNode condition = RexUtil.composeConjunction(rex, plan.sideConditions()).accept(sideFields);
      if (side instanceof LakeTableScan scan) {
        side = LakeFilterScanRule.pushed(scan, condition);
        if (!(side instanceof LakeTableScan)) {
          return null;
        }
      } else {
        side = LogicalFilter.create(side, condition);
      }
    }

    // the partial aggregate: keys, then the aggregate's keys from this side, then the arguments
    List<RexNode> partialExprs = new ArrayList<>();
    for (int[] key : plan.keys()) {
      partialExprs.add(rex.makeInputRef(side, key[0] - sideOffset));
    }
    List<Integer> sideGroups = new ArrayList<>();
    for (int field : aggregate.getGroupSet()) {
      RexNode expr = plan.exprs().get(field);
      ImmutableBitSet bits = RelOptUtil.InputFinder.bits(expr);
      if (!bits.isEmpty() && aggregated.contains(bits)) {
        sideGroups.add(field);
        partialExprs.add(expr.accept(sideFields));
      }
    }
    int partialKeys = partialExprs.size();
    List<Integer> argPositions = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (call.getArgList().isEmpty()) {
        argPositions.add(-1);
      } else {
        argPositions.add(partialExprs.size());
        partialExprs.add(plan.exprs().get(call.getArgList().get(0)).accept(sideFields));
      }
    }
    RelNode project =
        LogicalProject.create(side, List.of(), partialExprs, (List<String>) null, Set.of());
    List<AggregateCall> partialCalls = new ArrayList<>();
    for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
      AggregateCall call = aggregate.getAggCallList().get(i);
      int arg = argPositions.get(i);
      partialCalls.add(
          AggregateCall.create(
              call.getAggregation(),
              false,
              false,
              false,
              List.of(),
              arg < 0 ? List.of() : List.of(arg),
              -1,
              null,
              RelCollations.EMPTY,
              partialKeys,
              project,
              null,
              null));
    }
    Aggregate partial =
        LogicalAggregate.create(
            project, List.of(), ImmutableBitSet.range(partialKeys), null, partialCalls);
    if (plan.side() instanceof LakeTableScan) {
      if (!LakeAggregateScanRule.accepts(partial)) {
        return null;
      }
      Double rows = mq.getRowCount(side);
      Double groups = mq.getDistinctRowCount(project, ImmutableBitSet.range(partialKeys), null);
      if (rows != null && groups != null && groups > rows * MOST_KEPT) {
        return null;
      }
    } else {
      // a join of the scan with other tables: the partial aggregate is itself split, down to the
      // scan, or the aggregate is left as it is
      Plan inner = plan(partial, false);
      RelNode split = inner == null ? null : rewrite(inner, mq);
      if (split == null) {
        return null;
      }
      partial = (Aggregate) split;
    }

    // the join of the other side with the partial rows
    int partialWidth = partial.getRowType().getFieldCount();
    int newOther = plan.aggregatedLeft() ? partialWidth : 0;
    int newPartial = plan.aggregatedLeft() ? 0 : otherWidth;
    RexShuttle otherFields =
        new RexShuttle() {
          @Override
          public RexNode visitInputRef(RexInputRef ref) {
            return new RexInputRef(ref.getIndex() - otherOffset + newOther, ref.getType());
          }
        };
    List<RexNode> conjuncts = new ArrayList<>();
    for (int i = 0; i < plan.keys().size(); i++) {
      int[] key = plan.keys().get(i);
      RexNode partialKey =
          new RexInputRef(newPartial + i, partial.getRowType().getFieldList().get(i).getType());
      int otherField = key[1] - otherOffset;
      RexNode otherKey =
          new RexInputRef(
              newOther + otherField,
              otherSide.getRowType().getFieldList().get(otherField).getType());
      conjuncts.add(
          plan.aggregatedLeft()
              ? rex.makeCall(SqlStdOperatorTable.EQUALS, partialKey, otherKey)
              : rex.makeCall(SqlStdOperatorTable.EQUALS, otherKey, partialKey));
    }
    for (RexNode condition : plan.otherConditions()) {
      conjuncts.add(condition.accept(otherFields));
    }
    RelNode left = plan.aggregatedLeft() ? partial : otherSide;
    RelNode right = plan.aggregatedLeft() ? otherSide : partial;
    RelNode joined =
        join.copy(
            join.getTraitSet(),
            RexUtil.composeConjunction(rex, conjuncts),
            left,
            right,
            join.getJoinType(),
            join.isSemiJoinDone());

    // the aggregate's keys and the partial values, then their combination
    List<RexNode> topExprs = new ArrayList<>();
    List<String> names = new ArrayList<>();
    int groupCount = aggregate.getGroupCount();
    int sideGroup = 0;
    for (int field : aggregate.getGroupSet()) {
      if (sideGroup < sideGroups.size() && sideGroups.get(sideGroup) == field) {
        int position = newPartial + plan.keys().size() + sideGroup;
        topExprs.add(rex.makeInputRef(joined, position));
        sideGroup++;
      } else {
        topExprs.add(plan.exprs().get(field).accept(otherFields));
      }
      names.add(aggregate.getRowType().getFieldList().get(topExprs.size() - 1).getName());
    }
    for (int i = 0; i < partialCalls.size(); i++) {
      topExprs.add(rex.makeInputRef(joined, newPartial + partialKeys + i));
      names.add(null);
    }
    RelNode top = LogicalProject.create(joined, List.of(), topExprs, names, Set.of());
    List<AggregateCall> combined = new ArrayList<>();
    for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
      AggregateCall call = aggregate.getAggCallList().get(i);
      combined.add(
          AggregateCall.create(
              combiner(call.getAggregation()),
              false,
              false,
              false,
              List.of(),
              List.of(groupCount + i),
              -1,
              null,
              RelCollations.EMPTY,
              groupCount,
              top,
              call.getType(),
              call.getName()));
    }
    Aggregate result =
        LogicalAggregate.create(top, List.of(), ImmutableBitSet.range(groupCount), null, combined);
    if (!RelOptUtil.areRowTypesEqual(result.getRowType(), aggregate.getRowType(), false)) {
      return null;
    }
    return result;
  }

  /** The function that combines partial values of the function. */
  private static SqlAggFunction combiner(SqlAggFunction function) {
    switch (function.getKind()) {
      case COUNT:
        return SqlStdOperatorTable.SUM0;
      default:
        return function;
    }
  }
}
