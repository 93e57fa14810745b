package dev.floe.tck.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot expiry and orphan removal through the shaded driver on a table with a branch and a tag,
 * after writer processes were killed with {@code kill -9} in the middle of their INSERTs: dry runs
 * report and delete nothing, real runs delete what they reported, the table reads the same rows,
 * the refs survive, and nothing is left for a second run.
 */
class MaintenanceAfterKilledWritersTest {
  @TempDir Path sandbox;

  private static Map<String, Long> call(Connection c, String sql) throws Exception {
    Map<String, Long> row = new LinkedHashMap<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.put(rs.getMetaData().getColumnLabel(i), rs.getLong(i));
      }
    }
    return row;
  }

  private static long committed(ChildJvm child) {
    return child.lines().stream().filter(l -> l.startsWith("committed ")).count();
  }

  private static TreeSet<String> files(Path folder) throws Exception {
    TreeSet<String> files = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(folder)) {
      walk.filter(Files::isRegularFile).forEach(p -> files.add(folder.relativize(p).toString()));
    }
    return files;
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void expiryAndOrphanRemovalCleanUpAfterKilledWriters() throws Exception {
    Path lake = Files.createDirectories(sandbox.resolve("lake"));
    Path control = Files.createDirectories(sandbox.resolve("control"));
    Sql.run(lake, "CREATE TABLE t (writer INT NOT NULL, seq INT NOT NULL)");
    Sql.run(lake, "INSERT INTO t VALUES (0, 1)", "ALTER TABLE t CREATE TAG first");
    Sql.run(lake, "INSERT INTO t VALUES (0, 2)", "ALTER TABLE t CREATE BRANCH audit");
    List<ChildJvm> children = new ArrayList<>();
    for (int w = 1; w <= 3; w++) {
      children.add(
          ChildJvm.start(
              sandbox,
              WriteLocationTest.logFolder(),
              AppendWorker.class,
              List.of("jdbc:floe:" + lake, Integer.toString(w), "100000", control.toString())));
    }
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (Stream.of(1, 2, 3).anyMatch(w -> !Files.exists(control.resolve("ready-" + w)))
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    Files.createFile(control.resolve("go"));
    while (children.stream().mapToLong(MaintenanceAfterKilledWritersTest::committed).sum() < 30
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    for (ChildJvm child : children) {
      child.kill();
    }
    String url = "jdbc:floe:" + lake + "?maintenance.min-retention=0s";
    try (Connection c = DriverManager.getConnection(url)) {
      List<List<Object>> rows = Sql.rows(c, "SELECT writer, seq FROM t ORDER BY writer, seq");
      assertThat(rows.size()).isGreaterThan(2);
      Path table = lake.resolve("t");
      TreeSet<String> before = files(table);

      String expire =
          "ALTER TABLE t EXECUTE expire_snapshots(retention_threshold => '0s', retain_last => 1";
      Map<String, Long> dryExpire = call(c, expire + ", dry_run => true)");
      assertThat(files(table)).isEqualTo(before);
      assertThat(dryExpire.get("deleted_manifest_lists_count")).isPositive();
      assertThat(call(c, expire + ")")).isEqualTo(dryExpire);

      TreeSet<String> afterExpiry = files(table);
      String orphans = "ALTER TABLE t EXECUTE remove_orphan_files(retention_threshold => '0s'";
      Map<String, Long> dryOrphans = call(c, orphans + ", dry_run => true)");
      assertThat(files(table)).isEqualTo(afterExpiry);
      Map<String, Long> realOrphans = call(c, orphans + ")");
      assertThat(realOrphans.get("deleted_files_count"))
          .isEqualTo(dryOrphans.get("deleted_files_count"));
      assertThat(afterExpiry.size() - files(table).size())
          .isEqualTo(realOrphans.get("deleted_files_count").intValue());

      assertThat(call(c, orphans + ", dry_run => true)")).containsEntry("deleted_files_count", 0L);
      assertThat(call(c, expire + ", dry_run => true)")).containsEntry("deleted_bytes", 0L);
      assertThat(Sql.rows(c, "SELECT writer, seq FROM t ORDER BY writer, seq")).isEqualTo(rows);
      assertThat(Sql.count(c, "SELECT count(*) FROM t WHERE writer = 0")).isEqualTo(2);
      Sql.run(c, "ALTER TABLE t DROP TAG first", "ALTER TABLE t DROP BRANCH audit");
    }
  }
}
