package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Aggregates computed inside the scan (from decoded column batches, or from manifest statistics)
 * answer exactly as Calcite's own aggregate does: every query runs twice, once as written (the scan
 * aggregates; EXPLAIN shows it) and once over a subquery whose filter {@code RAND() >= 0} keeps
 * every row but stops the pushdown, so Calcite aggregates the rows itself. The table has NULLs,
 * NaN, -0.0, infinities, DECIMAL values whose sum nears DECIMAL(38, 2)'s limit, DECIMAL(15, 2) and
 * DECIMAL(5, 3) values (Parquet INT64 and INT32), and files with position deletes (deletion vectors
 * in format 3), equality deletes and none.
 */
class AggregateInScanTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "part", Types.IntegerType.get()),
          Types.NestedField.optional(3, "k", Types.IntegerType.get()),
          Types.NestedField.optional(4, "v", Types.DoubleType.get()),
          Types.NestedField.optional(5, "f", Types.FloatType.get()),
          Types.NestedField.optional(6, "d", Types.DecimalType.of(38, 2)),
          Types.NestedField.optional(7, "s", Types.StringType.get()),
          Types.NestedField.optional(8, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(9, "dt", Types.DateType.get()),
          Types.NestedField.optional(10, "p", Types.DecimalType.of(15, 2)),
          Types.NestedField.optional(11, "q", Types.DecimalType.of(5, 3)));

  @TempDir Path lake;
  private Table table;
  private DataFile plain;
  private DataFile finite;

  /**
   * Part 1: no deletes. Part 2: rows at positions 0, 7 and 149 deleted by position. Part 3: ids
   * 260..269 deleted by equality, then a file written after that delete, which it does not touch.
   * Part 4: no deletes, and DOUBLE/REAL values without NaN or zeros, so bounds answer MIN and MAX.
   */
  private void writeTable(int formatVersion) {
    table =
        ReferenceWriter.create(
            lake.resolve("t"),
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("part").build(),
            formatVersion);
    plain = append(0, 100, 1);
    DataFile deleted = append(100, 250, 2);
    ReferenceWriter.deleteRows(table, deleted, 0, 7, 149);
    append(250, 300, 3);
    List<Record> keys = new ArrayList<>();
    for (long id = 260; id < 270; id++) {
      keys.add(ReferenceWriter.record(SCHEMA.select("id"), id));
    }
    ReferenceWriter.equalityDelete(
        table,
        table.spec(),
        ReferenceWriter.record(SCHEMA, 0L, 3, null, null, null, null, null, null, null),
        List.of("id"),
        keys);
    append(265, 285, 3);
    finite = append(300, 330, 4);
  }

  private DataFile append(long from, long to, int part) {
    List<Record> records = new ArrayList<>();
    for (long id = from; id < to; id++) {
      records.add(row(id, part));
    }
    List<DataFile> files = ReferenceWriter.append(table, records);
    assertThat(files).hasSize(1);
    return files.get(0);
  }

  private static Record row(long id, int part) {
    Integer k = id % 7 == 0 ? null : (int) (id % 4);
    Double v = part == 4 ? Double.valueOf(1 + id * 0.5) : special(id);
    Float f = v == null ? null : (float) (part == 4 ? -v : v);
    BigDecimal d =
        id % 5 == 0 ? null : BigDecimal.valueOf(id).movePointRight(31).add(new BigDecimal("0.01"));
    String s = id % 6 == 0 ? null : "s" + (id % 11);
    LocalDateTime ts =
        id % 8 == 0 ? null : LocalDateTime.of(2024, 1, 1, 0, 0).plusNanos(id * 1_001_000L);
    LocalDate dt = id % 10 == 0 ? null : LocalDate.of(2024, 1, 1).plusDays(id % 40);
    BigDecimal p = id % 7 == 3 ? null : BigDecimal.valueOf(id * 7_654_321L % 100_000_000L, 2);
    BigDecimal q = id % 13 == 5 ? null : BigDecimal.valueOf(id % 11 * 125, 3);
    return ReferenceWriter.record(SCHEMA, id, part, k, v, f, d, s, ts, dt, p, q);
  }

  /** NULL, NaN, -0.0, 0.0, infinity, or a small dyadic value, whose sums are exact in any order. */
  private static Double special(long id) {
    switch ((int) (id % 9)) {
      case 0:
        return null;
      case 1:
        return Double.NaN;
      case 2:
        return -0.0;
      case 3:
        return 0.0;
      case 4:
        return id > 200 ? Double.POSITIVE_INFINITY : 2.5;
      default:
        return (id % 13) * 0.25 - 1;
    }
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + lake);
  }

  /** The rows of a query, each as its values' text with their classes, sorted. */
  private static List<String> rows(Statement s, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Object[] values = new Object[columns];
        for (int i = 0; i < columns; i++) {
          Object value = rs.getObject(i + 1);
          values[i] = value == null ? null : value + ":" + value.getClass().getSimpleName();
        }
        rows.add(Arrays.toString(values));
      }
    }
    rows.sort(Comparator.naturalOrder());
    return rows;
  }

  private static String plan(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      StringBuilder plan = new StringBuilder();
      while (rs.next()) {
        plan.append(rs.getString(1));
      }
      return plan.toString();
    }
  }

  /** Runs a query with the scan aggregating and as Calcite computes it, and compares. */
  private static List<String> sameAsCalcite(Statement s, String sql) throws SQLException {
    return sameAsCalcite(s, sql, "t");
  }

  /** As {@link #sameAsCalcite(Statement, String)}, for a query of another table. */
  private static List<String> sameAsCalcite(Statement s, String sql, String table)
      throws SQLException {
    String oracle =
        sql.replace(
            " FROM " + table, " FROM (SELECT * FROM " + table + " WHERE RAND() >= 0) " + table);
    assertThat(plan(s, sql)).as(sql).contains("aggregate=");
    assertThat(plan(s, oracle)).as(oracle).doesNotContain("aggregate=");
    List<String> pushed = rows(s, sql);
    assertThat(pushed).as(sql).isEqualTo(rows(s, oracle));
    return pushed;
  }

  private static final List<String> QUERIES =
      List.of(
          "SELECT COUNT(*) FROM t",
          "SELECT COUNT(*), COUNT(k), COUNT(v), MIN(id), MAX(id), MIN(dt), MAX(ts), MIN(d), MAX(d)"
              + " FROM t",
          "SELECT part, COUNT(*), MIN(id), MAX(id), COUNT(s), MIN(s), MAX(s) FROM t GROUP BY part",
          "SELECT k, COUNT(*), SUM(v), AVG(v), SUM(f), AVG(f), MIN(v), MAX(v), MIN(f), MAX(f),"
              + " SUM(d), AVG(d), SUM(id), AVG(id), SUM(k), AVG(k) FROM t GROUP BY k",
          "SELECT MIN(s), MAX(s), MIN(ts), MAX(ts), MIN(dt), MAX(dt), COUNT(ts) FROM t"
              + " WHERE part IN (1, 3)",
          "SELECT k, part, COUNT(*), SUM(id), MAX(v) FROM t WHERE id > 120 GROUP BY k, part",
          "SELECT k, COUNT(*), SUM(d) FROM t GROUP BY k HAVING COUNT(*) > 50",
          "SELECT COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v), AVG(d), SUM(k) FROM t WHERE id < 0",
          "SELECT k, SUM(v), COUNT(*) FROM t WHERE id < 0 GROUP BY k",
          "SELECT v, COUNT(*), MIN(id) FROM t GROUP BY v",
          "SELECT f, k, COUNT(*) FROM t WHERE part <> 4 GROUP BY f, k",
          "SELECT part, MIN(v), MAX(v), MIN(f), MAX(f), COUNT(*) FROM t GROUP BY part",
          "SELECT COUNT(*), MAX(k), SUM(d) FROM t WHERE part = 3",
          "SELECT MAX(v), MIN(v) FROM t WHERE part = 1 AND id BETWEEN 10 AND 60",
          // computed group keys: fields of a date, integer arithmetic
          "SELECT EXTRACT(YEAR FROM dt), EXTRACT(MONTH FROM dt), COUNT(*), SUM(id), MIN(s) FROM t"
              + " GROUP BY EXTRACT(YEAR FROM dt), EXTRACT(MONTH FROM dt)",
          "SELECT EXTRACT(DAY FROM dt), COUNT(dt), MAX(id) FROM t WHERE part <> 2"
              + " GROUP BY EXTRACT(DAY FROM dt)",
          "SELECT EXTRACT(QUARTER FROM dt), part, COUNT(*) FROM t GROUP BY EXTRACT(QUARTER FROM dt),"
              + " part",
          "SELECT k * 3 + 1, COUNT(*), SUM(id) FROM t GROUP BY k * 3 + 1",
          "SELECT SUM(EXTRACT(DAY FROM dt)), COUNT(*) FROM t");

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void everyAggregateAnswersAsCalciteDoes(int formatVersion) throws Exception {
    writeTable(formatVersion);
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String sql : QUERIES) {
        sameAsCalcite(s, sql);
      }
      // Spot checks against values computed here, so both paths cannot be wrong together.
      long rows = 100 + (150 - 3) + (50 - 10) + 20 + 30;
      assertThat(sameAsCalcite(s, "SELECT COUNT(*) FROM t")).containsExactly("[" + rows + ":Long]");
      assertThat(sameAsCalcite(s, "SELECT COUNT(*), SUM(v) FROM t WHERE id < 0"))
          .containsExactly("[0:Long, null]");
      assertThat(sameAsCalcite(s, "SELECT k, COUNT(*) FROM t WHERE id < 0 GROUP BY k")).isEmpty();
    }
  }

  /**
   * Aggregates of expressions the scan computes from the column vectors (DECIMAL as unscaled longs,
   * and as BigDecimal where a product does not fit a long or the column is wider than 18 digits,
   * whose files are read row by row).
   */
  private static final List<String> EXPRESSION_QUERIES =
      List.of(
          "SELECT k, SUM(p * (1 - q)), SUM(p * (1 - q) * (1 + q)), AVG(p), AVG(q), COUNT(*)"
              + " FROM t GROUP BY k",
          "SELECT SUM(p * q), SUM(p + q), SUM(p - 1), MIN(p * 2), MAX(p - q), AVG(p * q) FROM t"
              + " WHERE id > 20",
          "SELECT part, SUM(id * 2), SUM(k + 1), SUM(k * k), SUM(v * 2), SUM(v + k), AVG(v / 2),"
              + " SUM(id - k), MAX(v - 1), MIN(v + 1) FROM t GROUP BY part",
          "SELECT SUM(CASE WHEN k > 1 THEN p ELSE 0 END), SUM(CASE WHEN v < 1 THEN 1 ELSE 0 END),"
              + " COUNT(CASE WHEN p IS NULL THEN 1 END), SUM(CASE WHEN q >= 0.5 THEN q END)"
              + " FROM t",
          "SELECT k, SUM(CASE WHEN id BETWEEN 10 AND 200 AND k IS NOT NULL THEN p * q ELSE p END),"
              + " SUM(CASE WHEN v > 0 OR q < 0.25 THEN 2 WHEN k = 1 THEN 3 ELSE 5 END)"
              + " FROM t GROUP BY k",
          "SELECT SUM(p * p * p), SUM(p * p), COUNT(p * p * p) FROM t",
          "SELECT SUM(d * 2), SUM(d + p), MAX(d - 1) FROM t WHERE part <> 2",
          "SELECT SUM(p * q), COUNT(p - q), SUM(v * 2), MAX(k + 1) FROM t WHERE id < 0",
          "SELECT k, SUM(p * q), SUM(k * 2) FROM t WHERE id < 0 GROUP BY k",
          "SELECT SUM(p * q), COUNT(*) FROM t WHERE q BETWEEN 0.5 AND 1.0 AND p < 500000",
          "SELECT part, SUM(v * 0), MAX(v - 1), MIN(v * 2), SUM(k * 3 - id) FROM t GROUP BY part",
          "SELECT s, COUNT(*), SUM(p * q), MAX(s) FROM t GROUP BY s",
          "SELECT s, k, COUNT(*), SUM(p - q) FROM t GROUP BY s, k");

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void expressionsInsideAggregatesAnswerAsCalciteDoes(int formatVersion) throws Exception {
    writeTable(formatVersion);
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String sql : EXPRESSION_QUERIES) {
        sameAsCalcite(s, sql);
      }
      assertThat(plan(s, "SELECT SUM(p * (1 - q)) FROM t")).contains("$SUM0((p * (1 - q)))");
      // Spot check against a value computed here, so both paths cannot be wrong together.
      BigDecimal expected = BigDecimal.ZERO;
      for (long id = 0; id < 100; id++) {
        Record r = row(id, 1);
        BigDecimal p = (BigDecimal) r.getField("p");
        BigDecimal q = (BigDecimal) r.getField("q");
        if (p != null && q != null) {
          expected = expected.add(p.multiply(BigDecimal.ONE.subtract(q)));
        }
      }
      assertThat(sameAsCalcite(s, "SELECT SUM(p * (1 - q)) FROM t WHERE part = 1"))
          .containsExactly("[" + expected + ":BigDecimal]");
    }
  }

  @Test
  void keysOfTwoIntegersAreGroupedAsCalciteGroupsThemAcrossTheirWholeRange() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE pairs (a BIGINT, b INTEGER, x BIGINT)");
      // values past 32 bits, the least int and long, NULLs in either column, and keys whose
      // halves would collide if only 32 bits of each were kept
      s.executeUpdate(
          "INSERT INTO pairs VALUES (1, 2, 1), (1, 2, 2), (2, 1, 4), (-1, -1, 8),"
              + " (4294967297, 2, 16), (4294967297, 2, 32), (-2147483648, 0, 64),"
              + " (-2147483648, -2147483648, 128), (-9223372036854775808, 2147483647, 256),"
              + " (NULL, 2, 512), (NULL, 2, 1024), (1, NULL, 2048), (NULL, NULL, 4096),"
              + " (0, -2147483648, 8192), (-2147483648, 0, 16384)");
      for (String sql :
          List.of(
              "SELECT a, b, COUNT(*), SUM(x) FROM pairs GROUP BY a, b",
              "SELECT b, a, MIN(x), MAX(x) FROM pairs GROUP BY b, a",
              "SELECT a, b, COUNT(*) FROM pairs WHERE x > 2 GROUP BY a, b")) {
        List<String> pushed = sameAsCalcite(s, sql, "pairs");
        if (sql.contains("SUM(x)")) {
          assertThat(pushed).hasSize(11).contains("[1:Long, 2:Integer, 2:Long, 3:Long]");
        }
      }
    }
  }

  @Test
  void keysOfAStringAndAnIntegerAreGroupedAsCalciteGroupsThem() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE mixed (s VARCHAR, a BIGINT, b INTEGER, x BIGINT)");
      // three files; a few strings repeated (dictionary-encoded, one object per entry) and many
      // met once or twice (past the dictionary's size: a new object per row), equal strings in
      // different files, the empty string, NULLs in either column, integers past 32 bits
      for (int file = 0; file < 3; file++) {
        try (PreparedStatement insert =
            c.prepareStatement("INSERT INTO mixed VALUES (?, ?, ?, ?)")) {
          for (long id = file * 20_000L; id < (file + 1) * 20_000L; id++) {
            String text =
                id % 50 == 0
                    ? null
                    : id % 3 == 0
                        ? "k" + (id % 17)
                        : id % 41 == 0 ? "" : "u" + (id * 7919 % 25_000);
            Long a = id % 9 == 0 ? null : id % 23 == 0 ? 4_294_967_297L * (id % 3) : id % 5 - 2;
            Sql.setOrNull(insert, 1, text, java.sql.Types.VARCHAR);
            Sql.setOrNull(insert, 2, a, java.sql.Types.BIGINT);
            insert.setInt(3, (int) (id % 4));
            insert.setLong(4, id);
            insert.addBatch();
          }
          insert.executeBatch();
        }
      }
      for (String sql :
          List.of(
              "SELECT s, a, COUNT(*), SUM(x) FROM mixed GROUP BY s, a",
              "SELECT b, s, MIN(x), MAX(x) FROM mixed GROUP BY b, s",
              "SELECT s, COUNT(DISTINCT a) FROM mixed GROUP BY s",
              "SELECT s, a, COUNT(*) FROM mixed WHERE x > 30000 AND b <> 2 GROUP BY s, a")) {
        assertThat(sameAsCalcite(s, sql, "mixed").size()).as(sql).isGreaterThan(1_000);
      }
    }
  }

  @Test
  void oneIntegerKeyWithManyRowsSumsAndCountsAsCalciteDoesBatchAfterBatch() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE many (g INTEGER, x DOUBLE, y DOUBLE)");
      // 30,000 rows (several column batches) in 40 groups: keys found by value (0 .. 39, one of
      // them past 65,535 rows apart), by hash (negative, and past the by-value range), and NULL;
      // x without NULLs, whose rounding depends on the order of the additions; y with NULLs
      try (java.sql.PreparedStatement insert =
          c.prepareStatement("INSERT INTO many VALUES (?, ?, ?)")) {
        for (int i = 0; i < 30_000; i++) {
          int key = i % 40;
          if (key == 37) {
            insert.setNull(1, java.sql.Types.INTEGER);
          } else {
            insert.setInt(1, key == 38 ? -5 : key == 39 ? 70_000 + i % 3 : key);
          }
          insert.setDouble(2, i % 7 == 0 ? 1e16 : i * 0.1 + 1 / 3.0);
          if (i % 11 == 0) {
            insert.setNull(3, java.sql.Types.DOUBLE);
          } else {
            insert.setDouble(3, -i * 0.3);
          }
          insert.addBatch();
        }
        insert.executeBatch();
      }
      for (String sql :
          List.of(
              "SELECT g, COUNT(*), SUM(x), COUNT(x) FROM many GROUP BY g",
              "SELECT g, COUNT(y), SUM(y), SUM(x) FROM many GROUP BY g",
              "SELECT g, COUNT(*), SUM(x) FROM many WHERE g <> 3 GROUP BY g")) {
        List<String> pushed = sameAsCalcite(s, sql, "many");
        // 37 keys by value, -5, three past the by-value range, NULL (not with g <> 3)
        assertThat(pushed).as(sql).hasSize(sql.contains("g <> 3") ? 40 : 42);
      }
    }
  }

  @Test
  void anExpressionThatOverflowsInsideAnAggregateIsTheSameErrorOnBothPaths() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE big (n INTEGER, m BIGINT, p DECIMAL(18, 2))");
      s.executeUpdate(
          "INSERT INTO big VALUES (2147483647, 9223372036854775807, 9999999999999999.99),"
              + " (1, 1, 1), (5, -9, -0.01)");
      // Each query with a fragment of the message both paths give.
      List<List<String>> failing =
          List.of(
              List.of("SELECT SUM(n + 1) FROM big", "overflow"),
              List.of("SELECT SUM(m * 2) FROM big", "overflow"),
              List.of("SELECT SUM(CASE WHEN n > 1 THEN n * 2 ELSE 0 END) FROM big", "overflow"),
              List.of(
                  "SELECT SUM(p * p * p) FROM big", "cannot be represented as a DECIMAL(38, 6)"));
      for (List<String> failure : failing) {
        String sql = failure.get(0);
        assertThat(plan(s, sql)).as(sql).contains("aggregate=");
        String oracle = sql.replace(" FROM big", " FROM (SELECT * FROM big WHERE RAND() >= 0) big");
        for (String query : List.of(sql, oracle)) {
          assertThatThrownBy(() -> rows(s, query))
              .as(query)
              .isInstanceOf(SQLException.class)
              .hasFieldOrPropertyWithValue("SQLState", "22003")
              .hasMessageContaining(failure.get(1));
        }
      }
      // A branch not taken is not computed, and a DECIMAL product past a long is exact.
      String fits =
          "SELECT SUM(CASE WHEN n < 10 THEN n * 2 ELSE 0 END), SUM(p * p), SUM(p * 100) FROM big";
      List<String> batch = rows(s, fits);
      assertThat(batch)
          .isEqualTo(
              rows(
                  s, fits.replace(" FROM big", " FROM (SELECT * FROM big WHERE RAND() >= 0) big")));
      BigDecimal big = new BigDecimal("9999999999999999.99");
      BigDecimal small = new BigDecimal("-0.01");
      assertThat(batch)
          .containsExactly(
              "[12:Long, "
                  + big.pow(2).add(BigDecimal.ONE.setScale(4)).add(small.pow(2))
                  + ":BigDecimal, "
                  + big.add(BigDecimal.ONE).add(small).multiply(BigDecimal.valueOf(100))
                  + ":BigDecimal]");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void filesWithoutDeletesAreAnsweredFromTheirManifestEntries(int formatVersion) throws Exception {
    writeTable(formatVersion);
    Files.delete(Path.of(java.net.URI.create(plain.location())));
    Files.delete(Path.of(java.net.URI.create(finite.location())));
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      String sql =
          "SELECT part, COUNT(*), COUNT(k), MIN(id), MAX(id), MIN(dt), MAX(ts), MIN(d), MAX(d)"
              + " FROM t WHERE part IN (1, 4) GROUP BY part";
      assertThat(plan(s, sql)).contains("fromMetadata=[2 of 2]");
      List<String> expected = new ArrayList<>();
      for (int part : new int[] {1, 4}) {
        long from = part == 1 ? 0 : 300;
        long to = part == 1 ? 100 : 330;
        expected.add(expectedRow(part, from, to));
      }
      expected.sort(Comparator.naturalOrder());
      assertThat(rows(s, sql)).isEqualTo(expected);
      assertThat(rows(s, "SELECT MIN(v), MAX(v), MIN(f), MAX(f) FROM t WHERE part = 4"))
          .containsExactly("[151.0:Double, 165.5:Double, -165.5:Float, -151.0:Float]");
      // Sums, strings (whose bounds may be truncated) and NaN-holding columns need the file.
      for (String needsFile :
          List.of(
              "SELECT SUM(id) FROM t WHERE part = 4",
              "SELECT MIN(s) FROM t WHERE part = 1",
              "SELECT MAX(v) FROM t WHERE part = 1",
              "SELECT COUNT(*) FROM t WHERE part = 1 AND id > 5")) {
        assertThatThrownBy(() -> rows(s, needsFile))
            .as(needsFile)
            .isInstanceOf(SQLException.class)
            .hasFieldOrPropertyWithValue("SQLState", "58030");
      }
    }
  }

  private static String expectedRow(int part, long from, long to) {
    long count = to - from;
    long withK = 0;
    LocalDate minDate = null;
    LocalDateTime maxTs = null;
    BigDecimal minD = null;
    BigDecimal maxD = null;
    for (long id = from; id < to; id++) {
      Record r = row(id, part);
      withK += r.getField("k") == null ? 0 : 1;
      LocalDate dt = (LocalDate) r.getField("dt");
      if (dt != null && (minDate == null || dt.isBefore(minDate))) {
        minDate = dt;
      }
      LocalDateTime ts = (LocalDateTime) r.getField("ts");
      if (ts != null && (maxTs == null || ts.isAfter(maxTs))) {
        maxTs = ts;
      }
      BigDecimal d = (BigDecimal) r.getField("d");
      if (d != null) {
        minD = minD == null || d.compareTo(minD) < 0 ? d : minD;
        maxD = maxD == null || d.compareTo(maxD) > 0 ? d : maxD;
      }
    }
    return Arrays.toString(
        new Object[] {
          part + ":Integer",
          count + ":Long",
          withK + ":Long",
          from + ":Long",
          (to - 1) + ":Long",
          java.sql.Date.valueOf(minDate) + ":Date",
          java.sql.Timestamp.valueOf(maxTs) + ":Timestamp",
          minD + ":BigDecimal",
          maxD + ":BigDecimal"
        });
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void aTransactionAggregatesItsOwnPendingWrites(int formatVersion) throws Exception {
    writeTable(formatVersion);
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      List<String> before = rows(s, "SELECT part, COUNT(*), MAX(id) FROM t GROUP BY part");
      s.executeUpdate(
          "INSERT INTO t (id, part, k, v) VALUES (1000, 5, 1, 0.5), (1001, 5, NULL, -0.0),"
              + " (1002, 1, 2, 4.0)");
      s.executeUpdate("DELETE FROM t WHERE id IN (5, 6, 301)");
      List<String> during =
          sameAsCalcite(s, "SELECT part, COUNT(*), MAX(id), MIN(id), SUM(v) FROM t GROUP BY part");
      assertThat(during).hasSize(before.size() + 1);
      assertThat(during).anyMatch(r -> r.startsWith("[5:Integer, 2:Long, 1001:Long, 1000:Long"));
      assertThat(sameAsCalcite(s, "SELECT COUNT(*) FROM t"))
          .containsExactly("[" + (100 + 147 + 40 + 20 + 30 + 3 - 3) + ":Long]");
      try (Connection other = connect();
          Statement o = other.createStatement()) {
        assertThat(rows(o, "SELECT part, COUNT(*), MAX(id) FROM t GROUP BY part"))
            .isEqualTo(before);
      }
      c.rollback();
      assertThat(rows(s, "SELECT part, COUNT(*), MAX(id) FROM t GROUP BY part")).isEqualTo(before);
    }
  }

  @Test
  void aBigintSumThatDoesNotFitIsAnErrorOnBothPathsAndExactWhenItComesBack() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE big (n INTEGER, m BIGINT)");
      s.executeUpdate("INSERT INTO big VALUES (2147483647, 9223372036854775807), (1, 1), (5, -9)");
      s.executeUpdate("INSERT INTO big VALUES (3, 9223372036854775807)");
      String oracle = " FROM (SELECT * FROM big WHERE RAND() >= 0) big";
      for (String from : List.of(" FROM big", oracle)) {
        // A sum of INTEGER is BIGINT: past 2^31 it fits.
        assertThat(rows(s, "SELECT SUM(n)" + from + " WHERE n > 1"))
            .containsExactly("[2147483655:Long]");
        assertThatThrownBy(() -> rows(s, "SELECT SUM(m)" + from))
            .hasFieldOrPropertyWithValue("SQLState", "22003")
            .hasMessageContaining("does not fit type BIGINT");
        // The BIGINT sum passes the limit on the way and comes back under it: exact, not an error,
        // in whatever order the rows are added.
        assertThat(rows(s, "SELECT SUM(m)" + from + " WHERE n <> 3"))
            .containsExactly("[9223372036854775799:Long]");
      }
    }
  }

  @Test
  void aSumOfRealIsDoubleAndAddsInDoubleOnBothPaths() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE r (k INTEGER, x REAL)");
      try (java.sql.PreparedStatement insert = c.prepareStatement("INSERT INTO r VALUES (?, ?)")) {
        for (int i = 0; i < 9216; i++) {
          insert.setInt(1, i % 2);
          insert.setFloat(2, -655.25f);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      // In float, the sum passes 2^24 and loses its last digits (-6,038,081).
      String sql = "SELECT SUM(x), k FROM r GROUP BY k";
      String oracle = sql.replace(" FROM r", " FROM (SELECT * FROM r WHERE RAND() >= 0) r");
      assertThat(plan(s, sql)).contains("aggregate=");
      assertThat(plan(s, oracle)).doesNotContain("aggregate=");
      for (String query : List.of(sql, oracle)) {
        assertThat(rows(s, query))
            .as(query)
            .containsExactly("[-3019392.0:Double, 0:Integer]", "[-3019392.0:Double, 1:Integer]");
      }
      assertThat(rows(s, "SELECT SUM(x) FROM r")).containsExactly("[-6038784.0:Double]");
      assertThat(rows(s, "SELECT SUM(x) FROM (SELECT * FROM r WHERE RAND() >= 0) r"))
          .containsExactly("[-6038784.0:Double]");
      try (ResultSet rs = s.executeQuery("SELECT SUM(x), AVG(x) FROM r")) {
        assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("DOUBLE");
        assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("REAL");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getFloat(2)).isEqualTo(-655.25f);
      }
    }
  }
}
