package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Correlated subqueries whose outer query selects fewer columns than the subquery reads through its
 * correlation variable: the outer scan must keep those columns, at the positions the subquery
 * refers to (narrowing it under the subquery once failed with index errors, and could have compared
 * the wrong columns). The table is filled by single-row INSERTs, one data file each.
 */
class CorrelatedSubqueryTest {
  @TempDir static Path lake;
  private static Connection connection;

  @BeforeAll
  static void fillTable() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(connection, "CREATE TABLE t (a INTEGER, b INTEGER, c INTEGER, d INTEGER)");
    int[][] rows = {
      {1, 10, 100, 1000}, {2, 20, 90, 1100}, {3, 30, 110, 900},
      {4, 40, 80, 1200}, {5, 50, 120, 800}, {6, 60, 70, 1300}
    };
    for (int[] r : rows) {
      Sql.update(
          connection,
          "INSERT INTO t VALUES (" + r[0] + ", " + r[1] + ", " + r[2] + ", " + r[3] + ")");
    }
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  @Test
  void countInTheSelectListCorrelatedOnColumnsTheOuterQueryDoesNotSelect() throws SQLException {
    assertThat(
            rows(
                "SELECT (SELECT count(*) FROM t AS x WHERE x.c > t.c AND x.d < t.d), d"
                    + " FROM t ORDER BY 1, 2"))
        .containsExactly("0 800", "1 900", "2 1000", "3 1100", "4 1200", "5 1300");
  }

  @Test
  void existsCorrelatedOnColumnsTheOuterQueryDoesNotSelect() throws SQLException {
    assertThat(
            rows(
                "SELECT a FROM t WHERE EXISTS"
                    + " (SELECT 1 FROM t AS x WHERE x.b < t.b AND x.d > t.d) ORDER BY a"))
        .containsExactly("3", "5");
  }

  @Test
  void aggregateOfAnotherColumnCorrelatedOnOne() throws SQLException {
    assertThat(rows("SELECT a, (SELECT min(x.a) FROM t AS x WHERE x.c < t.c) FROM t ORDER BY a"))
        .containsExactly("1 2", "2 4", "3 1", "4 6", "5 1", "6 null");
  }

  @Test
  void subqueryInTheSelectListAndTheWhereClause() throws SQLException {
    assertThat(
            rows(
                "SELECT b, (SELECT count(*) FROM t AS x WHERE x.b < t.b) FROM t"
                    + " WHERE (SELECT max(x.d) FROM t AS x WHERE x.a < t.a) > 1000 ORDER BY b"))
        .containsExactly("30 2", "40 3", "50 4", "60 5");
  }

  /**
   * An IN subquery beside another condition of an OR: Calcite gives it a join with a COUNT(*)
   * without GROUP BY, which has one row even when the subquery has none. Turning that join into a
   * semi-join once made an empty subquery drop every row, those the other condition keeps too.
   */
  @Test
  void inAnEmptySubqueryBesideAnotherConditionOfAnOr() throws SQLException {
    assertThat(
            rows(
                "SELECT a FROM t WHERE b = 20 OR c IN"
                    + " (SELECT d FROM t AS x WHERE x.b BETWEEN 50 AND 30) ORDER BY a"))
        .containsExactly("2");
    assertThat(
            rows(
                "SELECT a FROM t WHERE b = 20 OR c > 110 OR a IN"
                    + " (SELECT x.a FROM t AS x WHERE 1 = 0) ORDER BY a"))
        .containsExactly("2", "5");
    assertThat(
            rows(
                "SELECT a FROM t WHERE b = 20 OR a NOT IN"
                    + " (SELECT x.a FROM t AS x WHERE x.d > 5000) ORDER BY a"))
        .containsExactly("1", "2", "3", "4", "5", "6");
    assertThat(
            rows(
                "SELECT a FROM t WHERE b = 20 OR a IN"
                    + " (SELECT x.a FROM t AS x WHERE x.d > 1250) ORDER BY a"))
        .containsExactly("2", "6");
    assertThat(
            rows(
                "SELECT a, (SELECT count(*) FROM t AS x WHERE x.b > 1000) FROM t"
                    + " WHERE a < 3 ORDER BY a"))
        .containsExactly("1 0", "2 0");
  }

  private static List<String> rows(String sql) throws SQLException {
    return Sql.lines(connection, sql);
  }
}
