package dev.floe.tck.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * TPC-H through Floe against DuckDB in the same run: the tables generated at a scale factor and
 * written through Floe's batch INSERT (see {@link Tpch}), DuckDB reading the same data files, then
 * for each query the time of each engine, the ratio (DuckDB ms ÷ Floe ms: above 1 Floe is faster),
 * whether the answers agree, the heap Floe's run peaked at, and the joins of Floe's plan with their
 * algorithms. A program, not a test: timings on a shared machine are noisy.
 *
 * <p>Arguments: scale factor (default 1), runs per query and engine (default 1, after one warm-up
 * run each when more than one; the median is printed), the queries (default {@code 1-22}, e.g.
 * {@code 5,9,19,21}, or {@code analytics}: see {@link Tpch#queries}), the timeout of one Floe run
 * in seconds (default 600; Floe is cancelled then, and a run that does not stop within 30 s more is
 * left behind on its thread and connection and reported, and the next query runs on a new thread
 * and connection), and a folder to keep the loaded lake in and reuse (it is loaded when it holds no
 * {@code lineitem}; by default a temporary folder is loaded and deleted), and the connection
 * property {@code memoryBudget} of the queries' connection (e.g. {@code 64MB}; default the driver's
 * own), to run the joins that spill to disk when their build side does not fit.
 *
 * <p>Exits with status 1 after printing the table if any answer differs or any query fails.
 */
public final class TpchBenchmark {
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private TpchBenchmark() {}

  public static void main(String[] argv) throws Exception {
    String joined = String.join(" ", argv).trim();
    String[] args = joined.isEmpty() ? new String[0] : joined.split("\\s+");
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    Map<String, String> queries = Tpch.queries(args.length > 2 ? args[2] : "1-22", sf);
    int timeout = args.length > 3 ? Integer.parseInt(args[3]) : 600;

    String kept = args.length > 4 ? args[4] : "";
    Path lake = kept.isEmpty() ? Files.createTempDirectory("floe-tpch") : Path.of(kept);
    Files.createDirectories(lake);
    String url = "jdbc:floe:" + lake + (args.length > 5 ? "?memoryBudget=" + args[5] : "");
    if (args.length > 5) {
      System.out.println("memoryBudget=" + args[5]);
    }
    Connection floe = DriverManager.getConnection(url);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      if (!Files.exists(lake.resolve("lineitem"))) {
        long t0 = System.nanoTime();
        long rows = Tpch.load(floe, sf);
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "loaded TPC-H SF %s through Floe's batch INSERT: %,d rows in %.1f s (%,.0f rows/s)%n",
            sf,
            rows,
            seconds,
            rows / seconds);
      } else {
        System.out.println("reusing the lake in " + lake + " (loaded before; SF as it was loaded)");
      }
      Tpch.attach(duck, floe);
      System.out.printf(
          Locale.ROOT,
          "max heap %,d MiB, %d processors, runs %d%n%n",
          Runtime.getRuntime().maxMemory() >> 20,
          Runtime.getRuntime().availableProcessors(),
          runs);
      List<String> table = new ArrayList<>();
      table.add("| query | Floe ms | DuckDB ms | ratio | answer | Floe peak heap MiB | joins |");
      table.add("|---|--:|--:|--:|---|--:|---|");
      List<Double> ratios = new ArrayList<>();
      int failures = 0;
      ExecutorService floeThread = floeThread();
      int abandoned = 0;
      for (Map.Entry<String, String> query : queries.entrySet()) {
        String sql = query.getValue();
        String shape;
        try {
          shape = Tpch.planShape(floe, sql);
        } catch (SQLException e) {
          shape = "EXPLAIN failed: " + e.getSQLState() + " " + firstLine(e.getMessage());
        }
        double[] duckMs = new double[runs];
        List<List<Object>> expected = null;
        List<String> labels = null;
        for (int r = -1; r < runs; r++) {
          if (r < 0 && runs == 1) {
            continue;
          }
          long t0 = System.nanoTime();
          try (Statement s = duck.createStatement();
              ResultSet rs = s.executeQuery(sql)) {
            labels = Tpch.labels(rs);
            expected = Tpch.rows(rs);
          }
          if (r >= 0) {
            duckMs[r] = (System.nanoTime() - t0) / 1e6;
          }
        }
        double[] floeMs = new double[runs];
        List<List<Object>> actual = null;
        String error = null;
        long peak = 0;
        for (int r = (runs == 1 ? 0 : -1); r < runs && error == null; r++) {
          System.gc();
          Sampler sampler = new Sampler();
          sampler.start();
          long t0 = System.nanoTime();
          Statement s = floe.createStatement();
          s.setQueryTimeout(timeout);
          Future<List<List<Object>>> run =
              floeThread.submit(
                  () -> {
                    try (ResultSet rs = s.executeQuery(sql)) {
                      return Tpch.rows(rs);
                    }
                  });
          boolean left = false;
          try {
            actual = run.get(timeout + 30L, TimeUnit.SECONDS);
          } catch (TimeoutException e) {
            error = "did not stop " + (timeout + 30) + " s after it started";
            left = true;
          } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            error =
                cause instanceof SQLException se
                    ? se.getSQLState() + " " + firstLine(se.getMessage())
                    : cause.toString();
          } finally {
            sampler.stop();
            if (left) {
              // The run goes on in the background on its thread and connection; the next one gets
              // its own, so that it is not queued behind it or refused as a second thread.
              abandoned++;
              floeThread = floeThread();
              floe = DriverManager.getConnection(url);
            } else {
              s.close();
            }
          }
          if (r >= 0) {
            floeMs[r] = (System.nanoTime() - t0) / 1e6;
          }
          peak = Math.max(peak, sampler.peak());
        }
        String answer;
        double floeMedian = median(floeMs);
        double duckMedian = median(duckMs);
        String ratio = "";
        if (error != null || actual == null || expected == null) {
          answer = error != null ? error : "no answer";
          failures++;
        } else {
          String difference = Tpch.difference(expected, actual, Tpch.orderKeys(sql, labels));
          answer = difference == null ? "same (" + actual.size() + " rows)" : difference;
          if (difference != null) {
            failures++;
          } else {
            ratios.add(duckMedian / floeMedian);
            ratio = String.format(Locale.ROOT, "%.3f", duckMedian / floeMedian);
          }
        }
        String line =
            String.format(
                Locale.ROOT,
                "| %s | %.0f | %.0f | %s | %s | %,d | %s |",
                query.getKey(),
                floeMedian,
                duckMedian,
                ratio,
                answer.replace("|", "\\|"),
                peak >> 20,
                shape);
        table.add(line);
        System.out.println(line);
      }
      double logSum = 0;
      for (double r : ratios) {
        logSum += Math.log(r);
      }
      System.out.println();
      table.forEach(System.out::println);
      System.out.printf(
          Locale.ROOT,
          "%ngeometric mean of the ratio over the %d queries answered right: %.3f%n",
          ratios.size(),
          ratios.isEmpty() ? Double.NaN : Math.exp(logSum / ratios.size()));
      if (abandoned > 0) {
        System.out.println(
            abandoned
                + " Floe runs did not stop when cancelled; they went on in the background while"
                + " later queries ran, so later timings are not of a quiet machine");
      }
      if (failures > 0) {
        System.out.println(failures + " queries failed or answered differently");
        System.exit(1);
      }
      System.exit(0);
    } finally {
      floe.close();
      if (kept.isEmpty()) {
        BenchLake.deleteTree(lake);
      }
    }
  }

  private static ExecutorService floeThread() {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, "tpch-floe");
          t.setDaemon(true);
          return t;
        });
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline);
    return line.length() > 160 ? line.substring(0, 160) + "…" : line;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** The largest heap in use while a run lasts, sampled every 5 ms. */
  private static final class Sampler {
    private final AtomicLong peak = new AtomicLong();
    private volatile boolean running = true;
    private final Thread thread =
        new Thread(
            () -> {
              while (running) {
                peak.accumulateAndGet(MEMORY.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                  Thread.sleep(5);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "tpch-heap");

    void start() {
      thread.setDaemon(true);
      thread.start();
    }

    void stop() throws InterruptedException {
      running = false;
      thread.join();
      peak.accumulateAndGet(MEMORY.getHeapMemoryUsage().getUsed(), Math::max);
    }

    long peak() {
      return peak.get();
    }
  }
}
