package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query's unnamed columns are named as Trino names them, {@code _col} and their position from 0,
 * in the result's labels and names and in the columns CREATE TABLE AS SELECT makes.
 */
class UnnamedColumnsTest {
  @TempDir Path root;

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  private static List<String> labels(ResultSetMetaData meta) throws SQLException {
    List<String> labels = new ArrayList<>();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      labels.add(meta.getColumnLabel(i) + "/" + meta.getColumnName(i));
    }
    return labels;
  }

  private static List<String> labels(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return labels(rs.getMetaData());
    }
  }

  @Test
  void unnamedColumnsAreNumberedFromZeroByPosition() throws SQLException {
    try (Connection c = connect()) {
      c.createStatement().execute("CREATE TABLE t (a INT, b INT)");
      c.createStatement().execute("INSERT INTO t VALUES (1, 2)");
      assertThat(labels(c, "SELECT 1, a + b FROM t")).containsExactly("_col0/_col0", "_col1/_col1");
      assertThat(labels(c, "SELECT a, a + b, b AS named, COUNT(*) FROM t GROUP BY a, b"))
          .containsExactly("a/a", "_col1/_col1", "named/b", "_col3/_col3");
      assertThat(labels(c, "SELECT * FROM (SELECT 1, 2) AS s"))
          .containsExactly("_col0/_col0", "_col1/_col1");
      try (ResultSet rs = c.createStatement().executeQuery("SELECT a + b FROM t")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt("_col0")).isEqualTo(3);
        assertThat(rs.findColumn("_COL0")).isEqualTo(1);
      }
    }
  }

  @Test
  void aPreparedStatementKnowsTheLabelsBeforeItRuns() throws SQLException {
    try (Connection c = connect()) {
      c.createStatement().execute("CREATE TABLE t (a INT, s VARCHAR)");
      c.createStatement().execute("INSERT INTO t VALUES (1, 'x')");
      String sql = "SELECT a + ?, UPPER(s) FROM t WHERE a > ?";
      PreparedStatement p = c.prepareStatement(sql);
      assertThat(labels(p.getMetaData())).containsExactly("_col0/_col0", "_col1/_col1");
      p.setInt(1, 1);
      p.setInt(2, 0);
      try (ResultSet rs = p.executeQuery()) {
        assertThat(labels(rs.getMetaData())).containsExactly("_col0/_col0", "_col1/_col1");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt("_col0")).isEqualTo(2);
        assertThat(rs.getString("_col1")).isEqualTo("X");
      }
      p.close();
      try (PreparedStatement again = c.prepareStatement(sql)) {
        assertThat(labels(again.getMetaData()))
            .as("the same when the plan is taken from the connection's plan cache")
            .containsExactly("_col0/_col0", "_col1/_col1");
      }
    }
  }

  @Test
  void createTableAsSelectNamesTheNewColumnsTheSameWay() throws SQLException {
    try (Connection c = connect()) {
      c.createStatement().execute("CREATE TABLE t (a INT, b INT)");
      c.createStatement().execute("INSERT INTO t VALUES (1, 2)");
      c.createStatement().execute("CREATE TABLE u AS SELECT a, a * 10, b + 1 AS c FROM t");
      try (ResultSet rs = c.getMetaData().getColumns(null, null, "u", null)) {
        List<String> names = new ArrayList<>();
        while (rs.next()) {
          names.add(rs.getString("COLUMN_NAME"));
        }
        assertThat(names).containsExactly("a", "_col1", "c");
      }
      assertThat(Sql.lines(c, "SELECT a, _col1, c FROM u")).containsExactly("1 10 3");
    }
  }
}
