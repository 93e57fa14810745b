package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The function vocabulary analysts bring from PostgreSQL, Trino, DuckDB and Spark SQL, each call
 * checked against the result its engine's documentation gives (the example in the manual where
 * there is one, else the documented definition applied to a small input), through the shaded jar.
 */
class FunctionVocabularyTest {
  @TempDir static Path root;

  @BeforeAll
  static void createOrders() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders (id INT, d DATE, total DECIMAL(10,2), pay VARCHAR)");
      s.execute(
          "INSERT INTO orders VALUES (1, DATE '2024-01-15', 10.50, 'card'),"
              + " (2, DATE '2024-02-20', 20.00, 'cash'), (3, DATE '2024-02-21', 30.00, NULL),"
              + " (4, DATE '2024-03-01', 40.00, 'card')");
    }
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  /** A scalar call, the answer its engine documents, and where. */
  static Stream<Arguments> scalars() {
    return Stream.of(
        // PostgreSQL 16 manual, 9.4 String Functions and Operators (each function's example).
        arguments("split_part('abc~@~def~@~ghi', '~@~', 2)", "def", "PostgreSQL"),
        arguments("split_part('a,b', ',', 5)", "", "PostgreSQL: beyond the last field"),
        arguments("starts_with('alphabet', 'alph')", "true", "PostgreSQL"),
        arguments("concat_ws(',', 'abcde', 2, NULL, 22)", "abcde,2,22", "PostgreSQL"),
        arguments("concat('abcde', 2, NULL, 22)", "abcde222", "PostgreSQL"),
        arguments("left('abcde', 2)", "ab", "PostgreSQL"),
        arguments("right('abcde', 2)", "de", "PostgreSQL"),
        arguments("repeat('Pg', 4)", "PgPgPgPg", "PostgreSQL"),
        arguments("lpad('hi', 5, 'xy')", "xyxhi", "PostgreSQL"),
        arguments("rpad('hi', 5, 'xy')", "hixyx", "PostgreSQL"),
        arguments("strpos('high', 'ig')", "2", "PostgreSQL"),
        arguments("reverse('abcde')", "edcba", "PostgreSQL"),
        arguments("md5('abc')", "900150983cd24fb0d6963f7d28e17f72", "PostgreSQL"),
        arguments("chr(65)", "A", "PostgreSQL"),
        arguments("length('jose')", "4", "PostgreSQL"),
        arguments("regexp_replace('Thomas', '.[mN]a.', 'M')", "ThM", "PostgreSQL"),
        arguments(
            "regexp_replace('foobarbaz', 'b(..)', 'X\\1Y', 'g')", "fooXarYXazY", "PostgreSQL"),
        arguments("regexp_like('Hello World', 'world', 'i')", "true", "PostgreSQL"),
        // PostgreSQL 16 manual, 9.9 Date/Time Functions.
        arguments(
            "date_trunc('hour', TIMESTAMP '2001-02-16 20:38:40')",
            "2001-02-16 20:00:00",
            "PostgreSQL"),
        arguments(
            "date_trunc('year', TIMESTAMP '2001-02-16 20:38:40')",
            "2001-01-01 00:00:00",
            "PostgreSQL"),
        arguments("date_part('hour', TIMESTAMP '2001-02-16 20:38:40')", "20", "PostgreSQL"),
        arguments("date_part('dow', DATE '2024-01-14')", "0", "PostgreSQL: Sunday is 0 for 'dow'"),
        // PostgreSQL 16 manual, 9.18 Conditional Expressions: NULLs in the list are ignored.
        arguments("greatest(1, NULL, 3)", "3", "PostgreSQL"),
        arguments("least(3, NULL, 2)", "2", "PostgreSQL"),
        arguments("'5'::INTEGER + 1", "6", "PostgreSQL: the :: cast"),
        // Trino 4xx documentation, Regular expression functions (each function's example).
        arguments("regexp_extract('1a 2b 14m', '\\d+')", "1", "Trino"),
        arguments("regexp_extract('1a 2b 14m', '(\\d+)([a-z]+)', 2)", "a", "Trino"),
        arguments("regexp_extract_all('1a 2b 14m', '\\d+')", "[1, 2, 14]", "Trino"),
        arguments("regexp_extract_all('1a 2b 14m', '(\\d+)([a-z]+)', 2)", "[a, b, m]", "Trino"),
        arguments("regexp_like('1a 2b 14m', '\\d+b')", "true", "Trino"),
        arguments("regexp_replace('1a 2b 14m', '\\d+[ab] ')", "14m", "Trino"),
        arguments("regexp_replace('1a 2b 14m', '(\\d+)([ab]) ', '3c$2 ')", "3ca 3cb 14m", "Trino"),
        arguments("regexp_count('1a 2b 14m', '\\s*[a-z]+\\s*')", "3", "Trino"),
        // Trino documentation, Date and time functions: date_trunc on 2001-08-22 03:04:05.321.
        arguments(
            "date_trunc('second', TIMESTAMP '2001-08-22 03:04:05.321')",
            "2001-08-22 03:04:05",
            "Trino"),
        arguments(
            "date_trunc('minute', TIMESTAMP '2001-08-22 03:04:05.321')",
            "2001-08-22 03:04:00",
            "Trino"),
        arguments(
            "date_trunc('day', TIMESTAMP '2001-08-22 03:04:05.321')",
            "2001-08-22 00:00:00",
            "Trino"),
        arguments(
            "date_trunc('week', TIMESTAMP '2001-08-22 03:04:05.321')",
            "2001-08-20 00:00:00",
            "Trino: weeks begin on Monday"),
        arguments(
            "date_trunc('month', TIMESTAMP '2001-08-22 03:04:05.321')",
            "2001-08-01 00:00:00",
            "Trino"),
        arguments(
            "date_trunc('quarter', TIMESTAMP '2001-08-22 03:04:05.321')",
            "2001-07-01 00:00:00",
            "Trino"),
        arguments(
            "date_trunc('month', DATE '2001-08-22')", "2001-08-01", "Trino: a DATE stays one"),
        arguments(
            "date_add('second', 86, TIMESTAMP '2020-03-01 00:00:00')",
            "2020-03-01 00:01:26",
            "Trino"),
        arguments(
            "date_add('hour', 9, TIMESTAMP '2020-03-01 00:00:00')", "2020-03-01 09:00:00", "Trino"),
        arguments(
            "date_add('day', -1, TIMESTAMP '2020-03-01 00:00:00')", "2020-02-29 00:00:00", "Trino"),
        arguments(
            "date_diff('second', TIMESTAMP '2020-03-01 00:00:00', TIMESTAMP '2020-03-02 00:00:00')",
            "86400",
            "Trino"),
        arguments(
            "date_diff('hour', TIMESTAMP '2020-03-01 00:00:00', TIMESTAMP '2020-03-02 00:00:00')",
            "24",
            "Trino"),
        arguments("date_diff('day', DATE '2020-03-01', DATE '2020-03-02')", "1", "Trino"),
        arguments(
            "date_diff('second', TIMESTAMP '2020-06-01 12:30:45.000000',"
                + " TIMESTAMP '2020-06-02 12:30:45.123456')",
            "86400",
            "Trino"),
        // Trino documentation, JSON functions.
        arguments("json_extract_scalar('[1, 2, 3]', '$[2]')", "3", "Trino"),
        arguments(
            "json_extract_scalar('{\"store\": {\"book\": [{\"author\": \"Nigel Rees\"}]}}',"
                + " '$.store.book[0].author')",
            "Nigel Rees",
            "Trino"),
        arguments(
            "json_extract('{\"store\": {\"book\": [{\"author\": \"Nigel Rees\"}]}}',"
                + " '$.store.book[0]')",
            "{\"author\":\"Nigel Rees\"}",
            "Trino"),
        arguments("json_extract_scalar('{\"a\": [1]}', '$.a')", null, "Trino: no scalar there"),
        // DuckDB documentation (pattern matching, text, date, JSON and utility functions).
        arguments("'abc' ILIKE '%C'", "true", "DuckDB"),
        arguments("'abc' NOT ILIKE '%C'", "false", "DuckDB"),
        arguments("concat_ws(', ', 'Banana', 'Apple', 'Melon')", "Banana, Apple, Melon", "DuckDB"),
        arguments("date_add(DATE '1992-09-15', INTERVAL '2' MONTH)", "1992-11-15", "DuckDB"),
        arguments("json_extract_string('{\"duck\": [1, 2, 3]}', '$.duck[0]')", "1", "DuckDB"),
        arguments("try_cast('hello' AS INTEGER)", null, "DuckDB"),
        arguments("ifnull(NULL, 'default_string')", "default_string", "DuckDB"),
        // Spark SQL built-in functions reference (each function's example).
        arguments("date_add(DATE '2016-07-30', 1)", "2016-07-31", "Spark"),
        arguments("date_sub(DATE '2016-07-30', 1)", "2016-07-29", "Spark"),
        arguments("datediff(DATE '2009-07-31', DATE '2009-07-30')", "1", "Spark"),
        arguments("if(1 < 2, 'a', 'b')", "a", "Spark"),
        arguments("nvl(NULL, 2)", "2", "Spark"),
        arguments("nvl2(NULL, 2, 1)", "1", "Spark"),
        arguments("startswith('Spark SQL', 'Spark')", "true", "Spark"),
        arguments("concat_ws(' ', 'Spark', 'SQL')", "Spark SQL", "Spark"),
        arguments("get_json_object('{\"a\":\"b\"}', '$.a')", "b", "Spark"),
        arguments("regexp_extract('100-200', '(\\d+)-(\\d+)', 1)", "100", "Spark"),
        arguments("try_cast('12' AS INTEGER)", "12", "Trino, Spark"));
  }

  @ParameterizedTest(name = "{0} is {1} ({2})")
  @MethodSource("scalars")
  void aScalarFunctionGivesTheResultItsEngineDocuments(
      String expression, String expected, String source) throws SQLException {
    try (Connection c = connect()) {
      assertThat(value(c, "SELECT " + expression)).as(source).isEqualTo(expected);
    }
  }

  /** An aggregate over a small input, the answer its engine documents, and where. */
  static Stream<Arguments> aggregates() {
    String ten = "(VALUES (0), (10)) AS tab(col)";
    String four = "(VALUES (1), (2), (3), (4)) AS tab(col)";
    return Stream.of(
        // Spark SQL built-in functions reference.
        arguments("SELECT median(col) FROM " + ten, "5.0", "Spark"),
        arguments("SELECT percentile(col, 0.3) FROM " + ten, "3.0", "Spark"),
        arguments(
            "SELECT percentile_approx(col, 0.5, 100) FROM (VALUES (0), (1), (2), (10)) AS"
                + " tab(col)",
            "1",
            "Spark"),
        arguments(
            "SELECT max_by(x, y) FROM (VALUES ('a', 10), ('b', 50), ('c', 20)) AS tab(x, y)",
            "b",
            "Spark"),
        arguments(
            "SELECT min_by(x, y) FROM (VALUES ('a', 10), ('b', 50), ('c', 20)) AS tab(x, y)",
            "a",
            "Spark"),
        arguments(
            "SELECT count_if(col % 2 = 0) FROM (VALUES (CAST(NULL AS INT)), (0), (1), (2), (3))"
                + " AS tab(col)",
            "2", "Spark"),
        arguments(
            "SELECT array_agg(col) FROM (VALUES (1), (2), (1)) AS tab(col)", "[1, 2, 1]", "Spark"),
        arguments(
            "SELECT bool_and(col) FROM (VALUES (true), (true), (true)) AS tab(col)",
            "true",
            "Spark"),
        // PostgreSQL 16 manual, 9.21 Aggregate Functions (the definitions of Table 9.62).
        arguments(
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY col) FROM " + four,
            "2.5",
            "PostgreSQL: interpolated"),
        arguments(
            "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY col) FROM " + four,
            "2",
            "PostgreSQL: the first value whose position reaches the fraction"),
        arguments(
            "SELECT percentile_disc(0.25) WITHIN GROUP (ORDER BY col DESC) FROM " + four,
            "4",
            "PostgreSQL: in the order asked"),
        arguments(
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY col) FROM "
                + four
                + " WHERE col > 9",
            null,
            "PostgreSQL: no rows, NULL"),
        arguments(
            "SELECT mode() WITHIN GROUP (ORDER BY col) FROM (VALUES (1), (2), (2), (3)) AS tab(col)",
            "2",
            "PostgreSQL"),
        arguments(
            "SELECT string_agg(pay, ',' ORDER BY id) FROM orders",
            "card,cash,card",
            "PostgreSQL: NULLs skipped"),
        arguments(
            "SELECT array_agg(pay ORDER BY id DESC) FROM orders",
            "[card, cash, card]",
            "BigQuery, whose ARRAY_AGG Calcite runs: NULLs skipped (PostgreSQL keeps them)"),
        // DuckDB documentation, aggregate functions.
        arguments("SELECT median(col) FROM " + four, "2.5", "DuckDB: the two middle values"),
        arguments("SELECT quantile_cont(col, 0.25) FROM " + four, "1.75", "DuckDB"),
        arguments("SELECT quantile_disc(col, 0.25) FROM " + four, "1", "DuckDB"),
        arguments("SELECT string_agg(pay) FROM orders WHERE id < 3", "card,cash", "DuckDB"),
        // Trino documentation, aggregate functions.
        arguments("SELECT approx_percentile(total, 0.5) FROM orders", "20.00", "Trino: exact here"),
        arguments("SELECT approx_distinct(pay) FROM orders", "2", "Trino: exact here"),
        arguments("SELECT count_if(total > 15) FROM orders", "3", "Trino"),
        arguments(
            "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY d) FROM orders",
            "2024-02-20",
            "PostgreSQL: of the ordering value's type"));
  }

  @ParameterizedTest(name = "{0} is {1} ({2})")
  @MethodSource("aggregates")
  void anAggregateGivesTheResultItsEngineDocuments(String sql, String expected, String source)
      throws SQLException {
    try (Connection c = connect()) {
      assertThat(value(c, sql)).as(source).isEqualTo(expected);
    }
  }

  @Test
  void percentileAggregatesHaveTheTypesPostgreSqlGivesThem() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total),"
                    + " percentile_disc(0.5) WITHIN GROUP (ORDER BY total),"
                    + " median(id) FROM orders")) {
      assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(java.sql.Types.DOUBLE);
      assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(java.sql.Types.DECIMAL);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getDouble(1)).isEqualTo(25.0);
      assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("20.00");
      assertThat(rs.getDouble(3)).isEqualTo(2.5);
    }
  }

  @Test
  void aPercentileOverAWindowIsComputedPerPartition() throws SQLException {
    try (Connection c = connect()) {
      assertThat(
              Sql.lines(
                  c,
                  "SELECT id, percentile_cont(0.5) WITHIN GROUP (ORDER BY total)"
                      + " OVER (PARTITION BY pay) FROM orders WHERE pay IS NOT NULL"
                      + " ORDER BY id"))
          .containsExactly("1 25.25", "2 20.0", "4 25.25");
    }
  }

  @Test
  void anAggregateCalciteCannotRunOverAWindowIsAFeatureNotSupported() {
    assertThatThrownBy(
            () -> {
              try (Connection c = connect()) {
                value(c, "SELECT string_agg(pay, ',') OVER (PARTITION BY id) FROM orders");
              }
            })
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("STRING_AGG over a window")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
  }

  @Test
  void aPercentileFractionOutsideZeroToOneIsOutOfRange() {
    assertFails(
        "SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY id) FROM orders",
        "22003",
        "must be between 0 and 1");
  }

  @Test
  void percentileContOfATimestampIsRefusedNotInterpolatedAsANumber() {
    assertFails(
        "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) FROM orders",
        "42000",
        "interpolates between numbers, not values of type DATE");
  }

  @Test
  void aUnitNoEngineKnowsIsAnInvalidArgument() {
    assertFails(
        "SELECT date_trunc('fortnight', d) FROM orders", "22023", "'fortnight' is not a unit");
  }

  @Test
  void aRegularExpressionThatDoesNotCompileIsRefusedWithItsOwnState() {
    assertFails("SELECT regexp_like('a', '(')", "2201B", "Unclosed group");
    assertFails("SELECT regexp_extract('a', '(', 1)", "2201B", "Unclosed group");
  }

  @Test
  void aGroupThePatternLacksIsAnInvalidArgument() {
    assertFails("SELECT regexp_extract('ab', '(a)', 2)", "22023", "there is no group 2");
  }

  @Test
  void aJsonPathFloeCannotReadIsAnInvalidArgument() {
    assertFails("SELECT json_extract('{\"a\": 1}', 'a')", "22023", "does not start with $");
  }

  @Test
  void functionsWorkInFiltersAndGroupsOfLakeTables() throws SQLException {
    try (Connection c = connect()) {
      assertThat(
              Sql.lines(
                  c,
                  "SELECT date_trunc('month', d) AS m, count(*) FROM orders"
                      + " WHERE pay ILIKE 'CA%' GROUP BY date_trunc('month', d) ORDER BY m"))
          .containsExactly("2024-01-01 1", "2024-02-01 1", "2024-03-01 1");
    }
  }

  @Test
  void parametersTakeTheTypesTheFunctionsExpect() throws SQLException {
    try (Connection c = connect();
        java.sql.PreparedStatement p =
            c.prepareStatement("SELECT regexp_extract(?, ?, ?), split_part(?, ',', 2)")) {
      p.setString(1, "x12y");
      p.setString(2, "(\\d)(\\d)");
      p.setInt(3, 2);
      p.setString(4, "a,b,c");
      try (ResultSet rs = p.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("2");
        assertThat(rs.getString(2)).isEqualTo("b");
      }
    }
  }

  @Test
  void getFunctionsListsTheVocabularyWithWhatEachDoes() throws SQLException {
    Map<String, String> listed = new HashMap<>();
    try (Connection c = connect();
        ResultSet rs = c.getMetaData().getFunctions(null, null, "%")) {
      while (rs.next()) {
        listed.put(rs.getString("FUNCTION_NAME"), rs.getString("REMARKS"));
        assertThat(rs.getShort("FUNCTION_TYPE"))
            .isEqualTo((short) java.sql.DatabaseMetaData.functionNoTable);
      }
    }
    List<String> vocabulary =
        List.of(
            "DATE_TRUNC",
            "DATE_ADD",
            "DATE_DIFF",
            "ILIKE",
            "STRING_AGG",
            "LISTAGG",
            "MEDIAN",
            "PERCENTILE_CONT",
            "PERCENTILE_DISC",
            "APPROX_PERCENTILE",
            "REGEXP_LIKE",
            "REGEXP_EXTRACT",
            "REGEXP_REPLACE",
            "SPLIT_PART",
            "STARTS_WITH",
            "CONCAT_WS",
            "GREATEST",
            "LEAST",
            "NVL",
            "IFNULL",
            "TRY_CAST",
            "ARRAY_AGG",
            "JSON_EXTRACT",
            "JSON_VALUE",
            "UPPER");
    assertThat(listed).containsKeys(vocabulary.toArray(new String[0]));
    assertThat(listed.get("GREATEST")).contains("NULLs ignored");
    assertThat(listed.get("DATE_TRUNC")).contains("Monday");
    try (Connection c = connect();
        ResultSet rs = c.getMetaData().getFunctions(null, null, "date\\_tr%")) {
      List<String> names = new ArrayList<>();
      while (rs.next()) {
        names.add(rs.getString("FUNCTION_NAME"));
      }
      assertThat(names).containsExactly("DATE_TRUNC");
    }
  }

  @Test
  void everyFunctionBeyondTheStandardIsDocumentedInTheSqlReference() throws Exception {
    String readme =
        java.nio.file.Files.readString(
                Path.of(System.getProperty("user.dir"), "..", "docs", "sql.md"))
            .toLowerCase(java.util.Locale.ROOT);
    int start = readme.indexOf("\n## functions\n");
    assertThat(start).isNotNegative();
    int end = readme.indexOf("\n## ", start + 1);
    String section = readme.substring(start, end < 0 ? readme.length() : end);
    List<String> undocumented = new ArrayList<>();
    try (Connection c = connect();
        ResultSet rs = c.getMetaData().getFunctions(null, null, "%")) {
      while (rs.next()) {
        String name = rs.getString("FUNCTION_NAME").toLowerCase(java.util.Locale.ROOT);
        java.util.regex.Pattern word =
            java.util.regex.Pattern.compile(
                "(?<![a-z0-9_])" + java.util.regex.Pattern.quote(name) + "(?![a-z0-9_])");
        if (!rs.getString("REMARKS").startsWith("SQL standard") && !word.matcher(section).find()) {
          undocumented.add(name);
        }
      }
    }
    assertThat(undocumented).isEmpty();
  }

  private static void assertFails(String sql, String state, String message) {
    assertThatThrownBy(
            () -> {
              try (Connection c = connect()) {
                value(c, sql);
              }
            })
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state));
  }

  private static String elements(Array array) throws SQLException {
    Object elements = array.getArray();
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < java.lang.reflect.Array.getLength(elements); i++) {
      texts.add(String.valueOf(java.lang.reflect.Array.get(elements, i)));
    }
    return texts.toString();
  }

  /** The one value of a query, as text; an array as {@code [a, b]}. */
  private static String value(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      Object value = rs.getObject(1);
      String text = value instanceof Array ? elements((Array) value) : rs.getString(1);
      assertThat(rs.next()).as(sql).isFalse();
      return text;
    }
  }
}
