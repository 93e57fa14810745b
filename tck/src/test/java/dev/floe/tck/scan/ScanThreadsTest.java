package dev.floe.tck.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which threads read a scan's files (through the shaded jar): a few small local files are read on
 * the statement's own thread, where handing them to the scan workers cost more than reading them;
 * larger tables are read by the workers. Both answer as a scan on one thread does.
 */
class ScanThreadsTest {
  @TempDir Path lake;

  /**
   * A join reads its inputs through the row scan, a filtered count through the aggregating scan (a
   * LIKE, which no file statistics answer).
   */
  private static final List<String> QUERIES =
      List.of(
          "SELECT count(*) FROM %1$s a JOIN %1$s b ON a.id = b.id WHERE b.%2$s LIKE '%3$s%%'",
          "SELECT count(*), sum(id) FROM %1$s WHERE %2$s LIKE '%3$s%%'");

  @Test
  void aFewSmallLocalFilesAreReadOnTheStatementsThread() throws Exception {
    for (int q = 0; q < QUERIES.size(); q++) {
      // A table per query: a file read once is kept decoded and not read again.
      String table = "small" + q;
      try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake + "?create=true");
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE " + table + " (id BIGINT, name VARCHAR)");
        for (int i = 0; i < 12; i++) {
          String name = i % 3 == 0 ? "NULL" : "'n" + i + "'";
          s.executeUpdate("INSERT INTO " + table + " VALUES (" + i + ", " + name + ")");
        }
      }
      String sql = String.format(QUERIES.get(q), table, "name", "n");
      Set<String> threads = readingThreads(lake.resolve(table), sql, 8L, "");
      assertThat(threads).as(sql).containsExactly(Thread.currentThread().getName());
    }
  }

  @Test
  void aDamagedSmallFileReadOnTheStatementsThreadIsReportedByName() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake + "?create=true");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE hurt (id BIGINT, name VARCHAR)");
      for (int i = 0; i < 4; i++) {
        s.executeUpdate("INSERT INTO hurt VALUES (" + i + ", 'n" + i + "')");
      }
    }
    Path damaged;
    try (var files = Files.list(lake.resolve("hurt").resolve("data"))) {
      damaged = files.filter(f -> f.toString().endsWith(".parquet")).sorted().findFirst().get();
    }
    Files.write(damaged, new byte[] {1, 2, 3});
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement()) {
      String sql = "SELECT count(*) FROM hurt a JOIN hurt b ON a.id = b.id WHERE b.name LIKE 'n%'";
      java.sql.SQLException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              java.sql.SQLException.class,
              () -> {
                try (ResultSet rs = s.executeQuery(sql)) {
                  rs.next();
                }
              });
      assertThat(e.getSQLState()).isEqualTo("58030");
      assertThat(e.getMessage()).contains(damaged.getFileName().toString());
      // The connection goes on: the other files still answer.
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM hurt WHERE id < 0")) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  @Test
  void largerTablesAreReadByTheScanWorkers() throws Exception {
    BigTable.Written written = BigTable.write(lake.resolve("big"), 40_000, 4);
    long dataBytes;
    try (var files = Files.walk(lake.resolve("big").resolve("data"))) {
      dataBytes = files.filter(Files::isRegularFile).mapToLong(ScanThreadsTest::size).sum();
    }
    assertThat(dataBytes).as("more than the statement's thread reads alone").isGreaterThan(1 << 20);
    long withText = 40_000 - (40_000 + 96) / 97;
    for (String query : QUERIES) {
      String sql = String.format(query, "big", "s", "row ");
      Set<String> threads = readingThreads(lake.resolve("big"), sql, withText, "?scanThreads=2");
      assertThat(threads).as(sql).isNotEmpty().allMatch(t -> t.startsWith("floe-scan"));
      Set<String> one = readingThreads(lake.resolve("big"), sql, withText, "?scanThreads=1");
      assertThat(one).as(sql).containsExactly(Thread.currentThread().getName());
    }
    assertThat(written.rows()).isEqualTo(40_000);
  }

  /**
   * Runs {@code sql} on a new connection, checks its first column is {@code count}, and returns the
   * names of the threads that read the table's data files meanwhile.
   */
  private Set<String> readingThreads(Path table, String sql, long count, String properties)
      throws Exception {
    Path events = Files.createTempFile(lake, "reads", ".jfr");
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake + properties);
        Statement s = c.createStatement()) {
      try (Recording recording = new Recording()) {
        recording.enable("jdk.FileRead").withThreshold(Duration.ZERO).withoutStackTrace();
        recording.start();
        try (ResultSet rs = s.executeQuery(sql)) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).as(sql).isEqualTo(count);
        }
        recording.stop();
        recording.dump(events);
      }
    }
    String data = table.resolve("data").toRealPath().toString();
    List<RecordedEvent> reads = RecordingFile.readAllEvents(events);
    return reads.stream()
        .filter(e -> e.getString("path") != null && e.getString("path").startsWith(data))
        .map(e -> e.getThread() == null ? "?" : e.getThread().getJavaName())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
