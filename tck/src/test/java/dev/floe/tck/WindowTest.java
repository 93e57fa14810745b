package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Window functions partition their input in Floe's own partitions (rows in arrays, grouped by a
 * sort of their keys' hashes), reserved in the statement's memory budget. Each answer is checked
 * against one computed here: keys whose hashes collide ({@code 0} and {@code 2^32 + 1} as BIGINT,
 * {@code 'Aa'} and {@code 'BB'}), NULL keys, keys of two columns, ties in the window's order, and a
 * window without {@code PARTITION BY}. Past the budget the window fails with 53200 and the
 * connection stays usable.
 */
class WindowTest {
  private static final int ROWS = 4000;

  @TempDir static Path lake;
  private static Connection connection;
  private static final List<Row> rows = new ArrayList<>();

  private record Row(long id, Long k, String s, long v) {}

  private static final Long[] KEYS = {0L, (1L << 32) + 1, 1L, -1L, 7L, null};
  private static final String[] NAMES = {"Aa", "BB", "C", null};

  @BeforeAll
  static void fillTable() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(connection, "CREATE TABLE w (id BIGINT, k BIGINT, s VARCHAR, v BIGINT)");
    Random random = new Random(20261207);
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO w VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < ROWS; i++) {
        Row row =
            new Row(
                i,
                KEYS[random.nextInt(KEYS.length)],
                NAMES[random.nextInt(NAMES.length)],
                random.nextInt(50));
        rows.add(row);
        insert.setLong(1, row.id());
        Sql.setOrNull(insert, 2, row.k(), Types.BIGINT);
        Sql.setOrNull(insert, 3, row.s(), Types.VARCHAR);
        insert.setLong(4, row.v());
        insert.addBatch();
        if (i % 1000 == 999) {
          insert.executeBatch();
        }
      }
    }
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  /** The rows of each partition (by the key), in the order of v then id. */
  private static Map<List<Object>, List<Row>> partitions(
      java.util.function.Function<Row, List<Object>> key) {
    Map<List<Object>, List<Row>> partitions = new LinkedHashMap<>();
    for (Row row : rows) {
      partitions.computeIfAbsent(key.apply(row), k -> new ArrayList<>()).add(row);
    }
    for (List<Row> partition : partitions.values()) {
      partition.sort(Comparator.comparingLong(Row::v).thenComparingLong(Row::id));
    }
    return partitions;
  }

  @Test
  void aRunningSumPerKeyWhoseHashesCollideIsComputedPerKey() throws SQLException {
    List<String> expected = new ArrayList<>();
    for (List<Row> partition : partitions(r -> java.util.Arrays.asList(r.k())).values()) {
      long sum = 0;
      int n = 0;
      for (Row row : partition) {
        sum += row.v();
        expected.add(row.id() + " " + sum + " " + ++n);
      }
    }
    String sql =
        "SELECT id, SUM(v) OVER (PARTITION BY k ORDER BY v, id),"
            + " ROW_NUMBER() OVER (PARTITION BY k ORDER BY v, id) FROM w";
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(expected));
  }

  @Test
  void lagOverKeysOfTwoColumnsWithCollidingStringsIsComputedPerKey() throws SQLException {
    List<String> expected = new ArrayList<>();
    for (List<Row> partition : partitions(r -> java.util.Arrays.asList(r.s(), r.k())).values()) {
      Long previous = null;
      for (Row row : partition) {
        expected.add(row.id() + " " + previous);
        previous = row.v();
      }
    }
    String sql = "SELECT id, LAG(v) OVER (PARTITION BY s, k ORDER BY v, id) FROM w";
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(expected));
  }

  @Test
  void aWindowWithoutPartitionsRanksEveryRow() throws SQLException {
    List<Row> all = new ArrayList<>(rows);
    all.sort(Comparator.comparingLong(Row::v).reversed().thenComparingLong(Row::id));
    List<String> expected = new ArrayList<>();
    long rank = 0;
    long previousV = -1;
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).v() != previousV) {
        rank = i + 1;
        previousV = all.get(i).v();
      }
      expected.add(all.get(i).id() + " " + rank);
    }
    String sql = "SELECT id, RANK() OVER (ORDER BY v DESC) FROM w";
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(expected));
    assertThat(
            Sql.column(
                connection,
                "SELECT COUNT(*) FROM (SELECT ROW_NUMBER() OVER (ORDER BY id) AS r FROM w) t"
                    + " WHERE r <= 10"))
        .containsExactly("10");
  }

  @Test
  void aWindowPastTheMemoryBudgetFailsWith53200AndTheConnectionStaysUsable() throws SQLException {
    try (Connection small =
        DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=64kB")) {
      for (String sql :
          List.of(
              "SELECT id, SUM(v) OVER (PARTITION BY k ORDER BY id) FROM w",
              "SELECT id, ROW_NUMBER() OVER (ORDER BY v, id) FROM w")) {
        assertThatThrownBy(() -> Sql.lines(small, sql))
            .as(sql)
            .isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("53200"))
            .hasMessageContaining("window")
            .hasMessageContaining("memoryBudget");
      }
      assertThat(Sql.column(small, "SELECT COUNT(*) FROM w")).containsExactly(String.valueOf(ROWS));
      long small3 = rows.stream().filter(r -> r.id() < 3).count();
      assertThat(
              Sql.lines(
                  small,
                  "SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM w WHERE id < 3 ORDER BY id"))
          .hasSize((int) small3)
          .containsExactly("0 1", "1 2", "2 3");
    }
    assertThat(Objects.requireNonNull(connection).isValid(5)).isTrue();
  }
}
