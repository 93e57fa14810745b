package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An aggregate the scan computes itself counts its groups against the statement's memory budget
 * and, past it, spills: the rows of keys it does not hold go to files by a hash of their key and
 * are aggregated a file at a time. With a budget of 64 kB or 1 MB, GROUP BY of tens of thousands of
 * BIGINT, VARCHAR, DECIMAL and DATE keys, NULL keys and several keys, with COUNT, SUM, MIN, MAX,
 * AVG and COUNT(DISTINCT), answers as with the default budget; EXPLAIN ANALYZE shows the peak
 * memory and the rows written; no spill folder is left after an answer, a failure or a cancel; and
 * the connection goes on. The table is three files of 20,000 rows, so that the scan reads them on
 * several workers first.
 */
class AggregateInScanSpillTest {
  private static final int ROWS = 60_000;

  @TempDir static Path lake;

  /** The temporary folder of this class's spills, away from those of other programs. */
  @TempDir static Path temporary;

  private static String temporaryBefore;
  private static Connection unlimited;

  @BeforeAll
  static void fillTable() throws Exception {
    temporaryBefore = Spills.redirectTemporaryFolder(temporary);
    unlimited = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(
        unlimited,
        "CREATE TABLE t (id BIGINT, k BIGINT, s VARCHAR, d DECIMAL(12, 2), dt DATE, n INT,"
            + " f DOUBLE)");
    try (PreparedStatement insert =
        unlimited.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      for (int i = 0; i < ROWS; i++) {
        insert.setLong(1, i);
        Sql.setOrNull(insert, 2, i % 97 == 0 ? null : (long) (i % 50_000), Types.BIGINT);
        Sql.setOrNull(insert, 3, i % 89 == 0 ? null : "s" + (i * 7L % 40_000), Types.VARCHAR);
        Sql.setOrNull(
            insert, 4, i % 83 == 0 ? null : BigDecimal.valueOf(i % 30_000, 2), Types.DECIMAL);
        Sql.setOrNull(
            insert,
            5,
            i % 79 == 0 ? null : Date.valueOf(LocalDate.of(2000, 1, 1).plusDays(i % 20_000)),
            Types.DATE);
        Sql.setOrNull(insert, 6, i % 11 == 0 ? null : i % 3, Types.INTEGER);
        // dyadic values: their sums are exact in any order
        Sql.setOrNull(insert, 7, i % 13 == 0 ? null : (i % 1000) * 0.25, Types.DOUBLE);
        insert.addBatch();
        if ((i + 1) % 20_000 == 0) {
          insert.executeBatch(); // a file each
        }
      }
    }
  }

  @AfterAll
  static void close() throws SQLException {
    System.setProperty("java.io.tmpdir", temporaryBefore);
    unlimited.close();
  }

  private static Connection budget(String budget) throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=" + budget);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // one BIGINT key (NULL among them), every function the scan computes
        "SELECT k, count(*), count(s), sum(d), min(s), max(s), min(dt), max(d), avg(f), sum(f)"
            + " FROM t GROUP BY k",
        // one VARCHAR key
        "SELECT s, count(*), min(id), max(id), sum(n), avg(d) FROM t GROUP BY s",
        // one DECIMAL key
        "SELECT d, count(*), sum(id), min(k) FROM t GROUP BY d",
        // one DATE key
        "SELECT dt, count(*), max(s), sum(d) FROM t GROUP BY dt",
        // two integer keys, NULL in either
        "SELECT k, n, count(*), sum(f), min(d) FROM t GROUP BY k, n",
        // a string and a DATE key
        "SELECT s, dt, count(*), sum(id) FROM t GROUP BY s, dt",
        // a string and an integer key (strings numbered, pairs in a table of primitives)
        "SELECT s, k, count(*), max(d) FROM t GROUP BY s, k",
        // a computed key
        "SELECT k * 2 + 1, count(*), sum(d) FROM t GROUP BY k * 2 + 1",
        // distinct aggregates: the scan groups by key and value first
        "SELECT n, count(DISTINCT s) FROM t GROUP BY n",
        "SELECT count(DISTINCT k) FROM t",
        // DISTINCT rows
        "SELECT DISTINCT k, s FROM t",
      })
  void anAggregateInTheScanPastTheBudgetAnswersAsWithTheDefaultBudget(String query)
      throws Exception {
    List<String> expected = Sql.sorted(Sql.lines(unlimited, query));
    assertThat(expected).isNotEmpty();
    for (String size : List.of("64kB", "1MB")) {
      try (Connection small = budget(size)) {
        assertThat(Sql.explain(small, query)).containsPattern("LakeTableScan\\(.*aggregate=");
        assertThat(Sql.sorted(Sql.lines(small, query))).as(size).isEqualTo(expected);
        assertThat(Spills.folders()).as(size).isEmpty();
        String report = String.join("\n", Sql.column(small, "EXPLAIN ANALYZE " + query));
        assertThat(report)
            .as(size)
            .containsPattern(
                "peak memory held by joins, sorts and aggregates \\(estimated\\): [1-9]")
            .containsPattern(
                "rows written to disk by joins, sorts and aggregates that did not fit: [1-9]");
        assertThat(Spills.folders()).as(size).isEmpty();
        assertThat(Sql.column(small, "SELECT count(*) FROM t")).containsExactly("60000");
      }
    }
  }

  @Test
  void withTheDefaultBudgetTheGroupsCountInThePeakAndNothingSpills() throws SQLException {
    String query = "SELECT k, count(*) FROM t GROUP BY k";
    assertThat(Sql.lines(unlimited, query)).hasSizeGreaterThan(40_000);
    String report = String.join("\n", Sql.column(unlimited, "EXPLAIN ANALYZE " + query));
    assertThat(report)
        .containsPattern("peak memory held by joins, sorts and aggregates \\(estimated\\): [1-9]")
        .doesNotContain("rows written to disk");
  }

  @Test
  void aResultSetClosedBeforeItsEndDeletesTheFiles() throws Exception {
    try (Connection small = budget("64kB");
        Statement statement = small.createStatement();
        ResultSet rs = statement.executeQuery("SELECT k, count(*) FROM t GROUP BY k")) {
      assertThat(rs.next()).isTrue();
      assertThat(Spills.folders()).isNotEmpty();
      rs.close();
      assertThat(Spills.folders()).isEmpty();
      assertThat(Sql.column(small, "SELECT count(*) FROM t")).containsExactly("60000");
    }
  }

  @Test
  void aSpillPastTheSpillLimitFailsWith53200AndLeavesNoFiles() throws Exception {
    for (String properties : List.of("&spillLimit=16kB", "&spillLimit=0")) {
      try (Connection capped =
          DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=64kB" + properties)) {
        assertThatThrownBy(() -> Sql.lines(capped, "SELECT s, count(*) FROM t GROUP BY s"))
            .as(properties)
            .isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("53200"))
            .hasMessageContaining("the aggregate in the scan of")
            .hasMessageContaining("spillLimit");
        assertThat(Spills.folders()).as(properties).isEmpty();
        assertThat(Sql.column(capped, "SELECT count(*) FROM t")).containsExactly("60000");
      }
    }
  }

  @Test
  void aBudgetTooSmallForOneGroupFailsWith53200AndTheConnectionGoesOn() throws Exception {
    try (Connection tiny = budget("50B")) {
      assertThatThrownBy(() -> Sql.lines(tiny, "SELECT k, count(*) FROM t GROUP BY k"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("53200"))
          .hasMessageContaining("the aggregate in the scan of")
          .hasMessageContaining("50 bytes")
          .hasMessageContaining("memoryBudget");
      assertThat(Spills.folders()).isEmpty();
      assertThat(Sql.column(tiny, "SELECT count(*) FROM t")).containsExactly("60000");
    }
  }

  /** A table of 1,200,000 rows, each key its own: seconds of spilling at a budget of 1 MB. */
  private static void bigTable() throws SQLException {
    Sql.update(unlimited, "CREATE TABLE IF NOT EXISTS big (k BIGINT, v BIGINT)");
    if (Sql.column(unlimited, "SELECT count(*) FROM big").equals(List.of("0"))) {
      Sql.update(
          unlimited,
          "INSERT INTO big SELECT x.id * 100 + y.id, x.id FROM t x, t y WHERE y.id < 20");
    }
  }

  @Test
  void cancelStopsASpillingAggregateInTheScanWithin1SecondAndDeletesItsFiles() throws Exception {
    bigTable();
    String query = "SELECT k, count(*), sum(v) FROM big GROUP BY k";
    try (Connection small = budget("1MB")) {
      assertThat(Sql.explain(small, query)).containsPattern("LakeTableScan\\(.*aggregate=");
    }
    Spills.cancelWhileSpilling(lake, query, "the aggregate in the scan");
  }

  @Test
  void aQueryTimeoutStopsASpillingAggregateInTheScanAndDeletesItsFiles() throws Exception {
    bigTable();
    try (Connection small = budget("1MB");
        Statement statement = small.createStatement()) {
      statement.setQueryTimeout(1);
      long start = System.nanoTime();
      assertThatThrownBy(
              () -> {
                try (ResultSet rs =
                    statement.executeQuery("SELECT k, count(*), sum(v) FROM big GROUP BY k")) {
                  while (rs.next()) {
                    // read to the end
                  }
                }
              })
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"));
      assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(4_000);
      assertThat(Spills.folders()).isEmpty();
      assertThat(Sql.column(small, "SELECT count(*) FROM t")).containsExactly("60000");
    }
  }
}
