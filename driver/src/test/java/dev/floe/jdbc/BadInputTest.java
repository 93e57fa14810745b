package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.TreeSet;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BadInputTest extends LakeFixture {
  private Connection c;

  @BeforeEach
  void createTable() throws Exception {
    c = connect();
    execute(
        c, "CREATE TABLE t (id INT NOT NULL, name VARCHAR, amount DECIMAL(5, 2), code BINARY(2))");
    update(c, "INSERT INTO t VALUES (1, 'a', 1.50, X'0102')");
  }

  @org.junit.jupiter.api.AfterEach
  void close() throws Exception {
    c.close();
  }

  private void assertState(ThrowingCallable call, String state, String messagePart)
      throws Exception {
    TreeSet<String> before = files();
    assertThatThrownBy(call)
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(messagePart)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state));
    assertThat(files()).as("files after a failed statement").isEqualTo(before);
    assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("1");
  }

  @Test
  void aMissingRootCannotBeOpened() {
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:floe:" + root.resolve("nope")))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("nope")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    assertThat(root.resolve("nope")).doesNotExist();
  }

  /**
   * Calcite signals some of its own defects with an AssertionError (here: the monotonicity of a
   * product whose factor divides by a NULL that reaches it from a subquery, after a division that
   * keeps Calcite's simplifier from folding it; docs/limits.md, "Known limits"). The driver reports
   * it as an SQLException (HY000, a defect, not the user's input) and the connection goes on
   * working; it never throws an Error at its caller.
   */
  @Test
  void aDefectInsideCalciteIsAnSqlExceptionAndTheConnectionGoesOn() throws Exception {
    String defect =
        "SELECT ((a / b) / n) * 2 FROM (SELECT id AS a, id AS b, CAST(NULL AS INTEGER) AS n"
            + " FROM t) s";
    assertState(() -> rows(c, defect), "HY000", "not a literal");
    try (PreparedStatement p = c.prepareStatement(defect)) {
      fail("prepared: " + p);
    } catch (SQLException e) {
      assertThat(e.getSQLState()).isEqualTo("HY000");
    }
    assertThat(single(c, "SELECT 1 / - CAST(NULL AS INTEGER) * - 45 + 73 FROM t")).isNull();
  }

  @Test
  void unknownTablesAndColumnsAreNamed() throws Exception {
    assertState(() -> rows(c, "SELECT * FROM nope"), "42S02", "nope");
    assertState(() -> rows(c, "SELECT nope FROM t"), "42S22", "nope");
    assertState(() -> update(c, "INSERT INTO t (id, nope) VALUES (1, 2)"), "42S22", "nope");
  }

  @Test
  void anInsertTooLargeToCompileIsRefusedAndAdvisesABatch() throws Exception {
    StringBuilder sql = new StringBuilder("INSERT INTO t (id, name) VALUES ");
    for (int i = 0; i < 6000; i++) {
      sql.append(i == 0 ? "" : ", ")
          .append("(")
          .append(i + 10)
          .append(", 'row ")
          .append(i)
          .append("')");
    }
    assertState(() -> update(c, sql.toString()), "0A000", "PreparedStatement batch");
  }

  @Test
  void badSqlIsASyntaxError() throws Exception {
    assertState(() -> rows(c, "SELEC 1"), "42000", "SELEC");
    assertState(() -> execute(c, "CREATE TABLE x (a NOSUCHTYPE)"), "42000", "NOSUCHTYPE");
  }

  @Test
  void valuesThatDoNotFitTheirColumnAreDataErrors() throws Exception {
    assertState(
        () -> update(c, "INSERT INTO t VALUES (3000000000, 'x', 1, X'0102')"),
        "22003",
        "3000000000");
    assertState(
        () -> update(c, "INSERT INTO t VALUES (2, 'x', 12345.678, X'0102')"),
        "22003",
        "DECIMAL(5, 2)");
    assertState(
        () -> {
          try (java.sql.PreparedStatement p =
              c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
            p.setInt(1, 2);
            p.setString(2, "x");
            p.setInt(3, 1);
            p.setBytes(4, new byte[] {1, 2, 3});
            p.addBatch();
            p.executeBatch();
          }
        },
        "22001",
        "code");
    assertState(() -> update(c, "INSERT INTO t VALUES (NULL, 'x', 1, X'0102')"), "23502", "id");
    assertState(() -> update(c, "UPDATE t SET id = NULL"), "23502", "id");
  }

  @Test
  void creatingAnExistingTableIsRefused() throws Exception {
    assertState(() -> execute(c, "CREATE TABLE t (x INT)"), "42S01", "t");
    execute(c, "CREATE TABLE IF NOT EXISTS t (x INT)");
  }

  @Test
  void namesThatLeaveTheRootAreRefused() throws Exception {
    assertState(() -> execute(c, "CREATE TABLE \"..\".x (a INT)"), "42602", "..");
  }

  @Test
  void aReadOnlyConnectionRefusesEveryWrite() throws Exception {
    try (Connection ro = connect("readOnly=true")) {
      assertState(
          () -> update(ro, "INSERT INTO t VALUES (2, 'b', 1, X'0102')"), "25006", "read-only");
      assertState(() -> update(ro, "DELETE FROM t"), "25006", "read-only");
      assertState(() -> execute(ro, "CREATE TABLE u (a INT)"), "25006", "read-only");
      assertThat(single(ro, "SELECT name FROM t")).isEqualTo("a");
    }
  }

  @Test
  void closedObjectsSay08003() throws Exception {
    Connection other = connect();
    java.sql.Statement s = other.createStatement();
    other.close();
    assertThatThrownBy(() -> s.executeQuery("SELECT 1"))
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
    assertThatThrownBy(other::createStatement)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08003"));
  }
}
