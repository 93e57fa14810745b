package dev.floe.tck.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How long each TPC-H query takes to stop when cancelled: for each query, one run to its end (its
 * own time), then runs cancelled with {@code Statement.cancel()} after several delays (by default
 * 200, 1,000 and 3,000 ms and half the query's own time) and runs stopped by {@code
 * setQueryTimeout} (1 s, and half the query's time in whole seconds), each timed from the cancel
 * (or the deadline) to the SQLException the run fails with, which must carry SQLState 57014. A run
 * that ends before its cancel is shown as {@code done}. Prints a table with the largest latency of
 * each query. A program, not a test: latencies on a shared machine are noisy.
 *
 * <p>The query's own time is that of a second run to its end (the first warms it up) unless the
 * first took a minute or more.
 *
 * <p>Arguments: the folder of a lake loaded by {@link TpchBenchmark} (required), the scale factor
 * it was loaded at (default 1; for the queries' parameters), the queries (default {@code 1-22}),
 * the delays in ms (default {@code 200,1000,3000}; half the query's time is always added), and the
 * longest a run to its end may take in seconds (default 300; a query cancelled then is measured
 * with the delays alone). A run that does not stop within 60 s of its cancel is left behind on its
 * thread and connection, reported as such, and the next run gets new ones.
 *
 * <p>Exits with status 1 if any run took more than 1 s to stop or failed with another SQLState.
 */
public final class TpchCancelBenchmark {
  private static final long BOUND_MS = 1_000;
  private static final long GIVE_UP_MS = 60_000;

  private TpchCancelBenchmark() {}

  public static void main(String[] argv) throws Exception {
    String joined = String.join(" ", argv).trim();
    String[] args = joined.isEmpty() ? new String[0] : joined.split("\\s+");
    if (args.length < 1 || !Files.exists(Path.of(args[0]).resolve("lineitem"))) {
      System.err.println("usage: TpchCancelBenchmark LAKE [SF [QUERIES [DELAYS_MS [FULL_S]]]]");
      System.exit(2);
    }
    Path lake = Path.of(args[0]);
    double sf = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
    Map<String, String> queries = Tpch.queries(args.length > 2 ? args[2] : "1-22", sf);
    List<Integer> delays = parseList(args.length > 3 ? args[3] : "200,1000,3000");
    int fullSeconds = args.length > 4 ? Integer.parseInt(args[4]) : 300;

    Runner runner = new Runner(lake);
    System.out.printf(
        Locale.ROOT,
        "max heap %,d MiB, %d processors%n%n",
        Runtime.getRuntime().maxMemory() >> 20,
        Runtime.getRuntime().availableProcessors());
    List<String> table = new ArrayList<>();
    StringBuilder header = new StringBuilder("| query | own ms |");
    StringBuilder rule = new StringBuilder("|---|--:|");
    for (int d : delays) {
      header.append(" cancel at ").append(d).append(" ms |");
      rule.append("--:|");
    }
    header.append(" cancel at half | timeout 1 s | timeout at half | max ms to stop |");
    rule.append("--:|--:|--:|--:|");
    table.add(header.toString());
    table.add(rule.toString());
    int slow = 0;
    for (Map.Entry<String, String> query : queries.entrySet()) {
      String sql = query.getValue();
      Outcome full = runner.run(sql, -1, fullSeconds);
      if (full.state == null && full.endedMs < 60_000) {
        // A second run, warm (plan kept, code compiled), is the one the cancels are timed against.
        full = runner.run(sql, -1, fullSeconds);
      }
      long own = full.endedMs;
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "| %s | ", query.getKey()));
      if (full.state == null) {
        line.append(own);
      } else if (!full.cancelledAtLimit) {
        line.append("failed after ").append(own).append(" (").append(full.cell()).append(")");
      } else {
        line.append(">").append(fullSeconds * 1000L).append(" (").append(full.cell()).append(")");
        own = fullSeconds * 1000L;
      }
      line.append(" |");
      long max = -1;
      List<Outcome> outcomes = new ArrayList<>();
      for (int d : delays) {
        outcomes.add(runner.cancelAfter(sql, d));
      }
      outcomes.add(runner.cancelAfter(sql, own / 2));
      outcomes.add(own > 1_500 ? runner.run(sql, 1, 0) : Outcome.skipped());
      long half = Math.max(1, own / 2000);
      outcomes.add(own > 1_500 && half > 1 ? runner.run(sql, (int) half, 0) : Outcome.skipped());
      for (Outcome o : outcomes) {
        line.append(' ').append(o.cell()).append(" |");
        if (o.latencyMs >= 0) {
          max = Math.max(max, o.latencyMs);
        }
        if (o.latencyMs > BOUND_MS || (o.state != null && !"57014".equals(o.state))) {
          slow++;
        }
      }
      line.append(' ').append(max < 0 ? "" : Long.toString(max)).append(" |");
      table.add(line.toString());
      System.out.println(line);
    }
    System.out.println();
    table.forEach(System.out::println);
    System.out.println();
    System.out.println(
        slow == 0
            ? "every cancelled run stopped with 57014 within " + BOUND_MS + " ms"
            : slow + " runs took more than " + BOUND_MS + " ms to stop or failed otherwise");
    System.exit(slow == 0 ? 0 : 1);
  }

  /** What became of one run. */
  private static final class Outcome {
    /** From the start of the run to its end (its answer or its failure). */
    long endedMs;

    /** From the cancel or deadline to the failure; -1 when it did not fail after one. */
    long latencyMs = -1;

    /** The SQLState it failed with, or a description; null when it answered. */
    String state;

    boolean answeredFirst;
    boolean cancelledAtLimit;
    boolean skipped;
    boolean leftBehind;

    static Outcome skipped() {
      Outcome o = new Outcome();
      o.skipped = true;
      return o;
    }

    String cell() {
      if (skipped) {
        return "";
      }
      if (leftBehind) {
        return "> " + GIVE_UP_MS + " (left behind)";
      }
      if (answeredFirst) {
        return "done";
      }
      if (state == null) {
        return "answered";
      }
      String text = latencyMs >= 0 ? Long.toString(latencyMs) : "";
      return "57014".equals(state) ? text : text + " " + state;
    }
  }

  /** Runs statements on a thread of their own, on a connection that is replaced when abandoned. */
  private static final class Runner {
    private final Path lake;
    private Connection floe;
    private ExecutorService thread;

    Runner(Path lake) throws SQLException {
      this.lake = lake;
      this.floe = DriverManager.getConnection("jdbc:floe:" + lake);
      this.thread = newThread();
    }

    /** A run with a query timeout of {@code timeoutSeconds} (≤ 0: none), or to its end. */
    Outcome run(String sql, int timeoutSeconds, int giveUpSeconds) throws Exception {
      Statement s = floe.createStatement();
      if (timeoutSeconds > 0) {
        s.setQueryTimeout(timeoutSeconds);
      }
      long start = System.nanoTime();
      Future<Long> run = thread.submit(() -> consume(s, sql));
      long limitMs =
          timeoutSeconds > 0 ? timeoutSeconds * 1000L + GIVE_UP_MS : giveUpSeconds * 1000L;
      Outcome o = await(s, run, start, limitMs);
      if (timeoutSeconds > 0 && o.state != null && !o.leftBehind) {
        o.latencyMs = Math.max(0, o.endedMs - timeoutSeconds * 1000L);
      } else if (timeoutSeconds > 0 && o.state == null) {
        o.answeredFirst = true;
      }
      return o;
    }

    /** A run cancelled {@code delayMs} after it started. */
    Outcome cancelAfter(String sql, long delayMs) throws Exception {
      Statement s = floe.createStatement();
      long start = System.nanoTime();
      Future<Long> run = thread.submit(() -> consume(s, sql));
      Outcome early = null;
      try {
        run.get(delayMs, TimeUnit.MILLISECONDS);
        early = new Outcome();
        early.answeredFirst = true;
      } catch (TimeoutException e) {
        // still running: cancel it
      } catch (ExecutionException e) {
        early = new Outcome();
        early.state = stateOf(e.getCause());
      }
      if (early != null) {
        s.close();
        return early;
      }
      long cancelled = System.nanoTime();
      s.cancel();
      Outcome o = await(s, run, start, GIVE_UP_MS + (cancelled - start) / 1_000_000);
      if (o.state != null && !o.leftBehind) {
        o.latencyMs = o.endedMs - (cancelled - start) / 1_000_000;
      } else if (o.state == null) {
        o.answeredFirst = true;
      }
      return o;
    }

    private Outcome await(Statement s, Future<Long> run, long start, long limitMs)
        throws Exception {
      Outcome o = new Outcome();
      try {
        long ended =
            run.get(
                Math.max(1, limitMs - (System.nanoTime() - start) / 1_000_000),
                TimeUnit.MILLISECONDS);
        o.endedMs = (ended - start) / 1_000_000;
      } catch (ExecutionException e) {
        o.state = stateOf(e.getCause());
        Throwable cause = e.getCause();
        o.endedMs =
            cause instanceof Failed f
                ? (f.at - start) / 1_000_000
                : (System.nanoTime() - start) / 1_000_000;
      } catch (TimeoutException e) {
        if (limitMs > GIVE_UP_MS) {
          // A run to its end that took too long: cancel it and note how long that took.
          long cancelled = System.nanoTime();
          s.cancel();
          Outcome stopped = await(s, run, cancelled, GIVE_UP_MS);
          o.state = stopped.state == null ? "cancelled" : stopped.state;
          o.leftBehind = stopped.leftBehind;
          o.cancelledAtLimit = true;
          o.endedMs = (cancelled - start) / 1_000_000;
          return o;
        }
        o.leftBehind = true;
        o.state = "left behind";
        floe = DriverManager.getConnection("jdbc:floe:" + lake);
        thread = newThread();
        return o;
      }
      s.close();
      return o;
    }

    private static long consume(Statement s, String sql) throws Failed {
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          rs.getObject(1);
        }
        return System.nanoTime();
      } catch (SQLException e) {
        throw new Failed(e, System.nanoTime());
      }
    }

    private static ExecutorService newThread() {
      return Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "tpch-cancel");
            t.setDaemon(true);
            return t;
          });
    }
  }

  private static String stateOf(Throwable t) {
    if (t instanceof Failed f) {
      return f.getCause() instanceof SQLException se ? se.getSQLState() : "?";
    }
    return t.toString();
  }

  /** The failure of a run and when it was seen. */
  private static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;
    final long at;

    Failed(SQLException cause, long at) {
      super(cause);
      this.at = at;
    }
  }

  private static List<Integer> parseList(String text) {
    List<Integer> values = new ArrayList<>();
    for (String part : text.split(",")) {
      String[] range = part.split("-");
      int from = Integer.parseInt(range[0].trim());
      int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
      for (int v = from; v <= to; v++) {
        values.add(v);
      }
    }
    return values;
  }
}
