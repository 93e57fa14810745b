package dev.floe.planner.adapter;

import dev.floe.error.FloeError;
import dev.floe.planner.write.LakeWrites;
import dev.floe.planner.write.WritePlan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;
import org.apache.iceberg.types.Types;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The Enumerable implementation of a Floe INSERT, DELETE or UPDATE: generated code runs the source
 * and hands its rows to {@link LakeWrites#execute}, which writes files and stages one change, and
 * returns the affected row count.
 */
public final class EnumerableLakeTableModify extends TableModify implements EnumerableRel {
  private final LakeTable lakeTable;

  EnumerableLakeTableModify(
      RelOptCluster cluster,
      RelTraitSet traits,
      RelOptTable table,
      Prepare.CatalogReader catalogReader,
      LakeTable lakeTable,
      RelNode input,
      Operation operation,
      @Nullable List<String> updateColumnList,
      @Nullable List<RexNode> sourceExpressionList,
      boolean flattened) {
    super(
        cluster,
        traits,
        table,
        catalogReader,
        input,
        operation,
        updateColumnList,
        sourceExpressionList,
        flattened);
    this.lakeTable = lakeTable;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableLakeTableModify(
        getCluster(),
        traitSet,
        getTable(),
        getCatalogReader(),
        lakeTable,
        sole(inputs),
        getOperation(),
        getUpdateColumnList(),
        getSourceExpressionList(),
        isFlattened());
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    BlockBuilder builder = new BlockBuilder();
    Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    Expression child = builder.append("child", input.block);
    Expression rows = input.physType.convertTo(child, JavaRowFormat.ARRAY);
    Expression plan = implementor.stash(writePlan(), WritePlan.class);
    Expression count =
        builder.append(
            "count",
            Expressions.call(
                LakeWrites.class, "execute", implementor.getRootExpression(), plan, rows));
    builder.add(
        Expressions.return_(
            null, Expressions.call(BuiltInMethod.SINGLETON_ENUMERABLE.method, count)));
    PhysType physType =
        PhysTypeImpl.of(
            implementor.getTypeFactory(), getRowType(), pref.prefer(JavaRowFormat.SCALAR));
    return implementor.result(physType, builder.toBlock());
  }

  private WritePlan writePlan() {
    List<WritePlan.SourceType> types = new ArrayList<>();
    for (RelDataTypeField field : getInput().getRowType().getFieldList()) {
      types.add(WritePlan.SourceType.of(field.getType()));
    }
    List<Integer> updateColumns = new ArrayList<>();
    if (getOperation() == Operation.UPDATE) {
      List<Types.NestedField> columns = lakeTable.pinned().table().schema().columns();
      for (String name : getUpdateColumnList()) {
        int index = -1;
        for (int i = 0; i < columns.size(); i++) {
          if (columns.get(i).name().equals(name)) {
            index = i;
          }
        }
        if (index < 0) {
          throw FloeError.COLUMN_NOT_FOUND.error(name);
        }
        updateColumns.add(index);
      }
    }
    org.apache.iceberg.expressions.Expression deleteFilter =
        org.apache.iceberg.expressions.Expressions.alwaysTrue();
    dev.floe.planner.scan.LakeScanSpec scan = findRowIdScan(getInput());
    if (scan != null) {
      deleteFilter = scan.filter();
    }
    return new WritePlan(
        lakeTable.session(),
        lakeTable.path(),
        getOperation(),
        List.copyOf(types),
        List.copyOf(updateColumns),
        deleteFilter);
  }

  private static dev.floe.planner.scan.@Nullable LakeScanSpec findRowIdScan(RelNode node) {
    if (node instanceof org.apache.calcite.plan.volcano.RelSubset) {
      RelNode best = ((org.apache.calcite.plan.volcano.RelSubset) node).getBest();
      return best == null ? null : findRowIdScan(best);
    }
    if (node instanceof EnumerableLakeScan && ((EnumerableLakeScan) node).spec().rowIds()) {
      return ((EnumerableLakeScan) node).spec();
    }
    if (node instanceof LakeTableScan && ((LakeTableScan) node).spec().rowIds()) {
      return ((LakeTableScan) node).spec();
    }
    for (RelNode input : node.getInputs()) {
      dev.floe.planner.scan.LakeScanSpec found = findRowIdScan(input);
      if (found != null) {
        return found;
      }
    }
    return null;
  }
}
