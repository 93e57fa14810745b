package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filters the scan tests on its decoded batches (a column compared with another, {@code [NOT] LIKE}
 * with a pattern of text and {@code %}) keep the rows Calcite's own filter keeps: every query runs
 * as written (EXPLAIN shows the scan's {@code condition}) and with its condition written as {@code
 * (condition) = (RAND() >= 0)}, which keeps the same rows (TRUE = TRUE) but which the scan does not
 * take, so Calcite filters the rows itself. The table has NULLs in every column, position deletes,
 * strings with line breaks and characters special to regular expressions, DECIMAL(38, 2) columns
 * (not decoded into primitive vectors, so compared row by row), and DOUBLE columns with NaN and
 * -0.0, whose comparisons stay Calcite's.
 */
class ConditionInScanTest {
  @TempDir Path lake;

  private static final String[] STRINGS = {
    "special requests",
    "no special here",
    "line1\nspecial\nrequests",
    "a.b",
    "axb",
    "50%",
    "50 cents",
    "",
    "Customer Complaints",
    "\\x(y)[z]$",
    "SPECIAL REQUESTS",
    null
  };

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + lake);
  }

  private static LocalDate date(int id, int salt) {
    return LocalDate.of(2020, 1, 1).plusDays((id * salt) % 17);
  }

  /** Rows 0..count), NULLs where {@code id % 11} picks the column. */
  private static void fill(Connection c, String table, int from, int count, boolean binary)
      throws SQLException {
    String columns = binary ? "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?" : "?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
    try (PreparedStatement insert =
        c.prepareStatement("INSERT INTO " + table + " VALUES (" + columns + ")")) {
      for (int id = from; id < from + count; id++) {
        insert.setInt(1, id);
        setOrNull(insert, 2, id % 11 == 1 ? null : Date.valueOf(date(id, 3)), Types.DATE);
        setOrNull(insert, 3, id % 11 == 2 ? null : Date.valueOf(date(id, 5)), Types.DATE);
        setOrNull(insert, 4, STRINGS[id % STRINGS.length], Types.VARCHAR);
        setOrNull(insert, 5, id % 11 == 3 ? null : id % 5, Types.INTEGER);
        setOrNull(insert, 6, id % 11 == 4 ? null : id % 3, Types.INTEGER);
        setOrNull(
            insert,
            7,
            id % 11 == 5 ? null : new java.math.BigDecimal(id % 9).movePointLeft(1),
            Types.DECIMAL);
        setOrNull(
            insert,
            8,
            id % 11 == 6 ? null : new java.math.BigDecimal(id % 4).movePointLeft(1),
            Types.DECIMAL);
        setOrNull(
            insert, 9, id % 11 == 7 ? null : id % 13 == 0 ? -0.0 : (id % 6) * 0.5, Types.DOUBLE);
        setOrNull(
            insert,
            10,
            id % 11 == 8 ? null : id % 17 == 0 ? Double.NaN : (id % 4) * 0.75,
            Types.DOUBLE);
        if (binary) {
          insert.setBytes(11, new byte[] {(byte) id});
        }
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  private static void setOrNull(PreparedStatement s, int i, Object value, int type)
      throws SQLException {
    if (value == null) {
      s.setNull(i, type);
    } else {
      s.setObject(i, value, type);
    }
  }

  private void createTable(Statement s, Connection c, String table, boolean binary)
      throws SQLException {
    s.executeUpdate(
        "CREATE TABLE "
            + table
            + " (id INTEGER, a DATE, b DATE, s VARCHAR, n INTEGER, m INTEGER,"
            + " p DECIMAL(38, 2), q DECIMAL(38, 2), x DOUBLE, y DOUBLE"
            + (binary ? ", bin VARBINARY)" : ")")
            + " TBLPROPERTIES ('write.delete.mode' = 'merge-on-read')");
    fill(c, table, 0, 300, binary);
    fill(c, table, 300, 250, binary);
    s.executeUpdate("DELETE FROM " + table + " WHERE id % 7 = 0");
  }

  /** Conditions the scan tests. */
  private static final List<String> TESTED =
      List.of(
          "a < b",
          "a <= b",
          "a = b",
          "a <> b",
          "a > b AND n < m",
          "n = m",
          "p < q",
          "p = q",
          "s LIKE '%special%requests%'",
          "s NOT LIKE '%special%requests%'",
          "s LIKE 'a.b'",
          "s LIKE '%.%'",
          "s LIKE '%\\x(y)[z]$'",
          "s LIKE '%special%' AND a >= b",
          "a < b OR s LIKE '%x%'",
          "s NOT LIKE 'special%' OR a < b");

  /**
   * Conditions it leaves to Iceberg's filter (a prefix) or to Calcite (the answers must still
   * agree).
   */
  private static final List<String> LEFT =
      List.of(
          "s LIKE 'a_b'",
          "s LIKE '50%'",
          "s LIKE '%'",
          "s LIKE ''",
          "s ILIKE '%SPECIAL%'",
          "s LIKE '%special%' OR UPPER(s) = 'AXB'",
          "x < y",
          "x = y",
          "x <> y AND a < b",
          "EXTRACT(YEAR FROM a) = EXTRACT(YEAR FROM b)",
          "EXTRACT(MONTH FROM a) > 6 AND EXTRACT(DAY FROM b) <= 15",
          "EXTRACT(QUARTER FROM a) = n");

  @Test
  void conditionsTestedInTheScanKeepTheRowsCalciteKeeps() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      createTable(s, c, "t", false);
      for (String condition : TESTED) {
        String sql = "SELECT id, s, a FROM t WHERE " + condition;
        assertThat(plan(s, sql)).as(sql).contains(", condition=[");
        sameAsCalcite(s, sql, condition);
        String grouped =
            "SELECT n, COUNT(*), SUM(m), MAX(s) FROM t WHERE " + condition + " GROUP BY n";
        assertThat(plan(s, grouped)).as(grouped).contains(", condition=[").contains("aggregate=");
        sameAsCalcite(s, grouped, condition);
      }
      for (String condition : LEFT) {
        sameAsCalcite(s, "SELECT id, s FROM t WHERE " + condition, condition);
      }
      // Spot checks against values counted here, so both paths cannot be wrong together.
      int earlier = 0;
      int special = 0;
      int dotted = 0;
      for (int id = 0; id < 550; id++) {
        if (id % 7 == 0) {
          continue;
        }
        if (id % 11 != 1 && id % 11 != 2 && date(id, 3).isBefore(date(id, 5))) {
          earlier++;
        }
        String text = STRINGS[id % STRINGS.length];
        if (text != null && text.matches("(?s).*special.*requests.*")) {
          special++;
        }
        if (text != null && text.contains(".")) {
          dotted++;
        }
      }
      assertThat(rows(s, "SELECT COUNT(*) FROM t WHERE a < b"))
          .containsExactly("[" + earlier + "]");
      assertThat(rows(s, "SELECT COUNT(*) FROM t WHERE s LIKE '%special%requests%'"))
          .containsExactly("[" + special + "]");
      assertThat(rows(s, "SELECT COUNT(*) FROM t WHERE s LIKE '%.%'"))
          .containsExactly("[" + dotted + "]");
    }
  }

  @Test
  void filesReadRowByRowTestTheSameConditions() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      createTable(s, c, "t2", true);
      for (String condition : TESTED) {
        String sql = "SELECT id, bin, s FROM t2 WHERE " + condition;
        assertThat(plan(s, sql)).as(sql).contains(", condition=[");
        sameAsCalcite(s, sql, condition);
      }
    }
  }

  @Test
  void aConditionWithALimitStopsAfterTheRowsItKeeps() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      createTable(s, c, "t", false);
      List<String> limited = rows(s, "SELECT id FROM t WHERE s LIKE '%special%' LIMIT 5");
      assertThat(limited).hasSize(5);
      List<String> all = rows(s, "SELECT id FROM t WHERE s LIKE '%special%'");
      assertThat(all).containsAll(limited);
    }
  }

  private static void sameAsCalcite(Statement s, String sql, String condition) throws SQLException {
    String oracle = sql.replace("WHERE " + condition, "WHERE (" + condition + ") = (RAND() >= 0)");
    assertThat(oracle).isNotEqualTo(sql);
    assertThat(plan(s, oracle)).as(oracle).doesNotContain(", condition=[");
    assertThat(rows(s, sql)).as(sql).isEqualTo(rows(s, oracle));
  }

  private static List<String> rows(Statement s, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Object[] values = new Object[columns];
        for (int i = 0; i < columns; i++) {
          Object value = rs.getObject(i + 1);
          values[i] = value instanceof byte[] bytes ? Arrays.toString(bytes) : value;
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
}
