package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Conditional aggregates computed in the scan: {@code FILTER (WHERE ...)} of a condition the scan
 * tests, and {@code CASE WHEN} comparing a string column with a literal ({@code s = 'R'}, tested as
 * the LIKE of a literal without wildcards). Each query is checked against the same query over the
 * table behind a filter no scan takes ({@code RAND() >= 0}), which Calcite's aggregate answers, on
 * one scan thread and on four, and its plan against where the aggregate runs. The strings differ by
 * a trailing space, by case, are empty, or hold {@code %}, {@code _} and a backslash; the values
 * and the strings are NULL in places; three files have rows deleted.
 */
class ConditionalAggregateInScanTest {
  private static final int FILES = 3;
  private static final int ROWS_PER_FILE = 30_000;
  private static final String[] STRINGS = {"R", "A", "N", "", "R ", "r", "%", "_", "a\\b", "RA"};

  @TempDir static Path lake;
  private static Connection serial;
  private static Connection parallel;

  /** A budget the grouping by id does not fit: the scan's groups spill, rows and all. */
  private static Connection small;

  @BeforeAll
  static void fill() throws SQLException {
    serial = DriverManager.getConnection("jdbc:floe:" + lake + "?scanThreads=1");
    parallel = DriverManager.getConnection("jdbc:floe:" + lake + "?scanThreads=4");
    small = DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=2MB");
    Sql.update(
        serial,
        "CREATE TABLE t (id BIGINT, g VARCHAR, x INT, d DECIMAL(12, 2), f DOUBLE, s VARCHAR,"
            + " w DECIMAL(30, 2))");
    Random random = new Random(20261207);
    try (PreparedStatement insert =
        serial.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      for (int file = 0; file < FILES; file++) {
        for (int n = 0; n < ROWS_PER_FILE; n++) {
          insert.setLong(1, (long) file * ROWS_PER_FILE + n);
          Sql.setOrNull(
              insert, 2, random.nextInt(30) == 0 ? null : "g" + random.nextInt(7), Types.VARCHAR);
          Sql.setOrNull(
              insert, 3, random.nextInt(15) == 0 ? null : random.nextInt(20) - 5, Types.INTEGER);
          Sql.setOrNull(
              insert,
              4,
              random.nextInt(15) == 0
                  ? null
                  : BigDecimal.valueOf(random.nextInt(100_000) - 20_000, 2),
              Types.DECIMAL);
          insert.setDouble(5, random.nextDouble());
          Sql.setOrNull(
              insert,
              6,
              random.nextInt(12) == 0 ? null : STRINGS[random.nextInt(STRINGS.length)],
              Types.VARCHAR);
          // 30 digits: not decoded into vectors, so a query reading w is read row by row
          insert.setBigDecimal(7, BigDecimal.valueOf(n % 1000, 2));
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
    Sql.update(serial, "DELETE FROM t WHERE MOD(id, 9) = 4");
  }

  @AfterAll
  static void close() throws SQLException {
    serial.close();
    parallel.close();
    small.close();
  }

  /** Queries whose aggregate the scan computes; {@code t} is the table. */
  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "SELECT g, COUNT(*) FILTER (WHERE x > 5), SUM(d) FILTER (WHERE s = 'R'),"
            + " MIN(x) FILTER (WHERE s <> 'A'), MAX(d) FILTER (WHERE x IS NULL),"
            + " COUNT(s) FILTER (WHERE x BETWEEN 1 AND 9 OR d < 0) FROM t GROUP BY g; FILTER",
        "SELECT COUNT(x) FILTER (WHERE s = ''), SUM(x) FILTER (WHERE s = 'R ' OR s = 'r'),"
            + " COUNT(*) FILTER (WHERE s IS NULL), COUNT(*) FROM t; FILTER",
        "SELECT s, COUNT(*) FILTER (WHERE d >= 100), SUM(x) FILTER (WHERE d >= 100),"
            + " AVG(x) FILTER (WHERE x <> 3) FROM t GROUP BY s; FILTER",
        "SELECT g, SUM(CASE WHEN s = 'R' THEN d ELSE 0 END),"
            + " SUM(CASE WHEN s <> 'N' THEN 1 ELSE 0 END), SUM(CASE WHEN 'RA' = s THEN x END)"
            + " FROM t GROUP BY g; LIKE 'R'",
        "SELECT g, COUNT(*) FILTER (WHERE s = 'R'), COUNT(*) FILTER (WHERE s LIKE 'R%')"
            + " FROM t WHERE x > 2 GROUP BY g; FILTER",
        "SELECT g, MAX(w) FILTER (WHERE s = 'R'), COUNT(w) FILTER (WHERE x > 0 AND s <> 'A')"
            + " FROM t GROUP BY g; FILTER"
      })
  void theScanComputesTheConditionalAggregate(String query, String planHolds) throws SQLException {
    String everyRow = query.replace(" FROM t", " FROM (SELECT * FROM t WHERE RAND() >= 0)");
    String plan = Sql.explain(serial, query);
    assertThat(plan).contains("aggregate=[").contains(planHolds);
    assertThat(Sql.explain(serial, everyRow)).doesNotContain("aggregate=[");
    List<String> expected = Sql.sorted(Sql.lines(serial, everyRow));
    assertThat(expected).isNotEmpty();
    assertThat(Sql.sorted(Sql.lines(serial, query))).isEqualTo(expected);
    assertThat(Sql.sorted(Sql.lines(parallel, query))).isEqualTo(expected);
  }

  /** Groups past the budget: rows of keys the total does not hold are spilled and re-read. */
  @Test
  void spilledRowsKeepTheirFilter() throws SQLException {
    String query =
        "SELECT id, COUNT(*) FILTER (WHERE s = 'R'), SUM(x) FILTER (WHERE s <> 'N') FROM t"
            + " GROUP BY id";
    String everyRow = query.replace(" FROM t", " FROM (SELECT * FROM t WHERE RAND() >= 0)");
    assertThat(Sql.explain(small, query)).contains("FILTER");
    List<String> expected = Sql.sorted(Sql.lines(serial, everyRow));
    assertThat(Sql.sorted(Sql.lines(small, query))).isEqualTo(expected);
  }

  /** Conditions the scan does not test leave the aggregate to Calcite, with the same answers. */
  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "SELECT g, COUNT(*) FILTER (WHERE UPPER(s) = 'R') FROM t GROUP BY g",
        "SELECT g, SUM(x) FILTER (WHERE s = 'a\\b') FROM t GROUP BY g",
        "SELECT g, SUM(x) FILTER (WHERE s = '%'), COUNT(*) FILTER (WHERE s = '_') FROM t GROUP BY g",
        "SELECT g, COUNT(*) FILTER (WHERE f > 0.5) FROM t GROUP BY g",
        "SELECT g, COUNT(DISTINCT x) FILTER (WHERE x > 0) FROM t GROUP BY g",
        "SELECT g, SUM(CASE WHEN s < 'N' THEN 1 ELSE 0 END) FROM t GROUP BY g",
        "SELECT g, COUNT(*) FILTER (WHERE s >= 'R'), COUNT(*) FILTER (WHERE s <= 'A') FROM t"
            + " GROUP BY g",
        "SELECT g, SUM(CASE WHEN s BETWEEN 'A' AND 'R' THEN x END) FROM t GROUP BY g",
        "SELECT g, COUNT(*) FROM t WHERE s > 'N' OR x < d GROUP BY g",
        "SELECT g, COUNT(*) FROM t WHERE s = 'R' OR x < d GROUP BY g"
      })
  void otherConditionalAggregatesHaveTheSameAnswers(String query) throws SQLException {
    String everyRow = query.replace(" FROM t", " FROM (SELECT * FROM t WHERE RAND() >= 0)");
    List<String> expected = Sql.sorted(Sql.lines(serial, everyRow));
    assertThat(Sql.sorted(Sql.lines(parallel, query))).isEqualTo(expected);
  }

  /** A count computed in Java: the rows of one string, in the scan and above it. */
  @Test
  void countsOfOneStringAreTheRowsHoldingIt() throws SQLException {
    long rs = 0;
    long all = 0;
    // the rows are regenerated as fill() wrote them
    Random random = new Random(20261207);
    for (int file = 0; file < FILES; file++) {
      for (int n = 0; n < ROWS_PER_FILE; n++) {
        long id = (long) file * ROWS_PER_FILE + n;
        if (random.nextInt(30) != 0) {
          random.nextInt(7);
        }
        if (random.nextInt(15) != 0) {
          random.nextInt(20);
        }
        if (random.nextInt(15) != 0) {
          random.nextInt(100_000);
        }
        random.nextDouble();
        String s = random.nextInt(12) == 0 ? null : STRINGS[random.nextInt(STRINGS.length)];
        if (id % 9 != 4) {
          all++;
          if ("R".equals(s)) {
            rs++;
          }
        }
      }
    }
    String query = "SELECT COUNT(*) FILTER (WHERE s = 'R'), COUNT(*) FROM t";
    assertThat(Sql.explain(parallel, query)).contains("FILTER");
    assertThat(Sql.lines(parallel, query)).containsExactly(rs + " " + all);
  }
}
