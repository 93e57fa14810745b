package dev.floe.tck.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differential fuzzer's run in every build: a fixed seed and a few minutes' worth of histories.
 * The profile {@code fuzz} runs it long, with the seed and sizes of {@code -Dfuzz.*}
 * (docs/testing.md, "Differential fuzzing").
 */
class DifferentialFuzzTest {
  private static final Fuzzer.Config EVERY_BUILD =
      new Fuzzer.Config(20261203L, 16, 12, 3, 140_000, true, 3);

  @Test
  void randomHistoriesAnswerAlikeInFloeDuckDbAndIcebergsReader(@TempDir Path work) {
    Fuzzer fuzzer = new Fuzzer(Fuzzer.Config.fromSystemProperties(EVERY_BUILD), work);
    fuzzer.run();
    System.out.println(fuzzer.summary());
    fuzzer.failures.forEach(f -> System.out.println(f.reproduction()));
    assertThat(fuzzer.failures).extracting(Fuzzer.Failure::reproduction).isEmpty();
    assertThat(fuzzer.checks).isPositive();
  }
}
