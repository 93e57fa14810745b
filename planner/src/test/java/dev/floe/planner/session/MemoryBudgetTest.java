package dev.floe.planner.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A statement's spill limit: known at its first spill, over all its operators' files. */
class MemoryBudgetTest {
  @Test
  void aShareOfTheDiskIsMeasuredOnceAtTheFirstSpillAndBoundsWhatTheFilesHoldAtOnce() {
    MemoryBudget memory = new MemoryBudget(1 << 20, SpillLimit.ofUsableSpace(0.9));
    AtomicInteger measured = new AtomicInteger();
    memory.startSpill("the sort", () -> 1000 + 1000L * measured.getAndIncrement());
    memory.startSpill("the hash join j", () -> 1000 + 1000L * measured.getAndIncrement());
    assertThat(measured).hasValue(1);
    memory.wrote(600, "the sort");
    memory.wrote(300, "the hash join j");
    memory.deleted(600);
    memory.wrote(600, "the sort");
    assertThat(memory.onDisk()).isEqualTo(900);
    assertThat(memory.spilledBytes()).isEqualTo(1500);
    assertThatThrownBy(() -> memory.wrote(1, "the hash join j"))
        .isInstanceOf(FloeException.class)
        .hasMessageContaining("the hash join j")
        .hasMessageContaining("spill limit of 900 bytes")
        .extracting(e -> ((FloeException) e).sqlState())
        .isEqualTo("53200");
  }

  @Test
  void aDiskWhoseSpaceIsUnknownBoundsTheSpillAlone() {
    MemoryBudget memory = new MemoryBudget(1 << 20, SpillLimit.ofUsableSpace(0.9));
    memory.startSpill("the sort", () -> Long.MAX_VALUE);
    memory.wrote(Long.MAX_VALUE / 2, "the sort");
    assertThat(memory.onDisk()).isEqualTo(Long.MAX_VALUE / 2);
  }
}
