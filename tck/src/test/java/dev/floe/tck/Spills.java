package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** What the tests of spilling joins, sorts and aggregates share: their temp folder and cancel. */
final class Spills {
  private Spills() {}

  /**
   * Points {@code java.io.tmpdir} at {@code temporary} and returns what it was. The JDK keeps the
   * temporary folder it first sees (java.io.File's and NIO's own): both see the real one first, so
   * that nothing after the test (a native library unpacked later) is sent to its folder once it is
   * deleted.
   */
  static String redirectTemporaryFolder(Path temporary) throws IOException {
    java.io.File.createTempFile("floe-spill-test", null).delete();
    Files.deleteIfExists(Files.createTempFile("floe-spill-test", null));
    String before = System.getProperty("java.io.tmpdir");
    System.setProperty("java.io.tmpdir", temporary.toString());
    return before;
  }

  /** The spill folders of joins, sorts and aggregates in the temporary folder now. */
  static List<Path> folders() throws IOException {
    try (Stream<Path> list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return list.filter(
              p ->
                  p.getFileName().toString().startsWith("floe-join-")
                      || p.getFileName().toString().startsWith("floe-sort-")
                      || p.getFileName().toString().startsWith("floe-agg-"))
          .toList();
    }
  }

  /**
   * Runs a query on {@code lake} with a 1 MB budget, cancels it once a spill folder appears, and
   * checks that it stops with 57014 within a second (and slack for a machine shared with other
   * builds), deletes its files and leaves its connection usable.
   */
  static void cancelWhileSpilling(Path lake, String query, String what) throws Exception {
    ExecutorService runner = Executors.newSingleThreadExecutor();
    try (Connection budget =
            DriverManager.getConnection("jdbc:floe:" + lake + "?memoryBudget=1MB");
        Statement statement = budget.createStatement()) {
      Future<Object> run =
          runner.submit(
              () -> {
                try (var rs = statement.executeQuery(query)) {
                  rs.next();
                  return "finished";
                } catch (SQLException e) {
                  return e;
                }
              });
      long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (folders().isEmpty() && !run.isDone() && System.nanoTime() < waitUntil) {
        Thread.sleep(20);
      }
      assertThat(folders()).as(what + " spilled").isNotEmpty();
      Thread.sleep(50);
      long start = System.nanoTime();
      statement.cancel();
      Object outcome = run.get(30, TimeUnit.SECONDS);
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(outcome).isInstanceOf(SQLException.class);
      assertThat(((SQLException) outcome).getSQLState()).isEqualTo("57014");
      assertThat(millis).isLessThan(3_000);
      assertThat(folders()).isEmpty();
      assertThat(budget.isValid(5)).isTrue();
    } finally {
      runner.shutdownNow();
    }
  }
}
