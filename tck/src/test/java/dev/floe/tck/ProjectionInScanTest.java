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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Projections computed in the scan: a SELECT list of arithmetic, casts, {@code CASE} and {@code
 * EXTRACT} over a table's columns is computed by the scan's workers over the decoded column vectors
 * ({@code compute=[...]} in EXPLAIN). Each query is checked against the same query over the table
 * behind a filter no scan takes ({@code RAND() >= 0}), which Calcite's projection answers, on one
 * scan thread and on four, read by the result set in column batches and as Calcite's row arrays;
 * values are NULL in places, near the limits of their types, and three files have rows deleted and
 * updated. An expression that fails for a row fails the statement at that row, after the rows
 * before it, and not at all when the row is never taken.
 */
class ProjectionInScanTest {
  private static final int FILES = 3;
  private static final int ROWS_PER_FILE = 20_000;

  @TempDir static Path lake;
  private static Connection serial;
  private static Connection parallel;

  /** Results through Calcite's cursor, row arrays, instead of the column batches. */
  private static Connection rowArrays;

  @BeforeAll
  static void fill() throws SQLException {
    serial = DriverManager.getConnection("jdbc:floe:" + lake + "?scanThreads=1");
    parallel = DriverManager.getConnection("jdbc:floe:" + lake + "?scanThreads=4");
    rowArrays =
        DriverManager.getConnection("jdbc:floe:" + lake + "?scanThreads=4&columnarResults=false");
    Sql.update(
        serial,
        "CREATE TABLE t (id BIGINT, x INT, b BIGINT, d DECIMAL(12, 2), f DOUBLE, dt DATE,"
            + " s VARCHAR, w DECIMAL(30, 2))");
    Random random = new Random(20261208);
    double[] doubles = {0.5, -0.0, 0.0, Double.NaN, Double.POSITIVE_INFINITY, 1e300, -2.5};
    try (PreparedStatement insert =
        serial.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int file = 0; file < FILES; file++) {
        for (int n = 0; n < ROWS_PER_FILE; n++) {
          insert.setLong(1, (long) file * ROWS_PER_FILE + n);
          Sql.setOrNull(
              insert,
              2,
              random.nextInt(15) == 0 ? null : random.nextInt(2001) - 1000,
              Types.INTEGER);
          Sql.setOrNull(
              insert, 3, random.nextInt(15) == 0 ? null : random.nextLong() >> 8, Types.BIGINT);
          Sql.setOrNull(
              insert,
              4,
              random.nextInt(15) == 0
                  ? null
                  : BigDecimal.valueOf(random.nextLong() % 100_000_000_000L, 2),
              Types.DECIMAL);
          Sql.setOrNull(
              insert,
              5,
              random.nextInt(15) == 0 ? null : doubles[random.nextInt(doubles.length)],
              Types.DOUBLE);
          Sql.setOrNull(
              insert,
              6,
              random.nextInt(15) == 0
                  ? null
                  : Date.valueOf(LocalDate.of(1990, 1, 1).plusDays(random.nextInt(15_000))),
              Types.DATE);
          Sql.setOrNull(
              insert, 7, random.nextInt(15) == 0 ? null : "s" + random.nextInt(50), Types.VARCHAR);
          // 30 digits: not decoded into vectors, so a query reading w is read row by row
          insert.setBigDecimal(8, BigDecimal.valueOf(n % 1000, 2));
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
    Sql.update(serial, "DELETE FROM t WHERE MOD(id, 9) = 4");
    Sql.update(serial, "UPDATE t SET x = x + 1 WHERE MOD(id, 11) = 3");
    // h: values whose comparison with 0.5 overflows a long once scaled (rows below 5,000 only),
    // so those batches are computed row by row and the later ones in vectors
    Sql.update(serial, "CREATE TABLE h (n INT, x INT, b BIGINT)");
    try (PreparedStatement insert = serial.prepareStatement("INSERT INTO h VALUES (?, ?, ?)")) {
      for (int n = 0; n < 20_000; n++) {
        insert.setInt(1, n);
        insert.setInt(2, n % 5 - 2);
        insert.setLong(
            3,
            n < 5_000
                ? (n % 2 == 0 ? 4_000_000_000_000_000_000L : -4_000_000_000_000_000_000L)
                : n % 7 - 3);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    Sql.update(serial, "CREATE TABLE o (id INT, a INT)");
    Sql.update(serial, "INSERT INTO o VALUES (1, 1), (2, 2), (3, 2147483647), (4, 4)");
    Sql.update(serial, "CREATE TABLE k (id BIGINT)");
    Sql.update(serial, "INSERT INTO k VALUES (5), (17), (20003), (59999), (123456789)");
  }

  @AfterAll
  static void close() throws SQLException {
    serial.close();
    parallel.close();
    rowArrays.close();
  }

  /** Projections the scan computes; {@code t} is the table. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT id, x + 1, x * 3 - x, b - 7, b * 2 FROM t",
        "SELECT d * 3, d + d, d - 1.25, d * d, x * d FROM t",
        "SELECT f * 2, f + x, f / 4, CAST(x AS DOUBLE) / 3, CAST(x AS BIGINT) * 1000000 FROM t",
        "SELECT s, CASE WHEN x > 0 THEN d ELSE 0 END, CASE WHEN s LIKE 's1%' THEN x END FROM t",
        "SELECT EXTRACT(YEAR FROM dt), EXTRACT(MONTH FROM dt), EXTRACT(DAY FROM dt), dt FROM t",
        "SELECT w, x * 2, w FROM t WHERE id < 30000",
        "SELECT x + 1, x + 1, id FROM t WHERE x BETWEEN -10 AND 10",
        "SELECT id * 10 + x FROM t",
        "SELECT EXTRACT(QUARTER FROM dt), x * 2, id FROM t",
        "SELECT x / 7, b / 3, ABS(x), ABS(d), ABS(f), ABS(b), id / (x * x + 1), x / -1 FROM t",
        "SELECT CASE WHEN x > 500 THEN x / 3 WHEN x < -500 THEN ABS(x) ELSE 0 - x END FROM t",
        "SELECT d * 2 AS v, id FROM t ORDER BY id DESC",
        "SELECT CASE WHEN d IS NULL THEN -1 WHEN d > 0 THEN x * 2 ELSE x END FROM t"
      })
  void theScanComputesTheProjection(String query) throws SQLException {
    String everyRow = query.replace(" FROM t", " FROM (SELECT * FROM t WHERE RAND() >= 0) t");
    assertThat(Sql.explain(serial, query)).contains("compute=[");
    assertThat(Sql.explain(serial, everyRow)).doesNotContain("compute=[");
    List<String> expected = Sql.lines(serial, everyRow);
    assertThat(expected).hasSizeGreaterThan(100);
    assertThat(Sql.lines(serial, query)).isEqualTo(expected);
    assertThat(Sql.lines(parallel, query)).isEqualTo(expected);
    assertThat(Sql.lines(rowArrays, query)).isEqualTo(expected);
  }

  /**
   * A batch computed row by row (a value too large to compare in a long) leaves nothing behind for
   * the next batch computed in vectors: an OR's marks of the rows its first part passed were kept,
   * and rows failing both parts took the THEN branch. Found by a review of the first version.
   */
  @Test
  void aBatchComputedRowByRowLeavesNothingForTheNext() throws SQLException {
    String query = "SELECT n, CASE WHEN x > 0 OR b > 0.5 THEN x + 1 ELSE 0 END FROM h";
    String everyRow = query.replace(" FROM h", " FROM (SELECT * FROM h WHERE RAND() >= 0) h");
    assertThat(Sql.explain(serial, query)).contains("compute=[");
    List<String> expected = Sql.lines(serial, everyRow);
    assertThat(expected).hasSize(20_000);
    assertThat(Sql.lines(serial, query)).isEqualTo(expected);
    assertThat(Sql.lines(parallel, query)).isEqualTo(expected);
    assertThat(Sql.lines(rowArrays, query)).isEqualTo(expected);
    String sum = "SELECT SUM(CASE WHEN x > 0 OR b > 0.5 THEN x + 1 ELSE 0 END) FROM h";
    assertThat(Sql.explain(serial, sum)).contains("aggregate=[");
    assertThat(Sql.lines(serial, sum))
        .isEqualTo(
            Sql.lines(
                serial, sum.replace(" FROM h", " FROM (SELECT * FROM h WHERE RAND() >= 0) h")));
  }

  /** Values computed in Java: what the scan computes is the value, not only Calcite's agreement. */
  @Test
  void computedValuesAreTheArithmetic() throws SQLException {
    String query = "SELECT id, x, x * 3 + 2, d, d * 2 + 0.01 FROM t WHERE id < 2000";
    assertThat(Sql.explain(parallel, query)).contains("compute=[");
    int checked = 0;
    try (Statement statement = parallel.createStatement();
        ResultSet rows = statement.executeQuery(query)) {
      while (rows.next()) {
        int x = rows.getInt(2);
        if (rows.wasNull()) {
          rows.getInt(3);
          assertThat(rows.wasNull()).isTrue();
        } else {
          assertThat(rows.getInt(3)).isEqualTo(x * 3 + 2);
        }
        BigDecimal d = rows.getBigDecimal(4);
        BigDecimal computed = rows.getBigDecimal(5);
        if (d == null) {
          assertThat(computed).isNull();
        } else {
          assertThat(computed)
              .isEqualTo(d.multiply(BigDecimal.valueOf(2)).add(new BigDecimal("0.01")));
        }
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(1500);
  }

  /** A projection the scan cannot compute in whole stays Calcite's, with the same answers. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT x + 1, UPPER(s) FROM t",
        "SELECT s || 'x', d * 2 FROM t",
        "SELECT d / 3, x FROM t",
        "SELECT x + 1 FROM t WHERE UPPER(s) = 'S1'",
        "SELECT id, x FROM t WHERE x > 5",
        // DOUBLE comparisons stay Calcite's (docs/limits.md: -0.0, NaN)
        "SELECT f, CASE WHEN f > 0 THEN 1 WHEN f = 0 THEN 2 WHEN f < 0 THEN 3 ELSE 4 END FROM t",
        // casts alone compute nothing (a join finds its key's column through them)
        "SELECT CAST(x AS BIGINT), CAST(x AS DECIMAL(12, 2)), id FROM t"
      })
  void otherProjectionsStayAboveTheScan(String query) throws SQLException {
    assertThat(Sql.explain(serial, query)).doesNotContain("compute=[");
    String everyRow = query.replace(" FROM t", " FROM (SELECT * FROM t WHERE RAND() >= 0) t");
    assertThat(Sql.lines(parallel, query)).isEqualTo(Sql.lines(serial, everyRow));
  }

  /** A row whose value overflows fails the statement when it is reached, after the rows before. */
  @Test
  void anOverflowFailsAtItsRow() throws SQLException {
    String query = "SELECT a + 1 FROM o";
    assertThat(Sql.explain(serial, query)).contains("compute=[");
    for (Connection connection : List.of(serial, parallel, rowArrays)) {
      List<Integer> before = new ArrayList<>();
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery(query)) {
        assertThatThrownBy(
                () -> {
                  while (rows.next()) {
                    before.add(rows.getInt(1));
                  }
                })
            .isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
      }
      assertThat(before).containsExactly(2, 3);
    }
  }

  /**
   * A row never taken is never failed for: a reader that stops before the failing row and closes
   * the result set gets no error, exactly where it gets none from Calcite's projection.
   */
  @Test
  void anOverflowPastTheLastRowTakenFailsNothing() throws SQLException {
    String query = "SELECT a + 1 FROM o";
    String everyRow = "SELECT a + 1 FROM (SELECT * FROM o WHERE RAND() >= 0) o";
    for (Connection connection : List.of(serial, parallel, rowArrays)) {
      List<String> computed = new ArrayList<>();
      List<String> calcite = new ArrayList<>();
      for (int n = 1; n <= 4; n++) {
        computed.add(readAndClose(connection, query, n));
        calcite.add(readAndClose(connection, everyRow, n));
      }
      assertThat(computed).isEqualTo(calcite).startsWith("2", "2 3").endsWith("2 3 22003");
    }
    assertThat(Sql.lines(parallel, "SELECT a * 2 FROM o WHERE id <> 3"))
        .containsExactly("2", "4", "8");
  }

  /** The first {@code n} rows of a query's single column, then the SQLState of its failure. */
  private static String readAndClose(Connection connection, String query, int n) {
    List<String> taken = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(query)) {
      for (int i = 0; i < n && rows.next(); i++) {
        taken.add(rows.getString(1));
      }
    } catch (SQLException e) {
      taken.add(e.getSQLState());
    }
    return String.join(" ", taken);
  }

  /** A join's run-time filter reaches a projected scan's key column through the projection. */
  @Test
  void aJoinOverAProjectedScanKeepsItsKeys() throws SQLException {
    String query =
        "SELECT p.id, p.y, p.e FROM (SELECT id, x * 2 AS y, d + 1 AS e FROM t) p"
            + " JOIN k ON p.id = k.id ORDER BY p.id";
    String everyRow = query.replace(" FROM t)", " FROM t WHERE RAND() >= 0)");
    List<String> expected = Sql.lines(serial, everyRow);
    assertThat(expected).hasSize(4); // 123456789 is not a row; none of the others is deleted
    assertThat(Sql.lines(serial, query)).isEqualTo(expected);
    assertThat(Sql.lines(parallel, query)).isEqualTo(expected);
    assertThat(Sql.lines(rowArrays, query)).isEqualTo(expected);
  }

  /**
   * A SELECT list too long for one method of Calcite's generated code (the JVM's 64 KB limit) is
   * computed by the scan, which generates no code for it.
   */
  @Test
  void sixThousandExpressionsAreComputedInTheScan() throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < 6000; i++) {
      sql.append(i == 0 ? "" : ", ").append("id + ").append(i);
    }
    sql.append(" FROM o WHERE id = 2");
    try (Statement statement = serial.createStatement();
        ResultSet rows = statement.executeQuery(sql.toString())) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getInt(1)).isEqualTo(2);
      assertThat(rows.getInt(6000)).isEqualTo(6001);
      assertThat(rows.next()).isFalse();
    }
  }

  /**
   * A join on a widened integer column beside computed values: the run-time filter of the join
   * reaches the column through the cast the scan computes.
   */
  @Test
  void aJoinOnAWidenedKeyFiltersTheProjectedScan() throws SQLException {
    String query =
        "SELECT p.id, p.y FROM (SELECT id, CAST(x AS BIGINT) AS xl, x * 2 AS y FROM t) p"
            + " JOIN k ON p.xl = k.id ORDER BY p.id";
    String everyRow = query.replace(" FROM t)", " FROM t WHERE RAND() >= 0)");
    assertThat(Sql.explain(serial, query)).contains("compute=[");
    List<String> expected = Sql.lines(serial, everyRow);
    assertThat(expected).isNotEmpty();
    assertThat(Sql.lines(parallel, query)).isEqualTo(expected);
    String report = String.join("\n", Sql.column(serial, "EXPLAIN ANALYZE " + query));
    assertThat(report).containsPattern("x from the join on \\w+ = id: \\d+ keys");
  }

  /**
   * Operators above a projecting scan read its values by their types: a grouping Calcite computes
   * (COUNT DISTINCT is not the scan's), a UNION ALL with a branch Calcite projects, a sort on a
   * computed value, a join on two.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT y, COUNT(DISTINCT e) FROM (SELECT x * 2 AS y, d + 1 AS e FROM t) GROUP BY y",
        "SELECT v FROM (SELECT x * 3 AS v FROM t UNION ALL SELECT ABS(x) AS v FROM t)",
        "SELECT id, x * 2 + 1 AS v FROM t ORDER BY v, id LIMIT 50",
        "SELECT p.id, q.id FROM (SELECT id, x * 2 AS y FROM t) p JOIN (SELECT id, x + x AS y FROM t)"
            + " q ON p.y = q.y AND p.id = q.id + 1"
      })
  void operatorsAboveReadTheComputedValues(String query) throws SQLException {
    String everyRow = query.replace(" FROM t", " FROM (SELECT * FROM t WHERE RAND() >= 0) t");
    assertThat(Sql.explain(serial, query)).contains("compute=[");
    List<String> expected = Sql.sorted(Sql.lines(serial, everyRow));
    assertThat(expected).isNotEmpty();
    assertThat(Sql.sorted(Sql.lines(parallel, query))).isEqualTo(expected);
  }

  /** BIGINT and DECIMAL overflows fail with 22003 as Calcite's projection does, and only then. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT b * 9000000 FROM t",
        "SELECT d * d * d * d FROM t",
        "SELECT CAST(d AS DECIMAL(20, 2)) * 100000000000000000 FROM t",
        "SELECT id / x FROM t",
        "SELECT id / (x + 1000) FROM t",
        "SELECT a / (a - 2147483647) FROM o",
        "SELECT (0 - a - 1) / (a - a - 1) FROM o"
      })
  void overflowsFailAsCalcitesDo(String query) throws SQLException {
    String everyRow = query.replace(" FROM t", " FROM (SELECT * FROM t WHERE RAND() >= 0) t");
    String computed = failure(parallel, query);
    assertThat(computed).isEqualTo(failure(serial, everyRow));
    assertThat(failure(rowArrays, query)).isEqualTo(computed);
  }

  /** Integer division and ABS inside aggregates the scan computes: the same sums as Calcite's. */
  @Test
  void divisionAndAbsInAggregatesInTheScan() throws SQLException {
    String query =
        "SELECT s, SUM(x / 3), SUM(ABS(d)), MAX(ABS(b) / 1000), COUNT(*) FROM t GROUP BY s";
    String everyRow = query.replace(" FROM t", " FROM (SELECT * FROM t WHERE RAND() >= 0) t");
    assertThat(Sql.explain(serial, query)).contains("aggregate=[").contains("ABS(d)");
    List<String> expected = Sql.sorted(Sql.lines(serial, everyRow));
    assertThat(expected).hasSizeGreaterThan(40);
    assertThat(Sql.sorted(Sql.lines(parallel, query))).isEqualTo(expected);
  }

  /** How many rows a query gave before it failed, and its SQLState; or the rows and "none". */
  private static String failure(Connection connection, String query) {
    int rows = 0;
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(query)) {
      while (result.next()) {
        result.getString(1);
        rows++;
      }
      return rows + " none";
    } catch (SQLException e) {
      return rows + " " + e.getSQLState();
    }
  }

  /** A prepared projection run again computes again, from the rows it reads then. */
  @Test
  void aPreparedProjectionRunAgainReadsTheRowsOfThen() throws SQLException {
    Sql.update(serial, "CREATE TABLE p (id INT, x INT)");
    Sql.update(serial, "INSERT INTO p VALUES (1, 10), (2, 20)");
    try (PreparedStatement query = parallel.prepareStatement("SELECT id, x * 3 + 1 FROM p")) {
      assertThat(lines(query)).containsExactlyInAnyOrder("1 31", "2 61");
      Sql.update(serial, "INSERT INTO p VALUES (3, 30)");
      Sql.update(serial, "DELETE FROM p WHERE id = 1");
      assertThat(lines(query)).containsExactlyInAnyOrder("2 61", "3 91");
    }
  }

  private static List<String> lines(PreparedStatement query) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rows = query.executeQuery()) {
      while (rows.next()) {
        out.add(rows.getString(1) + " " + rows.getString(2));
      }
    }
    return out;
  }

  /** UPDATE's scan carries row ids and keeps its own projection; the values land as computed. */
  @Test
  void updatesComputeAsBefore() throws SQLException {
    Sql.update(serial, "CREATE TABLE u AS SELECT id, x FROM t WHERE id < 100");
    String before = String.join(",", Sql.lines(serial, "SELECT x * 2 + 1 FROM u ORDER BY id"));
    Sql.update(serial, "UPDATE u SET x = x * 2 + 1");
    assertThat(String.join(",", Sql.lines(serial, "SELECT x FROM u ORDER BY id")))
        .isEqualTo(before);
  }
}
