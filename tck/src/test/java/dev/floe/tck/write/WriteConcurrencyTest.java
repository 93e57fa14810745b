package dev.floe.tck.write;

import static dev.floe.tck.write.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Concurrency (ARCHITECTURE.md, "Commit protocol"; docs/transactions.md, "Transactions"): writers
 * racing on one table, in threads and in separate processes, never lose or duplicate a commit and
 * publish contiguous versions; a change that deletes is validated against what was committed
 * meanwhile, even on an empty table, and the loser gets 40001 and leaves no files.
 */
class WriteConcurrencyTest {
  @TempDir Path sandbox;

  private Path lake() throws Exception {
    return Files.createDirectories(sandbox.resolve("lake"));
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void eightWriterThreadsAppendingAtOnceLoseNoCommit() throws Exception {
    Path lake = lake();
    Sql.run(
        lake,
        "CREATE TABLE t (writer INT NOT NULL, seq INT NOT NULL)"
            // Keep every metadata version: the test checks that they are contiguous.
            + " WITH ('write.metadata.delete-after-commit.enabled' = 'false')");
    int writers = 8;
    int commits = 25;
    CyclicBarrier start = new CyclicBarrier(writers);
    List<String> committed = Collections.synchronizedList(new ArrayList<>());
    List<String> failed = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 1; w <= writers; w++) {
        int writer = w;
        done.add(
            pool.submit(
                () -> {
                  try (Connection c = Sql.connect(lake)) {
                    Sql.count(c, "SELECT count(*) FROM t");
                    start.await();
                    for (int i = 1; i <= commits; i++) {
                      try {
                        assertThat(
                                Sql.update(c, "INSERT INTO t VALUES (" + writer + ", " + i + ")"))
                            .isEqualTo(1);
                        committed.add(writer + " " + i);
                      } catch (SQLException e) {
                        failed.add(writer + " " + i + " " + e.getSQLState() + " " + e.getMessage());
                      }
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(failed).as("appends that failed").isEmpty();
    assertEveryCommitPresentOnce(lake.resolve("t"), committed, writers * commits);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void fourWriterProcessesAppendingAtOnceLoseNoCommit() throws Exception {
    Path lake = lake();
    Path control = Files.createDirectories(sandbox.resolve("control"));
    Sql.run(
        lake,
        "CREATE TABLE t (writer INT NOT NULL, seq INT NOT NULL)"
            // Keep every metadata version: the test checks that they are contiguous.
            + " WITH ('write.metadata.delete-after-commit.enabled' = 'false')");
    int writers = 4;
    int commits = 25;
    List<ChildJvm> children = new ArrayList<>();
    for (int w = 1; w <= writers; w++) {
      children.add(
          ChildJvm.start(
              sandbox,
              WriteLocationTest.logFolder(),
              AppendWorker.class,
              List.of(
                  "jdbc:floe:" + lake,
                  Integer.toString(w),
                  Integer.toString(commits),
                  control.toString())));
    }
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (IntStream.rangeClosed(1, writers)
            .anyMatch(w -> !Files.exists(control.resolve("ready-" + w)))
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    Files.createFile(control.resolve("go"));
    List<String> committed = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    for (ChildJvm child : children) {
      assertThat(child.await(300)).as(child.output()).isZero();
      for (String line : child.lines()) {
        if (line.startsWith("committed ")) {
          committed.add(line.substring("committed ".length()));
        } else if (line.startsWith("failed ") || line.startsWith("miscounted ")) {
          failed.add(line);
        }
      }
    }

    assertThat(failed).as("appends that failed").isEmpty();
    assertEveryCommitPresentOnce(lake.resolve("t"), committed, writers * commits);
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void anAppendLandingDuringAnOverwriteOfAnEmptyTableMakesTheOverwriteFail(int version)
      throws Exception {
    Path lake = lake();
    Sql.run(lake, "CREATE TABLE t (id INT) WITH ('format-version' = '" + version + "')");
    try (Connection overwriter = Sql.connect(lake);
        Connection appender = Sql.connect(lake)) {
      overwriter.setAutoCommit(false);
      assertThat(Sql.update(overwriter, "DELETE FROM t")).isZero();
      assertThat(Sql.update(overwriter, "INSERT INTO t VALUES (1)")).isEqualTo(1);

      assertThat(Sql.update(appender, "INSERT INTO t VALUES (99)")).isEqualTo(1);

      assertThatThrownBy(overwriter::commit)
          .isInstanceOf(SQLTransactionRollbackException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"))
          .hasMessageContaining("Cannot commit to t");
      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.rows()).containsExactly(row(99));
      assertThat(IcebergView.versions(lake.resolve("t"))).containsExactly(1, 2);
      assertNoUnreferencedFiles(view);

      // The loser's transaction is over; doing the work again now succeeds.
      Sql.run(overwriter, "DELETE FROM t", "INSERT INTO t VALUES (1)");
      overwriter.commit();
      assertThat(IcebergView.of(lake.resolve("t")).rows()).containsExactly(row(1));
      assertThat(IcebergView.of(lake.resolve("t")).current().operation()).isEqualTo("overwrite");
    }
  }

  @ParameterizedTest(name = "appended id {0}, conflict {1}")
  @CsvSource({"1, true", "5, false"})
  void aDeleteOnAnEmptyTableConflictsOnlyWithAppendsItsPredicateMatches(
      int appended, boolean conflict) throws Exception {
    Path lake = lake();
    Sql.run(lake, "CREATE TABLE t (id INT)");
    try (Connection replacer = Sql.connect(lake);
        Connection appender = Sql.connect(lake)) {
      replacer.setAutoCommit(false);
      assertThat(Sql.update(replacer, "DELETE FROM t WHERE id = 1")).isZero();
      assertThat(Sql.update(replacer, "INSERT INTO t VALUES (2)")).isEqualTo(1);

      assertThat(Sql.update(appender, "INSERT INTO t VALUES (" + appended + ")")).isEqualTo(1);

      if (conflict) {
        assertThatThrownBy(replacer::commit)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
        assertThat(IcebergView.of(lake.resolve("t")).rows()).containsExactly(row(appended));
      } else {
        replacer.commit();
        assertThat(IcebergView.of(lake.resolve("t")).rows()).containsExactly(row(2), row(appended));
      }
      assertNoUnreferencedFiles(IcebergView.of(lake.resolve("t")));
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void anAppendLandingDuringAnOverwriteMakesTheOverwriteFail(int version) throws Exception {
    Path lake = lake();
    Sql.run(
        lake,
        "CREATE TABLE t (id INT) WITH ('format-version' = '" + version + "')",
        "INSERT INTO t VALUES (5), (6)");
    try (Connection overwriter = Sql.connect(lake);
        Connection appender = Sql.connect(lake)) {
      overwriter.setAutoCommit(false);
      assertThat(Sql.update(overwriter, "DELETE FROM t")).isEqualTo(2);
      assertThat(Sql.update(overwriter, "INSERT INTO t VALUES (1)")).isEqualTo(1);

      assertThat(Sql.update(appender, "INSERT INTO t VALUES (99)")).isEqualTo(1);

      assertThatThrownBy(overwriter::commit)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.rows()).containsExactly(row(5), row(6), row(99));
      assertNoUnreferencedFiles(view);
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void aDeleteDoesNotConflictWithAnAppendOutsideItsPredicate(int version) throws Exception {
    Path lake = lake();
    Sql.run(
        lake,
        "CREATE TABLE t (id INT, p VARCHAR) PARTITIONED BY (p) WITH ('format-version' = '"
            + version
            + "')",
        "INSERT INTO t VALUES (1, 'a'), (2, 'a'), (3, 'b')");
    try (Connection deleter = Sql.connect(lake);
        Connection appender = Sql.connect(lake)) {
      deleter.setAutoCommit(false);
      assertThat(Sql.update(deleter, "DELETE FROM t WHERE p = 'a' AND id = 1")).isEqualTo(1);

      assertThat(Sql.update(appender, "INSERT INTO t VALUES (4, 'b')")).isEqualTo(1);

      deleter.commit();
      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.rows()).containsExactly(row(2, "a"), row(3, "b"), row(4, "b"));
      assertNoUnreferencedFiles(view);
    }
  }

  @ParameterizedTest(name = "v{0}, {1}")
  @CsvSource({"2, merge-on-read", "3, merge-on-read", "2, copy-on-write", "3, copy-on-write"})
  void twoTransactionsDeletingTheSameRowsOneWinsAndTheOtherLeavesNoFiles(int version, String mode)
      throws Exception {
    Path lake = lake();
    Sql.run(
        lake,
        "CREATE TABLE t (id INT) WITH ('format-version' = '"
            + version
            + "', 'write.delete.mode' = '"
            + mode
            + "')",
        "INSERT INTO t VALUES "
            + String.join(
                ", ", IntStream.rangeClosed(1, 20).mapToObj(i -> "(" + i + ")").toList()));
    try (Connection first = Sql.connect(lake);
        Connection second = Sql.connect(lake)) {
      first.setAutoCommit(false);
      second.setAutoCommit(false);
      assertThat(Sql.update(first, "DELETE FROM t WHERE id <= 5")).isEqualTo(5);
      assertThat(Sql.update(second, "DELETE FROM t WHERE id <= 5")).isEqualTo(5);

      first.commit();
      assertThatThrownBy(second::commit)
          .isInstanceOf(SQLTransactionRollbackException.class)
          .hasMessageContaining("Cannot commit to t")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));

      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.rows()).hasSize(15).noneMatch(r -> (Integer) r.get(0) <= 5);
      assertThat(view.snapshots()).hasSize(2);
      assertNoUnreferencedFiles(view);
      assertThat(Sql.count(second, "SELECT count(*) FROM t")).isEqualTo(15);
    }
  }

  /**
   * Every reported commit is in the table exactly once, the versions are {@code v1..vN} with N = 1
   * + commits, the snapshots form one line of appends, and no file is left unreferenced.
   */
  private static void assertEveryCommitPresentOnce(
      Path table, List<String> committed, int expected) {
    assertThat(committed).hasSize(expected).doesNotHaveDuplicates();
    IcebergView view = IcebergView.of(table);
    List<String> rows = view.rows().stream().map(r -> r.get(0) + " " + r.get(1)).sorted().toList();
    assertThat(rows).isEqualTo(committed.stream().sorted().toList());
    assertThat(IcebergView.versions(table))
        .isEqualTo(IntStream.rangeClosed(1, 1 + expected).boxed().toList());
    List<Snapshot> snapshots = view.snapshots();
    assertThat(snapshots).hasSize(expected);
    Long parent = null;
    for (Snapshot snapshot : snapshots) {
      assertThat(snapshot.parentId()).isEqualTo(parent);
      assertThat(snapshot.operation()).isEqualTo("append");
      assertThat(snapshot.summary()).containsEntry("added-records", "1");
      parent = snapshot.snapshotId();
    }
    assertThat(view.current().summary()).containsEntry("total-records", Integer.toString(expected));
    assertNoUnreferencedFiles(view);
  }

  /** Every file in the table folder is metadata of some version or referenced by a snapshot. */
  private static void assertNoUnreferencedFiles(IcebergView view) {
    assertThat(FolderListing.files(view.folder()))
        .as("files in %s that no version refers to", view.folder())
        .isSubsetOf(view.referencedFiles());
  }
}
