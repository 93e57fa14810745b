package dev.floe.planner.prepare;

import dev.floe.planner.adapter.EnumerableLakeScan;
import dev.floe.planner.adapter.LakeTable;
import dev.floe.planner.adapter.LakeTableScan;
import dev.floe.planner.adapter.TableStatistics;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Floe's estimates for the planner, in front of Calcite's: the rows of an inner or outer join from
 * the distinct values of its keys, the distinct values of a Floe scan's columns from the table's
 * statistics ({@code TableStatistics}), and the cost of a hash join and of a sort as their work
 * grows.
 *
 * <p><b>Join rows.</b> An equi-join of inputs of L and R rows whose keys have D<sub>L</sub> and
 * D<sub>R</sub> distinct values gives L·R / max(D<sub>L</sub>, D<sub>R</sub>) rows (each key value
 * of the side with fewer meets its matches on the other), times Calcite's guess for any condition
 * beside the equalities. So {@code customer ⋈ supplier ON c_nationkey = s_nationkey} (25 nations)
 * is estimated at 150,000 · 10,000 / 25 = 60 million rows at SF1, and the join order puts it after
 * the joins that narrow. When one input's keys hold the whole key of its table (its identifier
 * fields, such as partsupp's {@code (ps_partkey, ps_suppkey)}, or a first column named as a key),
 * the join is a lookup: the other side's rows times the share of that table the input keeps ({@code
 * lineitem ⋈ partsupp} keeps lineitem's 6 million rows; with a filtered {@code part}, a fraction of
 * them). A column nothing tells about is assumed to repeat each value 10 times, so a many-to-many
 * join of unknown columns multiplies rows by 10 (never 1, as Calcite's guess for an equality, 0.15
 * of the cross product, is far from in both directions).
 *
 * <p><b>Costs</b> (Volcano compares only the row component). A hash join reads its probe side (the
 * left) once, builds a table of its right side (counted twice: it is held and hashed) and emits its
 * rows, so the cheaper of the two sides to build is the smaller. A sort of n rows costs n·log₂ n,
 * so a merge join is chosen only where its inputs already arrive sorted; two full sorts and a merge
 * never beat a hash join.
 */
public final class LakeMetadata {
  /** How often a value of a column nothing tells about is assumed to repeat. */
  static final double UNKNOWN_REPEATS = TableStatistics.UNKNOWN_REPEATS;

  /** Floe's handlers first, then Calcite's default ones. */
  static final RelMetadataProvider PROVIDER =
      ChainedRelMetadataProvider.of(
          List.of(
              ReflectiveRelMetadataProvider.reflectiveSource(
                  new JoinRows(), BuiltInMetadata.RowCount.Handler.class),
              ReflectiveRelMetadataProvider.reflectiveSource(
                  new ScanDistinct(), BuiltInMetadata.DistinctRowCount.Handler.class),
              ReflectiveRelMetadataProvider.reflectiveSource(
                  new Costs(), BuiltInMetadata.NonCumulativeCost.Handler.class),
              ReflectiveRelMetadataProvider.reflectiveSource(
                  new ScanOrigins(), BuiltInMetadata.ColumnOrigin.Handler.class),
              DefaultRelMetadataProvider.INSTANCE));

  private LakeMetadata() {}

  /** The rows of a join (inner and outer; semi- and anti-joins as Calcite estimates them). */
  public static final class JoinRows implements MetadataHandler<BuiltInMetadata.RowCount> {
    @Override
    public MetadataDef<BuiltInMetadata.RowCount> getDef() {
      return BuiltInMetadata.RowCount.DEF;
    }

    /** See {@link LakeMetadata}. */
    public @Nullable Double getRowCount(Join join, RelMetadataQuery mq) {
      JoinRelType type = join.getJoinType();
      if (!type.projectsRight()) {
        return RelMdUtil.getJoinRowCount(mq, join, join.getCondition());
      }
      Double leftRows = mq.getRowCount(join.getLeft());
      Double rightRows = mq.getRowCount(join.getRight());
      if (leftRows == null || rightRows == null) {
        return RelMdUtil.getJoinRowCount(mq, join, join.getCondition());
      }
      double left = Math.max(leftRows, 1d);
      double right = Math.max(rightRows, 1d);
      JoinInfo info = join.analyzeCondition();
      double rows;
      if (info.pairs().isEmpty()) {
        rows = left * right * RelMdUtil.guessSelectivity(join.getCondition());
      } else {
        double rightKept = keptOfKey(mq, join.getRight(), info.rightSet());
        double leftKept = keptOfKey(mq, join.getLeft(), info.leftSet());
        if (rightKept >= 0) {
          rows = left * rightKept; // each left row meets the one right row its key names
        } else if (leftKept >= 0) {
          rows = right * leftKept;
        } else {
          double leftDistinct = distinct(mq, join.getLeft(), info.leftSet(), left);
          double rightDistinct = distinct(mq, join.getRight(), info.rightSet(), right);
          rows = left * right / Math.max(1d, Math.max(leftDistinct, rightDistinct));
        }
        if (!info.isEqui()) {
          RexNode rest = info.getRemaining(join.getCluster().getRexBuilder());
          rows *= RelMdUtil.guessSelectivity(rest);
        }
      }
      switch (type) {
        case LEFT -> rows = Math.max(rows, left);
        case RIGHT -> rows = Math.max(rows, right);
        case FULL -> rows = Math.max(rows, left + right);
        default -> {}
      }
      return Math.max(rows, 1d);
    }

    /**
     * When an input's join keys are all columns of one Floe table that hold its whole key (see
     * {@code TableStatistics.key}), the share of that table's rows the input keeps (its rows over
     * the table's, at most 1); -1 otherwise. A join on such keys is a lookup: each row of the other
     * side meets at most one row of this one.
     */
    private static double keptOfKey(RelMetadataQuery mq, RelNode input, ImmutableBitSet keys) {
      RelOptTable table = null;
      Set<Integer> fieldIds = new HashSet<>();
      for (int key : keys) {
        RelColumnOrigin origin = mq.getColumnOrigin(input, key);
        if (origin == null
            || origin.isDerived()
            || (table != null
                && !table.getQualifiedName().equals(origin.getOriginTable().getQualifiedName()))) {
          return -1;
        }
        table = origin.getOriginTable();
        LakeTable lake = table.unwrap(LakeTable.class);
        if (lake == null || origin.getOriginColumnOrdinal() >= lake.schema().columns().size()) {
          return -1;
        }
        fieldIds.add(lake.schema().columns().get(origin.getOriginColumnOrdinal()).fieldId());
      }
      LakeTable lake = table == null ? null : table.unwrap(LakeTable.class);
      if (lake == null) {
        return -1;
      }
      Set<Integer> key = TableStatistics.key(lake.schema());
      Double rows = mq.getRowCount(input);
      double tableRows = table.getRowCount();
      if (key.isEmpty() || !fieldIds.containsAll(key) || rows == null || tableRows <= 0) {
        return -1;
      }
      return Math.min(1d, rows / tableRows);
    }

    private static double distinct(
        RelMetadataQuery mq, RelNode input, ImmutableBitSet keys, double rows) {
      Double d = mq.getDistinctRowCount(input, keys, null);
      if (d == null || d.isNaN() || d <= 0) {
        return Math.max(1d, rows / UNKNOWN_REPEATS);
      }
      return Math.min(d, rows);
    }
  }

  /** The distinct values of columns of a Floe scan, from the table's statistics. */
  public static final class ScanDistinct
      implements MetadataHandler<BuiltInMetadata.DistinctRowCount> {
    @Override
    public MetadataDef<BuiltInMetadata.DistinctRowCount> getDef() {
      return BuiltInMetadata.DistinctRowCount.DEF;
    }

    public @Nullable Double getDistinctRowCount(
        LakeTableScan scan,
        RelMetadataQuery mq,
        ImmutableBitSet groupKey,
        @Nullable RexNode predicate) {
      return distinct(scan, mq.getRowCount(scan), groupKey, predicate);
    }

    public @Nullable Double getDistinctRowCount(
        EnumerableLakeScan scan,
        RelMetadataQuery mq,
        ImmutableBitSet groupKey,
        @Nullable RexNode predicate) {
      return distinct(scan.scan(), mq.getRowCount(scan), groupKey, predicate);
    }

    private static @Nullable Double distinct(
        LakeTableScan scan,
        @Nullable Double scanRows,
        ImmutableBitSet groupKey,
        @Nullable RexNode predicate) {
      if (scanRows == null || scan.spec().aggregated()) {
        return null;
      }
      double rows = scanRows;
      if (predicate != null && !predicate.isAlwaysTrue()) {
        rows *= RelMdUtil.guessSelectivity(predicate);
      }
      double d = scan.distinctRows(groupKey, rows);
      return d < 0 ? null : d;
    }
  }

  /**
   * The table column each output column of a Floe scan reads. A Floe scan reads only the columns a
   * query uses, so its output column {@code i} is the table's column {@code spec.columns()[i]}, not
   * column {@code i} as Calcite assumes for a table scan (which made two different columns look
   * like one, to join estimates and to the join order's self-join detection).
   */
  public static final class ScanOrigins implements MetadataHandler<BuiltInMetadata.ColumnOrigin> {
    @Override
    public MetadataDef<BuiltInMetadata.ColumnOrigin> getDef() {
      return BuiltInMetadata.ColumnOrigin.DEF;
    }

    public @Nullable Set<RelColumnOrigin> getColumnOrigins(
        LakeTableScan scan, RelMetadataQuery mq, int column) {
      return origins(scan, column);
    }

    public @Nullable Set<RelColumnOrigin> getColumnOrigins(
        EnumerableLakeScan scan, RelMetadataQuery mq, int column) {
      return origins(scan.scan(), column);
    }

    private static @Nullable Set<RelColumnOrigin> origins(LakeTableScan scan, int column) {
      int position = scan.columnOf(column);
      if (position < 0) {
        return null;
      }
      return Set.of(
          new RelColumnOrigin(scan.getTable(), scan.spec().columns().get(position), false));
    }
  }

  /** The cost of a hash join and of a sort. */
  public static final class Costs implements MetadataHandler<BuiltInMetadata.NonCumulativeCost> {
    @Override
    public MetadataDef<BuiltInMetadata.NonCumulativeCost> getDef() {
      return BuiltInMetadata.NonCumulativeCost.DEF;
    }

    /** Probe rows once, build rows twice, the rows it emits. */
    public @Nullable RelOptCost getNonCumulativeCost(EnumerableHashJoin join, RelMetadataQuery mq) {
      Double out = mq.getRowCount(join);
      Double left = mq.getRowCount(join.getLeft());
      Double right = mq.getRowCount(join.getRight());
      if (out == null || left == null || right == null) {
        return join.computeSelfCost(join.getCluster().getPlanner(), mq);
      }
      double rows = out + left + 2 * right;
      return join.getCluster().getPlanner().getCostFactory().makeCost(rows, 0, 0);
    }

    /** n·log₂ n for a sort of n rows (of k kept, with a fetch: n·log₂ k); a limit alone is free. */
    public @Nullable RelOptCost getNonCumulativeCost(Sort sort, RelMetadataQuery mq) {
      RelCollation collation = sort.getCollation();
      Double input = mq.getRowCount(sort.getInput());
      if (collation.getFieldCollations().isEmpty() || input == null) {
        return sort.computeSelfCost(sort.getCluster().getPlanner(), mq);
      }
      double n = Math.max(input, 1d);
      double kept = n;
      if (sort.fetch instanceof RexLiteral literal) {
        Number fetch = literal.getValueAs(Number.class);
        if (fetch != null) {
          kept = Math.max(1d, Math.min(n, fetch.doubleValue()));
        }
      }
      double rows = n * Math.max(1d, Math.log(Math.max(kept, 2d)) / Math.log(2));
      return sort.getCluster().getPlanner().getCostFactory().makeCost(rows, 0, 0);
    }
  }
}
