package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An aggregate the scan computes itself counts its groups against the statement's memory budget:
 * with a small budget a GROUP BY of many distinct keys fails with 53200 naming the budget and its
 * connection property, and the connection answers the next query; with the default budget the same
 * query gives every group, and EXPLAIN ANALYZE's peak memory counts the groups. The table is three
 * files of 60,000 rows, enough for the scan to read them on several workers and merge their groups.
 */
class AggregateInScanBudgetTest {
  private static final int ROWS = 180_000;
  private static final int KEYS = 150_000;

  @TempDir static Path lake;

  private static Connection unlimited;

  @BeforeAll
  static void fillTable() throws SQLException {
    unlimited = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(unlimited, "CREATE TABLE t (id BIGINT, k BIGINT, part INT, s VARCHAR)");
    try (PreparedStatement insert =
        unlimited.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < ROWS; i++) {
        insert.setLong(1, i);
        insert.setLong(2, 1_000_000L + i % KEYS);
        insert.setInt(3, i % 3);
        insert.setString(4, "s" + i % KEYS);
        insert.addBatch();
        if ((i + 1) % 60_000 == 0) {
          insert.executeBatch(); // a file each
        }
      }
    }
  }

  @AfterAll
  static void close() throws SQLException {
    unlimited.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT k, count(*) FROM t GROUP BY k", // one primitive key
        "SELECT s, count(*), min(id) FROM t GROUP BY s", // one string key
        "SELECT k, part, count(*), sum(id) FROM t GROUP BY k, part", // two integer keys
      })
  void manyGroupsPastASmallBudgetFailWith53200AndTheConnectionGoesOn(String query)
      throws SQLException {
    try (Connection small =
        DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=1MB")) {
      assertThat(Sql.explain(small, query)).containsPattern("LakeTableScan\\(.*aggregate=");
      assertThatThrownBy(() -> Sql.column(small, query))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("53200"))
          .hasMessageContaining("the aggregate in the scan of")
          .hasMessageContaining("memory budget of 1 MiB")
          .hasMessageContaining("memoryBudget");
      assertThat(Sql.column(small, "SELECT count(*) FROM t WHERE id < 10")).containsExactly("10");
      // a few groups fit
      assertThat(Sql.column(small, "SELECT count(*) FROM t GROUP BY part"))
          .containsExactlyInAnyOrder("60000", "60000", "60000");
    }
  }

  @Test
  void withTheDefaultBudgetEveryGroupIsCountedRight() throws SQLException {
    String query = "SELECT k, count(*) FROM t GROUP BY k";
    assertThat(Sql.explain(unlimited, query)).containsPattern("LakeTableScan\\(.*aggregate=");
    Map<Long, Long> counts = new HashMap<>();
    try (Statement statement = unlimited.createStatement();
        ResultSet rs = statement.executeQuery(query)) {
      while (rs.next()) {
        assertThat(counts.put(rs.getLong(1), rs.getLong(2))).isNull();
      }
    }
    assertThat(counts).hasSize(KEYS);
    for (int key = 0; key < KEYS; key++) {
      // rows i and i + KEYS share a key while i + KEYS < ROWS
      long expected = key + KEYS < ROWS ? 2 : 1;
      assertThat(counts.get(1_000_000L + key)).as("key %d", key).isEqualTo(expected);
    }
  }

  @Test
  void explainAnalyzeCountsTheGroupsInItsPeakMemory() throws SQLException {
    String report =
        String.join(
            "\n", Sql.column(unlimited, "EXPLAIN ANALYZE SELECT k, count(*) FROM t GROUP BY k"));
    Matcher peak =
        Pattern.compile(
                "peak memory held by joins, sorts and aggregates \\(estimated\\): (\\d+) KiB")
            .matcher(report);
    assertThat(peak.find()).as(report).isTrue();
    // 150,000 groups of at least a boxed key, a count and a table entry each
    assertThat(Long.parseLong(peak.group(1))).as(report).isGreaterThan(KEYS * 64L / 1024);
  }
}
