package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Statements planned on several connections at once each plan alone: a planner pass shared by every
 * statement (the check of integer sums) kept the path it walked in one stack, which threads
 * planning at the same time emptied under each other (an internal error, NoSuchElementException,
 * seen when four connections inserted into a table being optimized).
 */
class ConcurrentPrepareTest extends LakeFixture {
  private static final int THREADS = 6;
  private static final int STATEMENTS = 150;

  @Test
  void aggregatesPlannedOnSixConnectionsAtOnceAnswer() throws Exception {
    try (Connection c = connect()) {
      update(c, "CREATE TABLE t (k INT, v BIGINT)");
      update(c, "INSERT INTO t VALUES (1, 10), (1, 20), (2, 5)");
    }
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<Integer>> runs = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        runs.add(
            pool.submit(
                () -> {
                  int answered = 0;
                  try (Connection c = connect();
                      Statement s = c.createStatement()) {
                    for (int i = 0; i < STATEMENTS; i++) {
                      // a new literal each time: planned afresh, not taken from the plan cache
                      long floor = -(thread * 1_000_000L + i);
                      try (ResultSet rs =
                          s.executeQuery(
                              "SELECT k, SUM(v) FROM (SELECT k, v FROM t WHERE v > "
                                  + floor
                                  + " UNION ALL SELECT k, v FROM t WHERE v > "
                                  + floor
                                  + ") GROUP BY k ORDER BY k")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getLong(2)).isEqualTo(60);
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getLong(2)).isEqualTo(10);
                        answered++;
                      }
                    }
                  }
                  return answered;
                }));
      }
      for (Future<Integer> run : runs) {
        assertThat(run.get()).isEqualTo(STATEMENTS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
