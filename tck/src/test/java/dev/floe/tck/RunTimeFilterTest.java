package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The run-time filter's test of each decoded row against a join's build keys, on every kind of key
 * column: a dense INTEGER range (looked up in a bitmap), BIGINT values spread over the whole range
 * with 0 and both extremes (an open-addressing set), DATE, TIMESTAMP, DECIMAL and VARCHAR (looked
 * up boxed), and keys of another type than the column (INTEGER against BIGINT and DECIMAL keys,
 * compared as numbers). Each join's rows are checked against the pairs computed here, and the probe
 * scan must return exactly its rows whose value is a key: the scan, not the join, dropped the
 * others.
 */
class RunTimeFilterTest {
  private static final int FACT_ROWS = 4000;
  private static final int KEY_ROWS = 600;

  @TempDir static Path lake;
  private static Connection connection;
  private static final List<Object[]> facts = new ArrayList<>();
  private static final List<Object[]> keys = new ArrayList<>();
  private static final String[] COLUMNS = {"i", "b", "d", "ts", "m", "s"};

  @BeforeAll
  static void fillTables() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    String columns =
        "(id BIGINT, i INT, b BIGINT, d DATE, ts TIMESTAMP, m DECIMAL(12, 2), s VARCHAR)";
    Sql.update(connection, "CREATE TABLE facts " + columns);
    Sql.update(connection, "CREATE TABLE keys " + columns);
    Random random = new Random(20261207);
    for (int r = 0; r < FACT_ROWS; r++) {
      facts.add(row(random, r));
    }
    for (int r = 0; r < KEY_ROWS; r++) {
      Object[] fresh = row(random, 100_000 + r);
      Object[] key = new Object[fresh.length];
      key[0] = fresh[0];
      for (int c = 1; c < key.length; c++) {
        // most keys are values of the facts (NULL among them), the others new values
        key[c] = random.nextInt(10) < 7 ? facts.get(random.nextInt(FACT_ROWS))[c] : fresh[c];
      }
      // whole decimals, which an INTEGER column can equal
      if (key[5] != null && random.nextBoolean()) {
        key[5] = BigDecimal.valueOf(random.nextInt(3001) - 1500).setScale(2);
      }
      keys.add(key);
    }
    insert("facts", facts.subList(0, FACT_ROWS / 2));
    insert("facts", facts.subList(FACT_ROWS / 2, FACT_ROWS));
    insert("keys", keys);
  }

  private static Object[] row(Random random, long id) {
    long b;
    switch (random.nextInt(20)) {
      case 0:
        b = 0;
        break;
      case 1:
        b = Long.MIN_VALUE;
        break;
      case 2:
        b = Long.MAX_VALUE;
        break;
      default:
        b = random.nextLong();
    }
    return new Object[] {
      id,
      nullOr(random, random.nextInt(3001) - 1500),
      nullOr(random, b),
      nullOr(random, LocalDate.ofEpochDay(random.nextInt(40_000) - 20_000)),
      nullOr(
          random,
          LocalDateTime.of(1900 + random.nextInt(200), 1 + random.nextInt(12), 1, 0, 0)
              .plusSeconds(random.nextInt(2_000_000))
              .plusNanos(random.nextInt(1000) * 1_000_000L)),
      nullOr(random, BigDecimal.valueOf(random.nextInt(200_001) - 100_000, 2)),
      nullOr(random, "v" + random.nextInt(3000))
    };
  }

  private static Object nullOr(Random random, Object value) {
    return random.nextInt(12) == 0 ? null : value;
  }

  private static void insert(String table, List<Object[]> rows) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      for (Object[] row : rows) {
        for (int c = 0; c < row.length; c++) {
          Object value = row[c];
          if (value instanceof LocalDate date) {
            value = java.sql.Date.valueOf(date);
          } else if (value instanceof LocalDateTime time) {
            value = Timestamp.valueOf(time);
          }
          insert.setObject(c + 1, value);
        }
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  private static boolean sameNumber(Object a, Object b) {
    return new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString())) == 0;
  }

  @ParameterizedTest(name = "facts.{0} = keys.{1}")
  @CsvSource({"i, i", "b, b", "d, d", "ts, ts", "m, m", "s, s", "i, b", "i, m"})
  void theProbeScanReturnsExactlyItsRowsWhoseValueIsABuildKey(String fact, String key)
      throws SQLException {
    int f = List.of(COLUMNS).indexOf(fact) + 1;
    int k = List.of(COLUMNS).indexOf(key) + 1;
    BiPredicate<Object, Object> equal =
        fact.equals(key) ? Objects::equals : RunTimeFilterTest::sameNumber;
    List<String> expected = new ArrayList<>();
    long matchingFacts = 0;
    for (Object[] row : facts) {
      boolean matched = false;
      for (Object[] build : keys) {
        if (row[f] != null && build[k] != null && equal.test(row[f], build[k])) {
          expected.add(String.valueOf(row[0]));
          matched = true;
        }
      }
      matchingFacts += matched ? 1 : 0;
    }
    long distinctKeys = keys.stream().map(r -> r[k]).filter(Objects::nonNull).distinct().count();
    assertThat(distinctKeys).as("more keys than an IN list takes").isGreaterThan(256);
    assertThat(matchingFacts).isGreaterThan(0).isLessThan(FACT_ROWS / 2);

    String join = "SELECT f.id FROM facts f JOIN keys k ON f." + fact + " = k." + key;
    assertThat(Sql.sorted(Sql.column(connection, join))).isEqualTo(Sql.sorted(expected));

    String report = String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + join));
    assertThat(report)
        // a cast of the INTEGER column to the key's type is the join's key (named i0)
        .containsPattern(fact + " from the join on " + fact + "0? = " + key + ": \\d+ keys")
        .contains(", rows tested");
    Matcher scan =
        Pattern.compile("LakeTableScan facts .*rows read: (\\d+), rows returned: (\\d+)")
            .matcher(report);
    assertThat(scan.find()).as(report).isTrue();
    assertThat(Long.parseLong(scan.group(1))).isEqualTo(FACT_ROWS);
    assertThat(Long.parseLong(scan.group(2))).as(report).isEqualTo(matchingFacts);
  }
}
