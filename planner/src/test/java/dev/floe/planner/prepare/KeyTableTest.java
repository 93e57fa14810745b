package dev.floe.planner.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A hash join's key table answers every lookup, insert and walk as a {@link HashMap} does: with
 * Long keys and with Integer keys (held as primitives, 0 and both extremes among them), a lookup of
 * the other integer class finding nothing, and after a key of another class moves it to a map.
 */
class KeyTableTest {
  @Test
  void answersAsAHashMapDoesForEachKindOfKey() {
    Random random = new Random(11);
    for (int round = 0; round < 60; round++) {
      KeyTable table = new KeyTable();
      Map<Object, Object> reference = new HashMap<>();
      boolean ints = round % 3 == 0;
      int operations = 1 + random.nextInt(round < 10 ? 20 : 5000);
      int range = 1 + random.nextInt(operations * 2);
      for (int op = 0; op < operations; op++) {
        Object key = key(random, ints, range);
        if (round % 4 == 1 && op == operations / 2) {
          key = random.nextBoolean() ? "a string" : new BigDecimal("2.5"); // moves it to a map
        }
        Object value = "v" + op;
        switch (random.nextInt(3)) {
          case 0:
            assertThat(table.putIfAbsent(key, value)).isEqualTo(reference.putIfAbsent(key, value));
            break;
          case 1:
            if (reference.containsKey(key)) {
              table.replace(key, value);
              reference.put(key, value);
            }
            break;
          default:
            break;
        }
        Object probe = key(random, random.nextBoolean(), range);
        assertThat(table.get(probe)).as("get %s", probe).isEqualTo(reference.get(probe));
        assertThat(table.keySet().contains(probe)).isEqualTo(reference.containsKey(probe));
      }
      assertThat(table.size()).isEqualTo(reference.size());
      assertThat(table.keySet()).containsExactlyInAnyOrderElementsOf(reference.keySet());
      assertThat(new ArrayList<>(table.values()))
          .containsExactlyInAnyOrderElementsOf(reference.values());
      List<Object> walked = new ArrayList<>();
      table.forEach(
          (k, v) -> {
            assertThat(reference.get(k)).isEqualTo(v);
            walked.add(k);
          });
      assertThat(walked).hasSize(reference.size());
    }
  }

  private static Object key(Random random, boolean ints, int range) {
    long value;
    switch (random.nextInt(12)) {
      case 0:
        value = 0;
        break;
      case 1:
        value = ints ? Integer.MIN_VALUE : Long.MIN_VALUE;
        break;
      case 2:
        value = ints ? Integer.MAX_VALUE : Long.MAX_VALUE;
        break;
      default:
        value = random.nextInt(range) - range / 2;
    }
    return ints ? (Object) (int) value : (Object) value;
  }
}
