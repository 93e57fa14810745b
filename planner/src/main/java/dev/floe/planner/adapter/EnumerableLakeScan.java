package dev.floe.planner.adapter;

import dev.floe.planner.scan.LakeScan;
import dev.floe.planner.scan.LakeScanSpec;
import dev.floe.planner.scan.RuntimeFilter;
import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Typed;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The Enumerable implementation of a {@link LakeTableScan}: generated code calls {@link
 * LakeScan#enumerable} with the scan's spec, and rows come back as {@code Object[]} in Floe's exact
 * runtime forms.
 */
public final class EnumerableLakeScan extends AbstractRelNode implements EnumerableRel {
  /** Converts a logical scan into this one. */
  public static final RelOptRule RULE =
      ConverterRule.Config.INSTANCE
          .withConversion(
              LakeTableScan.class,
              Convention.NONE,
              EnumerableConvention.INSTANCE,
              "EnumerableLakeScanRule")
          .withRuleFactory(ToEnumerable::new)
          .toRule(ToEnumerable.class);

  private final LakeTableScan scan;

  /** Whether this scan's rows are the statement's result, which a result set may read in chunks. */
  private final boolean result;

  /** The filters joins above give this scan while the statement runs ({@link RuntimeFilter}). */
  private final List<RuntimeFilter.Target> runtimeFilters;

  EnumerableLakeScan(RelTraitSet traits, LakeTableScan scan) {
    this(traits, scan, false, List.of());
  }

  private EnumerableLakeScan(
      RelTraitSet traits,
      LakeTableScan scan,
      boolean result,
      List<RuntimeFilter.Target> runtimeFilters) {
    super(scan.getCluster(), traits);
    this.scan = scan;
    this.result = result;
    this.runtimeFilters = runtimeFilters;
    this.rowType = scan.getRowType();
  }

  /**
   * This scan applying also the keys a hash join above publishes while the statement runs (the
   * join's probe side reaches this scan's column {@code target.column()} unchanged).
   */
  public EnumerableLakeScan withRuntimeFilter(RuntimeFilter.Target target) {
    List<RuntimeFilter.Target> filters = new java.util.ArrayList<>(runtimeFilters);
    filters.add(target);
    return new EnumerableLakeScan(getTraitSet(), scan, result, List.copyOf(filters));
  }

  /**
   * This scan as the whole plan of a query: its rows are the statement's result, and the JDBC
   * result set may read the scan's column batches directly ({@link
   * dev.floe.planner.scan.ColumnarScan}). Not for a scan holding an aggregate or a top-N.
   */
  public EnumerableLakeScan asResult() {
    if (scan.spec().aggregated() || scan.spec().rowIds() || scan.spec().topN() != null) {
      return this;
    }
    return new EnumerableLakeScan(getTraitSet(), scan, true, runtimeFilters);
  }

  /** What this scan reads. */
  public LakeScanSpec spec() {
    return scan.spec();
  }

  /** The logical scan it implements. */
  public LakeTableScan logical() {
    return scan;
  }

  @Override
  protected RelDataType deriveRowType() {
    return scan.getRowType();
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableLakeScan(traitSet, scan, result, runtimeFilters);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return scan.explainTerms(pw);
  }

  @Override
  public String getRelTypeName() {
    return "LakeTableScan";
  }

  /** The logical scan this one runs. */
  public LakeTableScan scan() {
    return scan;
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return scan.estimateRowCount(mq);
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return scan.computeSelfCost(planner, mq);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    boolean scalar = getRowType().getFieldCount() == 1;
    PhysType physType = physType(implementor.getTypeFactory());
    Expression spec = implementor.stash(scan.spec(), LakeScanSpec.class);
    if (!runtimeFilters.isEmpty() && !result) {
      Expression filters =
          implementor.stash(
              runtimeFilters.toArray(new RuntimeFilter.Target[0]), RuntimeFilter.Target[].class);
      return implementor.result(
          physType,
          Blocks.toBlock(
              Expressions.call(
                  RuntimeFilter.class,
                  scalar ? "scalars" : "enumerable",
                  implementor.getRootExpression(),
                  spec,
                  filters)));
    }
    Expression enumerable =
        Expressions.call(
            LakeScan.class,
            result ? (scalar ? "scalarResults" : "results") : (scalar ? "scalars" : "enumerable"),
            implementor.getRootExpression(),
            spec);
    return implementor.result(physType, Blocks.toBlock(enumerable));
  }

  /** Calcite holds a one-column row as the bare value, never as a one-element array. */
  private PhysType physType(JavaTypeFactory typeFactory) {
    return PhysTypeImpl.of(
        typeFactory,
        getRowType(),
        getRowType().getFieldCount() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY,
        false);
  }

  /**
   * For a result scan ({@link #asResult}), the object that the code generated from {@link
   * #implement} would compile to: its {@code bind} calls {@link LakeScan#results} (or {@link
   * LakeScan#scalarResults}) with this scan's spec, and its element type is the generated one. A
   * plan that is this scan alone needs neither code generation nor a Janino compilation, which a
   * fresh JVM's first query pays for before its first row. Null for any other scan, and for a row
   * type whose Java class Calcite would generate.
   */
  public @Nullable Bindable<Object> resultBindable() {
    if (!result) {
      return null;
    }
    Type rowClass = physType((JavaTypeFactory) getCluster().getTypeFactory()).getJavaRowType();
    if (!(rowClass instanceof Class)) {
      return null;
    }
    return new ResultBindable(scan.spec(), (Class<?>) rowClass, getRowType().getFieldCount() == 1);
  }

  /** The rows of a result scan, bound to a statement's data context. */
  private static final class ResultBindable implements Bindable<Object>, Typed {
    private final LakeScanSpec spec;
    private final Class<?> elementType;
    private final boolean scalar;

    ResultBindable(LakeScanSpec spec, Class<?> elementType, boolean scalar) {
      this.spec = spec;
      this.elementType = elementType;
      this.scalar = scalar;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Enumerable<Object> bind(DataContext root) {
      return scalar
          ? LakeScan.scalarResults(root, spec)
          : (Enumerable<Object>) (Enumerable<?>) LakeScan.results(root, spec);
    }

    @Override
    public Type getElementType() {
      return elementType;
    }
  }

  /** The converter rule. */
  static final class ToEnumerable extends ConverterRule {
    ToEnumerable(Config config) {
      super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
      return new EnumerableLakeScan(
          rel.getTraitSet().replace(EnumerableConvention.INSTANCE), (LakeTableScan) rel);
    }
  }
}
