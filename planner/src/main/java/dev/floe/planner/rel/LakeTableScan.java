package dev.floe.planner.rel;

import dev.floe.planner.rules.LakeRules;
import dev.floe.planner.scan.LakeScan;
import dev.floe.planner.scan.LakeScanSpec;
import dev.floe.planner.schema.LakeTable;
import dev.floe.planner.schema.LakeTypes;
import dev.floe.planner.schema.PinnedTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.BuiltInMethod;
import org.apache.iceberg.Schema;

/**
 * The scan of one Iceberg table, in Calcite's Enumerable convention: it reads only the columns and
 * rows its {@link LakeScanSpec} asks for, from the snapshot pinned for the statement. Filters,
 * projections and limits reach it through {@link LakeRules}; what it emits is produced by {@link
 * LakeScan}.
 */
public final class LakeTableScan extends TableScan implements EnumerableRel {
  /** Name of the trailing field holding a row's data file, in scans for DELETE and UPDATE. */
  public static final String FILE_FIELD = "_file";
  /** Name of the trailing field holding a row's position in its data file. */
  public static final String POS_FIELD = "_pos";

  private final LakeTable lakeTable;
  private final LakeScanSpec spec;

  private LakeTableScan(
      RelOptCluster cluster,
      RelTraitSet traits,
      RelOptTable table,
      LakeTable lakeTable,
      LakeScanSpec spec) {
    super(cluster, traits, List.of(), table);
    this.lakeTable = lakeTable;
    this.spec = spec;
  }

  /** A scan of every column of a table. */
  public static LakeTableScan create(RelOptCluster cluster, RelOptTable table, LakeTable lake) {
    int columns = lake.pinned().table().schema().columns().size();
    return new LakeTableScan(
        cluster,
        cluster.traitSetOf(EnumerableConvention.INSTANCE),
        table,
        lake,
        LakeScanSpec.all(lake.session(), lake.path(), columns));
  }

  /** The same scan reading with another spec. */
  public LakeTableScan withSpec(LakeScanSpec newSpec) {
    return new LakeTableScan(getCluster(), getTraitSet(), getTable(), lakeTable, newSpec);
  }

  /** What this scan reads. */
  public LakeScanSpec spec() {
    return spec;
  }

  /** The table scanned. */
  public LakeTable lakeTable() {
    return lakeTable;
  }

  /** The table schema the scan's column indexes refer to. */
  public Schema schema() {
    return lakeTable.pinned().table().schema();
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LakeTableScan(getCluster(), traitSet, getTable(), lakeTable, spec);
  }

  @Override
  public RelDataType deriveRowType() {
    RelDataTypeFactory factory = getCluster().getTypeFactory();
    RelDataType full = LakeTypes.rowType(factory, schema());
    RelDataTypeFactory.Builder builder = factory.builder();
    for (int column : spec.columns()) {
      builder.add(full.getFieldList().get(column));
    }
    if (spec.rowIds()) {
      builder.add(FILE_FIELD, factory.createSqlType(SqlTypeName.VARCHAR));
      builder.add(POS_FIELD, factory.createSqlType(SqlTypeName.BIGINT));
    }
    return builder.build();
  }

  @Override
  public void register(RelOptPlanner planner) {
    for (RelOptRule rule : LakeRules.RULES) {
      planner.addRule(rule);
    }
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    PinnedTable pinned = lakeTable.pinned();
    List<String> names = new ArrayList<>();
    List<org.apache.iceberg.types.Types.NestedField> columns = schema().columns();
    for (int column : spec.columns()) {
      names.add(columns.get(column).name());
    }
    return super.explainTerms(pw)
        .item("snapshot", pinned.snapshotId() == null ? "none" : pinned.snapshotId())
        .item("columns", names)
        .itemIf("filter", spec.filter(), spec.filtered())
        .itemIf("limit", spec.limit(), spec.limit() >= 0)
        .itemIf("rowIds", true, spec.rowIds());
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    double rows = super.estimateRowCount(mq);
    if (spec.filtered()) {
      rows *= 0.25;
    }
    if (spec.limit() >= 0) {
      rows = Math.min(rows, spec.limit());
    }
    return Math.max(rows, 1d);
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    int all = Math.max(1, schema().columns().size());
    double fraction = (spec.columns().size() + 2d) / (all + 2d);
    double rows = estimateRowCount(mq);
    return planner.getCostFactory().makeCost(rows * fraction, rows * fraction, rows * fraction);
  }

  /**
   * Rows are {@code Object[]}, except when one column is read: then each row is the value itself
   * (SCALAR), as Calcite's own scans do, because some Enumerable operators (a merge join's key
   * selector over a sort) assume that form for one-column inputs.
   */
  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    boolean scalar = getRowType().getFieldCount() == 1;
    PhysType physType =
        PhysTypeImpl.of(
            implementor.getTypeFactory(),
            getRowType(),
            scalar ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY,
            false);
    Expression specExpression = implementor.stash(spec, LakeScanSpec.class);
    Expression enumerable =
        Expressions.call(
            LakeScan.class, "enumerable", implementor.getRootExpression(), specExpression);
    if (scalar) {
      enumerable = Expressions.call(BuiltInMethod.SLICE0.method, enumerable);
    }
    return implementor.result(physType, Blocks.toBlock(enumerable));
  }
}
