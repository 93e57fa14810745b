package dev.floe.tck;

import static org.apache.iceberg.expressions.Expressions.and;
import static org.apache.iceberg.expressions.Expressions.equal;
import static org.apache.iceberg.expressions.Expressions.greaterThan;
import static org.apache.iceberg.expressions.Expressions.greaterThanOrEqual;
import static org.apache.iceberg.expressions.Expressions.in;
import static org.apache.iceberg.expressions.Expressions.isNull;
import static org.apache.iceberg.expressions.Expressions.lessThan;
import static org.apache.iceberg.expressions.Expressions.lessThanOrEqual;
import static org.apache.iceberg.expressions.Expressions.notEqual;
import static org.apache.iceberg.expressions.Expressions.notIn;
import static org.apache.iceberg.expressions.Expressions.notNull;
import static org.apache.iceberg.expressions.Expressions.or;
import static org.apache.iceberg.expressions.Expressions.startsWith;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.expressions.Expression;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filters pushed into Iceberg's scan planning return exactly the rows Iceberg's generic reader
 * returns for the same filter: on the partition column of each transform, with {@code =}, {@code
 * <>}, ranges, {@code IN}, {@code NOT IN}, {@code BETWEEN}, {@code LIKE 'prefix%'} and {@code IS
 * NULL}, and on a time column to the microsecond. The Iceberg filters are written with SQL's NULL
 * semantics (a comparison with NULL is not true), and {@code EXPLAIN} shows the filter on the scan.
 */
class PushdownConformanceTest {
  private static ReferenceLake lake;
  private static Connection connection;

  @BeforeAll
  static void open() throws SQLException {
    lake = ReferenceLake.shared();
    connection = DriverManager.getConnection(lake.url());
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  /** A comparison with SQL's meaning: never true for NULL. */
  private static Expression sql(String column, Expression predicate) {
    return and(notNull(column), predicate);
  }

  static Stream<Arguments> filters() {
    return Stream.of(
        // identity(s)
        Arguments.of("part_identity", "s = 'banana2'", sql("s", equal("s", "banana2"))),
        Arguments.of("part_identity", "s <> 'apple'", sql("s", notEqual("s", "apple"))),
        Arguments.of(
            "part_identity",
            "s IN ('apple', 'cherry4', 'nope')",
            sql("s", in("s", "apple", "cherry4", "nope"))),
        Arguments.of(
            "part_identity", "s NOT IN ('apple', 'ab')", sql("s", notIn("s", "apple", "ab"))),
        Arguments.of("part_identity", "s LIKE 'ap%'", sql("s", startsWith("s", "ap"))),
        Arguments.of("part_identity", "s IS NULL", isNull("s")),
        Arguments.of("part_identity", "s IS NOT NULL", notNull("s")),
        Arguments.of("part_identity", "s = ''", sql("s", equal("s", ""))),
        // bucket(4, id)
        Arguments.of("part_bucket", "id = 7", equal("id", 7)),
        Arguments.of("part_bucket", "id IN (1, 2, 3, 40)", in("id", 1, 2, 3, 40)),
        Arguments.of(
            "part_bucket",
            "id BETWEEN 10 AND 20",
            and(greaterThanOrEqual("id", 10), lessThanOrEqual("id", 20))),
        Arguments.of("part_bucket", "id NOT IN (0, 47)", notIn("id", 0, 47)),
        // truncate(2, s)
        Arguments.of("part_truncate", "s LIKE 'bl%'", sql("s", startsWith("s", "bl"))),
        Arguments.of("part_truncate", "s LIKE 'a%'", sql("s", startsWith("s", "a"))),
        Arguments.of(
            "part_truncate",
            "s >= 'b' AND s < 'c'",
            sql("s", and(greaterThanOrEqual("s", "b"), lessThan("s", "c")))),
        Arguments.of("part_truncate", "s IS NULL", isNull("s")),
        // year(d)
        Arguments.of(
            "part_year", "d >= DATE '2019-06-01'", sql("d", greaterThanOrEqual("d", "2019-06-01"))),
        Arguments.of(
            "part_year",
            "d BETWEEN DATE '2017-01-01' AND DATE '2018-12-31'",
            sql(
                "d",
                and(greaterThanOrEqual("d", "2017-01-01"), lessThanOrEqual("d", "2018-12-31")))),
        Arguments.of(
            "part_year",
            "d < DATE '2016-01-01' OR d IS NULL",
            or(sql("d", lessThan("d", "2016-01-01")), isNull("d"))),
        // month(ts)
        Arguments.of(
            "part_month",
            "ts >= TIMESTAMP '2020-03-01 00:00:00'",
            sql("ts", greaterThanOrEqual("ts", "2020-03-01T00:00:00"))),
        Arguments.of(
            "part_month",
            "ts BETWEEN TIMESTAMP '2019-01-01 00:00:00' AND TIMESTAMP '2019-12-31 23:59:59'",
            sql(
                "ts",
                and(
                    greaterThanOrEqual("ts", "2019-01-01T00:00:00"),
                    lessThanOrEqual("ts", "2019-12-31T23:59:59")))),
        Arguments.of("part_month", "ts IS NULL", isNull("ts")),
        // day(tstz), compared with timestamps read in the session time zone (UTC)
        Arguments.of(
            "part_day",
            "tstz >= TIMESTAMP '2021-06-01 00:00:00'",
            sql("tstz", greaterThanOrEqual("tstz", "2021-06-01T00:00:00+00:00"))),
        Arguments.of(
            "part_day",
            "tstz < TIMESTAMP '2019-07-01 12:00:00'",
            sql("tstz", lessThan("tstz", "2019-07-01T12:00:00+00:00"))),
        Arguments.of(
            "part_day",
            "tstz >= TIMESTAMP WITH LOCAL TIME ZONE '2021-06-01 00:00:00'",
            sql("tstz", greaterThanOrEqual("tstz", "2021-06-01T00:00:00+00:00"))),
        // hour(ts)
        Arguments.of(
            "part_hour",
            "ts = TIMESTAMP '2019-01-01 00:00:00'",
            sql("ts", equal("ts", "2019-01-01T00:00:00"))),
        Arguments.of(
            "part_hour",
            "ts > TIMESTAMP '2022-01-01 00:00:00'",
            sql("ts", greaterThan("ts", "2022-01-01T00:00:00"))),
        // time, to the microsecond
        Arguments.of(
            "all_types_v2",
            "tm = TIME '12:34:56.123456'",
            sql("tm", equal("tm", "12:34:56.123456"))),
        Arguments.of(
            "all_types_v3", "tm > TIME '23:59:59'", sql("tm", greaterThan("tm", "23:59:59"))),
        Arguments.of(
            "all_types_v2",
            "tm < TIME '00:00:00.999999'",
            sql("tm", lessThan("tm", "00:00:00.999999"))),
        Arguments.of(
            "all_types_v3",
            "tm BETWEEN TIME '00:00:00.000001' AND TIME '12:34:56.123456'",
            sql(
                "tm",
                and(
                    greaterThanOrEqual("tm", "00:00:00.000001"),
                    lessThanOrEqual("tm", "12:34:56.123456")))),
        // a non-partition column of a partitioned table
        Arguments.of(
            "part_hour",
            "n BETWEEN 0 AND 1000",
            sql("n", and(greaterThanOrEqual("n", 0L), lessThanOrEqual("n", 1000L)))),
        // both specs of an evolved table
        Arguments.of("evolved_spec", "s LIKE 'b%'", sql("s", startsWith("s", "b"))),
        Arguments.of(
            "evolved_spec",
            "ts >= TIMESTAMP '2021-01-01 00:00:00'",
            sql("ts", greaterThanOrEqual("ts", "2021-01-01T00:00:00"))),
        // filters over deletes: deleted rows stay deleted when the filter matches them
        Arguments.of("stacked_deletes_v2", "number IN (3, 5, 6, 11)", in("number", 3, 5, 6, 11)),
        Arguments.of("stacked_deletes_v3", "number IN (3, 5, 6, 11)", in("number", 3, 5, 6, 11)),
        Arguments.of(
            "stacked_deletes_v3",
            "letter LIKE 'k%' OR dt >= DATE '2023-03-12'",
            or(
                sql("letter", startsWith("letter", "k")),
                sql("dt", greaterThanOrEqual("dt", "2023-03-12")))),
        Arguments.of(
            "eq_delete_partition_scoped_v2",
            "region = 'b' AND id = 1",
            and(equal("region", "b"), equal("id", 1))));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("filters")
  void pushedFiltersReturnWhatIcebergsReaderReturnsForTheSameFilter(
      String name, String where, Expression filter) throws SQLException {
    ReferenceTable table = lake.table(name);
    List<List<String>> actual =
        Sql.rows(connection, "SELECT * FROM " + table.sql() + " WHERE " + where, table.types());
    assertThat(Canonical.sorted(actual)).isEqualTo(Canonical.sorted(table.expected(filter)));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("filters")
  void everyFilterOnAPrimitiveColumnIsPushedIntoTheScan(
      String name, String where, Expression filter) throws SQLException {
    String plan =
        Sql.explain(connection, "SELECT * FROM " + lake.table(name).sql() + " WHERE " + where);
    assertThat(plan).contains("LakeTableScan").contains("filter=");
  }

  @Test
  void explainShowsThePushedFilterAndTheSnapshotRead() throws SQLException {
    ReferenceTable table = lake.table("part_identity");
    long snapshot = table.oracle().get().currentSnapshot().snapshotId();
    String plan = Sql.explain(connection, "SELECT id FROM part_identity WHERE s = 'banana2'");
    assertThat(plan).contains("snapshot=[" + snapshot + "]").contains("filter=[s = 'banana2']");
  }

  @Test
  void aFilteredQueryReadsOnlyTheColumnsItReturns() throws SQLException {
    String plan = Sql.explain(connection, "SELECT id FROM part_identity WHERE s = 'banana2'");
    assertThat(plan).containsPattern("LakeTableScan.*columns=\\[\\[id(, s)?]]");
  }

  @Test
  void anUnfilteredQueryReadsOnlyTheColumnsItReturns() throws SQLException {
    String plan = Sql.explain(connection, "SELECT id, n FROM part_identity");
    assertThat(plan).containsPattern("LakeTableScan.*columns=\\[\\[id, n]]");
  }

  @Test
  void aFilterThatMatchesNoPartitionReturnsNoRows() throws SQLException {
    assertThat(Sql.column(connection, "SELECT id FROM part_year WHERE d < DATE '1900-01-01'"))
        .isEmpty();
  }

  @Test
  void negativeZeroEqualsZeroInAPushedFilterAsInSql() throws SQLException {
    assertThat(Sql.column(connection, "SELECT id FROM all_types_v2 WHERE f = 0"))
        .containsExactly("4");
    assertThat(Sql.column(connection, "SELECT id FROM all_types_v2 WHERE d = 0.0"))
        .containsExactly("4");
  }

  @Test
  void aRowFilteredOnANonPartitionColumnOfANestedTableMatchesIcebergsReader() throws SQLException {
    ReferenceTable table = lake.table("nested");
    List<List<String>> actual =
        Sql.rows(connection, "SELECT * FROM nested WHERE price > 0", table.types());
    assertThat(actual)
        .isEqualTo(
            table.expected(sql("price", greaterThan("price", new java.math.BigDecimal("0.00")))));
  }
}
