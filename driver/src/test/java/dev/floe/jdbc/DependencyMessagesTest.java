package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The messages of Calcite, Avatica, Janino and the JDK that the error boundary ({@code SqlErrors})
 * still tells failures apart by, each provoked for real: when a new version words one otherwise,
 * this test fails here, naming the text, instead of a user getting a wrong SQLState.
 */
class DependencyMessagesTest extends LakeFixture {
  private Connection c;

  @BeforeEach
  void open() throws SQLException {
    c = connect();
    execute(c, "CREATE TABLE e (id INT NOT NULL, name VARCHAR, d DATE, x DECIMAL(5, 2))");
    update(c, "INSERT INTO e VALUES (1, 'a', DATE '2024-01-01', 1.50)");
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  /** A statement, the SQLState it fails with, and the dependency's text the state is told by. */
  private record Case(String sql, String state, String dependencySays) {}

  /** Runs a statement to its last row. */
  private static void runFully(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      if (s.execute(sql)) {
        try (ResultSet rs = s.getResultSet()) {
          while (rs.next()) {
            rs.getObject(1);
          }
        }
      }
    }
  }

  /** Every message in a failure's cause chain, the failure's own first. */
  private static List<String> messages(Throwable t) {
    List<String> messages = new ArrayList<>();
    for (Throwable at = t; at != null && messages.size() < 50; at = at.getCause()) {
      messages.add(at.getClass().getName() + ": " + at.getMessage());
    }
    return messages;
  }

  private static String check(Case one, SQLException e) {
    if (e == null) {
      return one.sql() + ": succeeded";
    }
    List<String> messages = messages(e);
    if (!one.state().equals(e.getSQLState())
        || messages.stream().noneMatch(m -> m.contains(one.dependencySays()))) {
      return one.sql() + ": " + e.getSQLState() + " " + messages;
    }
    return null;
  }

  @Test
  void theMessagesTheErrorBoundaryMatchesAreTheDependenciesOwn() {
    List<Case> cases =
        List.of(
            // Calcite's validator: names inside a query's scopes
            new Case("SELECT nosuch.id FROM e", "42S02", "Table 'nosuch' not found"),
            new Case("SELECT nosuch FROM e", "42S22", "Column 'nosuch' not found in any table"),
            new Case("INSERT INTO e (id) SELECT 1, 2", "21S01", "Number of INSERT target columns"),
            // Avatica's DateTimeUtils, in a constant Calcite's generated code computes
            new Case("SELECT CAST('2023-02-30' AS DATE)", "22007", "field is out of range"),
            new Case("SELECT CAST('2023-2x' AS DATE)", "22007", "Invalid DATE"),
            // the JDK's ArithmeticException and BigDecimal
            new Case("SELECT 1/0", "22012", "/ by zero"),
            new Case("SELECT id / 0 FROM e", "22012", "/ by zero"),
            new Case("SELECT x / CAST(0 AS DECIMAL(5, 2)) FROM e", "22012", "Division"),
            // Avatica's wrapper, from which the boundary takes the statement's text
            new Case("SELECT 1/0", "22012", "Error while executing SQL \"SELECT 1/0\""));
    List<String> wrong = new ArrayList<>();
    for (Case one : cases) {
      String problem =
          check(one, catchThrowableOfType(SQLException.class, () -> runFully(c, one.sql())));
      if (problem != null) {
        wrong.add(problem);
      }
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  void aStatementTooLargeForOneJavaMethodIsJaninosSixtyFourKilobyteLimit() {
    // MOD: an expression the scan does not compute, so Calcite's generated code computes them all
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < 6000; i++) {
      sql.append(i == 0 ? "" : ", ").append("MOD(id, 7) + ").append(i);
    }
    sql.append(" FROM e");
    Case one = new Case(sql.toString(), "0A000", "grows beyond 64 KB");
    assertThat(check(one, catchThrowableOfType(SQLException.class, () -> runFully(c, one.sql()))))
        .isNull();
  }

  @Test
  void anUnknownLabelOfAMetadataResultSetIsAvaticasColumnNotFound() throws SQLException {
    try (ResultSet tables = c.getMetaData().getTables(null, null, "%", null)) {
      assertThat(tables.next()).isTrue();
      SQLException e = catchThrowableOfType(SQLException.class, () -> tables.getString("nope"));
      assertThat(check(new Case("getString(\"nope\")", "42S22", "column 'nope' not found"), e))
          .isNull();
    }
  }

  /** A class whose initializer fails: the JVM says so once, then "Could not initialize class". */
  static final class FailsToInitialize {
    static final int VALUE = Integer.parseInt("not a number");
  }

  @Test
  void aClassThatFailedToInitializeIsNoClassMissingFromTheJar() {
    Throwable first =
        catchThrowableOfType(Throwable.class, () -> assertThat(FailsToInitialize.VALUE).isZero());
    Throwable again =
        catchThrowableOfType(Throwable.class, () -> assertThat(FailsToInitialize.VALUE).isZero());
    assertThat(first).isInstanceOf(ExceptionInInitializerError.class);
    assertThat(again)
        .isInstanceOf(NoClassDefFoundError.class)
        .hasMessageStartingWith("Could not initialize class");
    SQLException e = dev.floe.error.SqlErrors.toSql(again);
    assertThat(e.getSQLState()).isEqualTo("HY000");
    assertThat(e.getMessage())
        .startsWith("Internal error")
        .doesNotContain("missing from the driver");
  }
}
