package dev.floe.planner.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;

/**
 * A scan is planned once per table, snapshot and filter, across statements and within a bound;
 * statement values are loaded once per statement.
 */
class ScanPlansTest {
  private final ScanPlans.Shared shared = new ScanPlans.Shared(1000);
  private final ScanPlans plans = new ScanPlans("table-a", shared);
  private final AtomicInteger planned = new AtomicInteger();
  private final Supplier<List<FileScanTask>> plan =
      () -> {
        planned.incrementAndGet();
        return new ArrayList<>();
      };

  @Test
  void theSameScanIsPlannedOnceInAStatement() {
    Expression filter = Expressions.greaterThan("c", 100);
    for (int outerRow = 0; outerRow < 30; outerRow++) {
      plans.tasks(7L, 0, filter, false, plan);
    }
    assertThat(planned).hasValue(1);
  }

  @Test
  void anotherSnapshotSchemaFilterOrSplittingIsAnotherScan() {
    Expression filter = Expressions.greaterThan("c", 100);
    plans.tasks(7L, 0, filter, false, plan);
    plans.tasks(8L, 0, filter, false, plan);
    plans.tasks(7L, 0, filter, true, plan);
    // A column's type changed: the same snapshot under a new schema.
    plans.tasks(7L, 1, filter, false, plan);
    assertThat(planned).hasValue(4);
  }

  @Test
  void equalFiltersShareTheirTasksAndFiltersThatDifferInAnyWayDoNot() {
    plans.tasks(7L, 0, Expressions.greaterThan("c", 100), false, plan);
    plans.tasks(7L, 0, Expressions.greaterThan("c", 100), false, plan);
    assertThat(planned).hasValue(1);
    plans.tasks(7L, 0, Expressions.greaterThan("c", 100L), false, plan); // another literal type
    plans.tasks(7L, 0, Expressions.greaterThan("c", 101), false, plan);
    plans.tasks(7L, 0, Expressions.greaterThanOrEqual("c", 100), false, plan);
    plans.tasks(7L, 0, Expressions.greaterThan("d", 100), false, plan);
    plans.tasks(7L, 0, Expressions.equal("s", "a\",\"b"), false, plan);
    plans.tasks(7L, 0, Expressions.in("s", "a", "b"), false, plan);
    plans.tasks(7L, 0, Expressions.greaterThan("c", 0.1f), false, plan);
    plans.tasks(7L, 0, Expressions.greaterThan("c", 0.1d), false, plan);
    plans.tasks(
        7L,
        0,
        Expressions.and(Expressions.greaterThan("c", 100), Expressions.isNull("d")),
        false,
        plan);
    plans.tasks(
        7L,
        0,
        Expressions.or(Expressions.greaterThan("c", 100), Expressions.isNull("d")),
        false,
        plan);
    assertThat(planned).hasValue(11);
    plans.tasks(7L, 0, Expressions.equal("s", "a\",\"b"), false, plan);
    plans.tasks(
        7L,
        0,
        Expressions.and(Expressions.greaterThan("c", 100), Expressions.isNull("d")),
        false,
        plan);
    assertThat(planned).hasValue(11);
  }

  @Test
  void plansOutliveTheStatementAndAnotherTableIsAnotherScan() {
    Expression filter = Expressions.alwaysTrue();
    plans.tasks(7L, 0, filter, false, plan);
    plans.clear();
    plans.tasks(7L, 0, filter, false, plan);
    new ScanPlans("table-a", shared).tasks(7L, 0, filter, false, plan);
    assertThat(planned).hasValue(1);
    new ScanPlans("table-b", shared).tasks(7L, 0, filter, false, plan);
    assertThat(planned).hasValue(2);
  }

  @Test
  void theStoreLetsTheLeastRecentlyUsedPlansGoBeyondItsBound() {
    ScanPlans.Shared small = new ScanPlans.Shared(5);
    ScanPlans table = new ScanPlans("t", small);
    Supplier<List<FileScanTask>> threeTasks =
        () -> {
          planned.incrementAndGet();
          return List.of(task("a"), task("b"), task("c"));
        };
    Expression a = Expressions.alwaysTrue();
    Expression b = Expressions.alwaysFalse();
    table.tasks(1L, 0, a, false, threeTasks);
    table.tasks(2L, 0, a, false, threeTasks); // 6 tasks > 5: snapshot 1 is let go
    assertThat(small.size()).isEqualTo(1);
    table.tasks(2L, 0, a, false, threeTasks);
    assertThat(planned).hasValue(2);
    table.tasks(1L, 0, a, false, threeTasks);
    assertThat(planned).hasValue(3);
    table.tasks(3L, 0, b, false, () -> List.of());
    assertThat(small.size()).isEqualTo(2);
  }

  /** A task of one small data file of an unpartitioned table. */
  private static FileScanTask task(String name) {
    org.apache.iceberg.Schema schema =
        new org.apache.iceberg.Schema(
            org.apache.iceberg.types.Types.NestedField.optional(
                1, "c", org.apache.iceberg.types.Types.IntegerType.get()));
    org.apache.iceberg.PartitionSpec spec = org.apache.iceberg.PartitionSpec.unpartitioned();
    org.apache.iceberg.DataFile file =
        org.apache.iceberg.DataFiles.builder(spec)
            .withPath("/lake/t/data/" + name + ".parquet")
            .withFileSizeInBytes(100)
            .withRecordCount(1)
            .build();
    return new org.apache.iceberg.BaseFileScanTask(
        file,
        new org.apache.iceberg.DeleteFile[0],
        org.apache.iceberg.SchemaParser.toJson(schema),
        org.apache.iceberg.PartitionSpecParser.toJson(spec),
        org.apache.iceberg.expressions.ResidualEvaluator.unpartitioned(Expressions.alwaysTrue()));
  }

  @Test
  void aStatementValueIsLoadedOnceUntilTheStatementEnds() {
    AtomicInteger loads = new AtomicInteger();
    Supplier<String> load = () -> "deletes-" + loads.incrementAndGet();
    assertThat(plans.<String>statementValue("d1.parquet", load)).isEqualTo("deletes-1");
    assertThat(plans.<String>statementValue("d1.parquet", load)).isEqualTo("deletes-1");
    plans.clear();
    assertThat(plans.<String>statementValue("d1.parquet", load)).isEqualTo("deletes-2");
    assertThatThrownBy(
            () ->
                plans.statementValue(
                    "d2.parquet",
                    () -> {
                      throw new IllegalStateException("unreadable");
                    }))
        .hasMessage("unreadable");
    assertThat(plans.<String>statementValue("d2.parquet", load)).isEqualTo("deletes-3");
  }

  @Test
  void aFailedPlanIsNotKeptAndAKeptPlanCannotChange() {
    Expression filter = Expressions.alwaysTrue();
    assertThatThrownBy(
            () ->
                plans.tasks(
                    7L,
                    0,
                    filter,
                    false,
                    () -> {
                      throw new IllegalStateException("manifest unreadable");
                    }))
        .hasMessage("manifest unreadable");
    List<FileScanTask> tasks = plans.tasks(7L, 0, filter, false, plan);
    assertThat(planned).hasValue(1);
    assertThatThrownBy(tasks::clear).isInstanceOf(UnsupportedOperationException.class);
  }
}
