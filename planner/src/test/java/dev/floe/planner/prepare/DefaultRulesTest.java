package dev.floe.planner.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRules;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.stream.StreamRules;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Floe's planner holds the rules of Calcite's default planner, equal and in Calcite's order, with
 * Floe's semi-join rule in place of Calcite's two, without the stream rules, and with Calcite's
 * top-N rule (ORDER BY with a small LIMIT, which Calcite's list leaves out) after its enumerable
 * rules; the standard program's phases run Calcite's own rule lists.
 */
class DefaultRulesTest {
  @ParameterizedTest
  @CsvSource({"false, false", "true, true"})
  void registersCalcitesDefaultRulesInCalcitesOrder(boolean materializations, boolean bindable) {
    VolcanoPlanner calcite = planner();
    RelOptUtil.registerDefaultRules(calcite, materializations, bindable);
    calcite.removeRule(CoreRules.PROJECT_TO_SEMI_JOIN);
    calcite.removeRule(CoreRules.JOIN_TO_SEMI_JOIN);
    calcite.addRule(SemiJoinRules.PROJECT_TO_SEMI_JOIN);
    List<RelOptRule> expected = new ArrayList<>(calcite.getRules());
    assertThat(expected).containsAll(StreamRules.RULES);
    expected.removeAll(StreamRules.RULES);
    assertThat(expected).doesNotContain(EnumerableRules.ENUMERABLE_LIMIT_SORT_RULE);
    expected.add(expected.indexOf(EnumerableRules.TO_INTERPRETER), DefaultRules.TOP_N);

    VolcanoPlanner floe = planner();
    DefaultRules.register(floe, materializations, bindable);

    assertThat(floe.getRules()).containsExactlyElementsOf(expected);
    assertThat(descriptions(floe.getRules())).containsExactlyElementsOf(descriptions(expected));
  }

  @ParameterizedTest
  @CsvSource({"false", "true"})
  void theProgramsPhasesRunCalcitesRules(boolean markJoins) {
    assertThat(DefaultRules.CALC_RULES).containsExactlyElementsOf(RelOptRules.CALC_RULES);
    assertThat(markJoins ? DefaultRules.SUB_QUERY_MARK_JOIN_RULES : DefaultRules.SUB_QUERY_RULES)
        .containsExactly(
            markJoins
                ? CoreRules.FILTER_SUB_QUERY_TO_MARK_CORRELATE
                : CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
            markJoins
                ? CoreRules.PROJECT_SUB_QUERY_TO_MARK_CORRELATE
                : CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
            CoreRules.JOIN_SUB_QUERY_TO_CORRELATE,
            CoreRules.PROJECT_OVER_SUM_TO_SUM0_RULE);
    assertThat(DefaultRules.PROJECT_REMOVE).isEqualTo(CoreRules.PROJECT_REMOVE);
  }

  private static VolcanoPlanner planner() {
    VolcanoPlanner planner = new VolcanoPlanner();
    planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
    planner.addRelTraitDef(RelCollationTraitDef.INSTANCE);
    return planner;
  }

  private static List<String> descriptions(List<RelOptRule> rules) {
    List<String> names = new ArrayList<>();
    for (RelOptRule rule : rules) {
      names.add(rule.getClass().getName() + " " + rule);
    }
    return names;
  }
}
