package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table or column that does not exist is 42S02 or 42S22 naming the nearest existing name when it
 * looks like a slip of the keyboard ("did you mean payments?"), as PostgreSQL and DuckDB answer,
 * and nothing more when no name is close.
 */
class UnknownNamesTest {
  @TempDir static Path root;

  @BeforeAll
  static void createTables() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE payments (id INT, method VARCHAR, value DECIMAL(10,2))");
      s.execute("INSERT INTO payments VALUES (1, 'card', 10.00)");
      s.execute("CREATE TABLE \"Customers\" (id INT, full_name VARCHAR)");
      s.execute("CREATE TABLE sales.invoices (id INT, amount INT)");
    }
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  private static void assertState(Throwable e, String state) {
    assertThat(e).isInstanceOf(SQLException.class);
    assertThat(((SQLException) e).getSQLState()).isEqualTo(state);
  }

  @Test
  void anUnknownTableNamesTheNearestTableInQueriesAndWrites() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String sql :
          new String[] {
            "SELECT * FROM paymnets",
            "SELECT * FROM main.payment",
            "DELETE FROM paymets",
            "INSERT INTO paymnts VALUES (2, 'cash', 1.00)",
            "UPDATE pamyents SET value = 0",
            "DROP TABLE paymnts",
            "DESCRIBE paymnts",
            "SHOW COLUMNS FROM paymnts",
            "ALTER TABLE paymnts SET TBLPROPERTIES ('owner' = 'x')"
          }) {
        assertThatThrownBy(() -> s.execute(sql))
            .as(sql)
            .hasMessageContaining("did you mean payments?")
            .satisfies(e -> assertState(e, "42S02"));
      }
    }
  }

  @Test
  void theNearestTableIsLookedForWhereTheNameLooks() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("SELECT * FROM sales.invoice"))
          .hasMessageContaining("did you mean invoices?")
          .satisfies(e -> assertState(e, "42S02"));
      assertThatThrownBy(() -> s.execute("SELECT * FROM invoice"))
          .as("invoices is in schema sales, not where an unqualified name looks")
          .hasMessageNotContaining("did you mean")
          .satisfies(e -> assertState(e, "42S02"));
    }
  }

  @Test
  void aNameThatMustBeQuotedIsSuggestedQuoted() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("SELECT * FROM customer"))
          .hasMessageContaining("did you mean \"Customers\"?")
          .satisfies(e -> assertState(e, "42S02"));
    }
  }

  @Test
  void noNameIsSuggestedWhenNoneIsClose() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("SELECT * FROM nothing_like_it"))
          .hasMessageContaining("nothing_like_it")
          .hasMessageNotContaining("did you mean")
          .satisfies(e -> assertState(e, "42S02"));
      assertThatThrownBy(() -> s.execute("SELECT x FROM payments"))
          .hasMessageContaining("x")
          .hasMessageNotContaining("did you mean")
          .satisfies(e -> assertState(e, "42S22"));
    }
  }

  @Test
  void anUnknownColumnNamesTheNearestColumnOfTheTablesRead() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("SELECT metod FROM payments"))
          .hasMessageContaining("did you mean method?")
          .satisfies(e -> assertState(e, "42S22"));
      assertThatThrownBy(() -> s.execute("SELECT p.vaule FROM payments p"))
          .hasMessageContaining("did you mean value?")
          .satisfies(e -> assertState(e, "42S22"));
      assertThatThrownBy(() -> s.execute("INSERT INTO payments (id, metod) VALUES (2, 'x')"))
          .hasMessageContaining("did you mean method?")
          .satisfies(e -> assertState(e, "42S22"));
      assertThatThrownBy(() -> s.execute("UPDATE payments SET vlaue = 0 WHERE id = 1"))
          .hasMessageContaining("did you mean value?")
          .satisfies(e -> assertState(e, "42S22"));
      assertThatThrownBy(
              () ->
                  s.execute(
                      "SELECT p.id FROM payments p JOIN \"Customers\" c ON p.id = c.id WHERE"
                          + " c.fullname IS NULL"))
          .hasMessageContaining("did you mean full_name?")
          .satisfies(e -> assertState(e, "42S22"));
    }
  }

  @Test
  void namesThatExistAreNotRefused() throws SQLException {
    try (Connection c = connect()) {
      assertThat(
              Sql.lines(
                  c,
                  "WITH recent AS (SELECT id FROM payments) SELECT r.id FROM recent r JOIN"
                      + " \"Customers\" k ON r.id <> k.id OR k.id IS NULL"))
          .isEmpty();
      assertThat(Sql.lines(c, "SELECT COUNT(*) FROM \"payments$snapshots\"")).containsExactly("1");
    }
  }
}
