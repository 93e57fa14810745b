package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A corpus of queries as users of Trino, Spark SQL, PostgreSQL and DuckDB write them ({@code
 * src/test/resources/compat/queries.sql}: functions, names those engines do not reserve, dates,
 * windows, CTEs, set operations), each run through the jar over a small table and compared with
 * DuckDB's answer over the same Parquet data files. Queries whose meaning differs between those
 * engines are not in it (docs/limits.md names the differences found).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompatibilityCorpusTest {
  private static final List<String> ROWS =
      List.of(
          "(1, 'north', 'apple', 3, 1.20, DATE '2024-01-15', 'rush order')",
          "(2, 'south', 'banana', 1, 0.50, DATE '2024-01-20', NULL)",
          "(3, 'north', 'cherry', 6, 4.75, DATE '2024-02-03', '42')",
          "(4, 'east', 'apple', 2, 1.25, DATE '2024-02-14', 'gift wrap')",
          "(5, 'west', 'Avocado', 5, 2.10, DATE '2024-03-01', NULL)",
          "(6, 'south', 'banana', 8, 0.45, DATE '2024-03-09', 'bulk deal')",
          "(7, 'north', 'date', 1, 3.30, DATE '2024-03-30', NULL)",
          "(8, 'east', 'cherry', 4, 4.80, DATE '2024-04-02', '7')");

  @TempDir static Path root;
  private Connection floe;
  private Connection duck;

  @BeforeAll
  void loadTheTableIntoFloeAndShowItsFilesToDuckdb() throws SQLException {
    floe = DriverManager.getConnection("jdbc:floe:" + root);
    duck = DriverManager.getConnection("jdbc:duckdb:");
    List<String> files = new ArrayList<>();
    try (Statement s = floe.createStatement()) {
      s.execute(
          "CREATE TABLE sales (id INT, region VARCHAR, product VARCHAR, qty INT,"
              + " price DECIMAL(10, 2), sold DATE, note VARCHAR)");
      s.execute("INSERT INTO sales VALUES " + String.join(", ", ROWS));
      try (ResultSet rs = s.executeQuery("SELECT file_path FROM \"sales$data_files\"")) {
        while (rs.next()) {
          files.add("'" + rs.getString(1).replace("file:", "").replace("'", "''") + "'");
        }
      }
    }
    try (Statement s = duck.createStatement()) {
      s.execute(
          "CREATE VIEW sales AS SELECT * FROM read_parquet([" + String.join(", ", files) + "])");
    }
  }

  @AfterAll
  void close() throws SQLException {
    floe.close();
    duck.close();
  }

  /** The corpus: queries separated by lines ending in ";", "--" lines being comments. */
  static Stream<String> queries() throws IOException {
    String text;
    try (InputStream in =
        CompatibilityCorpusTest.class.getResourceAsStream("/compat/queries.sql")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> queries = new ArrayList<>();
    StringBuilder query = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("--") || line.isBlank() && query.length() == 0) {
        continue;
      }
      query.append(line).append('\n');
      if (line.stripTrailing().endsWith(";")) {
        String q = query.toString().strip();
        queries.add(q.substring(0, q.length() - 1));
        query.setLength(0);
      }
    }
    return queries.stream();
  }

  @ParameterizedTest
  @MethodSource("queries")
  void floeAnswersAsDuckdbDoesOverTheSameFiles(String query) throws SQLException {
    assertThat(rows(floe, query)).as(query).isEqualTo(rows(duck, query));
  }

  @org.junit.jupiter.api.Test
  void theCorpusHoldsQueriesOfEveryKind() throws IOException {
    assertThat(queries().count()).isGreaterThan(60);
  }

  private static List<List<String>> rows(Connection c, String query) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          row.add(value(rs.getObject(i)));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /**
   * A value as both engines' answers can be compared: a number by its value (to 9 decimals, as a
   * DECIMAL and a DOUBLE of one value are equal), a timestamp at midnight as its date (DuckDB
   * answers a date plus an interval with a timestamp, Floe with a date, as Trino), else its text.
   */
  private static String value(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof Number) {
      BigDecimal number = new BigDecimal(value.toString());
      number =
          number.setScale(Math.min(number.scale(), 9), RoundingMode.HALF_UP).stripTrailingZeros();
      return number.signum() == 0 ? "0" : number.toPlainString();
    }
    Object v = value instanceof Timestamp ? ((Timestamp) value).toLocalDateTime() : value;
    if (v instanceof LocalDateTime
        && ((LocalDateTime) v).toLocalTime().equals(LocalTime.MIDNIGHT)) {
      return ((LocalDateTime) v).toLocalDate().toString();
    }
    if (v instanceof java.sql.Date) {
      return ((java.sql.Date) v).toLocalDate().toString();
    }
    return v.toString();
  }
}
