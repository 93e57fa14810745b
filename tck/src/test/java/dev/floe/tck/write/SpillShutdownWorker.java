package dev.floe.tck.write;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

/**
 * A child-JVM program: fills a table of 2,000 rows, then sorts its cross join (4,000,000 rows)
 * under a 1 MB budget on another thread, again each time a sort fails, and ends the JVM once a sort
 * spill folder appears. Another shutdown hook keeps the JVM up for three seconds after Floe's has
 * deleted the folders (as a host's own hooks may), while the sorting thread goes on: no spill
 * folder may be left in the temp folder afterwards. Prints {@code spilling} before it exits, and
 * {@code failed SQLSTATE} for the first failure of a sort.
 *
 * <p>Arguments: the lake's URL, the temp folder the JVM's spill files go to.
 */
public final class SpillShutdownWorker {
  private SpillShutdownWorker() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("java.io.tmpdir", args[1]);
    Path temporary = Path.of(args[1]);
    try (Connection c = DriverManager.getConnection(args[0]);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id BIGINT, k INT)");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
        for (int i = 0; i < 2_000; i++) {
          p.setLong(1, i);
          p.setInt(2, i % 10);
          p.addBatch();
        }
        p.executeBatch();
      }
    }
    Thread sorting =
        new Thread(
            () -> {
              boolean reported = false;
              while (true) {
                try (Connection c = DriverManager.getConnection(args[0] + "?memoryBudget=1MB");
                    Statement s = c.createStatement();
                    ResultSet rs =
                        s.executeQuery(
                            "SELECT a.id, b.id FROM t a, t b ORDER BY a.k, b.id DESC, a.id")) {
                  while (rs.next()) {
                    // read to the end
                  }
                } catch (SQLException e) {
                  if (!reported) {
                    System.out.println("failed " + e.getSQLState());
                    reported = true;
                  }
                }
              }
            },
            "sorting");
    sorting.start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    Thread.sleep(3_000);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }));
    long until = System.nanoTime() + 120_000_000_000L;
    while (System.nanoTime() < until) {
      try (Stream<Path> list = Files.list(temporary)) {
        if (list.anyMatch(p -> p.getFileName().toString().startsWith("floe-sort-"))) {
          break;
        }
      }
      Thread.sleep(10);
    }
    System.out.println("spilling");
    System.exit(0);
  }
}
