package dev.floe.tck.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every statement ends when told (docs/limits.md, "Known limits"): {@code setQueryTimeout} and
 * {@code Statement.cancel()} stop writes, sorts and joins that would run for hours (a cross join of
 * two tables of 10⁵ rows is 10¹⁰ rows) with 57014, the table is left as it was and no file the
 * statement wrote stays behind; {@code cancel()} returns at once while the statement runs; files
 * that are not regular files are refused before they are opened. Timings are generous: the machine
 * running the kit may be slow and busy.
 */
class StatementEndTest {
  /** How long a statement told to stop after about a second may take in all, at most. */
  private static final Duration ENDS_WITHIN = Duration.ofSeconds(15);

  /** Statements that would run for hours over a cross join of {@code cj} with itself. */
  private static final List<String> ENDLESS =
      List.of(
          "CREATE TABLE huge AS SELECT a.id * b.id AS x FROM cj a, cj b",
          "CREATE OR REPLACE TABLE t AS SELECT a.id AS id, b.id AS v FROM cj a, cj b",
          "INSERT INTO t SELECT a.id, b.id FROM cj a, cj b",
          "INSERT OVERWRITE t SELECT a.id, b.id FROM cj a, cj b",
          "MERGE INTO t USING (SELECT a.id AS id, b.id AS v FROM cj a, cj b) s ON t.id = s.id"
              + " WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id,"
              + " s.v)",
          "UPDATE t SET v = (SELECT COUNT(*) FROM cj a, cj b WHERE a.id = t.id + b.id)",
          "SELECT a.id * b.id AS x FROM cj a, cj b ORDER BY x DESC",
          "SELECT COUNT(*) FROM cj a, cj b WHERE a.id + b.id < 0",
          "SELECT a.id, COUNT(*) FROM cj a JOIN cj b ON a.id <> b.id GROUP BY a.id");

  @TempDir static Path lake;

  private static Connection c;

  @BeforeAll
  static void aTableOfAHundredThousandRows() throws Exception {
    c = Sql.connect(lake);
    Sql.run(
        c,
        "CREATE TABLE cj (id BIGINT)",
        "CREATE TABLE t (id BIGINT, v BIGINT)",
        "CREATE TABLE o (id BIGINT, v BIGINT)");
    try (PreparedStatement p = c.prepareStatement("INSERT INTO cj VALUES (?)")) {
      for (int i = 0; i < 100_000; i++) {
        p.setLong(1, i);
        p.addBatch();
      }
      p.executeBatch();
    }
    Sql.run(c, "INSERT INTO t SELECT id, 0 FROM cj WHERE id < 10");
  }

  @AfterAll
  static void close() throws SQLException {
    c.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8})
  void aQueryTimeoutStopsTheStatementAndLeavesTheLakeAsItWas(int which) throws Exception {
    String sql = ENDLESS.get(which);
    SortedSet<String> before = FolderListing.entries(lake);
    List<List<Object>> rows = IcebergView.of(lake.resolve("t")).rows();
    long start = System.nanoTime();
    SQLException failure;
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      failure = catchThrowableOfType(SQLException.class, () -> runToTheEnd(s, sql));
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat((Object) failure).as(sql).isNotNull();
    assertThat(failure.getSQLState()).as("%s: %s", sql, failure).isEqualTo("57014");
    assertThat(failure.getMessage()).contains("timeout");
    assertThat(took.toMillis()).as(sql).isLessThan(ENDS_WITHIN.toMillis());
    assertThat(FolderListing.entries(lake)).as(sql).isEqualTo(before);
    assertThat(IcebergView.of(lake.resolve("t")).rows()).isEqualTo(rows);
    assertThat(Sql.count(c, "SELECT COUNT(*) FROM t")).isEqualTo(10);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 2, 3, 4, 6, 7})
  void cancelReturnsAtOnceAndStopsTheStatement(int which) throws Exception {
    String sql = ENDLESS.get(which);
    SortedSet<String> before = FolderListing.entries(lake);
    try (Statement s = c.createStatement()) {
      long start = System.nanoTime();
      CompletableFuture<SQLException> running =
          CompletableFuture.supplyAsync(
              () -> catchThrowableOfType(SQLException.class, () -> runToTheEnd(s, sql)));
      Thread.sleep(1_000);
      long cancelStart = System.nanoTime();
      s.cancel();
      Duration cancelTook = Duration.ofNanos(System.nanoTime() - cancelStart);
      SQLException failure = running.get(ENDS_WITHIN.toSeconds(), TimeUnit.SECONDS);
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(cancelTook.toMillis()).as("cancel() of %s", sql).isLessThan(2_000L);
      assertThat((Object) failure).as(sql).isNotNull();
      assertThat(failure.getSQLState()).as("%s: %s", sql, failure).isEqualTo("57014");
      assertThat(failure.getMessage()).contains("cancelled");
      assertThat(took.toMillis()).as(sql).isLessThan(ENDS_WITHIN.toMillis());
    }
    assertThat(FolderListing.entries(lake)).as(sql).isEqualTo(before);
    // the statement and the connection go on
    assertThat(Sql.count(c, "SELECT COUNT(*) FROM t")).isEqualTo(10);
  }

  @Test
  void cancelOfARunningPreparedStatementReturnsAtOnceAndStopsIt() throws Exception {
    SortedSet<String> before = FolderListing.entries(lake);
    try (PreparedStatement p = c.prepareStatement(ENDLESS.get(2))) {
      CompletableFuture<SQLException> running =
          CompletableFuture.supplyAsync(
              () -> catchThrowableOfType(SQLException.class, p::executeUpdate));
      Thread.sleep(1_000);
      long cancelStart = System.nanoTime();
      p.cancel();
      long cancelTook = (System.nanoTime() - cancelStart) / 1_000_000;
      SQLException failure = running.get(ENDS_WITHIN.toSeconds(), TimeUnit.SECONDS);
      assertThat(cancelTook).as("cancel() of a prepared statement").isLessThan(2_000L);
      assertThat((Object) failure).isNotNull();
      assertThat(failure.getSQLState()).as("%s", failure).isEqualTo("57014");
      // the same statement runs again, and its timeout stops it too
      p.setQueryTimeout(1);
      assertThat(catchThrowableOfType(SQLException.class, p::executeUpdate).getSQLState())
          .isEqualTo("57014");
    }
    assertThat(FolderListing.entries(lake)).isEqualTo(before);
    assertThat(Sql.count(c, "SELECT COUNT(*) FROM t")).isEqualTo(10);
  }

  @Test
  void aCancelledStatementRunsAgain() throws Exception {
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      assertThatThrownBy(() -> runToTheEnd(s, ENDLESS.get(6)))
          .isInstanceOf(SQLException.class)
          .hasFieldOrPropertyWithValue("SQLState", "57014");
      s.setQueryTimeout(0);
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(10);
      }
    }
  }

  @Test
  void aTimeoutStopsOptimizeAndLeavesItsRowsAsTheyWere() throws Exception {
    // many files of many rows, so that rewriting them takes longer than the timeout
    for (int i = 0; i < 30; i++) {
      Sql.run(c, "INSERT INTO o SELECT id, " + i + " FROM cj");
    }
    long rows = Sql.count(c, "SELECT COUNT(*) FROM o");
    IcebergView view = IcebergView.of(lake.resolve("o"));
    long snapshot = view.current().snapshotId();
    SortedSet<String> before = FolderListing.files(lake.resolve("o"));
    SQLException failure;
    long start = System.nanoTime();
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      failure =
          catchThrowableOfType(
              SQLException.class,
              () -> runToTheEnd(s, "ALTER TABLE o EXECUTE optimize(file_size_threshold => '1GB')"));
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    // On a fast machine optimize may finish first; then it must have kept every row.
    if (failure != null) {
      assertThat(failure.getSQLState()).isEqualTo("57014");
      assertThat(took.toMillis()).isLessThan(ENDS_WITHIN.toMillis());
      assertThat(IcebergView.of(lake.resolve("o")).current().snapshotId()).isEqualTo(snapshot);
      assertThat(FolderListing.files(lake.resolve("o"))).isEqualTo(before);
    }
    assertThat(Sql.count(c, "SELECT COUNT(*) FROM o")).isEqualTo(rows);
  }

  @Test
  void theCountsOfAnOptimizeThatCommittedAreReadAfterItsDeadline() throws Exception {
    Sql.run(c, "CREATE TABLE small (id BIGINT)");
    for (int i = 0; i < 3; i++) {
      Sql.run(c, "INSERT INTO small VALUES (" + i + ")");
    }
    long snapshot = IcebergView.of(lake.resolve("small")).current().snapshotId();
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      try (ResultSet rs = s.executeQuery("ALTER TABLE small EXECUTE optimize")) {
        // the work is committed when execute returns; its row of counts is read after the deadline
        assertThat(IcebergView.of(lake.resolve("small")).current().snapshotId())
            .isNotEqualTo(snapshot);
        Thread.sleep(1_500);
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong("rewritten_data_files_count")).isEqualTo(3);
        assertThat(rs.next()).isFalse();
      }
    }
    assertThat(Sql.count(c, "SELECT COUNT(*) FROM small")).isEqualTo(3);
  }

  @Test
  void filesThatAreNotRegularFilesAreRefusedBeforeTheyAreOpened(@TempDir Path folder)
      throws Exception {
    assumeThat(Path.of("/proc/self/status")).exists();
    Path fifo = folder.resolve("pipe.csv");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeThat(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0).isTrue();
    List<String> refused =
        List.of(
            "SELECT * FROM read_csv('" + fifo + "')",
            "SELECT * FROM read_csv('" + folder + "/*.csv')",
            "SELECT * FROM read_csv('/proc/self/status')",
            "SELECT * FROM read_parquet('/dev/zero')",
            "SELECT * FROM read_csv('/dev/stdin')",
            "ALTER TABLE t EXECUTE add_files(location => '" + fifo + "')");
    for (String sql : refused) {
      long start = System.nanoTime();
      SQLException failure =
          CompletableFuture.supplyAsync(
                  () ->
                      catchThrowableOfType(
                          SQLException.class,
                          () -> {
                            try (Statement s = c.createStatement()) {
                              runToTheEnd(s, sql);
                            }
                          }))
              .get(60, TimeUnit.SECONDS);
      assertThat((Object) failure).as(sql).isNotNull();
      assertThat(failure.getSQLState()).as("%s: %s", sql, failure).isEqualTo("58030");
      assertThat(Duration.ofNanos(System.nanoTime() - start).toMillis())
          .isLessThan(ENDS_WITHIN.toMillis());
    }
    assertThat(Files.exists(fifo)).isTrue();
  }

  @Test
  void aStatementNeedingMoreMemoryThanTheHeapFailsWith53200AndTheConnectionGoesOn(
      @TempDir Path child) throws Exception {
    Path childLake = child.resolve("lake");
    Files.createDirectories(childLake);
    ChildJvm worker =
        ChildJvm.start(
            child, child.resolve("logs"), MemoryWorker.class, List.of("jdbc:floe:" + childLake));
    assertThat(worker.await(600)).as(worker.output()).isZero();
    List<String> lines = worker.lines().stream().filter(l -> !l.startsWith("log4j")).toList();
    assertThat(lines).as(worker.output()).contains("ready", "rows 10 0");
    assertThat(lines.stream().filter(l -> l.startsWith("failed")).findFirst())
        .as(worker.output())
        .hasValueSatisfying(l -> assertThat(l).startsWith("failed 53200").contains("memory"));
    assertThat(lines.stream().filter(l -> l.startsWith("query")).findFirst())
        .as(worker.output())
        .hasValueSatisfying(l -> assertThat(l).startsWith("query failed 53200").contains("memory"));
    assertThat(lines).as(worker.output()).contains("after query 100000");
    // nothing the MERGE wrote is left: one data file, from the INSERT
    assertThat(
            FolderListing.files(childLake.resolve("t")).stream()
                .filter(f -> f.startsWith("data/"))
                .count())
        .isEqualTo(1);
  }

  @Test
  void aJvmEndingWhileASortSpillsLeavesNoSpillFolder(@TempDir Path child) throws Exception {
    Path childLake = child.resolve("lake");
    Path temporary = child.resolve("tmp");
    Files.createDirectories(childLake);
    Files.createDirectories(temporary);
    ChildJvm worker =
        ChildJvm.start(
            child,
            child.resolve("logs"),
            SpillShutdownWorker.class,
            List.of("jdbc:floe:" + childLake, temporary.toString()));
    assertThat(worker.await(600)).as(worker.output()).isZero();
    assertThat(worker.lines()).as(worker.output()).contains("spilling");
    try (java.util.stream.Stream<Path> left = Files.list(temporary)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as(worker.output())
          .noneMatch(name -> name.startsWith("floe-"));
    }
  }

  /** Runs a statement and reads every row it answers. */
  private static void runToTheEnd(Statement s, String sql) throws SQLException {
    if (s.execute(sql)) {
      try (ResultSet rs = s.getResultSet()) {
        while (rs.next()) {
          rs.getObject(1);
        }
      }
    }
  }
}
