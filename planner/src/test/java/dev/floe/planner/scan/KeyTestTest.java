package dev.floe.planner.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A run-time filter's build keys looked up as primitive longs answer as the boxed set does, in the
 * bitmap (dense keys) and the open-addressing set (sparse keys, 0 and the extremes), for keys of
 * the column's class and of others; and the test turns itself off only once it has seen enough rows
 * and kept most of them.
 */
class KeyTestTest {
  private static final long[] PROBES = {
    0, 1, -1, 63, 64, 65, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE
  };

  @Test
  void primitiveLookupsAnswerAsTheBoxedKeysDo() {
    Random random = new Random(7);
    for (int round = 0; round < 40; round++) {
      Set<Object> keys = new HashSet<>();
      boolean dense = round % 2 == 0;
      int count = 1 + random.nextInt(round < 4 ? 3 : 5000);
      long base = random.nextLong() / 2;
      for (int i = 0; i < count; i++) {
        long value = dense ? base + random.nextInt(count * 3) : random.nextLong();
        keys.add(value);
        keys.add((int) value); // an Integer key: only INTEGER columns compared as-is can equal it
      }
      if (round % 5 == 0) {
        keys.addAll(List.of(0L, Long.MIN_VALUE, Long.MAX_VALUE, 0, Integer.MIN_VALUE));
      }
      keys.add(new BigDecimal("1.5")); // of neither class
      for (boolean normalized : new boolean[] {false, true}) {
        RuntimeFilter.KeyTest test = new RuntimeFilter.KeyTest(keys, normalized);
        RuntimeFilter.LongKeys longs = test.primitive(false);
        RuntimeFilter.LongKeys ints = test.primitive(true);
        for (int i = 0; i < 2000; i++) {
          long probe =
              i < PROBES.length
                  ? PROBES[i]
                  : i % 2 == 0 ? base + random.nextInt(count * 4 + 1) - count : random.nextLong();
          if (i % 3 == 0 && !keys.isEmpty()) {
            probe = ((Number) keys.iterator().next()).longValue() + random.nextInt(3) - 1;
          }
          assertThat(longs.contains(probe)).as("long %s", probe).isEqualTo(test.contains(probe));
          int narrow = (int) probe;
          assertThat(ints.contains(narrow)).as("int %s", narrow).isEqualTo(test.contains(narrow));
        }
      }
    }
  }

  @Test
  void theTestTurnsOffOnlyAfterASampleThatKeptMostRows() {
    RuntimeFilter.KeyTest kept = new RuntimeFilter.KeyTest(Set.of(1L), false);
    kept.counted(1000, 1000);
    assertThat(kept.off()).as("too few rows seen").isFalse();
    kept.counted((int) RuntimeFilter.KeyTest.SAMPLE, (int) (RuntimeFilter.KeyTest.SAMPLE * 0.9));
    assertThat(kept.off()).isTrue();

    RuntimeFilter.KeyTest selective = new RuntimeFilter.KeyTest(Set.of(1L), false);
    for (int i = 0; i < 100; i++) {
      selective.counted(4096, 2048);
    }
    assertThat(selective.off()).as("half the rows dropped").isFalse();
  }
}
