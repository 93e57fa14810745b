package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a table as it was: at a time, at a snapshot id, at a tag or a branch, with the schema and
 * the deletes of that snapshot, anywhere a table can stand in a query.
 */
class TimeTravelTest {
  @TempDir static Path root;
  static HistoryLake lake;

  @BeforeAll
  static void writeLake() {
    lake = HistoryLake.write(root);
  }

  private static String at(long snapshotId) {
    return HistoryLake.timestampLiteral(lake.committedAt(snapshotId), ZoneOffset.UTC);
  }

  private static List<Long> ids(Connection c, String sql) throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  private static List<Long> range(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id < to; id++) {
      ids.add(id);
    }
    return ids;
  }

  private static List<String> columns(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      List<String> names = new ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        names.add(md.getColumnName(i).toLowerCase(java.util.Locale.ROOT));
      }
      return names;
    }
  }

  private static SQLException fails(Connection c, String sql) {
    SQLException e =
        catchThrowableOfType(
            SQLException.class,
            () -> {
              try (Statement s = c.createStatement()) {
                s.execute(sql);
              }
            });
    assertThat((Throwable) e).as("the failure of " + sql).isNotNull();
    return e;
  }

  @Test
  void aTimestampReadsTheLastSnapshotCommittedAtOrBeforeIt() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      String q = "SELECT id FROM hist FOR SYSTEM_TIME AS OF ";
      assertThat(ids(c, q + at(lake.s1) + " ORDER BY id")).isEqualTo(range(0, 10));
      assertThat(ids(c, q + at(lake.s2) + " ORDER BY id")).isEqualTo(range(0, 20));
      // Position deletes apply as of the snapshot: ids 0 and 1 were deleted in s3.
      assertThat(ids(c, q + at(lake.s3) + " ORDER BY id")).isEqualTo(range(2, 20));
      assertThat(ids(c, q + at(lake.s4) + " ORDER BY id")).isEqualTo(range(2, 25));
      // One millisecond before s4 is still s3.
      Instant beforeS4 = lake.committedAt(lake.s4).minusMillis(1);
      assertThat(ids(c, q + HistoryLake.timestampLiteral(beforeS4, ZoneOffset.UTC))).hasSize(18);
      List<Long> now = range(2, 25);
      now.remove(Long.valueOf(10));
      assertThat(ids(c, q + at(lake.s5) + " ORDER BY id")).isEqualTo(now);
      // The branch's later commit is not on main's history.
      assertThat(ids(c, q + "TIMESTAMP '2999-01-01 00:00:00' ORDER BY id")).isEqualTo(now);
      assertThat(ids(c, q + "DATE '2999-01-01' ORDER BY id")).isEqualTo(now);
    }
  }

  @Test
  void aPlainTimestampIsReadInTheSessionTimeZone() throws Exception {
    ZoneId paris = ZoneId.of("Europe/Paris");
    try (Connection c = DriverManager.getConnection(lake.url + "?timeZone=Europe/Paris")) {
      String s1InParis = HistoryLake.timestampLiteral(lake.committedAt(lake.s1), paris);
      assertThat(ids(c, "SELECT id FROM hist FOR SYSTEM_TIME AS OF " + s1InParis))
          .containsExactlyInAnyOrderElementsOf(range(0, 10));
      // s1's UTC wall-clock text, read in Paris, is an hour or two before s1: before the table.
      SQLException e = fails(c, "SELECT count(*) FROM hist FOR SYSTEM_TIME AS OF " + at(lake.s1));
      assertThat(e.getSQLState()).isEqualTo("42S02");
    }
  }

  @Test
  void aTimestampWithLocalTimeZoneIsAnInstant() throws Exception {
    ZoneId tokyo = ZoneId.of("Asia/Tokyo");
    try (Connection c = DriverManager.getConnection(lake.url + "?timeZone=Asia/Tokyo")) {
      String text =
          HistoryLake.timestampLiteral(lake.committedAt(lake.s2), tokyo)
              .substring("TIMESTAMP ".length());
      assertThat(
              ids(
                  c,
                  "SELECT count(*) FROM hist FOR SYSTEM_TIME AS OF CAST("
                      + text
                      + " AS TIMESTAMP WITH LOCAL TIME ZONE)"))
          .containsExactly(20L);
      // Trino's spelling of an instant: a timestamp followed by its zone.
      String vienna =
          HistoryLake.timestampLiteral(lake.committedAt(lake.s2), ZoneId.of("Europe/Vienna"));
      assertThat(
              ids(
                  c,
                  "SELECT count(*) FROM hist FOR SYSTEM_TIME AS OF "
                      + vienna.substring(0, vienna.length() - 1)
                      + " Europe/Vienna'"))
          .containsExactly(20L);
    }
  }

  @Test
  void theSchemaIsTheSnapshotsOwn() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      assertThat(columns(c, "SELECT * FROM hist FOR SYSTEM_TIME AS OF " + at(lake.s1)))
          .containsExactly("id", "name");
      assertThat(columns(c, "SELECT * FROM hist FOR SYSTEM_TIME AS OF " + at(lake.s4)))
          .containsExactly("id", "label", "score");
      assertThat(columns(c, "SELECT * FROM hist")).containsExactly("id", "label", "score");
      try (Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT name FROM hist FOR SYSTEM_TIME AS OF "
                      + at(lake.s2)
                      + " WHERE id = 12")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("name 12");
      }
    }
  }

  @Test
  void aSnapshotIdATagAndABranch() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      assertThat(ids(c, "SELECT id FROM hist FOR VERSION AS OF " + lake.s1 + " ORDER BY id"))
          .isEqualTo(range(0, 10));
      assertThat(ids(c, "SELECT id FROM hist FOR SYSTEM_VERSION AS OF " + lake.s3 + " ORDER BY id"))
          .isEqualTo(range(2, 20));
      assertThat(ids(c, "SELECT id FROM hist FOR VERSION AS OF 'v1' ORDER BY id"))
          .isEqualTo(range(0, 20));
      List<Long> audit = range(0, 20);
      audit.add(100L);
      assertThat(ids(c, "SELECT id FROM hist FOR VERSION AS OF 'audit' ORDER BY id"))
          .isEqualTo(audit);
      // A tag reads its snapshot's schema, a branch the table's current one.
      assertThat(columns(c, "SELECT * FROM hist FOR VERSION AS OF 'v1'"))
          .containsExactly("id", "name");
      assertThat(columns(c, "SELECT * FROM hist FOR VERSION AS OF 'audit'"))
          .containsExactly("id", "label", "score");
      assertThat(ids(c, "SELECT count(*) FROM hist FOR TIMESTAMP AS OF " + at(lake.s1)))
          .containsExactly(10L);
    }
  }

  @Test
  void theSameTableAtTwoVersionsInOneQuery() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      String old = "hist FOR SYSTEM_TIME AS OF " + at(lake.s1);
      // A join: ids present in s1 and now (0 and 1 were deleted since).
      assertThat(ids(c, "SELECT count(*) FROM " + old + " AS a JOIN hist b ON a.id = b.id"))
          .containsExactly(8L);
      // Without an alias the table keeps its name.
      assertThat(ids(c, "SELECT hist.id FROM " + old + " WHERE hist.id < 3 ORDER BY 1"))
          .containsExactly(0L, 1L, 2L);
      // A subquery: rows added after s1.
      assertThat(ids(c, "SELECT count(*) FROM hist WHERE id NOT IN (SELECT id FROM " + old + ")"))
          .containsExactly(14L);
    }
  }

  @Test
  void insertSelectAndCreateTableAsSelectReadThePast() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      Sql.update(
          c, "CREATE TABLE copy_s2 AS SELECT * FROM hist FOR SYSTEM_TIME AS OF " + at(lake.s2));
      assertThat(columns(c, "SELECT * FROM copy_s2")).containsExactly("id", "name");
      assertThat(ids(c, "SELECT count(*) FROM copy_s2")).containsExactly(20L);
      int inserted =
          Sql.update(
              c,
              "INSERT INTO copy_s2 SELECT id + 1000, name FROM hist FOR SYSTEM_TIME AS OF "
                  + at(lake.s1));
      assertThat(inserted).isEqualTo(10);
      assertThat(ids(c, "SELECT count(*) FROM copy_s2")).containsExactly(30L);
      // The source table is unchanged.
      assertThat(lake.table().currentSnapshot().snapshotId()).isEqualTo(lake.s5);
    }
  }

  @Test
  void insideATransaction() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      Sql.update(c, "CREATE TABLE txn_target (id BIGINT)");
      c.setAutoCommit(false);
      assertThat(ids(c, "SELECT count(*) FROM hist FOR SYSTEM_TIME AS OF " + at(lake.s3)))
          .containsExactly(18L);
      Sql.update(
          c, "INSERT INTO txn_target SELECT id FROM hist FOR SYSTEM_TIME AS OF " + at(lake.s1));
      assertThat(ids(c, "SELECT count(*) FROM txn_target")).containsExactly(10L);
      assertThat(ids(c, "SELECT count(*) FROM hist")).containsExactly(22L);
      c.commit();
    }
  }

  @Test
  void filtersArePushedIntoTheScanOfThePastSnapshot() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      String plan =
          Sql.explain(
              c, "SELECT id FROM hist FOR SYSTEM_TIME AS OF " + at(lake.s2) + " WHERE id >= 15");
      assertThat(plan).contains("snapshot=[" + lake.s2 + "]").contains("id >= 15");
      assertThat(plan).doesNotContain("Snapshot(");
      assertThat(
              ids(
                  c,
                  "SELECT id FROM hist FOR SYSTEM_TIME AS OF "
                      + at(lake.s2)
                      + " WHERE id >= 15 ORDER BY id"))
          .isEqualTo(range(15, 20));
    }
  }

  @Test
  void aTimeBeforeTheFirstSnapshotNamesTheOldest() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      SQLException e =
          fails(c, "SELECT * FROM hist FOR SYSTEM_TIME AS OF TIMESTAMP '2000-01-01 00:00:00'");
      assertThat(e.getSQLState()).isEqualTo("42S02");
      assertThat(e.getMessage())
          .contains("hist")
          .contains(Long.toString(lake.s1))
          .contains(lake.committedAt(lake.s1).toString().substring(0, 16));
    }
  }

  @Test
  void anUnknownSnapshotOrRefNamesWhatExists() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      SQLException id = fails(c, "SELECT * FROM hist FOR VERSION AS OF 42");
      assertThat(id.getSQLState()).isEqualTo("42S02");
      assertThat(id.getMessage()).contains("42").contains(Long.toString(lake.s1));
      SQLException ref = fails(c, "SELECT * FROM hist FOR VERSION AS OF 'nope'");
      assertThat(ref.getSQLState()).isEqualTo("42S02");
      assertThat(ref.getMessage()).contains("nope").contains("audit").contains("v1");
    }
  }

  @Test
  void aNumberOrStringIsNotATime() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      SQLException e = fails(c, "SELECT * FROM hist FOR SYSTEM_TIME AS OF 'v1'");
      assertThat(e.getSQLState()).startsWith("42");
      assertThat(e.getMessage()).contains("FOR VERSION AS OF");
    }
  }

  @Test
  void timeTravelOnAWriteTargetIsNotSupported() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      SQLException e = fails(c, "DELETE FROM hist FOR VERSION AS OF " + lake.s1 + " WHERE id = 3");
      assertThat(e.getSQLState()).isEqualTo("0A000");
      assertThat(lake.table().currentSnapshot().snapshotId()).isEqualTo(lake.s5);
    }
  }
}
