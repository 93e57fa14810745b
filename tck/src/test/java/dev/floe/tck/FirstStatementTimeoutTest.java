package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.tck.write.ChildJvm;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query timeout and {@code Statement.cancel()} stop the first statement of a fresh JVM, whose
 * parsing, planning and code generation (and the loading of the classes they need) take several
 * seconds, within a second of the deadline, with 57014; the connection then runs the next
 * statement.
 */
class FirstStatementTimeoutTest {
  /**
   * How late after the deadline (or the cancel) a statement may still be running: about a second
   * (measured 0.2 to 0.4 s late), here two, for a machine that several builds share (2.4 s late
   * once at a load of 20 on 2 cores: one step of preparing, a static initializer or a compile, is
   * not interrupted).
   */
  private static final long GRACE_MILLIS = 2_000;

  private static final String QUERY =
      "SELECT o.region, COUNT(*) AS n, SUM(o.amount) AS total, MAX(c.name) AS last_name"
          + " FROM orders o JOIN customers c ON o.customer = c.id"
          + " WHERE o.amount > 0 GROUP BY o.region HAVING COUNT(*) > 0 ORDER BY total DESC";

  @TempDir Path root;

  private void makeLake() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + root);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE customers (id INT, name VARCHAR)");
      s.execute("CREATE TABLE orders (id INT, customer INT, region VARCHAR, amount DECIMAL(10,2))");
      s.execute("INSERT INTO customers VALUES (1, 'a'), (2, 'b')");
      s.execute("INSERT INTO orders VALUES (1, 1, 'north', 2.50), (2, 2, 'south', 4.00)");
    }
  }

  /** Runs one first statement in a fresh JVM; its lines are key=value. */
  private Map<String, String> firstStatement(String how) throws Exception {
    makeLake();
    ChildJvm child =
        ChildJvm.start(root, root.resolve("logs"), FirstQuery.class, List.of(root.toString(), how));
    int status = child.await(180);
    assertThat(status).as(child.output()).isZero();
    System.out.println(how + ": " + child.output().replace('\n', ' '));
    return child.lines().stream()
        .filter(l -> l.contains("="))
        .collect(
            Collectors.toMap(
                l -> l.substring(0, l.indexOf('=')),
                l -> l.substring(l.indexOf('=') + 1),
                (a, b) -> b));
  }

  @Test
  void aQueryTimeoutStopsTheFirstStatementWhilePlanning() throws Exception {
    Map<String, String> out = firstStatement("timeout");
    assertThat(out).containsKey("state");
    if (out.get("state").equals("ok")) {
      // the machine planned and ran it within the second: nothing to stop
      assertThat(Long.parseLong(out.get("millis"))).isLessThanOrEqualTo(1_000 + GRACE_MILLIS);
    } else {
      assertThat(out.get("state")).as(out.toString()).isEqualTo("57014");
      assertThat(Long.parseLong(out.get("millis")))
          .as("stopped soon after the deadline: %s", out)
          .isLessThanOrEqualTo(1_000 + GRACE_MILLIS);
      assertThat(out.get("message")).contains("timeout");
    }
    assertThat(out.get("after")).as("the connection runs the next statement").isEqualTo("2");
  }

  @Test
  void cancelStopsTheFirstStatementWhilePlanning() throws Exception {
    Map<String, String> out = firstStatement("cancel");
    if (out.get("state").equals("ok")) {
      assertThat(Long.parseLong(out.get("millis"))).isLessThanOrEqualTo(500 + GRACE_MILLIS);
    } else {
      assertThat(out.get("state")).as(out.toString()).isEqualTo("57014");
      assertThat(Long.parseLong(out.get("millis")))
          .as("stopped soon after the cancel: %s", out)
          .isLessThanOrEqualTo(500 + GRACE_MILLIS);
    }
    assertThat(out.get("after")).as("the connection runs the next statement").isEqualTo("2");
  }

  /** The child: connects, then runs its first query under a timeout of 1 s or a cancel at 0.5 s. */
  public static final class FirstQuery {
    private FirstQuery() {}

    public static void main(String[] args) throws Exception {
      String url = "jdbc:floe:" + args[0];
      boolean cancel = args[1].equals("cancel");
      try (Connection c = DriverManager.getConnection(url)) {
        ScheduledExecutorService canceller = Executors.newSingleThreadScheduledExecutor();
        long start;
        try (Statement s = c.createStatement()) {
          if (cancel) {
            canceller.schedule(
                () -> {
                  try {
                    s.cancel();
                  } catch (SQLException e) {
                    throw new IllegalStateException(e);
                  }
                },
                500,
                TimeUnit.MILLISECONDS);
          } else {
            s.setQueryTimeout(1);
          }
          start = System.nanoTime();
          try (ResultSet rs = s.executeQuery(QUERY)) {
            while (rs.next()) {
              rs.getString(1);
            }
            System.out.println("state=ok");
          } catch (SQLException e) {
            System.out.println("state=" + e.getSQLState());
            System.out.println("message=" + e.getMessage().replace('\n', ' '));
          }
          System.out.println("millis=" + (System.nanoTime() - start) / 1_000_000);
        } finally {
          canceller.shutdownNow();
        }
        try (Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
          rs.next();
          System.out.println("after=" + rs.getLong(1));
        }
      }
    }
  }
}
