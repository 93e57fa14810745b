package dev.floe.planner.adapter;

import dev.floe.error.FloeError;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * INSERT, DELETE or UPDATE of a Floe table, before implementation. For DELETE and UPDATE the
 * source is rewritten at creation so that its scan of the target table also emits each row's data
 * file and position (the last two input fields), which is what position deletes and deletion
 * vectors record.
 */
public final class LakeTableModify extends TableModify {
  /** Converts this node to {@link EnumerableLakeTableModify}. */
  public static final RelOptRule ENUMERABLE_RULE =
      ConverterRule.Config.INSTANCE
          .withConversion(
              LakeTableModify.class,
              Convention.NONE,
              EnumerableConvention.INSTANCE,
              "LakeTableModifyRule")
          .withRuleFactory(ToEnumerable::new)
          .toRule(ToEnumerable.class);

  private final LakeTable lakeTable;

  private LakeTableModify(
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

  /** Creates the node, rewriting a DELETE or UPDATE source to carry row positions. */
  public static LakeTableModify create(
      RelOptCluster cluster,
      RelOptTable table,
      Prepare.CatalogReader catalogReader,
      LakeTable lakeTable,
      RelNode child,
      Operation operation,
      @Nullable List<String> updateColumnList,
      @Nullable List<RexNode> sourceExpressionList,
      boolean flattened) {
    RelNode input = child;
    switch (operation) {
      case INSERT:
        break;
      case DELETE:
      case UPDATE:
        input = withRowIds(child, lakeTable, operation == Operation.DELETE);
        break;
      default:
        throw FloeError.NOT_SUPPORTED.error(operation + " on " + lakeTable);
    }
    return new LakeTableModify(
        cluster,
        cluster.traitSetOf(Convention.NONE),
        table,
        catalogReader,
        lakeTable,
        input,
        operation,
        updateColumnList,
        sourceExpressionList,
        flattened);
  }

  /** The table changed. */
  public LakeTable lakeTable() {
    return lakeTable;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LakeTableModify(
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
  public void register(RelOptPlanner planner) {
    for (RelOptRule rule : LakeRules.RULES) {
      planner.addRule(rule);
    }
  }

  /**
   * Rewrites the source of a DELETE or UPDATE: the target table's scan gains the trailing {@code
   * _file} and {@code _pos} fields and every project above it passes them on. For DELETE the top
   * project keeps only those two, so the scan reads no more columns than the predicate needs.
   */
  private static RelNode withRowIds(RelNode node, LakeTable target, boolean onlyRowIds) {
    RelNode rewritten = rewrite(node, target);
    if (onlyRowIds && rewritten instanceof Project) {
      Project project = (Project) rewritten;
      int n = project.getInput().getRowType().getFieldCount();
      RexBuilder rex = project.getCluster().getRexBuilder();
      return project.copy(
          project.getTraitSet(),
          project.getInput(),
          List.of(rex.makeInputRef(project.getInput(), n - 2), rex.makeInputRef(project.getInput(), n - 1)),
          project
              .getCluster()
              .getTypeFactory()
              .builder()
              .add(project.getInput().getRowType().getFieldList().get(n - 2))
              .add(project.getInput().getRowType().getFieldList().get(n - 1))
              .build());
    }
    return rewritten;
  }

  private static RelNode rewrite(RelNode node, LakeTable target) {
    if (node instanceof LakeTableScan) {
      LakeTableScan scan = (LakeTableScan) node;
      if (!scan.lakeTable().path().equals(target.path()) || scan.spec().rowIds()) {
        throw unsupported(node);
      }
      return scan.withSpec(scan.spec().withRowIds());
    }
    if (node instanceof Filter) {
      Filter filter = (Filter) node;
      RelNode input = rewrite(filter.getInput(), target);
      return filter.copy(filter.getTraitSet(), input, filter.getCondition());
    }
    if (node instanceof Project) {
      Project project = (Project) node;
      RelNode input = rewrite(project.getInput(), target);
      int n = input.getRowType().getFieldCount();
      RexBuilder rex = project.getCluster().getRexBuilder();
      List<RexNode> projects = new ArrayList<>(project.getProjects());
      projects.add(rex.makeInputRef(input, n - 2));
      projects.add(rex.makeInputRef(input, n - 1));
      List<String> names = new ArrayList<>(project.getRowType().getFieldNames());
      names.add(LakeTableScan.FILE_FIELD);
      names.add(LakeTableScan.POS_FIELD);
      return project.copy(
          project.getTraitSet(),
          input,
          projects,
          org.apache.calcite.rex.RexUtil.createStructType(
              project.getCluster().getTypeFactory(), projects, names, null));
    }
    throw unsupported(node);
  }

  private static RuntimeException unsupported(RelNode node) {
    return FloeError.NOT_SUPPORTED.error(
        "DELETE or UPDATE whose source contains " + node.getRelTypeName());
  }

  /** The converter rule to the Enumerable implementation. */
  static final class ToEnumerable extends ConverterRule {
    ToEnumerable(Config config) {
      super(config);
    }

    @Override
    public @Nullable RelNode convert(RelNode rel) {
      LakeTableModify modify = (LakeTableModify) rel;
      RelNode input =
          convert(
              modify.getInput(),
              modify.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE));
      return new EnumerableLakeTableModify(
          modify.getCluster(),
          modify.getTraitSet().replace(EnumerableConvention.INSTANCE),
          modify.getTable(),
          modify.getCatalogReader(),
          modify.lakeTable,
          input,
          modify.getOperation(),
          modify.getUpdateColumnList(),
          modify.getSourceExpressionList(),
          modify.isFlattened());
    }
  }
}
