package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Types;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;

/** TIME values are exact to the microsecond, from literals, parameters and tables to getters. */
class ExactTimeTest extends LakeFixture {
  private static final LocalTime MICROS = LocalTime.parse("10:00:00.123456");

  private Connection table(String... times) throws SQLException {
    Connection c = connect();
    execute(c, "CREATE TABLE t (id INT, tm TIME)");
    for (int i = 0; i < times.length; i++) {
      update(c, "INSERT INTO t VALUES (" + (i + 1) + ", TIME '" + times[i] + "')");
    }
    return c;
  }

  /** The (id, tm) rows as Iceberg's own generic reader returns them from the table's files. */
  private List<String> icebergRows(String filterColumn, LocalTime equalTo) throws Exception {
    Table table = new FolderCatalog(LakeLocation.parse(root.toString())).loadTable(List.of("t"));
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table)
            .where(
                filterColumn == null
                    ? Expressions.alwaysTrue()
                    : Expressions.equal(filterColumn, equalTo.toNanoOfDay() / 1000))
            .build()) {
      for (Record record : records) {
        rows.add(record.getField("id") + " " + record.getField("tm"));
      }
    }
    rows.sort(null);
    return rows;
  }

  @Test
  void timeLiteralsAreWrittenToIcebergAndReadBackToTheMicrosecond() throws Exception {
    try (Connection c = table("10:00:00.123456", "23:59:59.999999", "00:00:00.000001")) {
      assertThat(icebergRows(null, null))
          .containsExactly("1 10:00:00.123456", "2 23:59:59.999999", "3 00:00:00.000001");
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT tm FROM t ORDER BY id")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1, LocalTime.class)).isEqualTo(MICROS);
        assertThat(rs.getString(1)).isEqualTo("10:00:00.123456");
        assertThat(rs.getObject(1)).isInstanceOf(Time.class);
        // java.sql.Time holds milliseconds: the rest is cut, never rounded up.
        assertThat(Math.floorMod(rs.getTime(1).getTime(), 1000L)).isEqualTo(123L);
        assertThat(rs.getTime(1).toLocalTime()).isEqualTo(LocalTime.of(10, 0));
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("23:59:59.999999");
        assertThat(Math.floorMod(rs.getTime(1).getTime(), 1000L)).isEqualTo(999L);
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1, LocalTime.class)).isEqualTo(LocalTime.ofNanoOfDay(1000));
        assertThat(rs.getString(1)).isEqualTo("00:00:00.000001");
      }
    }
  }

  @Test
  void resultSetMetadataSaysTimeWithSixFractionalDigits() throws Exception {
    try (Connection c = table("10:00:00.123456");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT tm, TIME '01:02:03.456789', CAST(tm AS TIME(3)) FROM t")) {
      ResultSetMetaData meta = rs.getMetaData();
      for (int i = 1; i <= 2; i++) {
        assertThat(meta.getColumnType(i)).isEqualTo(Types.TIME);
        assertThat(meta.getColumnTypeName(i)).isEqualTo("TIME");
        assertThat(meta.getScale(i)).isEqualTo(6);
        assertThat(meta.getPrecision(i)).isEqualTo(15);
        assertThat(meta.getColumnClassName(i)).isEqualTo(Time.class.getName());
      }
      assertThat(meta.getScale(3)).isEqualTo(3);
      rs.next();
      assertThat(rs.getObject(2, LocalTime.class)).isEqualTo(LocalTime.parse("01:02:03.456789"));
      assertThat(rs.getObject(3, LocalTime.class)).isEqualTo(LocalTime.parse("10:00:00.123"));
    }
  }

  @Test
  void comparisonsWithLiteralsKeepMicrosecondsPushedAndAboveTheScan() throws Exception {
    try (Connection c = table("10:00:00.123456", "10:00:00.123457", "10:00:00.123")) {
      // Pushed into the Iceberg scan.
      assertThat(single(c, "SELECT id FROM t WHERE tm = TIME '10:00:00.123456'")).isEqualTo("1");
      assertThat(rows(c, "SELECT id FROM t WHERE tm > TIME '10:00:00.123456' ORDER BY id"))
          .containsExactly(List.of("2"));
      assertThat(rows(c, "SELECT id FROM t WHERE tm <= TIME '10:00:00.123' ORDER BY id"))
          .containsExactly(List.of("3"));
      assertThat(
              rows(
                  c,
                  "SELECT id FROM t WHERE tm IN (TIME '10:00:00.123457', TIME '10:00:00.123')"
                      + " ORDER BY id"))
          .containsExactly(List.of("2"), List.of("3"));
      assertThat(explain(c, "SELECT id FROM t WHERE tm = TIME '10:00:00.123456'"))
          .contains("filter=[tm = TIME '10:00:00.123456']");
      // Evaluated above the scan: an OR with something Iceberg cannot evaluate.
      String above = "SELECT id FROM t WHERE tm = TIME '10:00:00.123457' OR id * 2 = 6 ORDER BY id";
      assertThat(explain(c, above)).doesNotContain("filter=");
      assertThat(rows(c, above)).containsExactly(List.of("2"), List.of("3"));
      assertThat(
              rows(
                  c,
                  "SELECT id FROM t WHERE CASE WHEN id > 0 THEN tm END"
                      + " BETWEEN TIME '10:00:00.123001' AND TIME '10:00:00.123456' ORDER BY id"))
          .containsExactly(List.of("1"));
      // A literal finer than Iceberg's microseconds is not pushed, and compares exactly.
      assertThat(rows(c, "SELECT id FROM t WHERE tm < TIME '10:00:00.1234565' ORDER BY id"))
          .containsExactly(List.of("1"), List.of("3"));
    }
  }

  @Test
  void orderByMinMaxAndCastsToTextKeepMicroseconds() throws Exception {
    try (Connection c = table("10:00:00.000002", "10:00:00.000001", "10:00:00.000003")) {
      assertThat(rows(c, "SELECT id FROM t ORDER BY tm DESC"))
          .containsExactly(List.of("3"), List.of("1"), List.of("2"));
      assertThat(rows(c, "SELECT MIN(tm), MAX(tm), CAST(MIN(tm) AS VARCHAR) FROM t"))
          .containsExactly(List.of("10:00:00.000001", "10:00:00.000003", "10:00:00.000001"));
      assertThat(
              rows(
                  c,
                  "SELECT CAST(tm AS VARCHAR), CAST('12:34:56.654321' AS TIME),"
                      + " tm + INTERVAL '14' HOUR, EXTRACT(HOUR FROM tm),"
                      + " CAST(TIMESTAMP '2024-01-01 01:02:03.456789' AS TIME)"
                      + " FROM t WHERE id = 2"))
          .containsExactly(
              List.of(
                  "10:00:00.000001",
                  "12:34:56.654321",
                  "00:00:00.000001",
                  "10",
                  "01:02:03.456789"));
      // Constant expressions are not folded in milliseconds either.
      assertThat(single(c, "SELECT CAST(TIME '01:02:03.000009' AS VARCHAR) FROM t WHERE id = 1"))
          .isEqualTo("01:02:03.000009");
    }
  }

  @Test
  void expressionsOverAggregatesJoinsAndUnionsReadMicroseconds() throws Exception {
    try (Connection c = table("10:00:00.123456", "10:00:00.123457", "10:00:00.123456")) {
      assertThat(rows(c, "SELECT id FROM t GROUP BY id HAVING MAX(tm) > TIME '10:00:00.123456'"))
          .containsExactly(List.of("2"));
      assertThat(rows(c, "SELECT a.id, b.id FROM t a JOIN t b ON a.tm = b.tm AND a.id < b.id"))
          .containsExactly(List.of("1", "3"));
      assertThat(
              rows(
                  c,
                  "SELECT CAST(m AS VARCHAR), m > TIME '10:00:00.123456'"
                      + " FROM (SELECT MAX(tm) AS m FROM t)"))
          .containsExactly(List.of("10:00:00.123457", "true"));
      assertThat(
              rows(
                  c,
                  "SELECT x FROM (SELECT tm AS x FROM t WHERE id = 2"
                      + " UNION ALL SELECT TIME '01:00:00' FROM t WHERE id = 1) ORDER BY x"))
          .containsExactly(List.of("01:00:00"), List.of("10:00:00.123457"));
    }
  }

  @Test
  void parametersKeepMicrosecondsInFiltersAndInserts() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, tm TIME)");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
        p.setInt(1, 1);
        p.setObject(2, MICROS);
        p.executeUpdate();
        p.setInt(1, 2);
        p.setString(2, "23:59:59.999999");
        p.executeUpdate();
        p.setInt(1, 3);
        p.setTime(2, new Time(Time.valueOf("08:30:00").getTime() + 250));
        p.executeUpdate();
        // A batch of a plain INSERT is written without Calcite.
        p.setInt(1, 4);
        p.setObject(2, LocalTime.parse("00:00:00.000007"));
        p.addBatch();
        p.setInt(1, 5);
        p.setString(2, "12:00:00.5");
        p.addBatch();
        p.executeBatch();
      }
      assertThat(icebergRows(null, null))
          .containsExactly(
              "1 10:00:00.123456",
              "2 23:59:59.999999",
              "3 08:30:00.250",
              "4 00:00:00.000007",
              "5 12:00:00.500");
      assertThat(icebergRows("tm", MICROS)).containsExactly("1 10:00:00.123456");
      try (PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE tm = ?")) {
        p.setObject(1, LocalTime.parse("00:00:00.000007"));
        assertThat(ids(p)).containsExactly(4);
        p.setString(1, "23:59:59.999999");
        assertThat(ids(p)).containsExactly(2);
        p.setTime(1, new Time(Time.valueOf("08:30:00").getTime() + 250));
        assertThat(ids(p)).containsExactly(3);
      }
      try (PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE tm > ? ORDER BY id")) {
        p.setObject(1, LocalTime.parse("10:00:00.123455"));
        assertThat(ids(p)).containsExactly(1, 2, 5);
      }
    }
  }

  @Test
  void insertSelectAndUpdateWriteExactMicroseconds() throws Exception {
    try (Connection c = table("10:00:00.123456")) {
      update(c, "INSERT INTO t SELECT id + 1, tm + INTERVAL '1' SECOND FROM t");
      update(c, "UPDATE t SET tm = TIME '07:00:00.000042' WHERE id = 1");
      update(c, "INSERT INTO t VALUES (3, TIME '09:00:00')");
      assertThat(icebergRows(null, null))
          .containsExactly("1 07:00:00.000042", "2 10:00:01.123456", "3 09:00");
    }
  }

  @Test
  void operationsThatWouldDropMicrosecondsAreRefused() throws Exception {
    try (Connection c = table("10:00:00.123456")) {
      for (String sql :
          List.of(
              "SELECT EXTRACT(MICROSECOND FROM tm) FROM t",
              "SELECT CEIL(tm TO SECOND) FROM t",
              "SELECT (tm - TIME '09:00:00') HOUR TO SECOND FROM t")) {
        assertThatThrownBy(() -> rows(c, sql))
            .as(sql)
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("TIME(6)")
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("0A000");
      }
    }
  }

  @Test
  void badTimeTextIsRefusedAsADatetimeError() throws Exception {
    try (Connection c = table("10:00:00.123456");
        PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE tm = ?")) {
      assertThatThrownBy(() -> p.setString(1, "25:00:00"))
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("22007");
      assertThatThrownBy(() -> rows(c, "SELECT CAST('noon' AS TIME) FROM t"))
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("22007");
    }
  }

  private static List<Integer> ids(PreparedStatement p) throws SQLException {
    List<Integer> ids = new ArrayList<>();
    try (ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        ids.add(rs.getInt(1));
      }
    }
    return ids;
  }

  private static String explain(Connection c, String sql) throws SQLException {
    StringBuilder plan = new StringBuilder();
    for (List<String> row : rows(c, "EXPLAIN PLAN FOR " + sql)) {
      plan.append(String.join(" ", row)).append('\n');
    }
    return plan.toString();
  }
}
