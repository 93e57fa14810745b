package dev.floe.planner.adapter;

import dev.floe.planner.scan.MetadataScan;
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
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.TableScan;

/**
 * The scan of a {@link LakeMetadataTable}: created logical, and made Enumerable by {@link #RULE}
 * (the same node with Enumerable traits), whose generated code calls {@link
 * MetadataScan#enumerable}, which reads Iceberg's metadata table when the statement runs.
 */
public final class MetadataTableScan extends TableScan implements EnumerableRel {
  /** Converts a logical metadata scan into an Enumerable one. */
  static final RelOptRule RULE =
      ConverterRule.Config.INSTANCE
          .withConversion(
              MetadataTableScan.class,
              Convention.NONE,
              EnumerableConvention.INSTANCE,
              "EnumerableMetadataScanRule")
          .withRuleFactory(ToEnumerable::new)
          .toRule(ToEnumerable.class);

  private final MetadataScan.Spec spec;

  MetadataTableScan(
      RelOptCluster cluster, RelTraitSet traits, RelOptTable table, MetadataScan.Spec spec) {
    super(cluster, traits, List.of(), table);
    this.spec = spec;
  }

  @Override
  public void register(RelOptPlanner planner) {
    planner.addRule(RULE);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new MetadataTableScan(getCluster(), traitSet, getTable(), spec);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).itemIf("version", spec.version(), spec.version() != null);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // Calcite holds a one-column row as the bare value, never as a one-element array.
    boolean scalar = getRowType().getFieldCount() == 1;
    PhysType physType =
        PhysTypeImpl.of(
            implementor.getTypeFactory(),
            getRowType(),
            scalar ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY,
            false);
    Expression stashed = implementor.stash(spec, MetadataScan.Spec.class);
    Expression rows =
        Expressions.call(
            MetadataScan.class,
            scalar ? "scalars" : "enumerable",
            implementor.getRootExpression(),
            stashed);
    return implementor.result(physType, Blocks.toBlock(rows));
  }

  /** The converter rule. */
  static final class ToEnumerable extends ConverterRule {
    ToEnumerable(Config config) {
      super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
      MetadataTableScan scan = (MetadataTableScan) rel;
      return new MetadataTableScan(
          scan.getCluster(),
          scan.getTraitSet().replace(EnumerableConvention.INSTANCE),
          scan.getTable(),
          scan.spec);
    }
  }
}
