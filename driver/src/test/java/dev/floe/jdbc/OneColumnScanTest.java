package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OneColumnScanTest {
  @TempDir Path lake;

  @Test
  void aHashJoinOverScansReadingOneColumnEachReturnsRows() throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE a (id BIGINT NOT NULL, x VARCHAR)");
      statement.execute("CREATE TABLE b (id BIGINT NOT NULL, y VARCHAR)");
      statement.executeUpdate("INSERT INTO a " + values(40));
      statement.executeUpdate("INSERT INTO b " + values(12));
      String join = "FROM a LEFT JOIN b ON b.id = a.id";
      try (ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR SELECT COUNT(*) " + join)) {
        plan.next();
        assertThat(plan.getString(1))
            .contains("EnumerableHashJoin")
            .doesNotContain("EnumerableSort")
            .contains("columns=[[id]]");
      }

      assertThat(count(statement, "SELECT COUNT(*) " + join)).isEqualTo(40);
      assertThat(count(statement, "SELECT COUNT(*) " + join + " WHERE b.id IS NULL")).isEqualTo(28);
    }
  }

  private static String values(int n) {
    StringBuilder sql = new StringBuilder("VALUES ");
    for (int i = 1; i <= n; i++) {
      sql.append(i == 1 ? "" : ", ").append('(').append(i).append(", 'v").append(i).append("')");
    }
    return sql.toString();
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
