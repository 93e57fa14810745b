package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Input a user can type gets the SQLState of the error catalog, never HY000 (Floe's state for its
 * own defects), and leaves the lake as it was.
 */
class ErrorCatalogTest extends LakeFixture {
  private Connection c;

  @BeforeEach
  void open() throws SQLException {
    c = connect();
    execute(c, "CREATE TABLE e (id INT, ts TIMESTAMP, name VARCHAR, d DATE)");
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  /** One statement and the SQLState it must fail with. */
  private record Case(String sql, String state) {}

  @Test
  void badStatementsFailWithTheCataloguedState() throws Exception {
    List<Case> cases =
        List.of(
            new Case("CREATE TABLE dup (a INT, a INT)", "42S21"),
            new Case("CREATE TABLE dup (a INT, A VARCHAR)", "42S21"),
            new Case("ALTER TABLE e ADD COLUMN id INT", "42S21"),
            new Case("CREATE TABLE m (a INT) PARTITIONED BY (month(a))", "42000"),
            new Case("CREATE TABLE b (a INT) PARTITIONED BY (bucket(0, a))", "42000"),
            new Case("CREATE TABLE fv (a INT) WITH ('format-version' = '99')", "22023"),
            new Case("SELECT CAST('2023-02-30' AS DATE)", "22007"),
            new Case("SELEC 1", "42000"),
            new Case("SELECT * FROM nosuch", "42S02"),
            new Case("SELECT nosuch FROM e", "42S22"),
            new Case("CREATE TABLE ty (a FOO)", "42000"),
            // checked by Floe before Calcite reads the statement
            new Case("SELECT DATE '2024-02-30'", "22007"),
            new Case("SELECT TIME '25:00:00'", "22007"),
            new Case("SELECT * FROM e WHERE ts < TIMESTAMP '2024-13-01 00:00:00'", "22007"),
            new Case("SELECT TIMESTAMP WITH LOCAL TIME ZONE '2024-01-01 24:00:01'", "22007"),
            new Case("UPDATE e SET nosuch = 1", "42S22"));
    List<String> wrong = new ArrayList<>();
    for (Case one : cases) {
      TreeSet<String> before = files();
      SQLException e = catchThrowableOfType(SQLException.class, () -> execute(c, one.sql()));
      if (e == null) {
        wrong.add(one.sql() + ": succeeded");
      } else if (!one.state().equals(e.getSQLState())) {
        wrong.add(one.sql() + ": " + e.getSQLState() + " " + e.getMessage());
      }
      assertThat(files()).as("files after " + one.sql()).isEqualTo(before);
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  void aLabelTheResultSetLacksIs42S22() throws Exception {
    try (java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT id FROM e");
        java.sql.ResultSet tables = c.getMetaData().getTables(null, null, "%", null)) {
      assertThat(rs.findColumn("ID")).isEqualTo(1);
      SQLException e = catchThrowableOfType(SQLException.class, () -> rs.getInt("nope"));
      assertThat(e.getSQLState()).isEqualTo("42S22");
      assertThat(e.getMessage()).contains("'nope'");
      assertThat(tables.next()).isTrue();
      assertThat(tables.getString("table_name")).isEqualTo("e");
      SQLException meta = catchThrowableOfType(SQLException.class, () -> tables.getString("nope"));
      assertThat(meta.getSQLState()).isEqualTo("42S22");
      assertThat(meta.getMessage()).contains("'nope'");
    }
  }

  @Test
  void aResultSetOfAClosedConnectionIsClosed() throws SQLException {
    Connection other = connect();
    java.sql.Statement s = other.createStatement();
    java.sql.ResultSet rs = s.executeQuery("SELECT * FROM e");
    other.close();
    SQLException e = catchThrowableOfType(SQLException.class, rs::next);
    assertThat(e.getSQLState()).isEqualTo("08003");
    assertThat(e.getMessage()).contains("closed");
  }

  @Test
  void anUnboundParameterIs07001() throws Exception {
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO e (id) VALUES (?)");
        PreparedStatement query = c.prepareStatement("SELECT * FROM e WHERE id = ?")) {
      assertThat(catchThrowableOfType(SQLException.class, insert::executeUpdate).getSQLState())
          .isEqualTo("07001");
      assertThat(catchThrowableOfType(SQLException.class, query::executeQuery).getSQLState())
          .isEqualTo("07001");
    }
    assertThat(single(c, "SELECT count(*) FROM e")).isEqualTo("0");
  }

  @Test
  void aParameterOfTheWrongTypeIs22018Or07006() throws Exception {
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO e (id) VALUES (?)")) {
      insert.setString(1, "abc");
      assertThat(catchThrowableOfType(SQLException.class, insert::executeUpdate).getSQLState())
          .isEqualTo("22018");
      insert.setObject(1, new ArrayList<>());
      SQLException e = catchThrowableOfType(SQLException.class, insert::executeUpdate);
      assertThat(e.getSQLState()).isEqualTo("07006");
      assertThat(e.getMessage()).contains("java.util.ArrayList").doesNotContain("cannot be cast");
    }
    assertThat(single(c, "SELECT count(*) FROM e")).isEqualTo("0");
  }
}
