package dev.floe.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryLakeTest {
  @TempDir Path temp;
  Path lake;

  @BeforeEach
  void writeATable() throws Exception {
    lake = temp.resolve("query lake");
    Files.createDirectories(lake);
    try (Connection connection = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE sales.orders (id BIGINT NOT NULL, customer VARCHAR, total DECIMAL(8, 2))");
      statement.executeUpdate(
          "INSERT INTO sales.orders VALUES (1, 'Ada', 12.50), (2, 'Grace', 7.00), (3, NULL,"
              + " 100.25)");
    }
    LakeFiles.assertTableLaidOut(lake, "sales.orders", temp);
  }

  @Test
  void printsTheRowsAsATableWithAHeaderAndARowCount() throws Exception {
    String text =
        QueryLake.query(
            lake.toString(), "SELECT id, customer, total FROM sales.orders ORDER BY id");

    assertThat(text)
        .isEqualTo(
            String.join(
                "\n",
                "id | customer | total",
                "-- | -------- | ------",
                "1  | Ada      | 12.50",
                "2  | Grace    | 7.00",
                "3  | NULL     | 100.25",
                "(3 rows)",
                ""));
  }

  @Test
  void acceptsAFullUrlWithAPercentEscapedFileUri() throws Exception {
    String url = "jdbc:floe:" + lake.toUri(); // file:///.../query%20lake/

    String text = QueryLake.query(url, "SELECT COUNT(*) AS n FROM sales.orders");

    assertThat(text).isEqualTo("n\n-\n3\n(1 row)\n");
    LakeFiles.assertNoStrayFolders(temp);
  }

  @Test
  void aMissingTableIsReportedWithItsSqlState() {
    assertThatThrownBy(() -> QueryLake.query(lake.toString(), "SELECT * FROM nowhere"))
        .isInstanceOf(SQLException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("42S02");
  }
}
