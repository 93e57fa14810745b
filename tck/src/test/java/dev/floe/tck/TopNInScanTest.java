package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An {@code ORDER BY ... LIMIT} directly above a table's scan lets the scan keep only the rows the
 * top-N can return, compared on the decoded column vectors on every scan worker. Each query is
 * checked against the same query over the table behind a filter no scan takes ({@code RAND() >=
 * 0}), whose top-N reads every row, on one scan thread and on four: the rows and their order must
 * be the same, ties broken by scan order as the top-N's stable sort breaks them. The table is six
 * files of 15,000 rows with rows deleted and updated, and its keys repeat and hold NULL, NaN, -0.0,
 * the infinities, empty and non-BMP strings, and decimals of 12 and 30 digits.
 */
class TopNInScanTest {
  private static final int FILES = 6;
  private static final int ROWS_PER_FILE = 15_000;

  private static final double[] DOUBLES = {
    Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.5, -2.25, 7
  };
  private static final String[] STRINGS = {"", "a", "Z", "z", "é", "\uD83D\uDE00", "\uFFFD", "ab"};

  @TempDir static Path lake;
  private static Connection serial;
  private static Connection parallel;

  @BeforeAll
  static void fill() throws SQLException {
    serial = DriverManager.getConnection("jdbc:floe:" + lake + "?scanThreads=1");
    parallel = DriverManager.getConnection("jdbc:floe:" + lake + "?scanThreads=4");
    Sql.update(
        serial,
        "CREATE TABLE t (id BIGINT, i INT, d DOUBLE, r REAL, m DECIMAL(12, 2),"
            + " w DECIMAL(30, 4), s VARCHAR, b BOOLEAN, dt DATE, ts TIMESTAMP, bin VARBINARY)");
    Random random = new Random(20261207);
    try (PreparedStatement insert =
        serial.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int file = 0; file < FILES; file++) {
        for (int n = 0; n < ROWS_PER_FILE; n++) {
          long id = (long) file * ROWS_PER_FILE + n;
          insert.setLong(1, id);
          Sql.setOrNull(insert, 2, nullOr(random, random.nextInt(60) - 30), Types.INTEGER);
          Sql.setOrNull(
              insert, 3, nullOr(random, DOUBLES[random.nextInt(DOUBLES.length)]), Types.DOUBLE);
          Sql.setOrNull(
              insert,
              4,
              nullOr(random, (float) DOUBLES[random.nextInt(DOUBLES.length)]),
              Types.REAL);
          Sql.setOrNull(
              insert,
              5,
              nullOr(random, BigDecimal.valueOf(random.nextInt(400) - 200, 2)),
              Types.DECIMAL);
          Sql.setOrNull(
              insert,
              6,
              nullOr(
                  random,
                  new BigDecimal("12345678901234567890")
                      .add(BigDecimal.valueOf(random.nextInt(50)))
                      .movePointLeft(4)),
              Types.DECIMAL);
          Sql.setOrNull(
              insert,
              7,
              nullOr(random, STRINGS[random.nextInt(STRINGS.length)] + random.nextInt(3)),
              Types.VARCHAR);
          Sql.setOrNull(insert, 8, nullOr(random, random.nextBoolean()), Types.BOOLEAN);
          Sql.setOrNull(
              insert,
              9,
              nullOr(random, java.sql.Date.valueOf(java.time.LocalDate.of(2026, 1, 1 + n % 28))),
              Types.DATE);
          Sql.setOrNull(
              insert,
              10,
              nullOr(
                  random,
                  java.sql.Timestamp.valueOf(
                      java.time.LocalDateTime.of(2026, 12, 7, 0, 0).plusSeconds(n % 500))),
              Types.TIMESTAMP);
          insert.setBytes(11, new byte[] {(byte) (n % 7), (byte) file});
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
    Sql.update(serial, "DELETE FROM t WHERE MOD(id, 7) = 3");
    Sql.update(serial, "UPDATE t SET i = i + 1000, s = 'updated' WHERE MOD(id, 11) = 5");
  }

  private static <T> T nullOr(Random random, T value) {
    return random.nextInt(12) == 0 ? null : value;
  }

  @AfterAll
  static void close() throws SQLException {
    serial.close();
    parallel.close();
  }

  /**
   * Every column but {@code w} (30 digits) and {@code bin} is decoded into column vectors, which
   * the scan compares with its worst kept row; a query reading either is read row by row, and the
   * scan compares rows.
   */
  private static final String VECTOR_COLUMNS = "id, i, d, r, m, s, b, dt, ts";

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "id DESC; 5; 0; vectors",
        "i; 20; 0; vectors",
        "i; 20; 0; rows",
        "i DESC; 20; 0; vectors",
        "i NULLS FIRST; 30; 10; vectors",
        "i DESC NULLS LAST, id DESC; 50; 0; vectors",
        "d; 40; 0; vectors",
        "d DESC; 40; 0; vectors",
        "d DESC; 40; 0; rows",
        "d DESC NULLS LAST, i; 100; 3000; vectors",
        "r; 40; 0; vectors",
        "r DESC, m; 40; 7; vectors",
        "m; 25; 0; vectors",
        "m DESC NULLS LAST; 25; 0; vectors",
        "m DESC NULLS LAST; 25; 0; rows",
        "w; 30; 0; rows",
        "w DESC, d NULLS FIRST; 30; 20; rows",
        "s; 20; 0; vectors",
        "s DESC; 60; 0; vectors",
        "s DESC; 60; 0; rows",
        "s NULLS FIRST, b, dt DESC; 500; 10; vectors",
        "b, i; 15; 0; vectors",
        "b DESC NULLS LAST, ts; 15; 0; vectors",
        "dt DESC, ts; 12; 0; vectors",
        "ts, id; 9; 40000; vectors",
        "i, d, s; 1; 0; vectors",
        "i; 131072; 0; vectors"
      })
  void theScanKeepsTheRowsTheTopNReturns(String order, int fetch, int offset, String read)
      throws SQLException {
    String columns = read.equals("vectors") ? VECTOR_COLUMNS : "*";
    String tail = " ORDER BY " + order + " LIMIT " + fetch + " OFFSET " + offset;
    String query = "SELECT " + columns + " FROM t" + tail;
    String everyRow = "SELECT " + columns + " FROM (SELECT * FROM t WHERE RAND() >= 0)" + tail;
    assertThat(Sql.explain(serial, query)).contains("topN=[").contains("EnumerableLimitSort");
    assertThat(Sql.explain(serial, everyRow)).doesNotContain("topN=");
    List<String> expected = Sql.lines(serial, everyRow);
    assertThat(expected).hasSize(Math.min(fetch, Math.max(0, live() - offset)));
    assertThat(Sql.lines(serial, query)).isEqualTo(expected);
    assertThat(Sql.lines(parallel, query)).isEqualTo(expected);
  }

  @Test
  void theLargestIdsAreTheLiveOnes() throws SQLException {
    List<String> expected = new ArrayList<>();
    for (long id = (long) FILES * ROWS_PER_FILE - 1; expected.size() < 5; id--) {
      if (id % 7 != 3) {
        expected.add(Long.toString(id));
      }
    }
    String query = "SELECT id FROM t ORDER BY id DESC LIMIT 5";
    assertThat(Sql.explain(parallel, query)).contains("topN=[id DESC NULLS FIRST: 5 rows]");
    assertThat(Sql.column(parallel, query)).isEqualTo(expected);
    assertThat(Sql.column(serial, query)).isEqualTo(expected);
  }

  /**
   * A top-N under two joins: Calcite trims the columns the query does not use after Floe's rules
   * ran, and a narrower scan must not renumber the top-N's keys (it kept the three latest dates
   * where the three largest prices were asked for).
   */
  @Test
  void aTopNUnderJoinsKeepsItsKeys() throws SQLException {
    String tail =
        " ORDER BY m DESC NULLS LAST, id LIMIT 7) x JOIN t u ON x.id = u.id JOIN t v ON u.id = v.id";
    String query = "SELECT x.id, x.dt FROM (SELECT * FROM t" + tail;
    String everyRow = "SELECT x.id, x.dt FROM (SELECT * FROM t WHERE RAND() >= 0" + tail;
    assertThat(Sql.explain(serial, query)).contains("topN=[m DESC NULLS LAST, id NULLS LAST: 7");
    List<String> expected = Sql.sorted(Sql.lines(serial, everyRow));
    assertThat(expected).hasSize(7);
    assertThat(Sql.sorted(Sql.lines(serial, query))).isEqualTo(expected);
    assertThat(Sql.sorted(Sql.lines(parallel, query))).isEqualTo(expected);
  }

  /** Keys the scan does not compare, and limits it does not keep, are left to the top-N. */
  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {"i + 1, id; 10; 0", "bin, id; 10; 0", "id; 0; 0", "id; 131060; 20"})
  void otherTopNsReadEveryRow(String order, int fetch, long offset) throws SQLException {
    String query =
        "SELECT id, i FROM t ORDER BY " + order + " LIMIT " + fetch + " OFFSET " + offset;
    String everyRow =
        "SELECT id, i FROM (SELECT * FROM t WHERE RAND() >= 0) ORDER BY "
            + order
            + " LIMIT "
            + fetch
            + " OFFSET "
            + offset;
    assertThat(Sql.explain(serial, query)).doesNotContain("topN=");
    assertThat(Sql.lines(parallel, query)).isEqualTo(Sql.lines(serial, everyRow));
  }

  /** The rows left after the DELETE: the UPDATE rewrote rows, it did not add any. */
  private static int live() {
    int live = 0;
    for (long id = 0; id < (long) FILES * ROWS_PER_FILE; id++) {
      if (id % 7 != 3) {
        live++;
      }
    }
    return live;
  }
}
