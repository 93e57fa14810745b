package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code read_csv(..., ignore_errors => true)} skips the lines whose values do not fit their
 * columns, and {@code rejects => true} lists them (file, line, column, value, SQLState, message),
 * as DuckDB's {@code ignore_errors} and rejects table do.
 */
class ReadCsvRejectsTest {
  private static final String COLUMNS = "columns => 'id INT, amount DECIMAL(5, 2), d DATE'";

  @TempDir Path root;
  private Path csv;
  private String call;

  @BeforeEach
  void writeFile() throws IOException {
    csv = root.resolve("in").resolve("orders.csv");
    Files.createDirectories(csv.getParent());
    Files.writeString(
        csv,
        "id,amount,d\n"
            + "1,2.50,2024-01-01\n"
            + "2,abc,2024-01-02\n"
            + "3,4.00,2024-13-01\n"
            + "4,5.00\n"
            + "5,6.00,2024-01-05\n"
            + "6,1234.5,zz\n");
    call = "read_csv('" + csv + "', " + COLUMNS;
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  @Test
  void withoutIgnoreErrorsTheFirstBadValueFailsNamingFileLineAndColumn() throws SQLException {
    try (Connection c = connect()) {
      assertThatThrownBy(() -> Sql.lines(c, "SELECT * FROM " + call + ")"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22018"))
          .hasMessageContaining("orders.csv line 3 column amount");
    }
  }

  @Test
  void ignoreErrorsSkipsTheLinesThatDoNotFit() throws SQLException {
    try (Connection c = connect()) {
      assertThat(Sql.lines(c, "SELECT id, amount, d FROM " + call + ", ignore_errors => true)"))
          .containsExactly("1 2.50 2024-01-01", "5 6.00 2024-01-05");
      c.createStatement().execute("CREATE TABLE orders (id INT, amount DECIMAL(5, 2), d DATE)");
      assertThat(
              c.createStatement()
                  .executeUpdate(
                      "INSERT INTO orders SELECT * FROM " + call + ", ignore_errors => true)"))
          .isEqualTo(2);
      assertThatThrownBy(
              () ->
                  Sql.lines(
                      c,
                      "SELECT COUNT(*) FROM "
                          + call
                          + ", ignore_errors => false, rejects => false)"))
          .as("false is the default")
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22018"));
    }
  }

  @Test
  void rejectsListsEveryValueThatDoesNotFit() throws SQLException {
    try (Connection c = connect()) {
      String rejects = "SELECT * FROM " + call + ", rejects => true) ORDER BY line, column_name";
      assertThat(
              Sql.lines(c, "SELECT line, column_name, csv_value, sql_state FROM (" + rejects + ")"))
          .containsExactly(
              "3 amount abc 22018",
              "4 d 2024-13-01 22007",
              "5 null null 22018",
              "7 amount 1234.5 22003",
              "7 d zz 22007");
      assertThat(Sql.column(c, "SELECT DISTINCT file_name FROM (" + rejects + ")"))
          .containsExactly(csv.toString());
      assertThat(Sql.column(c, "SELECT error_message FROM (" + rejects + ") WHERE line = 5"))
          .singleElement()
          .asString()
          .contains("line 5 of")
          .contains("it has 2 values, and the file 3 columns");
      c.createStatement().execute("CREATE TABLE bad_rows AS " + rejects);
      assertThat(Sql.lines(c, "SELECT COUNT(*) FROM bad_rows")).containsExactly("5");
    }
  }

  @Test
  void theOptionsTakeTrueOrFalse() throws SQLException {
    try (Connection c = connect()) {
      assertThatThrownBy(() -> Sql.lines(c, "SELECT * FROM " + call + ", ignore_errors => 'yes')"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42000"))
          .hasMessageContaining("ignore_errors must be true or false");
    }
  }
}
