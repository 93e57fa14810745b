package dev.floe.planner.adapter;

import dev.floe.planner.scan.FileScan;
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
 * The scan of a {@link FileTable}: created logical, and made Enumerable by {@link #RULE} (the same
 * node with Enumerable traits), whose generated code calls {@link FileScan#enumerable}, which lists
 * and reads the files when the statement runs.
 */
public final class FileTableScan extends TableScan implements EnumerableRel {
  /** Converts a logical file scan into an Enumerable one. */
  static final RelOptRule RULE =
      ConverterRule.Config.INSTANCE
          .withConversion(
              FileTableScan.class,
              Convention.NONE,
              EnumerableConvention.INSTANCE,
              "EnumerableFileScanRule")
          .withRuleFactory(ToEnumerable::new)
          .toRule(ToEnumerable.class);

  private final FileScan.Spec spec;

  FileTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, FileScan.Spec spec) {
    super(cluster, traits, List.of(), table);
    this.spec = spec;
  }

  @Override
  public void register(RelOptPlanner planner) {
    planner.addRule(RULE);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new FileTableScan(getCluster(), traitSet, getTable(), spec);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("function", spec.kind().functionName())
        .item("path", spec.pattern());
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
    Expression stashed = implementor.stash(spec, FileScan.Spec.class);
    Expression rows =
        Expressions.call(
            FileScan.class,
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
      FileTableScan scan = (FileTableScan) rel;
      return new FileTableScan(
          scan.getCluster(),
          scan.getTraitSet().replace(EnumerableConvention.INSTANCE),
          scan.getTable(),
          scan.spec);
    }
  }
}
