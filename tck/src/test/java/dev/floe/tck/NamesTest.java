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
 * Names as Trino, Spark SQL and PostgreSQL users write them: words those engines do not reserve
 * ({@code value}, {@code method}, {@code running}, {@code partition}, {@code date}) are names
 * without quotes; a reserved word is refused with the quoted form to use.
 */
class NamesTest {
  @TempDir static Path root;

  @BeforeAll
  static void createTables() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE payments (id INT, method VARCHAR, value DECIMAL(10,2), running BIGINT,"
              + " date DATE) PARTITIONED BY (month(date))");
      s.execute(
          "INSERT INTO payments VALUES (1, 'card', 10.00, 1, DATE '2024-01-05'),"
              + " (2, 'cash', 5.00, 2, DATE '2024-01-20'), (3, 'card', 7.50, 3, DATE"
              + " '2024-02-02')");
      s.execute("CREATE TABLE partition (partition INT, rows INT, range INT, time TIME)");
      s.execute("INSERT INTO partition VALUES (1, 2, 3, TIME '10:00:00')");
      s.execute("CREATE TABLE \"order\" (id INT)");
      s.execute("INSERT INTO \"order\" VALUES (7)");
    }
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  @Test
  void wordsOtherEnginesDoNotReserveAreColumnNamesWithoutQuotes() throws SQLException {
    try (Connection c = connect()) {
      assertThat(
              Sql.lines(
                  c,
                  "SELECT method, COUNT(method), SUM(value), MAX(running), MIN(date) FROM payments"
                      + " GROUP BY method ORDER BY method"))
          .containsExactly("card 2 17.50 3 2024-01-05", "cash 1 5.00 2 2024-01-20");
    }
  }

  @Test
  void theyAreAliasesWithoutQuotesAsTpcHQueryElevenWritesThem() throws SQLException {
    try (Connection c = connect()) {
      assertThat(
              Sql.lines(
                  c,
                  "SELECT method, SUM(value) AS value, COUNT(*) running FROM payments GROUP BY"
                      + " method HAVING SUM(value) > 1 ORDER BY value DESC"))
          .containsExactly("card 17.50 2", "cash 5.00 1");
    }
  }

  @Test
  void theyAreTableNamesAndWindowsStillPartitionByThem() throws SQLException {
    try (Connection c = connect()) {
      assertThat(Sql.lines(c, "SELECT partition, rows, range, time FROM partition"))
          .containsExactly("1 2 3 10:00:00");
      assertThat(
              Sql.lines(
                  c,
                  "SELECT p.id, SUM(p.value) OVER (PARTITION BY p.method ORDER BY p.id ROWS BETWEEN"
                      + " UNBOUNDED PRECEDING AND CURRENT ROW) FROM payments p ORDER BY p.id"))
          .containsExactly("1 10.00", "2 5.00", "3 17.50");
    }
  }

  @Test
  void theMetadataTablesPartitionColumnIsReadWithoutQuotes() throws SQLException {
    try (Connection c = connect()) {
      assertThat(
              Sql.lines(
                  c,
                  "SELECT SUM(record_count), COUNT(partition) FROM \"payments$partitions\""
                      + " WHERE partition IS NOT NULL"))
          .containsExactly("3 2");
    }
  }

  @Test
  void aReservedWordIsRefusedWithTheQuotedFormToUse() throws SQLException {
    try (Connection c = connect()) {
      assertThatThrownBy(() -> Sql.lines(c, "SELECT * FROM order"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("order is a reserved word")
          .hasMessageContaining("\"order\"")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"));
      assertThat(Sql.lines(c, "SELECT id FROM \"order\"")).containsExactly("7");
      assertThatThrownBy(() -> Sql.lines(c, "SELECT p.id, p.user FROM payments p"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("user is a reserved word")
          .hasMessageContaining("\"user\"")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"));
      assertThatThrownBy(() -> Sql.lines(c, "SELECT id FROM payments LIMIT 1 WHERE id = 1"))
          .as("a misplaced clause is no name: no advice to quote it")
          .isInstanceOf(SQLException.class)
          .hasMessageNotContaining("reserved word")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"));
    }
  }

  @Test
  void aWordThatIsNotReservedIsNoKeywordWhereItIsAName() throws SQLException {
    try (Connection c = connect()) {
      assertThat(Sql.lines(c, "SELECT value FROM (VALUES (1), (2)) AS t(value) ORDER BY value"))
          .containsExactly("1", "2");
      assertThat(
              Sql.lines(
                  c,
                  "SELECT VALUE, Method FROM payments WHERE Date >= DATE '2024-02-01' AND Running"
                      + " > 0"))
          .as("a column named like a keyword, in any case")
          .containsExactly("7.50 card");
    }
  }
}
