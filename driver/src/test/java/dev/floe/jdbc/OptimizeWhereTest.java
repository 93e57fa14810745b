package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;

/** {@code ALTER TABLE t EXECUTE optimize WHERE ...}: compaction limited to whole partitions. */
class OptimizeWhereTest extends LakeFixture {
  private Table table(String name) {
    return new FolderCatalog(LakeLocation.parse(root.toString())).loadTable(List.of(name));
  }

  /** Data files per partition path. */
  private TreeMap<String, Integer> filesPerPartition(String name) throws Exception {
    Table t = table(name);
    TreeMap<String, Integer> files = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks = t.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        String path = t.specs().get(task.file().specId()).partitionToPath(task.file().partition());
        files.merge(path, 1, Integer::sum);
      }
    }
    return files;
  }

  private static Map<String, Long> call(Statement s, String sql) throws SQLException {
    Map<String, Long> row = new LinkedHashMap<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.put(rs.getMetaData().getColumnLabel(i), rs.getLong(i));
      }
      assertThat(rs.next()).isFalse();
    }
    return row;
  }

  private static List<String> warnings(Statement s) throws SQLException {
    List<String> lines = new ArrayList<>();
    for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
      lines.add(w.getMessage());
    }
    return lines;
  }

  private static long snapshots(Connection c, String name) throws SQLException {
    return Long.parseLong(single(c, "SELECT count(*) FROM \"" + name + "$snapshots\""));
  }

  @Test
  void whereOnAnIdentityPartitionCompactsOnlyThosePartitions() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      execute(c, "CREATE TABLE t (id INT, p INT, region VARCHAR) PARTITIONED BY (p, region)");
      for (int i = 0; i < 12; i++) {
        update(
            c,
            "INSERT INTO t VALUES ("
                + i
                + ", "
                + (i % 3)
                + ", '"
                + (i % 2 == 0 ? "eu" : "us")
                + "')");
        update(c, "INSERT INTO t VALUES (" + (i + 100) + ", " + (i % 3) + ", 'eu')");
      }
      String before = String.valueOf(rows(c, "SELECT * FROM t ORDER BY id"));
      TreeMap<String, Integer> filesBefore = filesPerPartition("t");

      Map<String, Long> row =
          call(s, "ALTER TABLE t EXECUTE optimize WHERE p = 1 AND region IN ('eu', 'us')");
      List<String> progress = warnings(s);
      TreeMap<String, Integer> after = filesPerPartition("t");
      assertThat(after.get("p=1/region=eu")).isEqualTo(1);
      assertThat(after.get("p=1/region=us")).isEqualTo(1);
      for (String other : List.of("p=0/region=eu", "p=0/region=us", "p=2/region=eu")) {
        assertThat(after.get(other)).as(other).isEqualTo(filesBefore.get(other));
      }
      assertThat(row.get("rewritten_data_files_count"))
          .isEqualTo(filesBefore.get("p=1/region=eu") + filesBefore.get("p=1/region=us"));
      assertThat(row.get("added_data_files_count")).isEqualTo(2);
      assertThat(progress).hasSize(2).allMatch(w -> w.contains("committed") && w.contains("p=1"));
      assertThat(String.valueOf(rows(c, "SELECT * FROM t ORDER BY id"))).isEqualTo(before);

      // NOT, OR, BETWEEN, comparisons with the literal first, and a quoted name
      call(
          s,
          "ALTER TABLE t EXECUTE optimize WHERE NOT (\"p\" = 1) AND (0 = p OR p BETWEEN 2 AND 9)");
      assertThat(filesPerPartition("t").values()).containsOnly(1);
      assertThat(String.valueOf(rows(c, "SELECT * FROM t ORDER BY id"))).isEqualTo(before);
    }
  }

  @Test
  void whereOnATransformedColumnSelectsPartitionsItDecides() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      execute(c, "CREATE TABLE e (id INT, ts TIMESTAMP, d DATE) PARTITIONED BY (day(ts))");
      for (int i = 0; i < 8; i++) {
        update(
            c,
            "INSERT INTO e VALUES ("
                + i
                + ", TIMESTAMP '2024-01-0"
                + (1 + i % 2)
                + " 1"
                + i
                + ":00:00', DATE '2024-01-01')");
      }
      String before = String.valueOf(rows(c, "SELECT * FROM e ORDER BY id"));
      // a whole day: decidable per partition
      Map<String, Long> row =
          call(
              s,
              "ALTER TABLE e EXECUTE optimize WHERE ts >= TIMESTAMP '2024-01-02 00:00:00'"
                  + " AND ts < TIMESTAMP '2024-01-03 00:00:00'");
      assertThat(row.get("rewritten_data_files_count")).isEqualTo(4);
      assertThat(filesPerPartition("e"))
          .containsEntry("ts_day=2024-01-02", 1)
          .containsEntry("ts_day=2024-01-01", 4);
      assertThat(String.valueOf(rows(c, "SELECT * FROM e ORDER BY id"))).isEqualTo(before);

      // part of a day: the partition holds rows it matches and rows it does not
      long snapshotsBefore = snapshots(c, "e");
      SQLException partial =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  call(
                      s,
                      "ALTER TABLE e EXECUTE optimize WHERE ts >= TIMESTAMP '2024-01-01 12:00:00'"));
      assertThat(partial.getSQLState()).isEqualTo("42000");
      assertThat(partial.getMessage()).contains("whole partitions", "ts_day=2024-01-01");
      assertThat(snapshots(c, "e")).isEqualTo(snapshotsBefore);
    }
  }

  @Test
  void whereOnANanosecondTimestampSelectsTheDaysItNames() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      execute(
          c,
          "CREATE TABLE n (id INT, ts TIMESTAMP(9)) PARTITIONED BY (day(ts))"
              + " WITH ('format-version' = '3')");
      for (int i = 0; i < 6; i++) {
        update(
            c,
            "INSERT INTO n VALUES ("
                + i
                + ", TIMESTAMP '2024-01-0"
                + (1 + i % 3)
                + " 10:00:00.123456789')");
      }
      String before = String.valueOf(rows(c, "SELECT * FROM n ORDER BY id"));
      Map<String, Long> row =
          call(
              s,
              "ALTER TABLE n EXECUTE optimize WHERE ts >= TIMESTAMP '2024-01-02 00:00:00'"
                  + " AND ts < DATE '2024-01-03'");
      assertThat(row.get("rewritten_data_files_count")).isEqualTo(2);
      assertThat(filesPerPartition("n"))
          .containsEntry("ts_day=2024-01-01", 2)
          .containsEntry("ts_day=2024-01-02", 1)
          .containsEntry("ts_day=2024-01-03", 2);
      assertThat(String.valueOf(rows(c, "SELECT * FROM n ORDER BY id"))).isEqualTo(before);
    }
  }

  @Test
  void badPredicatesAreRefusedAndCommitNothing() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      execute(c, "CREATE TABLE t (id INT, p INT, name VARCHAR) PARTITIONED BY (p)");
      execute(c, "CREATE TABLE u (id INT)");
      for (int i = 0; i < 4; i++) {
        update(c, "INSERT INTO t VALUES (" + i + ", " + (i % 2) + ", 'n" + i + "')");
        update(c, "INSERT INTO u VALUES (" + i + ")");
      }
      long snapshots = snapshots(c, "t");
      Map<String, String> cases = new LinkedHashMap<>();
      cases.put(
          "ALTER TABLE t EXECUTE optimize WHERE id = 1", "42000:id is not a partition column");
      cases.put("ALTER TABLE t EXECUTE optimize WHERE p = 1 OR name = 'x'", "42000:name");
      cases.put("ALTER TABLE t EXECUTE optimize WHERE nosuch = 1", "42S22:nosuch");
      // validated as SELECT * FROM t WHERE ... is: a comparison the query refuses, the query's
      // state; one it accepts but partitions cannot decide (no literal of the column's type), 42000
      cases.put("ALTER TABLE t EXECUTE optimize WHERE p = 'one'", "42000:literals of their types");
      cases.put("ALTER TABLE t EXECUTE optimize WHERE p = DATE '2024-01-01'", "42000:Cannot apply");
      cases.put("ALTER TABLE t EXECUTE optimize WHERE p = 1.5", "42000:literals of their types");
      cases.put("ALTER TABLE t EXECUTE optimize WHERE p + 1 = 2", "42000:compares partition");
      cases.put("ALTER TABLE t EXECUTE optimize WHERE p = id", "42000:id");
      cases.put("ALTER TABLE t EXECUTE optimize WHERE p = NULL", "42000:IS NULL");
      cases.put("ALTER TABLE u EXECUTE optimize WHERE id = 1", "42000:not partitioned");
      cases.put("ALTER TABLE t EXECUTE expire_snapshots WHERE p = 1", "42000:no WHERE");
      List<String> wrong = new ArrayList<>();
      for (Map.Entry<String, String> one : cases.entrySet()) {
        SQLException e = catchThrowableOfType(SQLException.class, () -> call(s, one.getKey()));
        String[] expected = one.getValue().split(":", 2);
        if (e == null) {
          wrong.add(one.getKey() + ": succeeded");
        } else if (!expected[0].equals(e.getSQLState())
            || !e.getMessage().contains(expected[1])
            || !e.getMessage().startsWith("Cannot ")) {
          wrong.add(one.getKey() + ": " + e.getSQLState() + " " + e.getMessage());
        }
      }
      assertThat(wrong).isEmpty();
      assertThat(snapshots(c, "t")).isEqualTo(snapshots);

      // a predicate that selects no partition: a row of zeros, no commit, no progress lines
      Map<String, Long> none = call(s, "ALTER TABLE t EXECUTE optimize WHERE p = 7");
      assertThat(none.values()).containsOnly(0L);
      assertThat(warnings(s)).isEmpty();
      assertThat(snapshots(c, "t")).isEqualTo(snapshots);
      assertThat(filesPerPartition("t")).containsEntry("p=0", 2).containsEntry("p=1", 2);
    }
  }
}
