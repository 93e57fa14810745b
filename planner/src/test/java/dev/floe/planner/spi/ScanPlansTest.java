package dev.floe.planner.spi;

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

/** A scan is planned once per statement, snapshot and filter, and forgotten with the statement. */
class ScanPlansTest {
  private final ScanPlans plans = new ScanPlans();
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
      plans.tasks(7L, filter, false, plan);
    }
    assertThat(planned).hasValue(1);
  }

  @Test
  void anotherSnapshotFilterOrSplittingIsAnotherScan() {
    Expression filter = Expressions.greaterThan("c", 100);
    plans.tasks(7L, filter, false, plan);
    plans.tasks(8L, filter, false, plan);
    plans.tasks(7L, Expressions.greaterThan("c", 100), false, plan);
    plans.tasks(7L, filter, true, plan);
    assertThat(planned).hasValue(4);
  }

  @Test
  void plansAreForgottenWhenTheStatementEnds() {
    Expression filter = Expressions.alwaysTrue();
    plans.tasks(7L, filter, false, plan);
    plans.clear();
    plans.tasks(7L, filter, false, plan);
    assertThat(planned).hasValue(2);
  }

  @Test
  void aFailedPlanIsNotKeptAndAKeptPlanCannotChange() {
    Expression filter = Expressions.alwaysTrue();
    assertThatThrownBy(
            () ->
                plans.tasks(
                    7L,
                    filter,
                    false,
                    () -> {
                      throw new IllegalStateException("manifest unreadable");
                    }))
        .hasMessage("manifest unreadable");
    List<FileScanTask> tasks = plans.tasks(7L, filter, false, plan);
    assertThat(planned).hasValue(1);
    assertThatThrownBy(tasks::clear).isInstanceOf(UnsupportedOperationException.class);
  }
}
