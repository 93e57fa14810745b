package dev.floe.tck.write;

import static dev.floe.tck.write.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every statement that writes rows assigns its values by the one rule INSERT follows (docs/sql.md,
 * "Assignment"): MERGE, CREATE TABLE AS SELECT and UPDATE keep a TIME's microseconds, refuse a DATE
 * for an INTEGER column as INSERT does (42804, nothing written), handle nested columns, and a
 * literal and a parameter are rounded the same way. Values are read back with Iceberg's own reader
 * as well as through JDBC.
 */
class AssignmentTest {
  @TempDir Path lake;

  @Test
  void mergeKeepsTheFractionOfATimeItDoesNotChange() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t (id INT, tm TIME, v INT)",
          "INSERT INTO t VALUES (1, TIME '00:00:01.5', 0), (2, TIME '10:11:12', 0),"
              + " (3, TIME '23:59:59.999999', 0)");
      assertThat(
              Sql.update(
                  c,
                  "MERGE INTO t USING (SELECT id FROM t) s ON t.id = s.id"
                      + " WHEN MATCHED THEN UPDATE SET v = 1"))
          .isEqualTo(3);
      assertThat(times(c, "t"))
          .containsExactly("1 00:00:01.500 1", "2 10:11:12 1", "3 23:59:59.999999 1");
      assertThat(IcebergView.of(lake.resolve("t")).rows())
          .containsExactly(
              row(1, LocalTime.parse("00:00:01.5"), 1),
              row(2, LocalTime.parse("10:11:12"), 1),
              row(3, LocalTime.parse("23:59:59.999999"), 1));
    }
  }

  @Test
  void createTableAsSelectCopiesTimesExactly() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t (id INT, tm TIME, v INT)",
          "INSERT INTO t VALUES (1, TIME '00:00:01.5', 0), (2, TIME '10:11:12', 0)",
          "CREATE TABLE c AS SELECT * FROM t",
          "CREATE OR REPLACE TABLE t AS SELECT * FROM c");
      assertThat(times(c, "c")).containsExactly("1 00:00:01.500 0", "2 10:11:12 0");
      assertThat(times(c, "t")).containsExactly("1 00:00:01.500 0", "2 10:11:12 0");
    }
  }

  @Test
  void mergeRefusesADateForAnIntegerColumnAsInsertDoes() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, "CREATE TABLE t (id INT, i INT)", "INSERT INTO t VALUES (1, 1)");
      SortedSet<String> before = FolderListing.files(lake);
      SQLException insert =
          catchThrowableOfType(
              SQLException.class,
              () -> Sql.update(c, "INSERT INTO t VALUES (2, DATE '2024-01-01')"));
      SQLException mergeInsert =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  Sql.update(
                      c,
                      "MERGE INTO t USING (SELECT 5 AS id) s ON t.id = s.id"
                          + " WHEN NOT MATCHED THEN INSERT VALUES (s.id, DATE '2024-01-01')"));
      SQLException mergeUpdate =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  Sql.update(
                      c,
                      "MERGE INTO t USING (SELECT 1 AS id) s ON t.id = s.id"
                          + " WHEN MATCHED THEN UPDATE SET i = DATE '2024-01-01'"));
      SQLException update =
          catchThrowableOfType(
              SQLException.class, () -> Sql.update(c, "UPDATE t SET i = DATE '2024-01-01'"));
      for (SQLException e : List.of(insert, mergeInsert, mergeUpdate, update)) {
        assertThat(e.getSQLState()).isEqualTo("42804");
        assertThat(e.getMessage()).contains("i").contains("DATE").contains("INTEGER");
      }
      assertThat(FolderListing.files(lake)).isEqualTo(before);
      assertThat(IcebergView.of(lake.resolve("t")).rows()).containsExactly(row(1, 1));
    }
  }

  @Test
  void timestampsAndBooleansIntoIntegersAreRefusedAsWell() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, "CREATE TABLE t (id INT, i INT)");
      for (String value : List.of("TIMESTAMP '2024-01-01 00:00:00'", "TIME '10:00:00'", "TRUE")) {
        SQLException e =
            catchThrowableOfType(
                SQLException.class, () -> Sql.update(c, "INSERT INTO t VALUES (1, " + value + ")"));
        assertThat(e.getSQLState()).as(value).isEqualTo("42804");
      }
      assertThat(IcebergView.of(lake.resolve("t")).rows()).isEmpty();
    }
  }

  @Test
  void mergeWritesTablesWithArrayMapAndRowColumns() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE n (id INT, a ARRAY<INT>, m MAP<VARCHAR, INT>,"
              + " r ROW(t TIME, ts TIMESTAMP(6)))",
          "INSERT INTO n VALUES (1, ARRAY[1, 2], MAP['k', 7],"
              + " ROW(TIME '10:11:12.123456', TIMESTAMP '2024-01-01 10:11:12.123456'))");
      Sql.update(
          c,
          "MERGE INTO n USING (SELECT 1 AS id UNION ALL SELECT 2) s ON n.id = s.id"
              + " WHEN MATCHED THEN UPDATE SET id = 10"
              + " WHEN NOT MATCHED THEN INSERT VALUES (s.id, ARRAY[3], MAP['q', 8],"
              + " ROW(TIME '00:00:00.000001', TIMESTAMP '0001-01-01 00:00:00'))");
      assertThat(
              Sql.lines(c, "SELECT id, n.a[1], n.m['k'], n.m['q'], n.r.t, n.r.ts FROM n").stream()
                  .sorted()
                  .toList())
          .containsExactly(
              "10 1 7 null 10:11:12.123456 2024-01-01 10:11:12.123456",
              "2 3 null 8 00:00:00.000001 0001-01-01 00:00:00");
      List<String> iceberg = new ArrayList<>();
      for (List<Object> r : IcebergView.of(lake.resolve("n")).rows()) {
        iceberg.add(r.toString());
      }
      assertThat(iceberg)
          .containsExactlyInAnyOrder(
              "[10, [1, 2], {k=7}, Record(10:11:12.123456, 2024-01-01T10:11:12.123456)]",
              "[2, [3], {q=8}, Record(00:00:00.000001, 0001-01-01T00:00)]");
    }
  }

  @Test
  void aMergeInsertNamingAColumnTwiceIsRefused() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, "CREATE TABLE t (id INT, i INT)");
      SortedSet<String> before = FolderListing.files(lake);
      SQLException insert =
          catchThrowableOfType(
              SQLException.class, () -> Sql.update(c, "INSERT INTO t (id, id) VALUES (1, 2)"));
      SQLException merge =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  Sql.update(
                      c,
                      "MERGE INTO t USING (SELECT 7 AS id) s ON t.id = s.id"
                          + " WHEN NOT MATCHED THEN INSERT (id, id) VALUES (s.id, 8)"));
      assertThat(insert.getSQLState()).isEqualTo("42000");
      assertThat(merge.getSQLState()).isEqualTo("42000");
      assertThat(merge.getMessage()).contains("id").contains("more than once");
      assertThat(FolderListing.files(lake)).isEqualTo(before);
    }
  }

  @Test
  void literalsAndParametersAreRoundedHalfUpAlike() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t (k VARCHAR, i INT, b BIGINT, d DECIMAL(5, 1))",
          "INSERT INTO t VALUES ('literal', 1.5, 2.5, 0.25), ('negative', -1.5, -2.5, -0.25)",
          "INSERT INTO t SELECT 'expression', 3.5, 4.5, 0.35 FROM t WHERE k = 'literal'");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
        p.setString(1, "double");
        p.setDouble(2, 1.5);
        p.setDouble(3, 2.5);
        p.setDouble(4, 0.25);
        p.executeUpdate();
        p.setString(1, "decimal");
        p.setBigDecimal(2, new BigDecimal("1.5"));
        p.setBigDecimal(3, new BigDecimal("2.5"));
        p.setBigDecimal(4, new BigDecimal("0.25"));
        p.addBatch();
        p.executeBatch();
      }
      Sql.update(
          c,
          "MERGE INTO t USING (SELECT 'merge' AS k) s ON t.k = s.k"
              + " WHEN NOT MATCHED THEN INSERT VALUES (s.k, 1.5, 2.5, 0.25)");
      assertThat(Sql.lines(c, "SELECT k, i, b, d FROM t ORDER BY k"))
          .containsExactly(
              "decimal 2 3 0.3",
              "double 2 3 0.3",
              "expression 4 5 0.4",
              "literal 2 3 0.3",
              "merge 2 3 0.3",
              "negative -2 -3 -0.3");
    }
  }

  @Test
  void aNumberThatDoesNotFitIsRefusedWhateverStatementWritesIt() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, "CREATE TABLE t (id INT, i INT)", "INSERT INTO t VALUES (1, 1)");
      for (String sql :
          List.of(
              "INSERT INTO t VALUES (2, 3000000000)",
              "INSERT INTO t SELECT 2, CAST(3000000000 AS BIGINT) FROM t",
              "UPDATE t SET i = CAST(3000000000 AS BIGINT)",
              "MERGE INTO t USING (SELECT 1 AS id) s ON t.id = s.id"
                  + " WHEN MATCHED THEN UPDATE SET i = CAST(3000000000 AS BIGINT)")) {
        SQLException e = catchThrowableOfType(SQLException.class, () -> Sql.update(c, sql));
        assertThat(e.getSQLState()).as(sql).isEqualTo("22003");
      }
      assertThat(IcebergView.of(lake.resolve("t")).rows()).containsExactly(row(1, 1));
    }
  }

  @Test
  void textColumnsGetDatetimesAsTextWhateverStatementWritesThem() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t (id INT, s VARCHAR)",
          "INSERT INTO t VALUES (1, DATE '2024-01-01')",
          "INSERT INTO t VALUES (2, TIME '10:11:12.123456')");
      Sql.update(
          c,
          "MERGE INTO t USING (SELECT 3 AS id UNION ALL SELECT 4) s ON t.id = s.id"
              + " WHEN NOT MATCHED AND s.id = 3 THEN INSERT VALUES (s.id, DATE '2024-01-01')"
              + " WHEN NOT MATCHED THEN INSERT VALUES (s.id, TIME '10:11:12.123456')");
      assertThat(Sql.lines(c, "SELECT id, s FROM t ORDER BY id"))
          .containsExactly(
              "1 2024-01-01", "2 10:11:12.123456", "3 2024-01-01", "4 10:11:12.123456");
    }
  }

  @Test
  void createTableAsSelectOfNanosecondsMakesAFormatVersion3Table() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.update(
          c,
          "CREATE TABLE n AS SELECT CAST(TIMESTAMP '2024-01-01 10:11:12.123456789' AS TIMESTAMP(9))"
              + " AS ts");
      assertThat(Sql.lines(c, "SELECT ts FROM n")).containsExactly("2024-01-01 10:11:12.123456789");
      assertThat(
              ((org.apache.iceberg.BaseTable) IcebergView.of(lake.resolve("n")).table())
                  .operations()
                  .current()
                  .formatVersion())
          .isEqualTo(3);
      SQLException v2 =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  Sql.update(
                      c, "CREATE TABLE n2 WITH ('format-version' = '2') AS SELECT * FROM n"));
      assertThat(v2.getSQLState()).isEqualTo("0A000");
      assertThat(v2.getMessage()).contains("format version");
      assertThat(FolderListing.files(lake).stream().filter(f -> f.startsWith("n2"))).isEmpty();
    }
  }

  /**
   * A plain CREATE TABLE with a TIMESTAMP(9) column takes the same rule as CREATE TABLE AS: format
   * version 3 when none is given, 0A000 for a version below 3. Adding such a column to a version 2
   * table is 0A000 too, and changes nothing. Before, both were an internal error (Iceberg's schema
   * check).
   */
  @Test
  void createAndAlterOfANanosecondColumnFollowTheFormatVersionRule() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.update(c, "CREATE TABLE p (ts TIMESTAMP(9), i INT)");
      Sql.update(c, "INSERT INTO p VALUES (TIMESTAMP '2024-01-01 10:11:12.123456789', 1)");
      assertThat(Sql.lines(c, "SELECT ts, i FROM p"))
          .containsExactly("2024-01-01 10:11:12.123456789 1");
      assertThat(formatVersion("p")).isEqualTo(3);
      SQLException v2 =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  Sql.update(c, "CREATE TABLE q (ts TIMESTAMP(9)) WITH ('format-version' = '2')"));
      assertThat(v2.getSQLState()).isEqualTo("0A000");
      assertThat(v2.getMessage()).contains("format version 2");
      assertThat(FolderListing.files(lake).stream().filter(f -> f.startsWith("q/"))).isEmpty();

      Sql.update(c, "CREATE TABLE r (i INT)");
      Sql.update(c, "INSERT INTO r VALUES (7)");
      SQLException add =
          catchThrowableOfType(
              SQLException.class, () -> Sql.update(c, "ALTER TABLE r ADD COLUMN ts TIMESTAMP(9)"));
      assertThat(add.getSQLState()).isEqualTo("0A000");
      assertThat(Sql.lines(c, "SELECT * FROM r")).containsExactly("7");

      Sql.update(c, "CREATE OR REPLACE TABLE r (ts TIMESTAMP(9))");
      assertThat(formatVersion("r")).isEqualTo(3);
    }
  }

  private int formatVersion(String table) {
    return ((org.apache.iceberg.BaseTable) IcebergView.of(lake.resolve(table)).table())
        .operations()
        .current()
        .formatVersion();
  }

  /** Each row of a table of (id, tm, v) as "id time v", the time read exactly. */
  private static List<String> times(Connection c, String table) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, tm, v FROM " + table + " ORDER BY id")) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + " " + rs.getObject(2, LocalTime.class) + " " + rs.getInt(3));
      }
    }
    return rows;
  }
}
