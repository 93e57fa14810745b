package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Joins without an equality key run as nested loops, which enumerate their inner side once for each
 * outer row. The inner side's scans, joins and aggregates must run once and be replayed from
 * memory: a comparison with a scalar subquery over a table of 200,000 rows read that table once per
 * row, and did not finish in five minutes. Each query's answer is checked against one computed
 * here, and EXPLAIN ANALYZE's rows read by each scan against the table's size; with a budget too
 * small to hold the inner side, the join reads it again per outer row and still answers right.
 */
class NestedLoopJoinTest {
  private static final int PRICES = 1500;

  @TempDir static Path lake;
  private static Connection connection;
  private static final List<BigDecimal> prices = new ArrayList<>();
  private static final int[][] BANDS = {{0, 100}, {100, 250}, {250, 400}, {300, 600}, {600, 1001}};

  @BeforeAll
  static void fillTables() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(connection, "CREATE TABLE prices (id BIGINT, v DECIMAL(10, 2))");
    Sql.update(connection, "CREATE TABLE bands (lo INT, hi INT, name VARCHAR)");
    Random random = new Random(20261207);
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO prices VALUES (?, ?)")) {
      for (int id = 0; id < PRICES; id++) {
        BigDecimal v = BigDecimal.valueOf(random.nextInt(100_000), 2);
        prices.add(v);
        insert.setLong(1, id);
        insert.setBigDecimal(2, v);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO bands VALUES (?, ?, ?)")) {
      for (int[] band : BANDS) {
        insert.setInt(1, band[0]);
        insert.setInt(2, band[1]);
        insert.setString(3, "b" + band[0]);
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  @Test
  void aScalarSubqueryOnTheInnerSideIsComputedOnce() throws SQLException {
    String sql = "SELECT count(*) FROM prices WHERE v > (SELECT avg(v) FROM prices) * 1.2";
    assertThat(Sql.explain(connection, sql)).contains("NestedLoopJoin");
    BigDecimal sum = prices.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
    BigDecimal bound = sum.divide(BigDecimal.valueOf(PRICES), 10, java.math.RoundingMode.DOWN);
    bound = bound.multiply(new BigDecimal("1.2"));
    BigDecimal limit = bound;
    long expected = prices.stream().filter(p -> p.compareTo(limit) > 0).count();
    assertThat(Sql.column(connection, sql)).containsExactly(String.valueOf(expected));

    String report = String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + sql));
    assertThat(rowsRead(report, "prices")).as(report).containsExactly((long) PRICES, (long) PRICES);
  }

  @Test
  void aJoinOnRangesReadsEachTableOnce() throws SQLException {
    String sql =
        "SELECT b.name, count(*) FROM prices p JOIN bands b ON p.v >= b.lo AND p.v < b.hi"
            + " GROUP BY b.name";
    assertThat(Sql.explain(connection, sql)).contains("NestedLoopJoin");
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(bandCounts()));

    String report = String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + sql));
    assertThat(rowsRead(report, "prices")).as(report).containsExactly((long) PRICES);
    assertThat(rowsRead(report, "bands")).as(report).containsExactly((long) BANDS.length);
  }

  @Test
  void aLeftJoinOnRangesKeepsTheRowsNoBandHolds() throws SQLException {
    String sql =
        "SELECT p.id, b.name FROM prices p LEFT JOIN bands b ON p.v >= b.lo AND p.v < b.hi"
            + " AND b.lo >= 100";
    List<String> expected = new ArrayList<>();
    for (int id = 0; id < PRICES; id++) {
      boolean matched = false;
      for (int[] band : BANDS) {
        if (band[0] >= 100 && inBand(prices.get(id), band)) {
          expected.add(id + " b" + band[0]);
          matched = true;
        }
      }
      if (!matched) {
        expected.add(id + " null");
      }
    }
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(expected));
  }

  @Test
  void anInnerSideLargerThanItsShareOfTheBudgetIsReadAgainPerRow() throws SQLException {
    String sql =
        "SELECT b.name, count(*) FROM bands b JOIN prices p ON p.v >= b.lo AND p.v < b.hi"
            + " GROUP BY b.name";
    try (Connection small =
        DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=8kB")) {
      assertThat(Sql.sorted(Sql.lines(small, sql))).isEqualTo(Sql.sorted(bandCounts()));
      String report = String.join("\n", Sql.column(small, "EXPLAIN ANALYZE " + sql));
      // EXPLAIN ANALYZE reports each reading of a scan on a line of its own
      assertThat(rowsRead(report, "prices")).as(report).hasSizeGreaterThan(BANDS.length);
    }
  }

  private static List<String> bandCounts() {
    List<String> counts = new ArrayList<>();
    for (int[] band : BANDS) {
      long n = prices.stream().filter(p -> inBand(p, band)).count();
      if (n > 0) {
        counts.add("b" + band[0] + " " + n);
      }
    }
    return counts;
  }

  private static boolean inBand(BigDecimal v, int[] band) {
    return v.compareTo(BigDecimal.valueOf(band[0])) >= 0
        && v.compareTo(BigDecimal.valueOf(band[1])) < 0;
  }

  /** The rows read by each scan of a table that EXPLAIN ANALYZE reports, in its order. */
  private static List<Long> rowsRead(String report, String table) {
    Matcher scan =
        Pattern.compile("LakeTableScan " + table + " .*rows read: (\\d+),").matcher(report);
    List<Long> rows = new ArrayList<>();
    while (scan.find()) {
      rows.add(Long.parseLong(scan.group(1)));
    }
    return rows;
  }
}
