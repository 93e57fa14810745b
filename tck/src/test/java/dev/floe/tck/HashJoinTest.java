package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hash joins as Floe runs them: the answers of inner, left, semi- and anti-joins with NULL keys,
 * keys of different types (INTEGER against BIGINT, decimals of different scales), deleted rows and
 * an empty build side, each checked against the answer computed here from the rows inserted; the
 * run-time filter a join's build side gives the scan of its probe side, as EXPLAIN ANALYZE reports
 * it; the statement's memory budget (53200, the connection still usable); and a query timeout or
 * cancel stopping a join that runs long.
 */
class HashJoinTest {
  private static final int FILES = 5;
  private static final int ROWS_PER_FILE = 200;

  @TempDir static Path lake;
  private static Connection connection;
  private static final List<ProbeRow> probe = new ArrayList<>();
  private static final List<BuildRow> build = new ArrayList<>();

  private record ProbeRow(long id, Integer k, BigDecimal d, String s) {}

  private record BuildRow(Long k, BigDecimal d, String tag) {}

  @BeforeAll
  static void fillTables() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(connection, "CREATE TABLE probe (id BIGINT, k INT, d DECIMAL(10, 2), s VARCHAR)");
    Sql.update(connection, "CREATE TABLE build (k BIGINT, d DECIMAL(12, 4), tag VARCHAR)");
    Random random = new Random(20261203);
    // one INSERT statement per file, ids of each file in a range of their own
    for (int f = 0; f < FILES; f++) {
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO probe VALUES (?, ?, ?, ?)")) {
        for (int i = 0; i < ROWS_PER_FILE; i++) {
          ProbeRow row =
              new ProbeRow(
                  f * 1000L + i,
                  random.nextInt(10) == 0 ? null : random.nextInt(30),
                  random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(50), 1),
                  random.nextInt(10) == 0 ? null : "s" + random.nextInt(20));
          probe.add(row);
          insert.setLong(1, row.id());
          Sql.setOrNull(insert, 2, row.k(), Types.INTEGER);
          Sql.setOrNull(insert, 3, row.d() == null ? null : row.d().setScale(2), Types.DECIMAL);
          Sql.setOrNull(insert, 4, row.s(), Types.VARCHAR);
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO build VALUES (?, ?, ?)")) {
      for (int i = 0; i < 40; i++) {
        BuildRow row =
            new BuildRow(
                i % 13 == 0 ? null : (long) random.nextInt(60),
                i % 11 == 0 ? null : BigDecimal.valueOf(random.nextInt(50), 1),
                "t" + i);
        build.add(row);
        Sql.setOrNull(insert, 1, row.k(), Types.BIGINT);
        Sql.setOrNull(insert, 2, row.d() == null ? null : row.d().setScale(4), Types.DECIMAL);
        insert.setString(3, row.tag());
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  /** A table whose self-join on k yields about 2·10⁸ rows: far more than a test waits for. */
  private static void fillWide() throws SQLException {
    Sql.keyedTable(connection, "wide", 20_000, 2);
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  private static boolean sameNumber(Number a, Number b) {
    return a != null
        && b != null
        && new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString())) == 0;
  }

  @Test
  void innerJoinOfIntegerAndBigintKeysMatchesEqualNumbersAndNoNull() throws SQLException {
    List<String> expected = new ArrayList<>();
    for (ProbeRow p : probe) {
      for (BuildRow b : build) {
        if (sameNumber(p.k(), b.k())) {
          expected.add(p.id() + " " + b.tag());
        }
      }
    }
    assertThat(expected).isNotEmpty();
    assertThat(
            Sql.sorted(
                Sql.lines(connection, "SELECT p.id, b.tag FROM probe p JOIN build b ON p.k = b.k")))
        .isEqualTo(Sql.sorted(expected));
  }

  @Test
  void decimalKeysOfDifferentScalesMatchByValue() throws SQLException {
    List<String> expected = new ArrayList<>();
    for (ProbeRow p : probe) {
      for (BuildRow b : build) {
        if (sameNumber(p.d(), b.d())) {
          expected.add(p.id() + " " + b.tag());
        }
      }
    }
    assertThat(expected).isNotEmpty();
    assertThat(
            Sql.sorted(
                Sql.lines(connection, "SELECT p.id, b.tag FROM probe p JOIN build b ON p.d = b.d")))
        .isEqualTo(Sql.sorted(expected));
  }

  @Test
  void leftJoinKeepsEveryProbeRowAndNullKeysMatchNothing() throws SQLException {
    List<String> expected = new ArrayList<>();
    for (ProbeRow p : probe) {
      boolean matched = false;
      for (BuildRow b : build) {
        if (sameNumber(p.k(), b.k())) {
          expected.add(p.id() + " " + b.tag());
          matched = true;
        }
      }
      if (!matched) {
        expected.add(p.id() + " null");
      }
    }
    assertThat(
            Sql.sorted(
                Sql.lines(
                    connection, "SELECT p.id, b.tag FROM probe p LEFT JOIN build b ON p.k = b.k")))
        .isEqualTo(Sql.sorted(expected));
  }

  @Test
  void existsAndNotExistsSplitTheProbeRowsAndANullKeyHasNoMatch() throws SQLException {
    List<String> matched = new ArrayList<>();
    List<String> unmatched = new ArrayList<>();
    for (ProbeRow p : probe) {
      boolean found = build.stream().anyMatch(b -> sameNumber(p.k(), b.k()));
      (found ? matched : unmatched).add(String.valueOf(p.id()));
    }
    assertThat(unmatched).anyMatch(id -> probe.stream().anyMatch(p -> p.k() == null));
    assertThat(
            Sql.sorted(
                Sql.column(
                    connection,
                    "SELECT id FROM probe p WHERE EXISTS (SELECT 1 FROM build b WHERE b.k = p.k)")))
        .isEqualTo(Sql.sorted(matched));
    assertThat(
            Sql.sorted(
                Sql.column(
                    connection,
                    "SELECT id FROM probe p WHERE NOT EXISTS"
                        + " (SELECT 1 FROM build b WHERE b.k = p.k)")))
        .isEqualTo(Sql.sorted(unmatched));
  }

  @Test
  void notInFollowsThreeValuedLogicWithAndWithoutNullsInTheSubquery() throws SQLException {
    boolean buildHasNull = build.stream().anyMatch(b -> b.k() == null);
    assertThat(buildHasNull).isTrue();
    List<String> withoutNulls = new ArrayList<>();
    for (ProbeRow p : probe) {
      if (p.k() != null && build.stream().noneMatch(b -> sameNumber(p.k(), b.k()))) {
        withoutNulls.add(String.valueOf(p.id()));
      }
    }
    assertThat(withoutNulls).isNotEmpty();
    // a NULL among the subquery's values makes every NOT IN unknown: no row
    assertThat(Sql.column(connection, "SELECT id FROM probe WHERE k NOT IN (SELECT k FROM build)"))
        .isEmpty();
    assertThat(
            Sql.sorted(
                Sql.column(
                    connection,
                    "SELECT id FROM probe WHERE k NOT IN"
                        + " (SELECT k FROM build WHERE k IS NOT NULL)")))
        .isEqualTo(Sql.sorted(withoutNulls));
  }

  @Test
  void anEmptyBuildSideJoinsNothingAndAnAntiJoinKeepsEveryRow() throws SQLException {
    assertThat(
            Sql.column(
                connection,
                "SELECT p.id FROM probe p JOIN (SELECT k FROM build WHERE tag = 'none') b"
                    + " ON p.k = b.k"))
        .isEmpty();
    assertThat(
            Sql.column(
                connection,
                "SELECT count(*) FROM probe p WHERE NOT EXISTS"
                    + " (SELECT 1 FROM build b WHERE b.k = p.k AND b.tag = 'none')"))
        .containsExactly(String.valueOf(probe.size()));
  }

  @Test
  void rowsDeletedFromTheProbeTableStayDeletedInTheJoin() throws SQLException {
    Sql.update(connection, "CREATE TABLE probe_deleted AS SELECT * FROM probe");
    Sql.update(connection, "DELETE FROM probe_deleted WHERE MOD(id, 3) = 0");
    List<String> expected = new ArrayList<>();
    for (ProbeRow p : probe) {
      for (BuildRow b : build) {
        if (p.id() % 3 != 0 && sameNumber(p.k(), b.k())) {
          expected.add(p.id() + " " + b.tag());
        }
      }
    }
    assertThat(
            Sql.sorted(
                Sql.lines(
                    connection,
                    "SELECT p.id, b.tag FROM probe_deleted p JOIN build b ON p.k = b.k")))
        .isEqualTo(Sql.sorted(expected));
  }

  @Test
  void aLeftJoinOfASmallPreservedSideKeepsEachOfItsRowsOnceAndFiltersTheLargeSide()
      throws SQLException {
    // the preserved side (20 rows) is far smaller than the other (1,000): the hash table is built
    // on it, and its keys filter the scan of the large side
    Sql.update(
        connection, "CREATE TABLE IF NOT EXISTS few AS SELECT id, k FROM probe WHERE id < 20");
    List<ProbeRow> few = probe.stream().filter(p -> p.id() < 20).toList();
    List<String> expected = new ArrayList<>();
    for (ProbeRow f : few) {
      boolean matched = false;
      for (ProbeRow p : probe) {
        if (sameNumber(p.k(), f.k()) && p.id() > 2000) {
          expected.add(f.id() + " " + p.id());
          matched = true;
        }
      }
      if (!matched) {
        expected.add(f.id() + " null");
      }
    }
    assertThat(few).anyMatch(f -> f.k() == null);
    assertThat(expected).anyMatch(line -> !line.endsWith(" null"));
    String sql = "SELECT f.id, p.id FROM few f LEFT JOIN probe p ON f.k = p.k AND p.id > 2000";
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(expected));
    long keys = few.stream().map(ProbeRow::k).filter(Objects::nonNull).distinct().count();
    assertThat(String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + sql)))
        .contains("run-time filter: k from the join on k = k: " + keys + " keys");
  }

  /** A table of 30 rows: those of probe with ids below 20, those below 10 twice. */
  private static List<ProbeRow> fewTwice() throws SQLException {
    Sql.update(
        connection,
        "CREATE TABLE IF NOT EXISTS few_twice AS SELECT id, k FROM probe WHERE id < 20"
            + " UNION ALL SELECT id, k FROM probe WHERE id < 10");
    List<ProbeRow> rows = new ArrayList<>(probe.stream().filter(p -> p.id() < 20).toList());
    rows.addAll(probe.stream().filter(p -> p.id() < 10).toList());
    return rows;
  }

  @Test
  void aSemiJoinOfASmallLeftSideKeepsEachLeftRowOnceAndTestsItsResidualPerPair()
      throws SQLException {
    // the left side (30 rows) is far smaller than the right (1,000): the hash table is built on
    // it, its keys filter the scan of the right side, and each left row is emitted once however
    // many right rows match it
    List<ProbeRow> few = fewTwice();
    List<String> expected = new ArrayList<>();
    for (ProbeRow f : few) {
      if (probe.stream().anyMatch(p -> sameNumber(p.k(), f.k()) && p.id() > f.id() + 2000)) {
        expected.add(f.id() + " " + f.k());
      }
    }
    assertThat(few).anyMatch(f -> f.k() == null);
    assertThat(expected).hasSizeGreaterThan(new java.util.HashSet<>(expected).size());
    String sql =
        "SELECT f.id, f.k FROM few_twice f WHERE EXISTS"
            + " (SELECT 1 FROM probe p WHERE p.k = f.k AND p.id > f.id + 2000)";
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(expected));
    long keys = few.stream().map(ProbeRow::k).filter(Objects::nonNull).distinct().count();
    assertThat(String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + sql)))
        .contains("run-time filter: k from the join on k = k: " + keys + " keys");
  }

  @Test
  void anAntiJoinOfASmallLeftSideKeepsEachUnmatchedLeftRowAndNullKeysInAndPastTheBudget()
      throws SQLException {
    // NOT EXISTS with a residual condition: the hash table is built on the 30 left rows, their
    // keys filter the scan of the right side, and each left row no right row matches (the
    // residual holding) is emitted once, as often as it is in the left side, a NULL key's rows too
    List<ProbeRow> few = fewTwice();
    List<String> expected = new ArrayList<>();
    for (ProbeRow f : few) {
      if (probe.stream().noneMatch(p -> sameNumber(p.k(), f.k()) && p.id() > f.id() + 4150)) {
        expected.add(f.id() + " " + f.k());
      }
    }
    assertThat(expected).anyMatch(line -> line.endsWith(" null"));
    assertThat(expected).hasSizeGreaterThan(new java.util.HashSet<>(expected).size());
    assertThat(expected).hasSizeLessThan(few.size());
    String sql =
        "SELECT f.id, f.k FROM few_twice f WHERE NOT EXISTS"
            + " (SELECT 1 FROM probe p WHERE p.k = f.k AND p.id > f.id + 4150)";
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(expected));
    long keys = few.stream().map(ProbeRow::k).filter(Objects::nonNull).distinct().count();
    assertThat(String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + sql)))
        .contains("run-time filter: k from the join on k = k: " + keys + " keys");
    // past the budget the left side goes to partition files, its NULL keys with them
    try (Connection small =
        DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=1kB")) {
      assertThat(Sql.sorted(Sql.lines(small, sql))).isEqualTo(Sql.sorted(expected));
      assertThat(String.join("\n", Sql.column(small, "EXPLAIN ANALYZE " + sql)))
          .contains("rows written to disk by joins, sorts and aggregates that did not fit: ");
    }
  }

  @Test
  void aSemiJoinOfASmallLeftSideFiltersTheGroupsOfAnAggregatingScan() throws SQLException {
    // the right side groups the whole probe table in its scan: the left side's keys make the scan
    // read only the rows of those keys
    List<ProbeRow> few = fewTwice();
    List<String> expected = new ArrayList<>();
    for (ProbeRow f : few) {
      long count = probe.stream().filter(p -> sameNumber(p.k(), f.k())).count();
      if (f.k() != null && count > 30) {
        expected.add(String.valueOf(f.id()));
      }
    }
    assertThat(expected).isNotEmpty().hasSizeLessThan(few.size());
    String sql =
        "SELECT f.id FROM few_twice f WHERE f.k IN"
            + " (SELECT k FROM probe GROUP BY k HAVING count(*) > 30)";
    assertThat(Sql.sorted(Sql.column(connection, sql))).isEqualTo(Sql.sorted(expected));
    long keys = few.stream().map(ProbeRow::k).filter(Objects::nonNull).distinct().count();
    String report = String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + sql));
    assertThat(report).contains("aggregate=");
    assertThat(report).contains("run-time filter: k from the join on k = k: " + keys + " keys");
  }

  @Test
  void aSemiJoinBuildsOnAnAnalyzedScanWhoseEqualitiesKeepFewRows() throws SQLException {
    // TPC-H q17's shape: two equalities on an analyzed table (5 brands, 10 containers) keep
    // 200 / 50 = 4 of its rows, estimated so from the columns' distinct values; the probe table's
    // 30 groups of k are estimated at the 30 values of k's bounds. So the join builds on those 4
    // rows and their keys filter the grouping scan (a flat guess, a quarter of the rows kept and a
    // tenth of the rows in groups, built on the 30 groups instead).
    Sql.update(
        connection,
        "CREATE TABLE IF NOT EXISTS parts AS SELECT id, CAST(id AS INT) AS k,"
            + " 'B' || CAST(MOD(id, 5) AS VARCHAR) AS brand,"
            + " 'C' || CAST(MOD(id / 5, 10) AS VARCHAR) AS container FROM probe WHERE id < 200");
    Sql.update(connection, "ANALYZE parts");
    List<String> expected = new ArrayList<>();
    for (ProbeRow part : probe.stream().filter(p -> p.id() < 200).toList()) {
      long k = part.id();
      long groupRows = probe.stream().filter(p -> p.k() != null && p.k() == k).count();
      if (k % 5 == 3 && (k / 5) % 10 == 2 && groupRows > 0) {
        expected.add(String.valueOf(part.id()));
      }
    }
    assertThat(expected).isNotEmpty();
    String sql =
        "SELECT p.id FROM parts p WHERE p.brand = 'B3' AND p.container = 'C2' AND p.k IN"
            + " (SELECT k FROM probe GROUP BY k HAVING count(*) > 0)";
    assertThat(Sql.sorted(Sql.column(connection, sql))).isEqualTo(Sql.sorted(expected));
    List<String> report = Sql.column(connection, "EXPLAIN ANALYZE " + sql);
    assertThat(report)
        .as(String.join("\n", report))
        .anyMatch(
            line ->
                line.startsWith("LakeTableScan probe")
                    && line.contains("run-time filter: k from the join on k = k: 4 keys"));
  }

  @Test
  void anInnerJoinOfASmallLeftSideMatchesAsOneOfASmallRightSide() throws SQLException {
    List<String> expected = new ArrayList<>();
    for (BuildRow b : build) {
      for (ProbeRow p : probe) {
        if (sameNumber(p.k(), b.k())) {
          expected.add(b.tag() + " " + p.id());
        }
      }
    }
    assertThat(expected).isNotEmpty();
    assertThat(
            Sql.sorted(
                Sql.lines(connection, "SELECT b.tag, p.id FROM build b JOIN probe p ON b.k = p.k")))
        .isEqualTo(Sql.sorted(expected));
  }

  @Test
  void theRunTimeFilterReachesTheScanUnderAnAggregateOnTheProbeSide() throws SQLException {
    // the aggregate (of a join: Calcite computes it) is computed after the join read its build
    // side, so the build's one key filters the scan under it
    Sql.update(
        connection, "CREATE TABLE IF NOT EXISTS few AS SELECT id, k FROM probe WHERE id < 20");
    ProbeRow first =
        probe.stream().filter(p -> p.id() < 20 && p.k() != null).findFirst().orElseThrow();
    long count = probe.stream().filter(p -> sameNumber(p.k(), first.k())).count();
    String sql =
        "SELECT a.k, a.c FROM (SELECT p.k, count(*) AS c FROM probe p JOIN probe q"
            + " ON p.id = q.id GROUP BY p.k) a"
            + " JOIN (SELECT k FROM few WHERE id = "
            + first.id()
            + ") b ON a.k = b.k";
    assertThat(Sql.lines(connection, sql)).containsExactly(first.k() + " " + count);
    assertThat(String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + sql)))
        .contains("k from the join on k = k: 1 key in");
  }

  @Test
  void theRunTimeFilterAlsoReachesTheTableAJoinOnTheSameKeyBrings() throws SQLException {
    // rows of q whose id is not a key of r could only join rows of p that r's keys drop
    String sql =
        "SELECT p.id, q.s FROM probe p JOIN probe q ON p.id = q.id"
            + " JOIN (SELECT id FROM probe WHERE id BETWEEN 2005 AND 2010 AND k IS NOT NULL) r"
            + " ON p.id = r.id";
    List<String> expected = new ArrayList<>();
    for (ProbeRow p : probe) {
      if (p.id() >= 2005 && p.id() <= 2010 && p.k() != null) {
        expected.add(p.id() + " " + p.s());
      }
    }
    assertThat(expected).isNotEmpty();
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(expected));
    String report = String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + sql));
    assertThat(report.split("data files kept: 1 of " + FILES, -1)).hasSize(3);
  }

  @Test
  void rowsTestedAgainstManyKeysOrKeysOfAnotherIntegerTypeKeepExactlyTheMatches()
      throws SQLException {
    // hundreds of keys (past the IN list) filter the scans of p and q
    String many =
        "SELECT p.id, q.s FROM probe p JOIN probe q ON p.id = q.id"
            + " JOIN (SELECT id FROM probe WHERE MOD(id, 3) = 0 AND k IS NOT NULL) r"
            + " ON p.id = r.id";
    List<String> expected = new ArrayList<>();
    for (ProbeRow p : probe) {
      if (p.id() % 3 == 0 && p.k() != null) {
        expected.add(p.id() + " " + p.s());
      }
    }
    assertThat(expected).hasSizeGreaterThan(256);
    assertThat(Sql.sorted(Sql.lines(connection, many))).isEqualTo(Sql.sorted(expected));
    assertThat(String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + many)))
        .containsPattern("id from the join on id = id: \\d{3} keys in \\[");
    // BIGINT keys of build against the INT column k of the scans of p and q
    String widened =
        "SELECT p.id, b.tag FROM probe p JOIN probe q ON p.k = q.k AND p.id = q.id"
            + " JOIN build b ON p.k = b.k";
    List<String> joined = new ArrayList<>();
    for (ProbeRow p : probe) {
      for (BuildRow b : build) {
        if (sameNumber(p.k(), b.k())) {
          joined.add(p.id() + " " + b.tag());
        }
      }
    }
    assertThat(joined).isNotEmpty();
    assertThat(Sql.sorted(Sql.lines(connection, widened))).isEqualTo(Sql.sorted(joined));
  }

  @Test
  void explainAnalyzeShowsTheRunTimeFilterAndTheFilesItSkipped() throws SQLException {
    String sql =
        "SELECT p.id, p.s FROM probe p JOIN (SELECT id FROM probe WHERE id BETWEEN 2005 AND 2010"
            + " AND k IS NOT NULL) q ON p.id = q.id";
    List<String> expected = new ArrayList<>();
    for (ProbeRow p : probe) {
      if (p.id() >= 2005 && p.id() <= 2010 && p.k() != null) {
        expected.add(p.id() + " " + p.s());
      }
    }
    assertThat(expected).isNotEmpty();
    assertThat(Sql.sorted(Sql.lines(connection, sql))).isEqualTo(Sql.sorted(expected));
    String report = String.join("\n", Sql.column(connection, "EXPLAIN ANALYZE " + sql));
    assertThat(report)
        .contains("run-time filter: id from the join on id = id: " + expected.size() + " keys")
        .contains("data files kept: 1 of " + FILES);
  }

  @Test
  void aJoinPastTheMemoryBudgetSpillsOrFailsWith53200AndTheConnectionStaysUsable()
      throws SQLException {
    fillWide();
    try (Connection small =
            DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=16kB");
        Statement statement = small.createStatement()) {
      // a build side past the budget is joined a partition at a time from disk
      long pairs =
          probe.stream()
              .mapToLong(
                  a ->
                      probe.stream()
                          .filter(
                              b ->
                                  a.k() != null
                                      && a.k().equals(b.k())
                                      && a.s() != null
                                      && b.s() != null
                                      && !a.s().equals(b.s()))
                          .count())
              .sum();
      assertThat(
              Sql.column(
                  small, "SELECT count(*) FROM probe a JOIN probe b ON a.k = b.k AND a.s <> b.s"))
          .containsExactly(String.valueOf(pairs));
      // one key's 10,000 rows do not fit even alone (values of both tables: the join makes its
      // rows, where COUNT(*) alone is counted per key before the join)
      assertThatThrownBy(
              () ->
                  Sql.column(
                      small, "SELECT count(a.id + b.id) FROM wide a JOIN wide b ON a.k = b.k"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("53200"))
          .hasMessageContaining("memory budget of 16384 bytes")
          .hasMessageContaining("memoryBudget");
      assertThat(Sql.column(small, "SELECT count(*) FROM probe"))
          .containsExactly(String.valueOf(probe.size()));
      long expected =
          probe.stream()
              .filter(
                  p ->
                      build.stream()
                          .anyMatch(b -> b.tag().equals("t1") && sameNumber(p.k(), b.k())))
              .count();
      assertThat(
              Sql.column(
                  small,
                  "SELECT count(*) FROM probe p JOIN (SELECT k FROM build WHERE tag = 't1') b"
                      + " ON p.k = b.k"))
          .containsExactly(String.valueOf(expected));
      assertThat(statement.isClosed()).isFalse();
    }
  }

  @Test
  void aSortPastTheMemoryBudgetSpillsAndAnswersAsOneInMemory() throws SQLException {
    try (Connection small =
        DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=16kB")) {
      String query = "SELECT id FROM probe ORDER BY s, id";
      List<String> expected = Sql.column(connection, query);
      assertThat(expected).hasSize(probe.size());
      assertThat(Sql.column(small, query)).isEqualTo(expected);
      List<String> lowest =
          probe.stream()
              .map(ProbeRow::id)
              .filter(id -> id < 5)
              .sorted(java.util.Comparator.reverseOrder())
              .map(String::valueOf)
              .toList();
      assertThat(lowest).isNotEmpty();
      assertThat(Sql.column(small, "SELECT id FROM probe WHERE id < 5 ORDER BY id DESC"))
          .isEqualTo(lowest);
    }
  }

  @Test
  void explainAnalyzeShowsThePeakMemoryTheJoinsHeld() throws SQLException {
    String report =
        String.join(
            "\n",
            Sql.column(
                connection,
                "EXPLAIN ANALYZE SELECT p.id, b.tag FROM probe p JOIN build b ON p.k = b.k"));
    assertThat(report)
        .containsPattern(
            "peak memory held by joins, sorts and aggregates \\(estimated\\): [1-9][0-9]* KiB");
  }

  @Test
  void aMemoryBudgetThatIsNeitherAShareNorASizeIsRefused() {
    assertThatThrownBy(
            () -> DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=lots").close())
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"))
        .hasMessageContaining("memoryBudget");
    assertThatThrownBy(
            () -> DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=0%").close())
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
  }

  @Test
  void aQueryTimeoutStopsAJoinInTheMiddleOfItsProbeWithin1Second() throws SQLException {
    fillWide();
    try (Statement statement = connection.createStatement()) {
      statement.setQueryTimeout(1);
      long start = System.nanoTime();
      // values of both tables: the join makes its rows (COUNT(*) is counted per key first)
      assertThatThrownBy(
              () ->
                  statement
                      .executeQuery(
                          "SELECT count(a.id + b.id) FROM wide a JOIN wide b ON a.k = b.k")
                      .next())
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      // 1 s of timeout, 1 s to stop, and slack for a machine shared with other builds
      assertThat(millis).isLessThan(4_000);
    }
    assertThat(Sql.column(connection, "SELECT count(*) FROM wide")).containsExactly("20000");
  }

  @Test
  void cancelStopsAJoinWithin1Second() throws Exception {
    fillWide();
    ExecutorService runner = Executors.newSingleThreadExecutor();
    try (Statement statement = connection.createStatement()) {
      Future<Object> run =
          runner.submit(
              () -> {
                try {
                  // values of both tables: the join makes its rows (COUNT(*) is counted per key
                  // first)
                  statement
                      .executeQuery(
                          "SELECT count(a.id + b.id) FROM wide a JOIN wide b ON a.k = b.k")
                      .next();
                  return "finished";
                } catch (SQLException e) {
                  return e;
                }
              });
      Thread.sleep(1_500);
      long start = System.nanoTime();
      statement.cancel();
      Object outcome = run.get(30, TimeUnit.SECONDS);
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(outcome).isInstanceOf(SQLException.class);
      assertThat(((SQLException) outcome).getSQLState()).isEqualTo("57014");
      assertThat(millis).isLessThan(3_000);
    } finally {
      runner.shutdownNow();
    }
    assertThat(Objects.requireNonNull(connection).isValid(5)).isTrue();
  }
}
