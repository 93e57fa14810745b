package dev.floe.tck.write;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A child-JVM writer: connects, signals it is ready, waits for the start signal, then appends rows
 * {@code (writer, 1..count)} to table {@code t}, one autocommit INSERT each. Prints {@code
 * committed W I} when an INSERT returned, {@code failed W I SQLSTATE message} when it threw.
 *
 * <p>Arguments: URL, writer number, count, control folder (ready and go files).
 */
public final class AppendWorker {
  private AppendWorker() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int writer = Integer.parseInt(args[1]);
    int count = Integer.parseInt(args[2]);
    Path control = Path.of(args[3]);
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.executeQuery("SELECT count(*) FROM t").close(); // warm up before the race starts
      Files.createFile(control.resolve("ready-" + writer));
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (!Files.exists(control.resolve("go")) && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      for (int i = 1; i <= count; i++) {
        try {
          int n = s.executeUpdate("INSERT INTO t VALUES (" + writer + ", " + i + ")");
          System.out.println((n == 1 ? "committed " : "miscounted ") + writer + " " + i);
        } catch (SQLException e) {
          System.out.println(
              "failed " + writer + " " + i + " " + e.getSQLState() + " " + e.getMessage());
        }
      }
    }
  }
}
