package dev.floe.planner.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.planner.session.Cancellation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Functions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hash aggregate within a memory budget: the groups of an unbounded one however little fits,
 * keys split again level after level, array keys compared by their comparer, and the failures
 * (53200) of an aggregate that cannot make progress, its folder deleted.
 */
class AggregateSpillTest {
  @TempDir Path temporary;
  private String temporaryBefore;

  @BeforeEach
  void useTemporaryFolder() {
    temporaryBefore = System.getProperty("java.io.tmpdir");
    System.setProperty("java.io.tmpdir", temporary.toString());
  }

  @AfterEach
  void restoreTemporaryFolder() {
    System.setProperty("java.io.tmpdir", temporaryBefore);
  }

  private List<Path> folders() throws IOException {
    try (Stream<Path> list = Files.list(temporary)) {
      return list.toList();
    }
  }

  /** Rows {@code [key, value]}: {@code n} rows over {@code keys} keys, some NULL. */
  private static List<Object[]> rows(int n, int keys) {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int k = (i * 7919) % keys;
      rows.add(new Object[] {k == 3 ? null : "key" + k, (long) i});
    }
    return rows;
  }

  /** Count and sum by key, each group as {@code key=count/sum}, sorted. */
  private static List<String> grouped(Enumerable<Object[]> input, long budget) {
    try (Cancellation.Scope scope = Cancellation.enter(0, budget)) {
      AggregateSpill<Object[], Object, long[], String> aggregate =
          new AggregateSpill<>(
              input,
              row -> row[0],
              () -> new long[2],
              (acc, row) -> {
                acc[0]++;
                acc[1] += (Long) row[1];
                return acc;
              },
              (key, acc) -> key + "=" + acc[0] + "/" + acc[1],
              null,
              Cancellation.current(),
              null);
      List<String> out = new ArrayList<>();
      try (Enumerator<String> groups = aggregate.enumerator()) {
        while (groups.moveNext()) {
          out.add(groups.current());
        }
      }
      assertThat(Cancellation.current().memory().reserved()).isZero();
      out.sort(null);
      return out;
    }
  }

  private static List<String> expected(List<Object[]> rows) {
    Map<Object, long[]> groups = new HashMap<>();
    for (Object[] row : rows) {
      long[] acc = groups.computeIfAbsent(row[0], k -> new long[2]);
      acc[0]++;
      acc[1] += (Long) row[1];
    }
    List<String> out = new ArrayList<>();
    groups.forEach((k, acc) -> out.add(k + "=" + acc[0] + "/" + acc[1]));
    out.sort(null);
    return out;
  }

  @Test
  void groupsPastTheBudgetAreThoseOfAnUnboundedAggregate() throws IOException {
    for (int keys : new int[] {1, 50, 5_000, 40_000}) {
      List<Object[]> rows = rows(60_000, keys);
      List<String> expected = expected(rows);
      assertThat(grouped(Linq4j.asEnumerable(rows), Long.MAX_VALUE)).isEqualTo(expected);
      // about 8 kB of groups a pass: the files of 40,000 keys split again
      assertThat(grouped(Linq4j.asEnumerable(rows), 16 * 1024)).isEqualTo(expected);
      assertThat(folders()).isEmpty();
    }
  }

  @Test
  void arrayKeysAreComparedByTheirComparer() throws IOException {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      rows.add(new Object[] {i % 3000, i % 7 == 0 ? null : "v" + (i % 11), 1L});
    }
    try (Cancellation.Scope scope = Cancellation.enter(0, 16 * 1024)) {
      AggregateSpill<Object[], Object[], long[], String> aggregate =
          new AggregateSpill<>(
              Linq4j.asEnumerable(rows),
              row -> new Object[] {row[0], row[1]},
              () -> new long[1],
              (acc, row) -> {
                acc[0] += (Long) row[2];
                return acc;
              },
              (key, acc) -> Arrays.toString(key) + "=" + acc[0],
              Functions.arrayComparer(),
              Cancellation.current(),
              null);
      List<String> out = new ArrayList<>();
      try (Enumerator<String> groups = aggregate.enumerator()) {
        while (groups.moveNext()) {
          out.add(groups.current());
        }
      }
      Map<String, Long> expected = new HashMap<>();
      for (Object[] row : rows) {
        expected.merge(Arrays.toString(new Object[] {row[0], row[1]}), 1L, Long::sum);
      }
      assertThat(out).hasSize(expected.size());
      for (String group : out) {
        String key = group.substring(0, group.lastIndexOf('='));
        assertThat(group).isEqualTo(key + "=" + expected.get(key));
      }
      assertThat(Cancellation.current().memory().spills()).isPositive();
    }
    assertThat(folders()).isEmpty();
  }

  /** A key whose hash is the same for all: its files never split. */
  private record SameHash(Object value) {
    @Override
    public boolean equals(Object o) {
      return o instanceof SameHash s && Objects.equals(value, s.value);
    }

    @Override
    public int hashCode() {
      return 1;
    }
  }

  @Test
  void keysThatNeverSplitFailWith53200AfterTheLastLevelAndLeaveNoFiles() throws IOException {
    List<Object[]> rows = rows(20_000, 5_000);
    try (Cancellation.Scope scope = Cancellation.enter(0, 16 * 1024)) {
      AggregateSpill<Object[], SameHash, long[], String> aggregate =
          new AggregateSpill<>(
              Linq4j.asEnumerable(rows),
              row -> new SameHash(row[0]),
              () -> new long[1],
              (acc, row) -> acc,
              (key, acc) -> String.valueOf(key),
              null,
              Cancellation.current(),
              null);
      Enumerator<String> groups = aggregate.enumerator();
      assertThatThrownBy(
              () -> {
                while (groups.moveNext()) {
                  groups.current();
                }
              })
          .isInstanceOfSatisfying(
              FloeException.class, e -> assertThat(e.error()).isEqualTo(FloeError.OUT_OF_MEMORY))
          .hasMessageContaining("the aggregate")
          .hasMessageContaining("after splitting its rows " + AggregateSpill.LEVELS + " times")
          .hasMessageContaining("memoryBudget");
      assertThat(Cancellation.current().memory().reserved()).isZero();
    }
    assertThat(folders()).isEmpty();
  }

  @Test
  void anAggregateWhoseFirstGroupDoesNotFitFailsWith53200() throws IOException {
    assertThatThrownBy(() -> grouped(Linq4j.asEnumerable(rows(100, 10)), 16))
        .isInstanceOfSatisfying(
            FloeException.class, e -> assertThat(e.error()).isEqualTo(FloeError.OUT_OF_MEMORY))
        .hasMessageContaining("for one group");
    assertThat(folders()).isEmpty();
  }

  @Test
  void aGroupIsEstimatedByItsKeyAndItsAccumulatorsFields() {
    assertThat(AggregateSpill.accumulatorSize(null)).isZero();
    assertThat(AggregateSpill.accumulatorSize(new Fields())).isEqualTo(16 + 8 + 8 + 40 + 3);
  }

  /** An accumulator as Calcite generates one: public fields. */
  public static final class Fields {
    public long count = 1;
    public String least = "abc";
  }
}
