package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code SUM} and {@code AVG} are typed as PostgreSQL, Trino, Spark and DuckDB type them
 * (docs/sql.md, "Aggregate types"), in every place an aggregate is computed: in the scan, by
 * Calcite's runtime above it (a GROUP BY on an expression), over a window, of DISTINCT values.
 * Before, a {@code SUM} of INTEGER failed past 2^31, a {@code SUM} of DECIMAL(3, 1) past 99.9,
 * {@code AVG} of 1 and 2 was 1, and a BIGINT sum past 2^63 computed above the scan came back
 * negative.
 */
class AggregateTypesTest {
  @TempDir Path lake;

  private Connection connection;

  /** The shapes of one aggregate over the table {@code t}: each is computed by another operator. */
  private static final String[] SHAPES = {
    "SELECT %s FROM t", // in the scan
    "SELECT %s FROM t GROUP BY k > 100", // Calcite's aggregate above the scan (one group)
    "SELECT %s OVER () FROM t LIMIT 1", // a window
  };

  @BeforeEach
  void table() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake.toUri());
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TABLE t (k INT, i INT, b BIGINT, d DECIMAL(3, 1), m DECIMAL(4, 2))");
      s.execute(
          "INSERT INTO t VALUES (1, 2147483647, 9223372036854775807, 99.9, 0.01),"
              + " (2, 2147483647, 1, 99.9, 0.02), (3, 1, 0, 0.1, 0.02)");
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void aSumOfIntegersPastTwoToTheThirtyFirstIsABigint(int shape) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(String.format(SHAPES[shape], "SUM(i)"))) {
      assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.BIGINT);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getObject(1)).isEqualTo(4294967295L);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void aSumOfDecimalsKeepsItsScaleAndTakesThirtyEightDigits(int shape) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(String.format(SHAPES[shape], "SUM(d)"))) {
      ResultSetMetaData meta = rs.getMetaData();
      assertThat(meta.getColumnType(1)).isEqualTo(Types.DECIMAL);
      assertThat(meta.getPrecision(1)).isEqualTo(38);
      assertThat(meta.getScale(1)).isEqualTo(1);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("199.9");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void anAverageOfIntegersIsADoubleWithItsFraction(int shape) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(String.format(SHAPES[shape], "AVG(k)"))) {
      assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.DOUBLE);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getObject(1)).isEqualTo(2.0);
    }
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(String.format(SHAPES[shape], "AVG(i)"))) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getDouble(1)).isEqualTo((2147483647.0 * 2 + 1) / 3);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void anAverageOfDecimalsHasFourMoreDigitsAfterThePoint(int shape) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(String.format(SHAPES[shape], "AVG(m)"))) {
      assertThat(rs.getMetaData().getScale(1)).isEqualTo(6);
      assertThat(rs.next()).isTrue();
      // (0.01 + 0.02 + 0.02) / 3, truncated after six digits (docs/limits.md).
      assertThat(rs.getBigDecimal(1)).isEqualTo(new BigDecimal("0.016666"));
    }
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(String.format(SHAPES[shape], "AVG(d)"))) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("66.63333");
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT SUM(b) FROM t",
        "SELECT SUM(b) FROM t GROUP BY k > 100",
        "SELECT SUM(b + 0) FROM t",
        "SELECT SUM(b) OVER () FROM t",
        "SELECT SUM(b) OVER (ORDER BY k) FROM t",
        "SELECT SUM(DISTINCT b) FROM t",
        "SELECT AVG(b), SUM(b) FROM t",
        "SELECT k > 100, SUM(b) FROM t GROUP BY k > 100 HAVING SUM(b) > 0"
      })
  void aBigintSumPastTwoToTheSixtyThirdIsOutOfRangeNotNegative(String sql) {
    assertThatThrownBy(() -> rows(sql))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22003"));
  }

  @Test
  void aSumThatFitsIsExactAndAnEmptySumIsNull() throws SQLException {
    assertThat(rows("SELECT k, SUM(b), SUM(i) FROM t GROUP BY k ORDER BY k"))
        .containsExactly(
            List.of(1, 9223372036854775807L, 2147483647L),
            List.of(2, 1L, 2147483647L),
            List.of(3, 0L, 1L));
    List<Object> empty = new ArrayList<>();
    empty.add(null);
    empty.add(null);
    assertThat(rows("SELECT SUM(b + 0), AVG(i + 0) FROM t WHERE k > 100")).containsExactly(empty);
    assertThat(rows("SELECT COUNT(*) FROM t GROUP BY k > 100 HAVING SUM(i + 0) = 4294967295"))
        .containsExactly(List.of(3L));
  }

  private List<List<Object>> rows(String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int c = 1; c <= n; c++) {
          row.add(rs.getObject(c));
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
