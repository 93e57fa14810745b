package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DOUBLE and REAL sort keys holding NaN, the infinities and both zeros sort (they failed with 22018
 * when the sort had one key) in the order PostgreSQL, DuckDB, Spark and Trino's ORDER BY give:
 * {@code -Infinity}, the finite values ({@code -0.0} just below {@code 0.0}, which GROUP BY keeps
 * apart), {@code +Infinity}, NaN; NULLs where NULLS FIRST/LAST puts them; the same order as a sort
 * on two keys. Every shape of sort Calcite generates for one key is tried: ORDER BY, ORDER BY with
 * LIMIT, a window's ORDER BY, a grouped result ordered by its key.
 */
class FloatOrderTest {
  @TempDir Path lake;

  private Connection connection;

  /** The values stored, in the order an ascending sort gives (NULL last). */
  private static final String[] ASCENDING = {
    "-Infinity", "-1.5", "-0.0", "0.0", "2.0", "1.0E300", "Infinity", "NaN", null
  };

  @BeforeEach
  void table() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake.toUri());
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TABLE f (id INT, d DOUBLE, r REAL)");
      // Inserted in an order unlike the sorted one, each value in both columns (1.0E300 is
      // +Infinity as a REAL, so the REAL column holds 3.0E38 there).
      String[] inserted = {"NaN", "2.0", null, "Infinity", "-0.0", "-Infinity", "1.0E300", "0.0"};
      String[] real = {"NaN", "2.0", null, "Infinity", "-0.0", "-Infinity", "3.0E38", "0.0"};
      int id = 0;
      for (int i = 0; i < inserted.length; i++) {
        s.execute(
            "INSERT INTO f VALUES ("
                + ++id
                + ", "
                + literal(inserted[i], "DOUBLE")
                + ", "
                + literal(real[i], "REAL")
                + ")");
      }
      s.execute("INSERT INTO f VALUES (" + ++id + ", -1.5, -1.5)");
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private static String literal(String value, String type) {
    return value == null ? "NULL" : "CAST('" + value + "' AS " + type + ")";
  }

  @ParameterizedTest
  @ValueSource(strings = {"d", "r"})
  void orderByOneFloatingKeySortsNanLastAndTheInfinitiesAtTheEnds(String column)
      throws SQLException {
    assertThat(values("SELECT " + column + " FROM f ORDER BY " + column))
        .containsExactly(expected(column, false, false));
    assertThat(values("SELECT " + column + " FROM f ORDER BY " + column + " DESC"))
        .containsExactly(expected(column, true, true));
    assertThat(values("SELECT " + column + " FROM f ORDER BY " + column + " NULLS FIRST"))
        .containsExactly(expected(column, false, true));
    assertThat(values("SELECT " + column + " FROM f ORDER BY " + column + " DESC NULLS LAST"))
        .containsExactly(expected(column, true, false));
  }

  @ParameterizedTest
  @ValueSource(strings = {"d", "r"})
  void topNOfAFloatingKeyTakesTheLargestWithNanAboveInfinity(String column) throws SQLException {
    assertThat(values("SELECT " + column + " FROM f ORDER BY " + column + " DESC LIMIT 3"))
        .containsExactly(
            Arrays.asList(expected(column, true, true)).subList(0, 3).toArray(String[]::new));
    assertThat(
            values(
                "SELECT "
                    + column
                    + " FROM f WHERE "
                    + column
                    + " IS NOT NULL ORDER BY "
                    + column
                    + " LIMIT 2"))
        .containsExactly("-Infinity", "-1.5");
  }

  @Test
  void aWindowOrderedByAFloatingKeyRanksNanLast() throws SQLException {
    List<String> ranks = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT d, RANK() OVER (ORDER BY d) AS k FROM f WHERE d IS NOT NULL ORDER BY k")) {
      while (rs.next()) {
        ranks.add(rs.getString(1) + "@" + rs.getLong(2));
      }
    }
    assertThat(ranks)
        .containsExactly(
            "-Infinity@1",
            "-1.5@2",
            "-0.0@3",
            "0.0@4",
            "2.0@5",
            "1.0E300@6",
            "Infinity@7",
            "NaN@8");
  }

  @Test
  void aGroupedResultOrderedByItsFloatingKeyPutsNanLast() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("INSERT INTO f VALUES (20, CAST('NaN' AS DOUBLE), 0), (21, 2.0, 0)");
    }
    List<String> groups = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT d, COUNT(*) FROM f WHERE d IS NOT NULL GROUP BY d ORDER BY d")) {
      while (rs.next()) {
        groups.add(rs.getString(1) + "x" + rs.getLong(2));
      }
    }
    assertThat(groups)
        .containsExactly(
            "-Infinityx1",
            "-1.5x1",
            "-0.0x1",
            "0.0x1",
            "2.0x2",
            "1.0E300x1",
            "Infinityx1",
            "NaNx2");
  }

  /** The expected sequence: ASCENDING (REAL's 1.0E300 row holds 3.0E38), reversed if descending. */
  private static String[] expected(String column, boolean descending, boolean nullsFirst) {
    List<String> values = new ArrayList<>();
    for (String v : ASCENDING) {
      if (v != null) {
        values.add(column.equals("r") && v.equals("1.0E300") ? "3.0E38" : v);
      }
    }
    if (descending) {
      java.util.Collections.reverse(values);
    }
    if (nullsFirst) {
      values.add(0, null);
    } else {
      values.add(null);
    }
    return values.toArray(String[]::new);
  }

  /** The first column's values as strings. */
  private List<String> values(String sql) throws SQLException {
    List<String> values = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }
}
