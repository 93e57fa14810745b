package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadYourWritesTest {
  @TempDir Path lake;

  @Test
  void aTransactionReadsAndChangesRowsItInsertedThenPublishesOnce() throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR)");
      connection.setAutoCommit(false);

      statement.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
      assertThat(count(statement, "SELECT COUNT(*) FROM t")).isEqualTo(3);
      assertThat(statement.executeUpdate("DELETE FROM t WHERE id = 2")).isEqualTo(1);
      assertThat(count(statement, "SELECT COUNT(*) FROM t")).isEqualTo(2);
      try (Connection other = DriverManager.getConnection("jdbc:floe:" + lake);
          Statement outside = other.createStatement()) {
        assertThat(count(outside, "SELECT COUNT(*) FROM t")).isZero();
      }

      connection.commit();
    }
    assertThat(lake.resolve("t/metadata/v2.metadata.json")).isRegularFile();
    assertThat(lake.resolve("t/metadata/v3.metadata.json")).doesNotExist();
    try (Connection connection = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement statement = connection.createStatement()) {
      assertThat(count(statement, "SELECT SUM(id) FROM t")).isEqualTo(4);
    }
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
