package dev.floe.planner.prepare;

import dev.floe.planner.type.LakeJavaTypeFactory;
import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Passes its input's rows through unchanged, so that the expressions above read a TIME finer than
 * milliseconds as the {@code long} it is held as. Calcite reads every TIME operand of a call with
 * {@code Integer} as its storage type ({@code EnumUtils.toInternal}), which would cast a {@code
 * Long} to {@code Integer}; this node's {@link PhysType} answers such reads with the {@code long}.
 * {@link TemporalAligner} puts it under the relational expressions that evaluate calls.
 */
final class FineTimeRows extends SingleRel implements EnumerableRel {
  FineTimeRows(RelNode input) {
    super(input.getCluster(), input.getTraitSet(), input);
  }

  /** Whether a row type has a top-level TIME field finer than milliseconds. */
  static boolean hasFineTime(RelDataType rowType) {
    for (RelDataTypeField field : rowType.getFieldList()) {
      if (LakeJavaTypeFactory.isFineTime(field.getType())) {
        return true;
      }
    }
    return false;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new FineTimeRows(sole(inputs));
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    return new Result(result.block, new Reading(result.physType), result.format);
  }

  /** The input's physical type, reading fine TIME fields as {@code long} whatever is asked. */
  private static final class Reading implements PhysType {
    private final PhysType delegate;

    Reading(PhysType delegate) {
      this.delegate = delegate;
    }

    @Override
    public Expression fieldReference(Expression expression, int field, @Nullable Type storageType) {
      boolean fine =
          LakeJavaTypeFactory.isFineTime(delegate.getRowType().getFieldList().get(field).getType());
      return delegate.fieldReference(expression, field, fine ? null : storageType);
    }

    @Override
    public Type getJavaRowType() {
      return delegate.getJavaRowType();
    }

    @Override
    public Type getJavaFieldType(int field) {
      return delegate.getJavaFieldType(field);
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
      return delegate.getTypeFactory();
    }

    @Override
    public PhysType field(int ordinal) {
      return delegate.field(ordinal);
    }

    @Override
    public PhysType component(int field) {
      return delegate.component(field);
    }

    @Override
    public RelDataType getRowType() {
      return delegate.getRowType();
    }

    @Override
    public Class<?> fieldClass(int field) {
      return delegate.fieldClass(field);
    }

    @Override
    public boolean fieldNullable(int index) {
      return delegate.fieldNullable(index);
    }

    @Override
    public Expression fieldReference(Expression expression, int field) {
      return delegate.fieldReference(expression, field);
    }

    @Override
    public Expression generateAccessor(List<Integer> fields) {
      return delegate.generateAccessor(fields);
    }

    @Override
    public Expression generateAccessorWithoutNulls(List<Integer> fields) {
      return delegate.generateAccessorWithoutNulls(fields);
    }

    @Override
    public Expression generateNullAwareAccessor(
        List<Integer> fields, List<Boolean> nullExclusionFlags) {
      return delegate.generateNullAwareAccessor(fields, nullExclusionFlags);
    }

    @Override
    public Expression generateSelector(ParameterExpression parameter, List<Integer> fields) {
      return delegate.generateSelector(parameter, fields);
    }

    @Override
    public Expression generateSelector(
        ParameterExpression parameter, List<Integer> fields, JavaRowFormat targetFormat) {
      return delegate.generateSelector(parameter, fields, targetFormat);
    }

    @Override
    public Expression generateSelector(
        ParameterExpression parameter,
        List<Integer> fields,
        List<Integer> usedFields,
        JavaRowFormat targetFormat) {
      return delegate.generateSelector(parameter, fields, usedFields, targetFormat);
    }

    @Override
    public Pair<Type, List<Expression>> selector(
        ParameterExpression parameter, List<Integer> fields, JavaRowFormat targetFormat) {
      return delegate.selector(parameter, fields, targetFormat);
    }

    @Override
    public PhysType project(List<Integer> integers, JavaRowFormat format) {
      return delegate.project(integers, format);
    }

    @Override
    public PhysType project(List<Integer> integers, boolean indicator, JavaRowFormat format) {
      return delegate.project(integers, indicator, format);
    }

    @Override
    public Pair<Expression, Expression> generateCollationKey(List<RelFieldCollation> collations) {
      return delegate.generateCollationKey(collations);
    }

    @Override
    public Expression generateComparator(RelCollation collation) {
      return delegate.generateComparator(collation);
    }

    @Override
    public Expression generateMergeJoinComparator(RelCollation collation) {
      return delegate.generateMergeJoinComparator(collation);
    }

    @Override
    public @Nullable Expression comparer() {
      return delegate.comparer();
    }

    @Override
    public Expression record(List<Expression> expressions) {
      return delegate.record(expressions);
    }

    @Override
    public JavaRowFormat getFormat() {
      return delegate.getFormat();
    }

    @Override
    public List<Expression> accessors(Expression parameter, List<Integer> argList) {
      return delegate.accessors(parameter, argList);
    }

    @Override
    public PhysType makeNullable(boolean nullable) {
      return delegate.makeNullable(nullable);
    }

    @Deprecated
    @Override
    public Expression convertTo(Expression expression, PhysType targetPhysType) {
      return delegate.convertTo(expression, targetPhysType);
    }

    @Override
    public Expression convertTo(Expression expression, JavaRowFormat targetFormat) {
      return delegate.convertTo(expression, targetFormat);
    }
  }
}
