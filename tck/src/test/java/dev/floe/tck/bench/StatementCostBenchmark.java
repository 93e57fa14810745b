package dev.floe.tck.bench;

import dev.floe.tck.JarDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one small statement costs in a warm JVM, and where the time goes: parse, validate, optimize,
 * compile (code generation and Janino), metadata (table load and data-file planning) and execute,
 * for each statement run as a Statement and as a re-executed PreparedStatement. Every answer is
 * checked.
 *
 * <p>Arguments: rows of the benchmark table (default 5,000,000), files (default 4), measured runs
 * per statement (default 20).
 */
public final class StatementCostBenchmark {
  private StatementCostBenchmark() {}

  // Floe's phase clock, reached in the driver jar's own class loader (the kit's class path holds no
  // Floe class): PhaseTimes.collect() starts a recording, Recording.nanos() reads it.
  private static final Class<?> PHASES;
  private static final java.lang.reflect.Method COLLECT;
  private static final java.lang.reflect.Method NANOS;

  static {
    try {
      ClassLoader jar = JarDriver.loader();
      Class<?> times = Class.forName("dev.floe.planner.session.PhaseTimes", true, jar);
      PHASES = Class.forName("dev.floe.planner.session.PhaseTimes$Phase", true, jar);
      COLLECT = times.getMethod("collect");
      NANOS =
          Class.forName("dev.floe.planner.session.PhaseTimes$Recording", true, jar)
              .getMethod("nanos");
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private record Query(String sql, long expectedRows, long expectedFirst) {}

  public static void main(String[] argv) throws Exception {
    String[] args = String.join(" ", argv).trim().split("\\s+");
    long rows = args.length > 0 && !args[0].isEmpty() ? Long.parseLong(args[0]) : 5_000_000;
    int files = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    Path root = Files.createTempDirectory("floe-statement-cost");
    BenchLake.write(root.resolve("bench"), rows, files);
    List<Query> queries =
        List.of(
            new Query("SELECT 1", 1, 1),
            new Query("SELECT COUNT(*) FROM bench", 1, rows),
            new Query(
                "SELECT COUNT(*) FROM bench WHERE id BETWEEN 1000 AND 5000",
                1,
                Math.max(0, Math.min(rows - 1, 5000) - 1000 + 1)),
            new Query("SELECT * FROM bench LIMIT 200", Math.min(rows, 200), -1));
    System.out.printf(
        Locale.ROOT,
        "%-60s %-9s %8s | %7s %8s %8s %8s %8s %8s%n",
        "statement",
        "as",
        "total ms",
        "parse",
        "validate",
        "optimize",
        "compile",
        "metadata",
        "execute");
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + root)) {
      for (Query query : queries) {
        measure(c, query, false, runs);
        measure(c, query, true, runs);
      }
    }
    BenchLake.deleteTree(root);
  }

  @SuppressWarnings("unchecked")
  private static void measure(Connection c, Query query, boolean prepared, int runs)
      throws Exception {
    int warmup = Math.max(3, runs / 4);
    double[] totals = new double[runs];
    long[] phases = new long[PHASES.getEnumConstants().length];
    try (PreparedStatement ps = prepared ? c.prepareStatement(query.sql()) : null) {
      for (int i = 0; i < warmup + runs; i++) {
        long start = System.nanoTime();
        Map<?, Long> split;
        try (AutoCloseable recording = (AutoCloseable) COLLECT.invoke(null)) {
          if (prepared) {
            try (ResultSet rs = ps.executeQuery()) {
              check(query, rs);
            }
          } else {
            try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(query.sql())) {
              check(query, rs);
            }
          }
          split = (Map<?, Long>) NANOS.invoke(recording);
        }
        long total = System.nanoTime() - start;
        if (i >= warmup) {
          totals[i - warmup] = total / 1e6;
          for (Map.Entry<?, Long> e : split.entrySet()) {
            phases[((Enum<?>) e.getKey()).ordinal()] += e.getValue();
          }
        }
      }
    }
    Arrays.sort(totals);
    List<String> cells = new ArrayList<>();
    for (long nanos : phases) {
      cells.add(String.format(Locale.ROOT, "%8.2f", nanos / 1e6 / runs));
    }
    System.out.printf(
        Locale.ROOT,
        "%-60s %-9s %8.2f | %s%n",
        query.sql(),
        prepared ? "prepared" : "statement",
        totals[runs / 2],
        String.join(" ", cells));
  }

  private static void check(Query query, ResultSet rs) throws Exception {
    long n = 0;
    int columns = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      if (n == 0 && query.expectedFirst() >= 0 && rs.getLong(1) != query.expectedFirst()) {
        throw new IllegalStateException(
            query.sql() + " answered " + rs.getLong(1) + ", expected " + query.expectedFirst());
      }
      for (int i = 1; i <= columns; i++) {
        rs.getObject(i);
      }
      n++;
    }
    if (n != query.expectedRows()) {
      throw new IllegalStateException(
          query.sql() + " returned " + n + " rows, expected " + query.expectedRows());
    }
  }
}
