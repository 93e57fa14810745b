package dev.floe.planner.adapter;

import java.util.function.Function;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilderFactory;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An immutable {@link RelRule.Config} for Floe's rules, written out instead of generated, so that
 * the build needs no annotation processor.
 */
record LakeRuleConfig(
    @Nullable String description,
    RelBuilderFactory relBuilderFactory,
    RelRule.OperandTransform operandSupplier,
    Function<LakeRuleConfig, RelOptRule> factory)
    implements RelRule.Config {

  static LakeRuleConfig of(
      String description,
      RelRule.OperandTransform operands,
      Function<LakeRuleConfig, RelOptRule> factory) {
    return new LakeRuleConfig(description, RelFactories.LOGICAL_BUILDER, operands, factory);
  }

  @Override
  public RelOptRule toRule() {
    return factory.apply(this);
  }

  @Override
  public LakeRuleConfig withRelBuilderFactory(RelBuilderFactory newFactory) {
    return new LakeRuleConfig(description, newFactory, operandSupplier, factory);
  }

  @Override
  public LakeRuleConfig withDescription(@Nullable String newDescription) {
    return new LakeRuleConfig(newDescription, relBuilderFactory, operandSupplier, factory);
  }

  @Override
  public LakeRuleConfig withOperandSupplier(RelRule.OperandTransform transform) {
    return new LakeRuleConfig(description, relBuilderFactory, transform, factory);
  }
}
