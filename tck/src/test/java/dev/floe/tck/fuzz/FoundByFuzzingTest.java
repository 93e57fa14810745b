package dev.floe.tck.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The defects the differential fuzzer found, each kept as the shortest history and query that
 * showed it, named for the state that exposed it. Everything through JDBC, on a fresh lake.
 */
class FoundByFuzzingTest {
  @TempDir Path lake;
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake + "?create=true");
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private void run(String... statements) throws SQLException {
    try (Statement s = connection.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** Every row, each column by getString, joined by a space. */
  private List<String> rows(String sql) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          values.add(String.valueOf(rs.getString(i)));
        }
        rows.add(String.join(" ", values));
      }
      return rows;
    }
  }

  @Test
  void groupedCountOverAFileWhoseRowsTwoDeletesRemovedFindsNoGroups() throws SQLException {
    run(
        "CREATE TABLE t (k VARCHAR, v INT)",
        "INSERT INTO t VALUES ('a', 1), ('b', 2)",
        "DELETE FROM t WHERE k = 'a'",
        "DELETE FROM t WHERE k = 'b'");
    assertThat(rows("SELECT k, COUNT(*) FROM t GROUP BY k")).isEmpty();
    assertThat(rows("SELECT COUNT(*) FROM t")).containsExactly("0");
  }

  @Test
  void groupedAggregateOverAFileWhoseRowsTheFilterAllLeavesOutFindsNoGroups() throws SQLException {
    run(
        "CREATE TABLE t (c0 INT, c1 VARCHAR, c2 DATE) PARTITIONED BY (bucket(3, c1))",
        "INSERT INTO t VALUES (-3, 'ab', DATE '2024-01-12'), (4, 'ab', DATE '2023-11-28')");
    assertThat(
            rows(
                "SELECT c2, COUNT(c2), MIN(c0) FROM t WHERE c0 BETWEEN -2 AND 1 GROUP BY c2"
                    + " HAVING COUNT(*) > 1"))
        .isEmpty();
    assertThat(rows("SELECT c2, MIN(c0) FROM t WHERE c0 BETWEEN -3 AND 1 GROUP BY c2"))
        .containsExactly("2024-01-12 -3");
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void deleteOfAWholePartitionWhoseFileAlreadyHasDeletesDropsTheFileWritingNoDeletes(int version)
      throws SQLException {
    run(
        "CREATE TABLE sales (region VARCHAR, id INT) PARTITIONED BY (region)"
            + " WITH ('format-version' = '"
            + version
            + "')",
        "INSERT INTO sales VALUES ('latam', 1), ('latam', 2), ('latam', 3), ('eu', 4)",
        "MERGE INTO sales AS s USING (SELECT * FROM (VALUES (2, 20)) AS v(k, n)) AS v"
            + " ON s.id = v.k WHEN MATCHED THEN UPDATE SET id = v.n");
    assertThat(rows("SELECT COUNT(*) FROM \"sales$delete_files\"")).containsExactly("1");

    run("DELETE FROM sales WHERE region = 'latam' AND id < 10");
    assertThat(rows("SELECT region, id FROM sales ORDER BY id"))
        .containsExactly("eu 4", "latam 20");
    assertThat(rows("SELECT COUNT(*) FROM \"sales$delete_files\""))
        .as("the file and the deletes that applied to it alone are gone, no delete written")
        .containsExactly("0");
    assertThat(
            rows(
                "SELECT summary['added-delete-files'], summary['deleted-data-files']"
                    + " FROM \"sales$snapshots\" ORDER BY committed_at DESC, snapshot_id LIMIT 1"))
        .containsExactly("null 1");
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void deleteOfEveryRowLeftInAFileWithDeletesDropsTheFile(int version) throws SQLException {
    run(
        "CREATE TABLE t (k VARCHAR, v INT) WITH ('format-version' = '" + version + "')",
        "INSERT INTO t VALUES ('a', 1), ('b', 2), ('c', 3)",
        "DELETE FROM t WHERE k = 'a'",
        "DELETE FROM t WHERE v >= 2");
    assertThat(rows("SELECT COUNT(*) FROM t")).containsExactly("0");
    assertThat(rows("SELECT COUNT(*) FROM \"t$files\"")).containsExactly("0");
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void mergeIntoATableWithATimeColumnKeepsTheTimeOfTheRowsItUpdates(int version)
      throws SQLException {
    run(
        "CREATE TABLE t (k INT, tm TIME, v VARCHAR) WITH ('format-version' = '" + version + "')",
        "INSERT INTO t VALUES (1, TIME '12:34:56.123456', 'a'), (2, TIME '00:00:00.000001', 'b')",
        "MERGE INTO t USING (SELECT * FROM (VALUES (1, 'x'), (7, 'y')) AS s(k, w)) AS s"
            + " ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.w"
            + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.w)");
    assertThat(rows("SELECT k, tm, v FROM t ORDER BY k"))
        .containsExactly("1 12:34:56.123456 x", "2 00:00:00.000001 b", "7 null y");
  }

  @Test
  void extractOfAYearOutsideOneToNineThousandNineHundredNinetyNineKeepsEveryRowItMatches()
      throws SQLException {
    run(
        "CREATE TABLE t (d DATE, ts TIMESTAMP) PARTITIONED BY (year(ts))",
        "INSERT INTO t VALUES (DATE '2024-01-12', TIMESTAMP '1970-01-01 00:29:59.777082'),"
            + " (DATE '2023-01-12', TIMESTAMP '2023-11-29 08:15:00.951306')");
    assertThat(rows("SELECT COUNT(*) FROM t WHERE EXTRACT(YEAR FROM d) >= -1"))
        .containsExactly("2");
    assertThat(rows("SELECT COUNT(*) FROM t WHERE EXTRACT(YEAR FROM d) >= 0")).containsExactly("2");
    assertThat(rows("SELECT COUNT(*) FROM t WHERE NOT (EXTRACT(YEAR FROM d) <= 0)"))
        .containsExactly("2");
    assertThat(rows("SELECT COUNT(*) FROM t WHERE EXTRACT(YEAR FROM ts) > -5"))
        .containsExactly("2");
    assertThat(rows("SELECT COUNT(*) FROM t WHERE EXTRACT(YEAR FROM d) < 10000"))
        .containsExactly("2");
    assertThat(rows("SELECT COUNT(*) FROM t WHERE EXTRACT(YEAR FROM d) = 2024"))
        .containsExactly("1");
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void overwriteInATransactionOfAFileAnEarlierUpdateDeletedFromCommitsTheNewRows(int version)
      throws SQLException {
    run(
        "CREATE TABLE t (k INT, v VARCHAR) PARTITIONED BY (k)"
            + " WITH ('format-version' = '"
            + version
            + "')",
        "INSERT INTO t VALUES (1, 'a'), (1, 'b'), (2, 'c')");
    connection.setAutoCommit(false);
    run(
        "UPDATE t SET v = 'z' WHERE v = 'a'",
        "DELETE FROM t WHERE v = 'b'",
        "INSERT OVERWRITE t SELECT * FROM (VALUES (1, 'new')) AS s(k, v)");
    assertThat(rows("SELECT k, v FROM t ORDER BY k")).containsExactly("1 new", "2 c");
    connection.commit();
    connection.setAutoCommit(true);
    assertThat(rows("SELECT k, v FROM t ORDER BY k")).containsExactly("1 new", "2 c");
    assertThat(rows("SELECT COUNT(*) FROM \"t$delete_files\"")).containsExactly("0");
  }

  @Test
  void overwriteOfAStaticPartitionOfBinaryUuidTimeAndInstantColumnsReplacesItsRowsAlone()
      throws SQLException {
    String partition =
        "b = X'00ff', u = UUID '00000000-0000-0000-0000-000000000001',"
            + " tm = TIME '01:02:03.000004',"
            + " tz = TIMESTAMP WITH LOCAL TIME ZONE '2024-01-02 03:04:05.000006'";
    run(
        "CREATE TABLE t (b VARBINARY, u UUID, tm TIME, tz TIMESTAMP WITH LOCAL TIME ZONE, v INT)"
            + " PARTITIONED BY (b, u, tm, tz)",
        "INSERT INTO t VALUES (X'00ff', UUID '00000000-0000-0000-0000-000000000001',"
            + " TIME '01:02:03.000004', TIMESTAMP WITH LOCAL TIME ZONE '2024-01-02 03:04:05.000006', 1),"
            + " (X'01', UUID '00000000-0000-0000-0000-000000000002',"
            + " TIME '01:02:03', TIMESTAMP WITH LOCAL TIME ZONE '2024-01-02 03:04:05', 2)",
        "INSERT OVERWRITE t PARTITION (" + partition + ") (v) SELECT * FROM (VALUES (10)) AS s(v)");
    assertThat(rows("SELECT v FROM t ORDER BY v")).containsExactly("2", "10");
    assertThat(rows("SELECT COUNT(*) FROM t WHERE " + partition.replace(",", " AND")))
        .containsExactly("1");
  }

  @Test
  void windowAggregateOfDistinctValuesIsRefusedRatherThanCountingEveryValue() throws SQLException {
    run("CREATE TABLE t (k INT, v INT)", "INSERT INTO t VALUES (1, 5), (1, 5), (2, 7)");
    for (String aggregate : List.of("COUNT(DISTINCT v)", "SUM(DISTINCT v)")) {
      assertThatThrownBy(() -> rows("SELECT k, " + aggregate + " OVER (PARTITION BY k) FROM t"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("DISTINCT ...) OVER (...)");
    }
    assertThat(rows("SELECT k, MAX(DISTINCT v) OVER (PARTITION BY k) FROM t ORDER BY k"))
        .containsExactly("1 5", "1 5", "2 7");
    assertThat(rows("SELECT k, COUNT(v) OVER (PARTITION BY k) FROM t ORDER BY k"))
        .containsExactly("1 2", "1 2", "2 1");
  }

  @Test
  void filterOnAColumnByTheNameItHadAtAnEarlierSnapshotReadsThatSnapshot() throws SQLException {
    run(
        "CREATE TABLE t (c0 INT, c5 INT, c3 TIME)",
        "INSERT INTO t VALUES (1, 10, TIME '01:00:00'), (2, 20, TIME '02:00:00')");
    String before = rows("SELECT snapshot_id FROM \"t$snapshots\"").get(0);
    String old = "t FOR VERSION AS OF " + before;
    run("ALTER TABLE t RENAME COLUMN c5 TO c7");
    // still the current snapshot, read with the schema it was written with
    assertThat(rows("SELECT c0 FROM " + old + " WHERE c5 > 15")).containsExactly("2");
    run("ALTER TABLE t ADD COLUMN c5 INT", "INSERT INTO t VALUES (3, 30, TIME '03:00:00', 15)");
    assertThat(rows("SELECT c0 FROM " + old + " WHERE c5 > 15")).containsExactly("2");
    assertThat(rows("SELECT c0 FROM " + old + " WHERE c3 <= TIME '01:30:00' AND c5 > 5"))
        .containsExactly("1");
    assertThat(rows("SELECT COUNT(*), MAX(c5) FROM " + old + " WHERE c5 >= 10"))
        .containsExactly("2 20");
    assertThat(rows("SELECT c0 FROM t WHERE c5 > 5")).containsExactly("3");
  }

  @Test
  void joinAndMergeOnAUuidKeyOfManyRowsAnswer() throws SQLException {
    run("CREATE TABLE t (b BOOLEAN, u UUID) PARTITIONED BY (u)");
    StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
    for (int i = 0; i < 30; i++) {
      insert.append(i == 0 ? "" : ", ").append("(TRUE, UUID '");
      insert.append(new java.util.UUID(i * 7919L, i)).append("')");
    }
    run(insert.toString());
    assertThat(
            rows(
                "SELECT COUNT(*) FROM (SELECT a.u, COUNT(*) FROM t AS a JOIN t AS b"
                    + " ON a.u = b.u GROUP BY a.u) AS x"))
        .containsExactly("30");
    run(
        "MERGE INTO t AS tg USING (SELECT * FROM (VALUES (UUID '"
            + new java.util.UUID(7919L, 1)
            + "', FALSE)) AS s(k, v)) AS s ON tg.u = s.k WHEN MATCHED THEN UPDATE SET b = s.v");
    assertThat(rows("SELECT COUNT(*) FROM t WHERE NOT b")).containsExactly("1");
  }

  @Test
  void optimizeOfOnePartitionOfTimeInstantUuidAndBinaryColumnsRewritesThatPartitionAlone()
      throws SQLException {
    String one =
        "TIME '00:00:00.000001', TIMESTAMP WITH LOCAL TIME ZONE '2147-03-01 00:00:00',"
            + " UUID '00000000-0000-0000-0000-000000000001', X'00ff'";
    String other =
        "TIME '01:00:00', TIMESTAMP WITH LOCAL TIME ZONE '2024-01-01 00:00:00',"
            + " UUID '00000000-0000-0000-0000-000000000002', X'01'";
    run(
        "CREATE TABLE t (tm TIME, tz TIMESTAMP WITH LOCAL TIME ZONE, u UUID, b VARBINARY, v INT)"
            + " PARTITIONED BY (tm, tz, u, b)");
    for (int i = 0; i < 2; i++) {
      run("INSERT INTO t VALUES (" + one + ", " + i + "), (" + other + ", " + i + ")");
    }
    assertThat(
            rows(
                "ALTER TABLE t EXECUTE optimize WHERE tm = TIME '00:00:00.000001'"
                    + " AND tz = TIMESTAMP WITH LOCAL TIME ZONE '2147-03-01 00:00:00'"
                    + " AND u = UUID '00000000-0000-0000-0000-000000000001' AND b = X'00ff'"))
        .hasSize(1)
        .allSatisfy(row -> assertThat(row).startsWith("2 0 1 "));
    assertThat(rows("SELECT COUNT(*) FROM \"t$files\"")).containsExactly("3");
    assertThat(rows("SELECT COUNT(*), SUM(v) FROM t")).containsExactly("4 2");
  }

  @Test
  void optimizeOfABinaryPartitionOfTwoSmallFilesRewritesThemIntoOne() throws SQLException {
    run(
        "CREATE TABLE t (p VARBINARY, v INT) PARTITIONED BY (p)",
        "INSERT INTO t VALUES (X'00ff', 1)",
        "INSERT INTO t VALUES (X'00ff', 2)");
    assertThat(rows("ALTER TABLE t EXECUTE optimize"))
        .hasSize(1)
        .first()
        .asString()
        .startsWith("2 0 1 ");
    assertThat(rows("SELECT COUNT(*) FROM \"t$files\"")).containsExactly("1");
    assertThat(rows("SELECT SUM(v) FROM t WHERE p = X'00ff'")).containsExactly("3");
  }

  @Test
  void prefixFilterKeepingAFileOfANullPartitionReadsIt() throws SQLException {
    run(
        "CREATE TABLE t (c0 VARCHAR, c1 VARCHAR, c2 TIME, c3 INT)"
            + " PARTITIONED BY (c1, truncate(2, c0)) WITH ('format-version' = '3')",
        "INSERT INTO t VALUES (NULL, NULL, TIME '05:00:54.680977', 1), ('ab', 'Ab', NULL, 2),"
            + " ('ba', 'Ba', TIME '11:00:00', 3)");
    // Each OR keeps the file of the NULL partitions, whose prefix filter Iceberg's residual
    // evaluation could not take (an NPE reported as 58030).
    assertThat(rows("SELECT c3 FROM t WHERE c2 <= TIME '10:34:42' OR c1 NOT LIKE 'A%' ORDER BY 1"))
        .containsExactly("1", "3");
    assertThat(rows("SELECT c3 FROM t WHERE c2 <= TIME '10:34:42' OR c1 LIKE 'A%' ORDER BY 1"))
        .containsExactly("1", "2");
    assertThat(rows("SELECT c3 FROM t WHERE c3 = 1 OR c0 LIKE 'b%' ORDER BY 1"))
        .containsExactly("1", "3");
    assertThat(rows("SELECT c3 FROM t WHERE c3 = 1 OR NOT (c0 LIKE 'a%') ORDER BY 1"))
        .containsExactly("1", "3");
    assertThat(rows("SELECT COUNT(*) FROM t WHERE c3 = 1 OR c1 LIKE 'B%'")).containsExactly("2");
    assertThat(
            rows(
                "SELECT COUNT(c2) OVER (PARTITION BY c1 ORDER BY c2 DESC NULLS LAST) FROM t"
                    + " WHERE c2 <= TIME '10:34:42.105959' OR c1 NOT LIKE 'A%' ORDER BY 1"))
        .containsExactly("1", "1");
  }

  @Test
  void readAfterAPartitionColumnWasWidenedFromIntToBigintSeesTheWiderType() throws SQLException {
    run(
        "CREATE TABLE t (c0 TIMESTAMP(9), c1 DATE, c2 INT)"
            + " PARTITIONED BY (c2, bucket(4, c1)) WITH ('format-version' = '3')",
        "INSERT INTO t VALUES (TIMESTAMP '2024-01-04 06:00:00.733527988', DATE '2024-02-29', -5),"
            + " (TIMESTAMP '2023-12-27 13:30:00.000000489', DATE '2023-11-23', -707862)");
    // Read before the change: the connection keeps the planned tasks of this snapshot, whose
    // partition values were INT; widening the column makes a new schema, not a new snapshot.
    assertThat(rows("SELECT c2 FROM t ORDER BY c2")).containsExactly("-707862", "-5");
    run("ALTER TABLE t ALTER COLUMN c2 SET DATA TYPE BIGINT");
    assertThat(rows("SELECT c2 FROM t ORDER BY c2")).containsExactly("-707862", "-5");
    assertThat(rows("SELECT SUM(c2), COUNT(*) FROM t")).containsExactly("-707867 2");
    assertThat(rows("SELECT c1 FROM t WHERE c2 = -5")).containsExactly("2024-02-29");
    run("UPDATE t SET c1 = DATE '2024-03-01' WHERE c2 = -5");
    assertThat(rows("SELECT c2, c1 FROM t ORDER BY c2"))
        .containsExactly("-707862 2023-11-23", "-5 2024-03-01");
  }

  @Test
  void semiJoinOfATableWithAMicrosecondTimeColumnReadsItsRows() throws SQLException {
    run(
        "CREATE TABLE t (c0 TIME, c1 INT)",
        "INSERT INTO t VALUES (TIME '07:11:25.957057', 1), (TIME '00:00:00.000003', 2)");
    assertThat(
            rows(
                "SELECT a.c0 FROM t AS a WHERE EXISTS (SELECT 1 FROM t AS b"
                    + " WHERE b.c1 = a.c1 AND b.c0 IS NOT DISTINCT FROM TIME '00:00:00.000003')"))
        .containsExactly("00:00:00.000003");
    assertThat(
            rows(
                "SELECT a.c0 FROM t AS a WHERE a.c1 NOT IN"
                    + " (SELECT b.c1 FROM t AS b WHERE b.c0 > TIME '00:00:00.000003')"))
        .containsExactly("00:00:00.000003");
    assertThat(rows("SELECT a.c1 FROM t AS a WHERE a.c0 IN (SELECT b.c0 FROM t AS b) ORDER BY 1"))
        .containsExactly("1", "2");
  }

  @Test
  void uuidComparisonsMinimaAndMaximaOrderAsOrderByAndIcebergsStatisticsDo() throws SQLException {
    run(
        "CREATE TABLE t (u UUID, v UUID, i INT)",
        "INSERT INTO t VALUES (UUID '00000000-0000-0000-0000-000000000001',"
            + " UUID 'f0000000-0000-0000-0000-000000000001', 1),"
            + " (UUID 'f0000000-0000-0000-0000-000000000001',"
            + " UUID '00000000-0000-0000-0000-000000000001', 2)");
    assertThat(rows("SELECT i FROM t ORDER BY u")).containsExactly("2", "1");
    assertThat(rows("SELECT i FROM t WHERE u < v")).containsExactly("2");
    assertThat(rows("SELECT i FROM t WHERE u >= UUID '00000000-0000-0000-0000-000000000000'"))
        .containsExactly("1");
    assertThat(
            rows(
                "SELECT i FROM t WHERE u BETWEEN UUID 'f0000000-0000-0000-0000-000000000000'"
                    + " AND UUID '00000000-0000-0000-0000-000000000005' ORDER BY i"))
        .containsExactly("1", "2");
    assertThat(rows("SELECT MIN(u), MAX(u) FROM t"))
        .containsExactly(
            "f0000000-0000-0000-0000-000000000001 00000000-0000-0000-0000-000000000001");
    assertThat(
            rows(
                "SELECT u, i, SUM(i), COUNT(DISTINCT i), COUNT(DISTINCT v) FROM t"
                    + " GROUP BY u, i ORDER BY i"))
        .containsExactly(
            "00000000-0000-0000-0000-000000000001 1 1 1 1",
            "f0000000-0000-0000-0000-000000000001 2 2 1 1");
  }

  @Test
  void fullJoinOnAConditionNoRowMeetsKeepsEveryRowOfARightSideOfOneRepeatedColumn()
      throws SQLException {
    run(
        "CREATE TABLE t (c0 TIME, c1 TIME, c2 BOOLEAN)",
        "INSERT INTO t VALUES (TIME '13:00:00', TIME '00:00:00', TRUE),"
            + " (TIME '19:00:00', TIME '00:00:00', TRUE), (NULL, TIME '01:23:37.148307', TRUE)");
    assertThat(
            rows(
                "SELECT a.c0, COUNT(*) FROM t AS a FULL JOIN t AS b"
                    + " ON a.c2 = b.c2 AND b.c2 IN (TRUE) AND b.c2 <> TRUE GROUP BY a.c0"
                    + " ORDER BY a.c0 NULLS FIRST"))
        .containsExactly("null 4", "13:00:00 1", "19:00:00 1");
    assertThat(rows("SELECT COUNT(*) FROM t AS a FULL JOIN (SELECT c1 FROM t) AS b ON FALSE"))
        .containsExactly("6");
    assertThat(rows("SELECT COUNT(*) FROM t AS a RIGHT JOIN (SELECT c2 FROM t) AS b ON FALSE"))
        .containsExactly("3");
  }

  @Test
  void copyOnWriteUpdateOfAFileOfAFixedLengthBinaryPartitionRewritesIt() throws SQLException {
    run(
        "CREATE TABLE t (c0 TIME, c1 BINARY(1), c2 VARBINARY) PARTITIONED BY (c1)"
            + " WITH ('write.update.mode' = 'copy-on-write')",
        "INSERT INTO t VALUES (NULL, X'c8', X'aa000000'), (TIME '14:00:00', X'c8', X'000000')",
        "UPDATE t SET c0 = TIME '00:00:00.000004' WHERE c2 < X'aa000000'");
    assertThat(rows("SELECT c0, c2 FROM t ORDER BY c2"))
        .containsExactly("00:00:00.000004 000000", "null aa000000");
    run("INSERT INTO t VALUES (NULL, X'c8', X'01')");
    assertThat(rows("ALTER TABLE t EXECUTE optimize")).hasSize(1);
    assertThat(rows("SELECT COUNT(*) FROM t WHERE c1 = X'c8'")).containsExactly("3");
  }

  /**
   * Seed 8484: a CASE inside SUM becomes a filtered COUNT whose filter, a SEARCH that counts NULL
   * as TRUE, was rewritten for the timestamp's unit into `IS NULL OR >`, typed nullable; Calcite
   * refused the aggregate ("filter must be BOOLEAN NOT NULL", an internal error).
   */
  @Test
  void sumOfACaseOverAFineTimestampThatCountsNullsAnswers() throws SQLException {
    run(
        "CREATE TABLE t (c0 TIMESTAMP(9), c1 TIMESTAMP WITH LOCAL TIME ZONE, c2 TIMESTAMP)"
            + " PARTITIONED BY (year(c0)) WITH ('format-version' = '3')");
    String sum =
        "SELECT COALESCE(SUM(CASE WHEN %1$s IS NULL OR %1$s > TIMESTAMP '2018-03-01 00:15:00'"
            + " THEN 1 ELSE 0 END), 0) FROM t";
    for (String column : List.of("c0", "c2")) {
      assertThat(rows(String.format(sum, column))).containsExactly("0");
    }
    run(
        "INSERT INTO t VALUES (TIMESTAMP '2019-01-01 00:00:00.000000001', NULL,"
            + " TIMESTAMP '2019-01-01 00:00:00'), (NULL, NULL, NULL),"
            + " (TIMESTAMP '2017-01-01 00:00:00', NULL, TIMESTAMP '2017-01-01 00:00:00')");
    for (String column : List.of("c0", "c2")) {
      assertThat(rows(String.format(sum, column))).containsExactly("2");
    }
  }

  /**
   * Seed 6011 (seven histories), and a review of the same change: a string compared with a literal
   * by {@code <}, {@code <=}, {@code >} or {@code >=} in a CASE the scan computed was tested as
   * {@code <>} (the comparison of equal strings, written as a LIKE, was taken for every comparison
   * of a string with a literal), so {@code SUM(CASE WHEN c4 < 'b' THEN 1 ELSE 0 END)} counted 'ccc'
   * and not 'a' or 'B'.
   */
  @Test
  void sumOfACaseComparingAStringByOrderCountsTheRowsTheOrderSays() throws SQLException {
    run(
        "CREATE TABLE t (c3 VARCHAR, c4 VARCHAR NOT NULL)",
        "INSERT INTO t VALUES ('acc', 'ccc'), (NULL, 'a'), ('adab', 'b'), ('zz', 'B')");
    String sum = "SELECT COALESCE(SUM(CASE WHEN %s THEN 1 ELSE 0 END), 0) FROM t";
    String count = "SELECT COUNT(*) FROM t WHERE %s";
    for (String condition :
        List.of(
            "c4 < 'b'",
            "c4 <= 'B'",
            "c4 > 'b'",
            "c4 >= 'b'",
            "'b' > c4",
            "c4 BETWEEN 'B' AND 'b'",
            "c3 > 'adab' AND c4 <> 'a'",
            "c4 = 'b'",
            "c4 <> 'b'")) {
      assertThat(rows(String.format(sum, condition)))
          .as(condition)
          .isEqualTo(rows(String.format(count, condition)));
    }
    assertThat(rows(String.format(sum, "c4 < 'b'"))).containsExactly("2"); // 'a', 'B'
    assertThat(rows(String.format(sum, "c4 >= 'b'"))).containsExactly("2");
  }
}
