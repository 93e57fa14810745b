package dev.floe.planner.prepare;

import dev.floe.planner.adapter.ProjectionScans;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.plan.RelOptCostImpl;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelNodes;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.rules.MeasureRules;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.TopDownGeneralDecorrelator;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelBuilder;

/**
 * Calcite's standard program ({@code Programs.standard()}, which {@code Prepare.optimize} runs),
 * phase for phase, with the rules of {@link DefaultRules}: [NOT] EXISTS to semi- and anti-joins
 * ({@link ExistsToSemiJoin}), other sub-queries to correlates, decorrelation, measures (only for a
 * plan that has one), field trimming, OR conditions factored ({@link OrFactoring}), the cost-based
 * planner with Floe's estimates ({@link LakeMetadata}) (after {@link JoinOrder} has ordered the
 * joins of a query that joins many tables), then filters and projects to calcs, and integer sums
 * checked ({@link CheckedSums}). Calcite's {@code Programs} builds every rule of {@code CoreRules}
 * when first touched; this program builds only the rules it runs.
 */
final class StandardProgram implements Program {
  static final StandardProgram INSTANCE = new StandardProgram();

  /** Floe's estimates ({@link LakeMetadata}) before Calcite's. */
  private final RelMetadataProvider metadata = LakeMetadata.PROVIDER;

  private StandardProgram() {}

  @Override
  public RelNode run(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    CalciteConnectionConfig config =
        planner
            .getContext()
            .maybeUnwrap(CalciteConnectionConfig.class)
            .orElse(CalciteConnectionConfig.DEFAULT);
    rel.getCluster().setMetadataProvider(metadata);
    rel.getCluster().invalidateMetadataQuery();
    RelNode plan = subQuery(config, ExistsToSemiJoin.apply(rel), materializations, lattices);
    plan = decorrelate(config, plan);
    if (containsMeasure(plan)) {
      plan = hep(MeasureRules.rules(), plan, materializations, lattices);
      plan = subQuery(config, plan, materializations, lattices);
      plan = decorrelate(config, plan);
    }
    plan = new RelFieldTrimmer(null, relBuilder(plan)).trim(plan);
    plan = OrFactoring.apply(plan);
    plan = volcano(planner, plan, requiredOutputTraits, materializations, lattices);
    return ProjectionScans.apply(
        CheckedSums.apply(hep(DefaultRules.CALC_RULES, plan, materializations, lattices)));
  }

  private RelNode subQuery(
      CalciteConnectionConfig config,
      RelNode rel,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    List<RelOptRule> rules =
        config.topDownGeneralDecorrelationEnabled()
            ? DefaultRules.SUB_QUERY_MARK_JOIN_RULES
            : DefaultRules.SUB_QUERY_RULES;
    HepProgram program = HepProgram.builder().addRuleCollection(rules).build();
    return hep(program, rel, materializations, lattices);
  }

  private static RelNode decorrelate(CalciteConnectionConfig config, RelNode rel) {
    if (!config.forceDecorrelate()) {
      return rel;
    }
    if (config.topDownGeneralDecorrelationEnabled()) {
      return TopDownGeneralDecorrelator.decorrelateQuery(rel, relBuilder(rel));
    }
    return RelDecorrelator.decorrelateQuery(rel, relBuilder(rel));
  }

  private static RelBuilder relBuilder(RelNode rel) {
    return RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null);
  }

  /** Whether a plan computes a measure: the standard program's condition for its measure phase. */
  private static boolean containsMeasure(RelNode rel) {
    return RelNodes.contains(
        rel,
        aggCall -> aggCall.getAggregation().kind == SqlKind.AGG_M2V,
        RexUtil.find(Set.of(SqlKind.AGG_M2V, SqlKind.M2V)));
  }

  private static RelNode volcano(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    RelNode ordered = JoinOrder.ordered(rel, planner);
    if (ordered != null) {
      JoinOrder.withoutReordering(planner);
      rel = ordered;
    }
    for (RelOptMaterialization materialization : materializations) {
      planner.addMaterialization(materialization);
    }
    for (RelOptLattice lattice : lattices) {
      planner.addLattice(lattice);
    }
    planner.setRoot(rel);
    RelNode root =
        rel.getTraitSet().equals(requiredOutputTraits)
            ? rel
            : planner.changeTraits(rel, requiredOutputTraits);
    planner.setRoot(root);
    RelNode best = planner.chooseDelegate().findBestExp();
    if (best == null) {
      throw new IllegalStateException("could not implement exp");
    }
    return best;
  }

  /** Runs rules one at a time in a tree-shaped Hep planner, as {@code Programs.hep} does. */
  private RelNode hep(
      Iterable<? extends RelOptRule> rules,
      RelNode rel,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    HepProgramBuilder builder = HepProgram.builder();
    for (RelOptRule rule : rules) {
      builder.addRuleInstance(rule);
    }
    return hep(builder.build(), rel, materializations, lattices);
  }

  /** Runs a Hep program as {@code Programs.of(program, true, metadata)} does. */
  @SuppressWarnings("deprecation") // the constructor Calcite's own program uses
  private RelNode hep(
      HepProgram program,
      RelNode rel,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    HepPlanner hepPlanner =
        new LakePrepare.CancellableHepPlanner(program, null, true, RelOptCostImpl.FACTORY);
    List<RelMetadataProvider> providers = new ArrayList<>(List.of(metadata));
    hepPlanner.registerMetadataProviders(providers);
    for (RelOptMaterialization materialization : materializations) {
      hepPlanner.addMaterialization(materialization);
    }
    for (RelOptLattice lattice : lattices) {
      hepPlanner.addLattice(lattice);
    }
    rel.getCluster().setMetadataProvider(ChainedRelMetadataProvider.of(providers));
    hepPlanner.setRoot(rel);
    return hepPlanner.findBestExp();
  }
}
