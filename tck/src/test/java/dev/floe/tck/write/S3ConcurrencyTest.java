package dev.floe.tck.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.tck.s3.FaultProxy;
import dev.floe.tck.s3.S3TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers racing on one S3 table, through the shaded driver against a real S3 server: 8 threads and
 * 4 processes at once never lose or double a commit and publish contiguous versions; with a proxy
 * answering 503 and 500 and dropping the answer to applied conditional PUTs, every commit ends in
 * success, 40001 or 08007, and the table holds exactly what succeeded (plus, for 08007, at most
 * once what was in doubt). A statement whose reads the faults defeat before it publishes fails with
 * 58030 and leaves nothing.
 */
class S3ConcurrencyTest {
  private static final Pattern VERSION = Pattern.compile(".*/metadata/v(\\d+)\\.metadata\\.json");

  @TempDir Path sandbox;

  private final S3TestServer server = S3TestServer.get();

  private static int update(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      return s.executeUpdate(sql);
    }
  }

  /** (writer, seq) -> how many times the row is in the table. */
  private static Map<String, Integer> rowCounts(String url) throws SQLException {
    Map<String, Integer> counts = new HashMap<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT writer, seq FROM t")) {
      while (rs.next()) {
        counts.merge(rs.getInt(1) + " " + rs.getInt(2), 1, Integer::sum);
      }
    }
    return counts;
  }

  private List<Integer> versions(String bucket) {
    List<Integer> versions = new ArrayList<>();
    for (String key : server.keys(bucket)) {
      Matcher m = VERSION.matcher(key);
      if (m.matches()) {
        versions.add(Integer.parseInt(m.group(1)));
      }
    }
    Collections.sort(versions);
    return versions;
  }

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void eightThreadsAndFourProcessesCommittingAtOnceLoseNothing() throws Exception {
    String bucket = server.newBucket();
    try (FaultProxy counter = new FaultProxy(server.port())) {
      String url = server.url(bucket, "lake", counter.endpoint());
      try (Connection c = DriverManager.getConnection(url)) {
        update(
            c,
            "CREATE TABLE t (writer INT NOT NULL, seq INT NOT NULL)"
                // Keep every metadata version: the test checks that they are contiguous.
                + " WITH ('write.metadata.delete-after-commit.enabled' = 'false')");
      }
      int threads = 8;
      int processes = 4;
      int commits = 5;
      Path control = Files.createDirectories(sandbox.resolve("control"));
      List<ChildJvm> children = new ArrayList<>();
      for (int p = 1; p <= processes; p++) {
        children.add(
            ChildJvm.start(
                sandbox,
                WriteLocationTest.logFolder(),
                AppendWorker.class,
                List.of(
                    url,
                    Integer.toString(100 + p),
                    Integer.toString(commits),
                    control.toString())));
      }
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (IntStream.rangeClosed(1, processes)
              .anyMatch(p -> !Files.exists(control.resolve("ready-" + (100 + p))))
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      AtomicInteger publishAttempts = new AtomicInteger();
      counter.rule(
          request -> {
            if (request.method().equals("PUT")
                && request.conditional()
                && request.path().endsWith(".metadata.json")) {
              publishAttempts.incrementAndGet();
            }
            return FaultProxy.Action.FORWARD;
          });
      List<String> committed = Collections.synchronizedList(new ArrayList<>());
      List<String> failed = Collections.synchronizedList(new ArrayList<>());
      CyclicBarrier start = new CyclicBarrier(threads);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> done = new ArrayList<>();
      long began = System.nanoTime();
      Files.createFile(control.resolve("go"));
      for (int w = 1; w <= threads; w++) {
        int writer = w;
        done.add(
            pool.submit(
                () -> {
                  try (Connection c = DriverManager.getConnection(url)) {
                    try (Statement s = c.createStatement()) {
                      s.executeQuery("SELECT count(*) FROM t").close(); // warm up
                    }
                    start.await();
                    for (int i = 1; i <= commits; i++) {
                      try {
                        assertThat(update(c, "INSERT INTO t VALUES (" + writer + ", " + i + ")"))
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
      pool.shutdown();
      for (ChildJvm child : children) {
        assertThat(child.await(600)).as(child.output()).isZero();
        for (String line : child.lines()) {
          if (line.startsWith("committed ")) {
            committed.add(line.substring("committed ".length()));
          } else if (line.startsWith("failed ") || line.startsWith("miscounted ")) {
            failed.add(line);
          }
        }
      }
      long millis = (System.nanoTime() - began) / 1_000_000;
      int attempted = (threads + processes) * commits;
      int conditionalPuts = publishAttempts.get();
      assertThat(failed).as("commits that failed").isEmpty();
      Map<String, Integer> rows = rowCounts(server.url(bucket, "lake"));
      assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(committed);
      assertThat(rows.values()).allMatch(n -> n == 1);
      List<Integer> versions = versions(bucket);
      // v1 creates the table; an empty INSERT publishes nothing; one version per commit
      assertThat(versions).isEqualTo(IntStream.rangeClosed(1, 1 + attempted).boxed().toList());
      System.out.printf(
          "S3 concurrency: %d commits attempted by %d threads and %d processes, %d committed,"
              + " 0 lost, versions v1..v%d contiguous, %d conditional PUTs of metadata"
              + " (%d publishes retried after a lost race), %d ms%n",
          attempted,
          threads,
          processes,
          committed.size(),
          versions.size(),
          conditionalPuts,
          conditionalPuts - attempted,
          millis);
    }
  }

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void faultsEndEveryCommitInSuccessConflictOrUnknownNeverLostOrDoubled() throws Exception {
    String bucket = server.newBucket();
    try (FaultProxy proxy = new FaultProxy(server.port())) {
      String url = server.url(bucket, "lake", proxy.endpoint());
      try (Connection c = DriverManager.getConnection(url)) {
        update(
            c,
            "CREATE TABLE t (writer INT NOT NULL, seq INT NOT NULL)"
                // Keep every metadata version: the test checks that they are contiguous.
                + " WITH ('write.metadata.delete-after-commit.enabled' = 'false')");
      }
      Map<String, AtomicInteger> faultsPerRequest = new java.util.concurrent.ConcurrentHashMap<>();
      AtomicInteger sequence = new AtomicInteger();
      AtomicInteger dropped = new AtomicInteger();
      AtomicInteger blackout = new AtomicInteger();
      java.util.concurrent.atomic.AtomicReference<String> blackoutPath =
          new java.util.concurrent.atomic.AtomicReference<>("");
      proxy.rule(
          request -> {
            int n = sequence.incrementAndGet();
            if (request.path().equals(blackoutPath.get())
                && !request.method().equals("HEAD")
                && blackout.get() > 0
                && blackout.decrementAndGet() >= 0) {
              return FaultProxy.Action.INTERNAL_ERROR;
            }
            if (request.method().equals("PUT")
                && request.conditional()
                && request.path().endsWith(".metadata.json")) {
              int d = dropped.incrementAndGet();
              if (d % 3 == 0) {
                if (d % 9 == 0) {
                  // The client's 3 retries of the PUT and its 4 tries to read the key back all
                  // fail: the outcome is unknown.
                  blackoutPath.set(request.path());
                  blackout.set(7);
                }
                return FaultProxy.Action.DROP_AFTER_FORWARDING;
              }
            }
            String id = request.method() + " " + request.path() + "?" + request.query();
            AtomicInteger faults = faultsPerRequest.computeIfAbsent(id, k -> new AtomicInteger());
            if (n % 7 == 0 && faults.incrementAndGet() <= 2) {
              return n % 2 == 0 ? FaultProxy.Action.SLOW_DOWN : FaultProxy.Action.INTERNAL_ERROR;
            }
            return FaultProxy.Action.FORWARD;
          });
      int writers = 4;
      int commits = 10;
      Map<String, String> outcomes = new java.util.concurrent.ConcurrentHashMap<>();
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 1; w <= writers; w++) {
        int writer = w;
        done.add(
            pool.submit(
                () -> {
                  try (Connection c = DriverManager.getConnection(url)) {
                    for (int i = 1; i <= commits; i++) {
                      String row = writer + " " + i;
                      try {
                        update(c, "INSERT INTO t VALUES (" + row.replace(' ', ',') + ")");
                        outcomes.put(row, "ok");
                      } catch (SQLException e) {
                        outcomes.put(row, e.getSQLState());
                      }
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      proxy.rule(request -> FaultProxy.Action.FORWARD);

      Map<String, Integer> rows = rowCounts(url);
      Map<String, Integer> byOutcome = new HashMap<>();
      for (Map.Entry<String, String> outcome : outcomes.entrySet()) {
        byOutcome.merge(outcome.getValue(), 1, Integer::sum);
        int present = rows.getOrDefault(outcome.getKey(), 0);
        switch (outcome.getValue()) {
          case "ok" -> assertThat(present).as(outcome.getKey()).isEqualTo(1);
          case "40001" -> assertThat(present).as(outcome.getKey()).isZero();
          case "08007" -> assertThat(present).as(outcome.getKey()).isLessThanOrEqualTo(1);
          // a read the injected faults made fail before anything was published
          case "58030" -> assertThat(present).as(outcome.getKey()).isZero();
          default -> throw new AssertionError(outcome.getKey() + " ended in " + outcome.getValue());
        }
      }
      assertThat(outcomes).hasSize(writers * commits);
      assertThat(rows.keySet()).allMatch(outcomes::containsKey);
      List<Integer> versions = versions(bucket);
      assertThat(versions).isEqualTo(IntStream.rangeClosed(1, versions.size()).boxed().toList());
      assertThat(versions.size() - 1).isEqualTo(rows.size());
      assertThat(dropped.get()).isGreaterThan(writers * commits / 2);
      System.out.printf(
          "S3 faults: %d commits, outcomes %s, %d rows present, %d conditional PUT answers dropped,"
              + " %d requests%n",
          writers * commits, byOutcome, rows.size(), dropped.get() / 3, sequence.get());
    }
  }
}
