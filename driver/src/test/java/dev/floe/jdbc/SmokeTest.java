package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
  @TempDir Path dir;

  @Test
  void createInsertSelect() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + dir);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR, ts TIMESTAMP, d DATE)");
      int n = s.executeUpdate("INSERT INTO t VALUES (1, 'a', TIMESTAMP '2024-02-29 23:59:59.123456', DATE '0001-01-01'), (2, 'b', NULL, NULL)");
      assertThat(n).isEqualTo(2);
      try (ResultSet rs = s.executeQuery("SELECT id, name, ts, d FROM t WHERE id > 0 ORDER BY id")) {
        assertThat(rs.next()).isTrue();
        System.out.println(rs.getLong(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getObject(3, java.time.LocalDateTime.class) + " " + rs.getDate(4));
        assertThat(rs.next()).isTrue();
      }
      assertThat(s.executeUpdate("DELETE FROM t WHERE id = 1")).isEqualTo(1);
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(1);
      }
      assertThat(s.executeUpdate("UPDATE t SET name = 'z' WHERE id = 2")).isEqualTo(1);
      try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT name FROM t WHERE id = 2")) {
        rs.next();
        System.out.println(rs.getString(1));
      }
      try (ResultSet rs = s.executeQuery("SELECT name FROM t WHERE id = 2")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("z");
      }
    }
  }
}
