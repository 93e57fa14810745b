package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statements are classified once, from the tree Floe's parser makes of them: comments, parentheses
 * and words inside comments do not change what a statement is, and {@code executeQuery} and {@code
 * executeUpdate} refuse the other kind before anything runs.
 */
class StatementKindTest {
  @TempDir Path lake;

  private static StatementKind kind(String sql) throws SQLException {
    return StatementKind.parse(sql).kind();
  }

  @Test
  void queriesAreQueriesWhateverComesBeforeThem() throws SQLException {
    assertThat(kind("SELECT 1")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("/* INSERT */ (SELECT 1)")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("-- DELETE\nWITH x AS (SELECT 1 AS a) SELECT a FROM x"))
        .isEqualTo(StatementKind.QUERY);
    assertThat(kind("VALUES (1), (2)")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("SELECT 1 UNION ALL SELECT 2")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("EXPLAIN PLAN FOR SELECT 1")).isEqualTo(StatementKind.QUERY);
  }

  @Test
  void changesAndFloesOwnStatementsAreToldFromTheirTrees() throws SQLException {
    assertThat(kind("INSERT INTO t VALUES (1)")).isEqualTo(StatementKind.CHANGE);
    assertThat(kind("/* SELECT */ DELETE FROM t")).isEqualTo(StatementKind.CHANGE);
    assertThat(kind("UPDATE t SET a = 1")).isEqualTo(StatementKind.CHANGE);
    assertThat(kind("CREATE TABLE t (a INT)")).isEqualTo(StatementKind.DDL);
    assertThat(kind("DROP TABLE t")).isEqualTo(StatementKind.DDL);
    assertThat(kind("SHOW TABLES")).isEqualTo(StatementKind.SHOW);
    assertThat(kind("DESCRIBE t")).isEqualTo(StatementKind.SHOW);
    assertThat(kind("TRUNCATE TABLE t")).isEqualTo(StatementKind.ROW_WRITE);
    assertThat(kind("INSERT OVERWRITE t SELECT 1")).isEqualTo(StatementKind.ROW_WRITE);
    assertThat(kind("MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE"))
        .isEqualTo(StatementKind.ROW_WRITE);
    assertThat(kind("/* maintenance */ ALTER TABLE t EXECUTE optimize"))
        .isEqualTo(StatementKind.PROCEDURE);
    assertThat(kind("ALTER TABLE t CREATE BRANCH b")).isEqualTo(StatementKind.REFERENCE);
    assertThat(kind("ANALYZE t")).isEqualTo(StatementKind.ANALYZE);
    assertThat(kind("EXPLAIN ANALYZE SELECT 1")).isEqualTo(StatementKind.EXPLAIN_ANALYZE);
  }

  @Test
  void onlyFloesOwnStatementsAreCommands() throws SQLException {
    assertThat(kind("SELECT 1").command()).isFalse();
    assertThat(kind("INSERT INTO t VALUES (1)").command()).isFalse();
    assertThat(kind("CREATE TABLE t (a INT)").command()).isTrue();
    assertThat(kind("MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE").command())
        .isTrue();
  }

  @Test
  void executeQueryRefusesDdlWhoseCommentSaysExecuteAndRunsNothing() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (a INT)");
      assertThatThrownBy(() -> s.executeQuery("ALTER TABLE t /* EXECUTE x */ ADD COLUMN b INT"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42000");
                assertThat(e.getMessage()).contains("executeQuery runs queries only");
              });
      try (ResultSet rs = s.executeQuery("SELECT * FROM t")) {
        assertThat(rs.getMetaData().getColumnCount()).isEqualTo(1);
      }
    }
  }

  @Test
  void executeUpdateRefusesAQueryAndAPreparedQueryBeforeRunning() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (a INT)");
      assertThatThrownBy(() -> s.executeUpdate("/* INSERT */ SELECT a FROM t"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42000");
                assertThat(e.getMessage()).contains("executeUpdate runs changes only");
              });
      try (PreparedStatement p = c.prepareStatement("SELECT a FROM t WHERE a = ?")) {
        p.setInt(1, 1);
        assertThatThrownBy(p::executeUpdate)
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42000"));
      }
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?)")) {
        p.setInt(1, 7);
        assertThatThrownBy(p::executeQuery)
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42000"));
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
        rs.next();
        assertThat(rs.getLong(1)).isZero();
      }
    }
  }
}
