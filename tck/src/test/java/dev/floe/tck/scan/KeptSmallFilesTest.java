package dev.floe.tck.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.tck.JarDriver;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small data files are kept decoded after their first read (through the shaded jar), and what a
 * kept file gives is always what opening it would give: deletes written after it was kept, columns
 * added, renamed and widened after it was kept, time travel to before a delete, filters that would
 * have skipped it, and a second connection all see exactly the rows of the snapshot they read.
 */
class KeptSmallFilesTest {
  @TempDir Path lake;

  @Test
  void keptFilesAnswerAsTheFilesDoThroughDeletesSchemaChangesAndTimeTravel() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (a INTEGER, s VARCHAR, d DOUBLE)");
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        String text = i % 4 == 0 ? "NULL" : "'s" + i + "'";
        String value = i % 5 == 0 ? "NULL" : i + ".5";
        s.executeUpdate("INSERT INTO t VALUES (" + i + ", " + text + ", " + value + ")");
        expected.add(
            i + " " + (i % 4 == 0 ? "null" : "s" + i) + " " + (i % 5 == 0 ? "null" : i + ".5"));
      }
      int keptBefore = keptFiles();
      assertThat(rows(s, "SELECT a, s, d FROM t ORDER BY a")).isEqualTo(expected);
      assertThat(keptFiles()).as("files kept by the first read").isGreaterThanOrEqualTo(12);
      assertThat(keptFiles() - keptBefore).isGreaterThanOrEqualTo(12);
      // read again, now from what was kept: the same rows, filters and aggregates alike
      assertThat(rows(s, "SELECT a, s, d FROM t ORDER BY a")).isEqualTo(expected);
      assertThat(rows(s, "SELECT a FROM t WHERE d > 6 ORDER BY a"))
          .containsExactly("6", "7", "8", "9", "11");
      assertThat(rows(s, "SELECT count(*), sum(a), count(s), count(d) FROM t WHERE a >= 2"))
          .containsExactly("10 65 8 8");
      assertThat(
              rows(
                  s,
                  "SELECT (SELECT count(*) FROM t AS x WHERE x.a < t.a AND x.s IS NOT NULL), a"
                      + " FROM t WHERE a < 5 ORDER BY a"))
          .containsExactly("0 0", "0 1", "1 2", "2 3", "3 4");
      long before = snapshotId(s);

      // deletes written after the files were kept apply to them
      assertThat(s.executeUpdate("DELETE FROM t WHERE a IN (3, 7)")).isEqualTo(2);
      assertThat(rows(s, "SELECT a FROM t WHERE a BETWEEN 2 AND 8 ORDER BY a"))
          .containsExactly("2", "4", "5", "6", "8");
      assertThat(s.executeUpdate("UPDATE t SET s = 'changed' WHERE a = 5")).isEqualTo(1);
      assertThat(rows(s, "SELECT s FROM t WHERE a = 5")).containsExactly("changed");

      // time travel to before the delete: the kept files' rows, no delete applied
      assertThat(
              rows(
                  s,
                  "SELECT a FROM t FOR VERSION AS OF " + before + " WHERE a IN (3, 7) ORDER BY a"))
          .containsExactly("3", "7");
      assertThat(rows(s, "SELECT s FROM t FOR VERSION AS OF " + before + " WHERE a = 5"))
          .containsExactly("s5");

      // schema changes after the files were kept: the columns read differ, so do the rows
      s.execute("ALTER TABLE t ADD COLUMN n BIGINT");
      s.execute("ALTER TABLE t RENAME COLUMN s TO label");
      s.execute("ALTER TABLE t ALTER COLUMN a TYPE BIGINT");
      s.executeUpdate("INSERT INTO t VALUES (20, 'new', 1.0, 99)");
      assertThat(rows(s, "SELECT a, label, n FROM t WHERE a IN (1, 5, 20) ORDER BY a"))
          .containsExactly("1 s1 null", "5 changed null", "20 new 99");
      try (ResultSet rs = s.executeQuery("SELECT a FROM t WHERE a = 1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1)).isEqualTo(1L);
      }

      // another connection reads the same committed rows
      try (Connection other = DriverManager.getConnection("jdbc:floe:" + lake);
          Statement o = other.createStatement()) {
        assertThat(rows(o, "SELECT count(*), sum(a) FROM t")).containsExactly("11 76");
      }
    }
  }

  private static long snapshotId(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT snapshot_id FROM \"t$refs\" WHERE name = 'main'")) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  /** How many small files the driver keeps decoded (its class loader's store). */
  private static int keptFiles() throws Exception {
    Class<?> files = Class.forName("dev.floe.planner.scan.SmallFiles", true, JarDriver.loader());
    Method size = files.getDeclaredMethod("size");
    size.setAccessible(true);
    return (Integer) size.invoke(null);
  }

  private static List<String> rows(Statement s, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          if (i > 1) {
            row.append(' ');
          }
          row.append(rs.getString(i));
        }
        out.add(row.toString());
      }
    }
    return out;
  }
}
