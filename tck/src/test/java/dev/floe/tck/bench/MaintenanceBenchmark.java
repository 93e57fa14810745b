package dev.floe.tck.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A table as a year of small ETL writes leaves it: single-row INSERTs, then PreparedStatement
 * batches with a DELETE of 1 % of the rows after every tenth batch. Prints files and bytes and the
 * time of a full scan before and after {@code optimize}, and the bytes {@code expire_snapshots} and
 * {@code remove_orphan_files} free. A program, not a test; it needs only the driver jar.
 *
 * <p>Arguments: single-row inserts (default 1,000), batches (default 10,000), rows per batch
 * (default 100).
 */
public final class MaintenanceBenchmark {
  private MaintenanceBenchmark() {}

  public static void main(String[] args) throws Exception {
    int singles = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
    int batches = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int perBatch = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    Path root = Files.createTempDirectory("floe-maintenance-bench");
    try (Connection c =
        DriverManager.getConnection(
            "jdbc:floe:" + root + "?create=true&maintenance.min-retention=0s")) {
      Statement s = c.createStatement();
      s.execute(
          "CREATE TABLE t (id BIGINT, day DATE, v DOUBLE, label VARCHAR) PARTITIONED BY (day)"
              + " WITH ('format-version' = '2')");
      long started = System.nanoTime();
      long id = 0;
      for (int i = 0; i < singles; i++, id++) {
        s.executeUpdate(
            "INSERT INTO t VALUES ("
                + id
                + ", DATE '2024-01-"
                + String.format(Locale.ROOT, "%02d", 1 + id % 10)
                + "', "
                + id
                + ".5, 'row "
                + id
                + "')");
      }
      System.out.printf(Locale.ROOT, "%d single-row INSERTs: %.1f s%n", singles, seconds(started));
      started = System.nanoTime();
      int deletes = 0;
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
        for (int b = 0; b < batches; b++) {
          for (int r = 0; r < perBatch; r++, id++) {
            insert.setLong(1, id);
            insert.setObject(2, java.time.LocalDate.of(2024, 1, 1).plusDays(id % 10));
            insert.setDouble(3, id + 0.5);
            insert.setString(4, "row " + id);
            insert.addBatch();
          }
          insert.executeBatch();
          if (b % 10 == 9) {
            s.executeUpdate("DELETE FROM t WHERE MOD(id, 100) = " + (b / 10) % 100);
            deletes++;
          }
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%d batches of %d rows, %d DELETEs of 1 %%: %.1f s%n",
          batches,
          perBatch,
          deletes,
          seconds(started));
      Path table = root.resolve("t");
      report("before optimize", s, table);
      scan(s, "full scan before optimize");

      started = System.nanoTime();
      print(s, "ALTER TABLE t EXECUTE optimize", started);
      report("after optimize", s, table);
      scan(s, "full scan after optimize");

      long before = bytes(table);
      started = System.nanoTime();
      print(
          s,
          "ALTER TABLE t EXECUTE expire_snapshots(retention_threshold => '0s', retain_last => 1)",
          started);
      long afterExpiry = bytes(table);
      started = System.nanoTime();
      print(s, "ALTER TABLE t EXECUTE remove_orphan_files(retention_threshold => '0s')", started);
      long afterOrphans = bytes(table);
      System.out.printf(
          Locale.ROOT,
          "freed on disk: expiry %.1f MB, orphan removal %.1f MB%n",
          (before - afterExpiry) / 1e6,
          (afterExpiry - afterOrphans) / 1e6);
      report("after expiry and orphan removal", s, table);
      scan(s, "full scan at the end");
    } finally {
      BenchLake.deleteTree(root);
    }
  }

  private static double seconds(long started) {
    return (System.nanoTime() - started) / 1e9;
  }

  private static void print(Statement s, String sql, long started) throws Exception {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      StringBuilder row = new StringBuilder();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.append(rs.getMetaData().getColumnLabel(i))
            .append('=')
            .append(rs.getLong(i))
            .append(' ');
      }
      System.out.printf(Locale.ROOT, "%s: %s(%.1f s)%n", sql, row, seconds(started));
    }
  }

  private static void scan(Statement s, String what) throws Exception {
    for (int run = 1; run <= 3; run++) {
      long started = System.nanoTime();
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(v), MAX(label) FROM t")) {
        rs.next();
        System.out.printf(
            Locale.ROOT,
            "%s (run %d): %d rows, %.3f s%n",
            what,
            run,
            rs.getLong(1),
            seconds(started));
      }
    }
  }

  private static void report(String when, Statement s, Path table) throws Exception {
    long dataFiles = 0;
    long deleteFiles = 0;
    try (ResultSet rs =
        s.executeQuery("SELECT content, COUNT(*) FROM \"t$files\" GROUP BY content")) {
      while (rs.next()) {
        if (rs.getInt(1) == 0) {
          dataFiles += rs.getLong(2);
        } else {
          deleteFiles += rs.getLong(2);
        }
      }
    }
    long snapshots;
    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"t$snapshots\"")) {
      rs.next();
      snapshots = rs.getLong(1);
    }
    System.out.printf(
        Locale.ROOT,
        "%s: %d live data files, %d live delete files, %d snapshots; on disk %d files, %.1f MB"
            + " (data/ %.1f MB, metadata/ %.1f MB)%n",
        when,
        dataFiles,
        deleteFiles,
        snapshots,
        count(table),
        bytes(table) / 1e6,
        bytes(table.resolve("data")) / 1e6,
        bytes(table.resolve("metadata")) / 1e6);
  }

  private static long count(Path folder) throws IOException {
    try (Stream<Path> walk = Files.walk(folder)) {
      return walk.filter(Files::isRegularFile).count();
    }
  }

  private static long bytes(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return 0;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      return walk.filter(Files::isRegularFile)
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  return 0;
                }
              })
          .sum();
    }
  }
}
