package dev.floe.tck.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Aggregate queries on the benchmark table: Floe with the aggregate computed in the scan (or from
 * manifests), the same query as Calcite computes it above the scan (over a subquery whose filter
 * {@code RAND() >= 0} keeps every row but stops the pushdown), and DuckDB's JDBC driver reading the
 * same files with {@code read_parquet}; answers are checked against DuckDB's. Prints medians of
 * several runs in milliseconds, warm, in one JVM.
 *
 * <p>Arguments: rows (default 5,000,000), runs (default 5).
 */
public final class AggregateBenchmark {
  private AggregateBenchmark() {}

  /** A workload: Floe's SQL on table {@code bench}, and DuckDB's on {@code FILES}. */
  private record Workload(String name, String floe, String duck) {}

  private static final List<Workload> WORKLOADS =
      List.of(
          new Workload(
              "GROUP BY k, COUNT(*), SUM(v)",
              "SELECT k, COUNT(*), SUM(v) FROM bench GROUP BY k ORDER BY k",
              "SELECT k, COUNT(*), SUM(v) FROM FILES GROUP BY k ORDER BY k"),
          new Workload(
              "COUNT(*) WHERE id BETWEEN 1000 AND 5000",
              "SELECT COUNT(*) FROM bench WHERE id BETWEEN 1000 AND 5000",
              "SELECT COUNT(*) FROM FILES WHERE id BETWEEN 1000 AND 5000"),
          new Workload("COUNT(*)", "SELECT COUNT(*) FROM bench", "SELECT COUNT(*) FROM FILES"),
          new Workload(
              "MIN(id), MAX(id), MIN(k), MAX(k)",
              "SELECT MIN(id), MAX(id), MIN(k), MAX(k) FROM bench",
              "SELECT MIN(id), MAX(id), MIN(k), MAX(k) FROM FILES"));

  public static void main(String[] argv) throws Exception {
    String[] args =
        String.join(" ", argv).trim().isEmpty()
            ? new String[0]
            : String.join(" ", argv).trim().split("\\s+");
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Path root = Files.createTempDirectory("floe-bench");
    Path folder = root.resolve("bench");
    BenchLake.write(folder, rows, 4);
    List<String> files = BenchLake.dataFiles(folder);
    String duckFiles =
        "read_parquet(["
            + String.join(", ", files.stream().map(f -> "'" + f + "'").toList())
            + "])";
    try (Connection f = DriverManager.getConnection("jdbc:floe:" + root);
        Connection d = DriverManager.getConnection("jdbc:duckdb:")) {
      System.out.printf(
          Locale.ROOT,
          "%-40s %12s %12s %12s %8s%n",
          "workload (" + rows + " rows)",
          "floe ms",
          "calcite ms",
          "duckdb ms",
          "ratio");
      for (Workload w : WORKLOADS) {
        String calcite =
            w.floe().replace("FROM bench", "FROM (SELECT * FROM bench WHERE RAND() >= 0) b");
        String duck = w.duck().replace("FILES", duckFiles);
        List<String> expected = answer(d, duck);
        if (!answer(f, w.floe()).equals(expected) || !answer(f, calcite).equals(expected)) {
          throw new IllegalStateException("Floe's answer differs from DuckDB's: " + w.name());
        }
        double[] floe = new double[runs];
        double[] own = new double[runs];
        double[] duckMs = new double[runs];
        for (int r = 0; r < runs; r++) {
          floe[r] = time(f, w.floe());
          own[r] = time(f, calcite);
          duckMs[r] = time(d, duck);
        }
        try (Statement s = f.createStatement();
            ResultSet rs = s.executeQuery("EXPLAIN ANALYZE " + w.floe())) {
          while (rs.next()) {
            String line = rs.getString(1);
            if (line.startsWith("time:") || line.startsWith("LakeTableScan ")) {
              System.out.println("  " + line);
            }
          }
        }
        double floeMedian = ReadBenchmark.median(floe);
        double duckMedian = ReadBenchmark.median(duckMs);
        System.out.printf(
            Locale.ROOT,
            "RESULT %-33s %12.1f %12.1f %12.1f %8.2f%n",
            w.name(),
            floeMedian,
            ReadBenchmark.median(own),
            duckMedian,
            duckMedian / floeMedian);
      }
    }
    BenchLake.deleteTree(root);
  }

  private static List<String> answer(Connection c, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          // Sums of doubles may differ in the last bits between engines: compare 9 digits.
          Object value = rs.getObject(i);
          row.append(
                  value instanceof Double x
                      ? String.format(Locale.ROOT, "%.9g", x)
                      : value instanceof Number n ? String.valueOf(n.longValue()) : rs.getString(i))
              .append('|');
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  private static double time(Connection c, String sql) throws Exception {
    long start = System.nanoTime();
    long seen = 0;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        seen += rs.getLong(1);
      }
    }
    if (seen < 0) {
      throw new IllegalStateException("negative answer");
    }
    return (System.nanoTime() - start) / 1e6;
  }
}
