package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Any JDBC call runs any statement: DDL, SHOW, DESCRIBE, TRUNCATE and procedures through {@code
 * prepareStatement(...).execute()} (JDBI prepares every statement: {@code handle.execute("DROP
 * TABLE x")}) and in batches ({@code createScript}), with the meaning they have through a plain
 * Statement.
 */
class PreparedCommandsTest {
  @TempDir Path root;

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  private static void assertState(Throwable e, String state) {
    assertThat(e).isInstanceOf(SQLException.class);
    assertThat(((SQLException) e).getSQLState()).isEqualTo(state);
  }

  /** As JDBI's Handle.execute: prepare, execute, then the update count or the result set. */
  private static int handleExecute(Connection c, String sql) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      assertThat(p.getParameterMetaData().getParameterCount()).isZero();
      if (p.execute()) {
        try (ResultSet rs = p.getResultSet()) {
          int rows = 0;
          while (rs.next()) {
            rows++;
          }
          return rows;
        }
      }
      return p.getUpdateCount();
    }
  }

  @Test
  void ddlShowAndDescribeRunThroughAPreparedStatement() throws SQLException {
    try (Connection c = connect()) {
      handleExecute(c, "CREATE TABLE events (id INT, name VARCHAR)");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO events VALUES (?, ?)")) {
        insert.setInt(1, 1);
        insert.setString(2, "a");
        assertThat(insert.executeUpdate()).isEqualTo(1);
      }
      assertThat(handleExecute(c, "SHOW TABLES")).isEqualTo(1);
      try (PreparedStatement show = c.prepareStatement("SHOW TABLES");
          ResultSet rs = show.executeQuery()) {
        assertThat(rs.getStatement()).isSameAs(show);
        assertThat(show.unwrap(PreparedStatement.class)).isSameAs(show);
      }
      try (PreparedStatement describe = c.prepareStatement("DESCRIBE events");
          ResultSet rs = describe.executeQuery()) {
        List<String> columns = new ArrayList<>();
        while (rs.next()) {
          columns.add(rs.getString(1));
        }
        assertThat(columns).containsExactly("id", "name");
      }
      try (PreparedStatement alter = c.prepareStatement("ALTER TABLE events ADD COLUMN n INT")) {
        assertThat(alter.executeUpdate()).isZero();
      }
      assertThat(Sql.lines(c, "SELECT id, name, n FROM events")).containsExactly("1 a null");
      handleExecute(c, "TRUNCATE TABLE events");
      assertThat(Sql.lines(c, "SELECT COUNT(*) FROM events")).containsExactly("0");
      handleExecute(c, "DROP TABLE events");
      assertThat(Files.exists(root.resolve("events"))).isFalse();
    }
  }

  @Test
  void aPreparedCommandRunsAgainEachTimeItIsExecuted() throws SQLException {
    try (Connection c = connect();
        PreparedStatement create = c.prepareStatement("CREATE TABLE t (a INT)");
        PreparedStatement drop = c.prepareStatement("DROP TABLE t")) {
      create.execute();
      drop.execute();
      create.execute();
      assertThatThrownBy(create::execute)
          .as("the second CREATE finds the table there")
          .satisfies(e -> assertState(e, "42S01"));
      drop.execute();
      assertThatThrownBy(drop::execute).satisfies(e -> assertState(e, "42S02"));
    }
  }

  @Test
  void aCommandHasNoParametersToBind() throws SQLException {
    try (Connection c = connect()) {
      c.createStatement().execute("CREATE TABLE t (a INT)");
      try (PreparedStatement p = c.prepareStatement("DROP TABLE t")) {
        assertThatThrownBy(() -> p.setInt(1, 5)).satisfies(e -> assertState(e, "07001"));
        p.clearParameters();
        assertThat(p.execute()).isFalse();
      }
      assertThatThrownBy(() -> c.prepareStatement("CREATE TABLE u AS SELECT ? AS a"))
          .hasMessageContaining("parameters in DDL")
          .satisfies(e -> assertState(e, "0A000"));
      assertThatThrownBy(
              () ->
                  c.prepareStatement(
                      "MERGE INTO t USING (VALUES (?)) AS s(a) ON t.a = s.a WHEN MATCHED THEN"
                          + " DELETE"))
          .satisfies(e -> assertState(e, "0A000"));
      assertThat(Files.exists(root.resolve("u"))).isFalse();
    }
  }

  @Test
  void aClosedPreparedCommandRunsNothing() throws SQLException {
    try (Connection c = connect()) {
      PreparedStatement p = c.prepareStatement("CREATE TABLE t (a INT)");
      p.close();
      assertThat(p.isClosed()).isTrue();
      assertThatThrownBy(p::execute).satisfies(e -> assertState(e, "08003"));
      PreparedStatement q = c.prepareStatement("CREATE TABLE t (a INT)");
      c.close();
      assertThatThrownBy(q::execute).satisfies(e -> assertState(e, "08003"));
    }
    assertThat(Files.exists(root.resolve("t"))).isFalse();
  }

  @Test
  void aScriptOfDdlAndWritesRunsAsABatch() throws SQLException {
    try (Connection c = connect()) {
      try (Statement s = c.createStatement()) {
        s.addBatch("CREATE TABLE a (x INT)");
        s.addBatch("INSERT INTO a VALUES (1), (2)");
        s.addBatch("CREATE TABLE b (y VARCHAR)");
        s.addBatch("INSERT INTO b VALUES ('z')");
        assertThat(s.executeBatch()).containsExactly(0, 2, 0, 1);
      }
      assertThat(Sql.lines(c, "SELECT SUM(x) FROM a")).containsExactly("3");
      assertThat(Sql.lines(c, "SELECT y FROM b")).containsExactly("z");
      try (PreparedStatement drop = c.prepareStatement("DROP TABLE b")) {
        drop.addBatch();
        assertThat(drop.executeBatch()).containsExactly(0);
      }
      assertThat(Files.exists(root.resolve("b"))).isFalse();
    }
  }

  @Test
  void aBatchThatReturnsRowsOrFailsIsRefusedAndItsWritesRolledBack() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE a (x INT)");
      s.addBatch("INSERT INTO a VALUES (1)");
      s.addBatch("SHOW TABLES");
      assertThatThrownBy(s::executeBatch).isInstanceOf(SQLException.class);
      s.addBatch("INSERT INTO a VALUES (2)");
      s.addBatch("DROP TABLE a");
      assertThatThrownBy(s::executeBatch)
          .as("DDL on a table the batch has changed, inside its transaction")
          .satisfies(e -> assertState(e, "25000"));
      assertThat(Sql.lines(c, "SELECT COUNT(*) FROM a")).containsExactly("0");
    }
  }
}
