package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Aggregates whose groups do not fit the statement's memory budget: the rows of keys past the
 * aggregate's share are written to files by a hash of their key and aggregated a file at a time
 * (split again when a file's keys still do not fit), giving the groups an aggregate in memory gives
 * (COUNT, SUM of DECIMAL and DOUBLE, MIN and MAX of strings, AVG, COUNT(DISTINCT), NULL keys,
 * several keys, HAVING, DISTINCT); cancel stops a spilling aggregate within a second; and no spill
 * folder is left after an aggregate ends, is cancelled or its result set is closed early. Group
 * keys are expressions the scan does not compute ({@code MOD}) so that Calcite aggregates above the
 * scan rather than the scan itself.
 */
class AggregateSpillTest {
  private static final String BUDGET = "?memoryBudget=16kB";

  @TempDir static Path lake;

  /** The temporary folder of this class's aggregates, away from those of other programs. */
  @TempDir static Path temporary;

  private static String temporaryBefore;
  private static Connection unlimited;
  private static Connection small;

  @BeforeAll
  static void fillTables() throws Exception {
    temporaryBefore = Spills.redirectTemporaryFolder(temporary);
    unlimited = DriverManager.getConnection("jdbc:floe:" + lake);
    small = DriverManager.getConnection("jdbc:floe:" + lake + BUDGET);
    Sql.update(
        unlimited, "CREATE TABLE a (id BIGINT, k INT, v VARCHAR, d DECIMAL(30, 2), f DOUBLE)");
    Random random = new Random(20261207);
    try (PreparedStatement insert =
        unlimited.prepareStatement("INSERT INTO a VALUES (?, ?, ?, ?, ?)")) {
      for (int i = 0; i < 12_000; i++) {
        insert.setLong(1, i);
        Sql.setOrNull(
            insert, 2, random.nextInt(20) == 0 ? null : random.nextInt(4000), Types.INTEGER);
        Sql.setOrNull(
            insert, 3, random.nextInt(10) == 0 ? null : "v" + random.nextInt(3000), Types.VARCHAR);
        Sql.setOrNull(
            insert,
            4,
            random.nextInt(10) == 0
                ? null
                : new BigDecimal(random.nextLong() + "" + random.nextInt(1000)).movePointLeft(2),
            Types.DECIMAL);
        Sql.setOrNull(
            insert, 5, random.nextInt(10) == 0 ? null : random.nextDouble(), Types.DOUBLE);
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  @AfterAll
  static void close() throws SQLException {
    System.setProperty("java.io.tmpdir", temporaryBefore);
    small.close();
    unlimited.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // thousands of groups, a NULL key among them
        "SELECT mod(k, 5000) * 2 AS g, count(*), count(v), sum(d), sum(f), min(v), max(v), avg(d), avg(f)"
            + " FROM a GROUP BY mod(k, 5000) * 2",
        // several keys, HAVING
        "SELECT mod(k, 50) AS g, v || '' AS w, count(*), sum(d) FROM a"
            + " GROUP BY mod(k, 50), v || '' HAVING count(*) > 0 AND max(f) IS NOT NULL",
        "SELECT mod(id, 3000) AS g, sum(f), min(d), max(d) FROM a GROUP BY mod(id, 3000)"
            + " HAVING sum(d) > 0",
        // distinct aggregates: a group of each key and value first
        "SELECT mod(id, 2500) AS g, count(DISTINCT k), count(DISTINCT v), count(*) FROM a"
            + " GROUP BY mod(id, 2500)",
        "SELECT v, count(DISTINCT mod(id, 7)), sum(k) FROM a GROUP BY v",
        // DISTINCT rows
        "SELECT DISTINCT k * 3 AS g, substring(v, 1, 2) AS w FROM a",
        // an aggregate over an aggregate that spills
        "SELECT c, count(*) FROM (SELECT mod(k, 5000) + 1 AS g, count(*) AS c FROM a GROUP BY mod(k, 5000) + 1) x"
            + " GROUP BY c",
      })
  void anAggregatePastTheBudgetAnswersAsOneInMemory(String query) throws Exception {
    List<String> expected = Sql.sorted(Sql.lines(unlimited, query));
    assertThat(expected).hasSizeGreaterThan(10);
    assertThat(Sql.sorted(Sql.lines(small, query))).isEqualTo(expected);
    String report = String.join("\n", Sql.column(small, "EXPLAIN ANALYZE " + query));
    assertThat(report)
        .containsPattern("peak memory held by joins, sorts and aggregates \\(estimated\\): [1-9]")
        .containsPattern(
            "rows written to disk by joins, sorts and aggregates that did not fit: [1-9]");
    assertThat(Spills.folders()).isEmpty();
  }

  @Test
  void theAggregateCountsAgainstTheBudgetWithoutChangingThePlanText() throws SQLException {
    String query = "SELECT mod(k, 5000) * 2, count(*) FROM a GROUP BY mod(k, 5000) * 2";
    String plan = Sql.explain(small, query);
    assertThat(plan).contains("Aggregate").doesNotContain("WatchPoint").doesNotContain("GROUP]");
    String report = String.join("\n", Sql.column(unlimited, "EXPLAIN ANALYZE " + query));
    assertThat(report)
        .containsPattern("peak memory held by joins, sorts and aggregates \\(estimated\\): [1-9]")
        .doesNotContain("rows written to disk");
  }

  @Test
  void anAggregateWhoseOneGroupDoesNotFitFailsWith53200AndTheConnectionGoesOn() throws Exception {
    try (Connection tiny =
        DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=100B")) {
      assertThatThrownBy(
              () ->
                  Sql.column(
                      tiny, "SELECT mod(k, 5000) * 2, count(*) FROM a GROUP BY mod(k, 5000) * 2"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("53200"))
          .hasMessageContaining("the aggregate")
          .hasMessageContaining("100 bytes")
          .hasMessageContaining("memoryBudget");
      assertThat(Spills.folders()).isEmpty();
      assertThat(Sql.column(tiny, "SELECT count(*) FROM a")).containsExactly("12000");
    }
  }

  @Test
  void aResultSetClosedBeforeItsEndDeletesTheFiles() throws Exception {
    try (Statement statement = small.createStatement();
        var rs =
            statement.executeQuery(
                "SELECT mod(k, 5000) * 2, count(*) FROM a GROUP BY mod(k, 5000) * 2")) {
      assertThat(rs.next()).isTrue();
      assertThat(Spills.folders()).isNotEmpty();
    }
    assertThat(Spills.folders()).isEmpty();
    assertThat(Sql.column(small, "SELECT count(*) FROM a")).containsExactly("12000");
  }

  @Test
  void cancelStopsASpillingAggregateWithin1SecondAndDeletesItsFiles() throws Exception {
    // 12,000 × 12,000 rows, each a group of its own: far more than a second of writing
    String query =
        "SELECT x.id * 100000 + y.id, count(*) FROM a x, a y GROUP BY x.id * 100000 + y.id";
    Spills.cancelWhileSpilling(lake, query, "the aggregate");
  }
}
