package dev.floe.planner.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.junit.jupiter.api.Test;

/**
 * Floe reserves only the words SQL:2016 and PostgreSQL both reserve, and the few Calcite's grammar
 * cannot parse otherwise; docs/sql.md lists them, and every other keyword is a name like any other.
 */
class ReservedWordsTest {
  private static final SqlAbstractParserImpl.Metadata METADATA =
      FloeSqlParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();

  /** Every keyword spelled as a plain word, reserved or not. */
  private static List<String> keywords() {
    List<String> words = new ArrayList<>();
    for (String token : METADATA.getTokens()) {
      if (token.matches("[A-Z][A-Z0-9_]*") && METADATA.isKeyword(token)) {
        words.add(token);
      }
    }
    return words;
  }

  /** The words docs/sql.md lists under "Reserved words". */
  private static TreeSet<String> documented() throws IOException {
    String readme = Files.readString(Path.of("..", "docs", "sql.md"));
    int start = readme.indexOf("\n## Reserved words\n");
    assertThat(start).as("docs/sql.md has a section Reserved words").isNotNegative();
    int end = readme.indexOf("\n## ", start + 1);
    String section = readme.substring(start, end < 0 ? readme.length() : end);
    TreeSet<String> words = new TreeSet<>();
    Matcher listed = Pattern.compile("`([A-Z][A-Z0-9_-]*)`").matcher(section);
    while (listed.find()) {
      words.add(listed.group(1));
    }
    return words;
  }

  @Test
  void theGrammarReservesExactlyTheWordsTheReadmeLists() throws IOException {
    TreeSet<String> reserved = new TreeSet<>();
    for (String token : METADATA.getTokens()) {
      if (METADATA.isReservedWord(token) && token.matches("[A-Z][A-Z0-9_-]*")) {
        reserved.add(token);
      }
    }
    assertThat(documented())
        .as("docs/sql.md list (expected) against the grammar's reserved words")
        .isEqualTo(reserved);
  }

  @Test
  void everyWordTheGrammarDoesNotReserveIsANameWithoutQuotes() {
    List<String> failures = new ArrayList<>();
    for (String keyword : keywords()) {
      if (METADATA.isReservedWord(keyword)) {
        continue;
      }
      String w = keyword.toLowerCase(Locale.ROOT);
      for (String sql :
          List.of(
              "SELECT " + w + " FROM t",
              "SELECT " + w + ", a FROM t WHERE " + w + " > 1",
              "SELECT a AS " + w + " FROM t",
              "SELECT a " + w + " FROM t",
              "SELECT * FROM " + w,
              "SELECT * FROM s." + w + " WHERE a = 1",
              "SELECT " + w + ".a FROM t AS " + w,
              "SELECT x." + w + " FROM t x",
              "SELECT count(" + w + "), max(" + w + ") FROM t GROUP BY " + w + " ORDER BY " + w,
              "SELECT * FROM t JOIN " + w + " ON t.a = " + w + ".a",
              "CREATE TABLE " + w + " (" + w + " INT, b VARCHAR)",
              "INSERT INTO " + w + " (" + w + ") VALUES (1)",
              "UPDATE " + w + " SET " + w + " = 1 WHERE " + w + " = 2",
              "DELETE FROM " + w + " WHERE " + w + " IS NULL")) {
        try {
          FloeParser.parse(sql);
        } catch (FloeException e) {
          failures.add(sql + "  ->  " + e.getMessage());
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void aReservedWordWhereANameStandsIsRefusedWithItsQuotedForm() {
    for (String sql :
        List.of(
            "SELECT * FROM order",
            "SELECT t.user FROM t",
            "SELECT a FROM t WHERE order = 1",
            "SELECT a AS\n  from FROM t")) {
      assertThatThrownBy(() -> FloeParser.parse(sql))
          .as(sql)
          .isInstanceOf(FloeException.class)
          .hasMessageContaining(
              "is a reserved word; to use it as a name, write it in double quotes")
          .satisfies(e -> assertThat(((FloeException) e).sqlState()).isEqualTo("42000"));
    }
    assertThatThrownBy(() -> FloeParser.parse("SELECT * FROM order"))
        .hasMessageContaining("order is a reserved word")
        .hasMessageContaining("\"order\"");
  }

  @Test
  void aMisplacedClauseIsNotCalledAName() {
    for (String sql :
        List.of("SELECT a FROM t LIMIT 1 WHERE a = 1", "SELECT a FROM t WHERE GROUP BY a")) {
      assertThatThrownBy(() -> FloeParser.parse(sql))
          .as(sql)
          .isInstanceOf(FloeException.class)
          .hasMessageNotContaining("reserved word");
    }
  }

  @Test
  void rowOpensARowConstructorNotACallOfAFunctionNamedRow() {
    SqlNode parsed = FloeParser.parse("SELECT ROW(1, TIME '10:11:12') FROM t");
    SqlNode item = ((SqlSelect) parsed).getSelectList().get(0);
    assertThat(item.getKind()).isEqualTo(SqlKind.ROW);
  }

  @Test
  void theClausesThoseWordsOpenStillParse() {
    for (String sql :
        List.of(
            "SELECT a, SUM(b) OVER (PARTITION BY a ORDER BY c ROWS BETWEEN 1 PRECEDING AND"
                + " CURRENT ROW) FROM t",
            "SELECT SUM(b) OVER (ORDER BY c RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
                + " FROM t",
            "SELECT SUM(b) OVER (ROWS 2 PRECEDING), RANK() OVER w FROM t WINDOW w AS (PARTITION"
                + " BY a)",
            "SELECT SUM(b) OVER (w ORDER BY c) FROM t WINDOW w AS (PARTITION BY a)",
            "SELECT DATE '2024-01-01', TIME '10:11:12', TIMESTAMP '2024-01-01 10:11:12',"
                + " TIMESTAMP '2024-01-01 10:11:12' + INTERVAL '1' DAY",
            "SELECT CAST(a AS DATE), CAST(a AS TIMESTAMP(6)), CAST(a AS TIME), a::DATE FROM t",
            "SELECT TRY_CAST(a AS INTEGER), SAFE_CAST(a AS DATE) FROM t",
            "SELECT FLOOR(ts TO MONTH), EXTRACT(YEAR FROM d), CEIL(ts TO DAY) FROM t",
            "SELECT value, method, running, partition, date, time, timestamp, rows, range FROM t"
                + " WHERE value > 1",
            "SELECT SUM(value) AS value FROM t GROUP BY partition HAVING SUM(value) > 0",
            "SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2024-01-01 00:00:00'",
            "SELECT * FROM t FOR VERSION AS OF 1",
            "SELECT a FROM t LIMIT 10 OFFSET 2",
            "SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS ONLY",
            "SELECT a FROM t UNION SELECT a FROM u EXCEPT SELECT a FROM v",
            "SELECT * FROM t, UNNEST(t.arr) AS u(x)",
            "SELECT * FROM t TABLESAMPLE BERNOULLI(10)",
            "SELECT JSON_VALUE(j, '$.a'), JSON_QUERY(j, '$.a'), POSITION('a' IN b),"
                + " SUBSTRING(b FROM 1 FOR 2), TRIM(BOTH ' ' FROM b) FROM t",
            "SELECT a FROM t GROUP BY ROLLUP(a), CUBE(b), GROUPING SETS ((a), ())",
            "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = s.b"
                + " WHEN NOT MATCHED THEN INSERT (a, b) VALUES (s.a, s.b)",
            "INSERT OVERWRITE t PARTITION (d = DATE '2024-01-01') SELECT a FROM s",
            "CREATE TABLE t (a INT, d DATE) PARTITIONED BY (month(d))",
            "ALTER TABLE t ADD COLUMN value INT",
            "SELECT ROW(1, 2), CURRENT_DATE FROM t",
            "SELECT a FROM t GROUP BY GROUPING SETS ((a), (b)) HAVING GROUPING(a) = 0",
            "SELECT * FROM UNNEST(ARRAY[1, 2]) AS u(x)",
            "SELECT a FROM t ORDER BY a DESC NULLS LAST",
            "SELECT a FROM t MINUS SELECT a FROM u",
            "SELECT COUNT(*) OVER () FROM t",
            "SELECT NEXT VALUE FOR s FROM t",
            "SELECT STREAM a FROM t",
            "SELECT * FROM TABLE(f(CURSOR(SELECT a FROM t)))")) {
      assertThat(FloeParser.parse(sql)).as(sql).isNotNull();
    }
  }
}
