package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Statement.cancel()} and the query timeout stop an operator in the middle of work that
 * returns no row for a long time, each a shape that once went on for seconds after the cancel. The
 * bound here is generous (2.5 s, for a machine shared with other builds); the TPC-H cancel
 * benchmark ({@code TpchCancelBenchmark}) is where stopping within 1 s is measured.
 */
class CancelLatencyTest {
  /** The most a cancelled statement may take to fail here, from cancel() to the SQLException. */
  private static final long BOUND_MS = 2_500;

  /** Rows sharing one join key: each probe row tries every one of them. */
  private static final int CHAIN = 100_000;

  /** The rows of the probe side: fewer than a hash join probes between two checks before. */
  private static final int PROBE = 250;

  @TempDir static Path lake;
  private static Connection connection;

  @BeforeAll
  static void fillTables() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(connection, "CREATE TABLE chain (k INT, v BIGINT, s VARCHAR)");
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO chain VALUES (?, ?, ?)")) {
      for (int i = 0; i < CHAIN; i++) {
        insert.setInt(1, 0);
        insert.setLong(2, i);
        // the probe rows' strings are long, so that each condition tried costs a copy of one
        insert.setString(3, i < PROBE ? "x".repeat(4_000) + i : "row number " + i);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    // The same shape with no probe row, so that the runs below spend their first second in the
    // join rather than in loading and compiling the classes of a first statement
    assertThat(Sql.column(connection, LONG_CHAIN.replace("v < " + PROBE, "v < 0")))
        .containsExactly("0");
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  /**
   * A hash join whose probe side has 250 rows and whose build side has 100,000 rows of the same
   * key, with a residual condition of both sides that holds for no pair: every probe row walks the
   * whole chain of build rows, and for seconds no row leaves the join and no probe row is read.
   */
  private static final String LONG_CHAIN =
      "SELECT count(*) FROM (SELECT * FROM chain WHERE v < "
          + PROBE
          + ") a JOIN (SELECT * FROM chain WHERE v >= 0 AND k >= 0) b"
          + " ON a.k = b.k AND CHAR_LENGTH(a.s || b.s) > 100000";

  @Test
  void cancelStopsAHashJoinWalkingALongChainOfBuildRowsThatFailItsCondition() throws Exception {
    assertThat(cancelLatency(LONG_CHAIN, 2_500)).isLessThan(BOUND_MS);
    assertThat(connection.isValid(5)).isTrue();
  }

  @Test
  void aQueryTimeoutStopsAHashJoinWalkingALongChainOfBuildRows() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      // 2 s: past planning and reading the build side, in the middle of the probe
      statement.setQueryTimeout(2);
      long start = System.nanoTime();
      SQLException failure = null;
      try (ResultSet rs = statement.executeQuery(LONG_CHAIN)) {
        rs.next();
      } catch (SQLException e) {
        failure = e;
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat((Object) failure).as("the statement failed").isNotNull();
      assertThat(failure.getSQLState()).isEqualTo("57014");
      assertThat(failure.getMessage()).contains("query timeout");
      assertThat(millis - 2_000).isLessThan(BOUND_MS);
    }
  }

  /**
   * Runs {@code sql} on a thread of its own, cancels it {@code afterMillis} later (it must still be
   * running then) and returns the milliseconds from the cancel to its failure, which must be 57014.
   */
  private static long cancelLatency(String sql, long afterMillis) throws Exception {
    ExecutorService runner = Executors.newSingleThreadExecutor();
    try (Statement statement = connection.createStatement()) {
      Future<Object> run =
          runner.submit(
              () -> {
                try (ResultSet rs = statement.executeQuery(sql)) {
                  while (rs.next()) {
                    rs.getObject(1);
                  }
                  return "finished";
                } catch (SQLException e) {
                  return e;
                }
              });
      Thread.sleep(afterMillis);
      assertThat(run.isDone()).as("the statement is still running when it is cancelled").isFalse();
      long start = System.nanoTime();
      statement.cancel();
      Object outcome = run.get(120, TimeUnit.SECONDS);
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(outcome).isInstanceOf(SQLException.class);
      SQLException failure = (SQLException) outcome;
      assertThat(failure.getSQLState()).isEqualTo("57014");
      assertThat(failure.getMessage()).contains("cancelled");
      return millis;
    } finally {
      runner.shutdownNow();
    }
  }
}
