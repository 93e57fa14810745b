package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A statement whose compiled code fails while a class initializes (Calcite computes constant
 * expressions such as {@code 1/0} in static fields) fails with the same SQLException every time it
 * runs on a connection, plain or prepared, and never with a {@code java.lang.Error} such as {@code
 * NoClassDefFoundError}; division by zero is 22012.
 */
class GeneratedCodeFailureTest {
  @TempDir Path lake;

  private record Case(String sql, String state, String message) {}

  private static final List<Case> CASES =
      List.of(
          new Case("SELECT 1/0", "22012", "divide by zero"),
          new Case("SELECT MOD(7, 0)", "22012", "divide by zero"),
          new Case("SELECT 1.5/0", "22012", "divide by zero"),
          new Case("SELECT CAST('2023-02-30' AS DATE)", "22007", "2023-02-30"),
          new Case("SELECT CAST('notadate' AS DATE)", "22007", "notadate"),
          new Case("SELECT id / 0 FROM t", "22012", "divide by zero"));

  @Test
  void theSameTextFailsTheSameWayEveryTime() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake)) {
      setUp(c);
      for (Case one : CASES) {
        for (int run = 1; run <= 3; run++) {
          Throwable failure = catchThrowable(() -> query(c, one.sql()));
          assertThat(failure).as("%s, run %d", one.sql(), run).isInstanceOf(SQLException.class);
          assertThat(((SQLException) failure).getSQLState())
              .as("%s, run %d: %s", one.sql(), run, failure)
              .isEqualTo(one.state());
          assertThat(failure.getMessage()).as(one.sql()).containsIgnoringCase(one.message());
        }
      }
      // the connection goes on
      assertThat(count(c, "SELECT COUNT(*) FROM t")).isEqualTo(3);
    }
  }

  @Test
  void aPreparedStatementFailsTheSameWayOnEveryExecution() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake)) {
      setUp(c);
      for (Case one : CASES) {
        try (PreparedStatement p = c.prepareStatement(one.sql())) {
          for (int run = 1; run <= 3; run++) {
            Throwable failure =
                catchThrowable(
                    () -> {
                      try (ResultSet rs = p.executeQuery()) {
                        while (rs.next()) {
                          rs.getObject(1);
                        }
                      }
                    });
            assertThat(failure).as("%s, run %d", one.sql(), run).isInstanceOf(SQLException.class);
            assertThat(((SQLException) failure).getSQLState())
                .as("%s, run %d: %s", one.sql(), run, failure)
                .isEqualTo(one.state());
          }
        }
      }
    }
  }

  @Test
  void aDivisionByAZeroColumnValueIs22012AndAnotherRowStillReads() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake)) {
      setUp(c);
      Throwable failure = catchThrowable(() -> query(c, "SELECT 10 / (id - 2) FROM t"));
      assertThat(((SQLException) failure).getSQLState()).isEqualTo("22012");
      assertThat(count(c, "SELECT SUM(10 / (id - 2)) FROM t WHERE id <> 2")).isEqualTo(0);
    }
  }

  private static void setUp(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT)");
      s.execute("INSERT INTO t VALUES (1), (2), (3)");
    }
  }

  private static void query(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
