package dev.floe.tck.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.iceberg.Table;

/**
 * The performance table in one run: each workload through Floe's JDBC driver and through DuckDB's
 * JDBC driver reading the same Parquet files with {@code read_parquet}, medians of several runs,
 * every answer compared between the two; then what only Floe has a peer for (deletes, batch inserts
 * against Iceberg's generic writer), time to the first row on a fresh JVM, the latency of a warm
 * {@code SELECT * ... LIMIT 200} and the size of the shaded jar. Prints a Markdown table; the ratio
 * is DuckDB's time divided by Floe's (above 1: Floe is faster). A program, not a test: timings on a
 * shared machine are noisy.
 *
 * <p>Arguments: rows (default 5,000,000), runs (default 5), batch-insert rows (default rows / 5),
 * first-row runs (default runs). Fails after printing the table if any answer differs.
 */
public final class PerfHarness {
  private static final int EQUALITY_DELETED_KEYS = 10_000;

  private final Connection floe;
  private final Connection duck;
  private final int runs;
  private final List<String> table = new ArrayList<>();
  private final List<String> mismatches = new ArrayList<>();

  private PerfHarness(Connection floe, Connection duck, int runs) {
    this.floe = floe;
    this.duck = duck;
    this.runs = runs;
  }

  public static void main(String[] argv) throws Exception {
    String joined = String.join(" ", argv).trim();
    String[] args = joined.isEmpty() ? new String[0] : joined.split("\\s+");
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    long insertRows = args.length > 2 ? Long.parseLong(args[2]) : Math.max(1, rows / 5);
    int firstRowRuns = args.length > 3 ? Integer.parseInt(args[3]) : runs;
    Path jar = dev.floe.tck.JarDriver.jar();

    Path root = Files.createTempDirectory("floe-perf");
    try {
      long t0 = System.nanoTime();
      Table plain = BenchLake.write(root.resolve("bench"), rows, 4);
      Table positions = BenchLake.copy(plain, root.resolve("bench_pos"));
      long positionDeleted = BenchLake.deletePositions(positions, 10);
      Table equality = BenchLake.copy(plain, root.resolve("bench_eq"));
      long[] keys = new long[(int) Math.min(EQUALITY_DELETED_KEYS, rows)];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = i * (rows / keys.length);
      }
      BenchLake.deleteIds(equality, keys);
      System.out.printf(
          Locale.ROOT,
          "wrote %,d rows in 4 zstd files (%,d bytes) and two copies with deletes in %.1f s%n",
          rows,
          BenchLake.bytesUnder(root.resolve("bench")),
          (System.nanoTime() - t0) / 1e9);
      String files =
          "read_parquet(["
              + String.join(
                  ", ",
                  BenchLake.dataFiles(root.resolve("bench")).stream()
                      .map(f -> "'" + f + "'")
                      .toList())
              + "])";

      try (Connection f = DriverManager.getConnection("jdbc:floe:" + root);
          Connection d = DriverManager.getConnection("jdbc:duckdb:")) {
        PerfHarness h = new PerfHarness(f, d, runs);
        h.table.add("| workload | Floe ms | DuckDB ms | ratio |");
        h.table.add("|---|--:|--:|--:|");
        h.versus(
            "full scan, 6 columns, typed getters and `getObject(LocalDate/LocalDateTime)`",
            "SELECT id, k, name, v, d, ts FROM %s",
            "bench",
            files,
            PerfHarness::scan6);
        h.versus(
            "scan of 4 columns (id, k, name, v)",
            "SELECT id, k, name, v FROM %s",
            "bench",
            files,
            PerfHarness::scan4);
        h.versus(
            "computed columns (`id * 2 + k`, `v * 2`, `CASE WHEN k < 500 THEN v ELSE 0 END`)",
            "SELECT id, id * 2 + k, v * 2, CASE WHEN k < 500 THEN v ELSE 0 END FROM %s",
            "bench",
            files,
            PerfHarness::computed);
        h.versus(
            "`GROUP BY k` with `COUNT(*)`, `SUM(v)` (" + Math.min(rows, 1000) + " groups)",
            "SELECT k, COUNT(*), SUM(v) FROM %s GROUP BY k ORDER BY k",
            "bench",
            files,
            PerfHarness::rows);
        h.versus(
            "`COUNT(*) WHERE id BETWEEN 1000 AND 5000`",
            "SELECT COUNT(*) FROM %s WHERE id BETWEEN 1000 AND 5000",
            "bench",
            files,
            PerfHarness::rows);
        h.versus("`COUNT(*)`", "SELECT COUNT(*) FROM %s", "bench", files, PerfHarness::rows);
        h.versus(
            "warm `SELECT * ... LIMIT 200`",
            "SELECT * FROM %s LIMIT 200",
            "bench",
            files,
            PerfHarness::count);

        double plainScan = h.floeOnly("SELECT id, k, name, v, d, ts FROM bench", rows);
        double positionScan =
            h.floeOnly("SELECT id, k, name, v, d, ts FROM bench_pos", rows - positionDeleted);
        double equalityScan =
            h.floeOnly("SELECT id, k, name, v, d, ts FROM bench_eq", rows - keys.length);
        h.table.add(
            String.format(
                Locale.ROOT,
                "| full scan with 10 %% position deletes ÷ plain scan | %.0f | | %.2f |",
                positionScan,
                plainScan / positionScan));
        h.table.add(
            String.format(
                Locale.ROOT,
                "| full scan with %,d equality-deleted keys ÷ plain scan | %.0f | | %.2f |",
                keys.length,
                equalityScan,
                plainScan / equalityScan));
        double[] insert = WriteBenchmark.insertRates(root.resolve("insert"), insertRows);
        h.table.add(
            String.format(
                Locale.ROOT,
                "| batch INSERT of %,d rows (batches of 10,000, one commit) ÷ Iceberg's generic"
                    + " writer, rows/s | %,.0f | %,.0f (Iceberg) | %.2f |",
                insertRows,
                insert[0],
                insert[1],
                insert[0] / insert[1]));
        double[] first = FirstRowBenchmark.firstRowMillis(jar.toString(), firstRowRuns);
        h.table.add(
            String.format(
                Locale.ROOT,
                "| time to first row on a fresh JVM (shaded jar only, median of %d) | %.0f | | |",
                firstRowRuns,
                median(first)));
        h.table.add(
            String.format(
                Locale.ROOT,
                "| shaded jar `%s` | %.1f MB | | |",
                jar.getFileName(),
                Files.size(jar) / 1e6));

        System.out.printf(
            Locale.ROOT,
            "%nRESULT %,d rows, medians of %d runs, %d cores, load average at the end %.1f:%n%n",
            rows,
            runs,
            Runtime.getRuntime().availableProcessors(),
            java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage());
        h.table.forEach(System.out::println);
        if (!h.mismatches.isEmpty()) {
          throw new IllegalStateException("Answers differ: " + h.mismatches);
        }
      }
    } finally {
      BenchLake.deleteTree(root);
    }
  }

  /** Reads a result set into an answer both engines must agree on. */
  private interface Reader {
    String read(ResultSet rs) throws Exception;
  }

  /** One workload through both drivers, alternating, with one unmeasured warm-up each. */
  private void versus(String name, String sql, String floeTable, String duckFrom, Reader reader)
      throws Exception {
    String floeSql = String.format(Locale.ROOT, sql, floeTable);
    String duckSql = String.format(Locale.ROOT, sql, duckFrom);
    String floeAnswer = run(floe, floeSql, reader)[1];
    String duckAnswer = run(duck, duckSql, reader)[1];
    if (!floeAnswer.equals(duckAnswer)) {
      mismatches.add(
          name + ": floe " + abbreviate(floeAnswer) + ", duckdb " + abbreviate(duckAnswer));
    }
    double[] f = new double[runs];
    double[] d = new double[runs];
    for (int r = 0; r < runs; r++) {
      d[r] = Double.parseDouble(run(duck, duckSql, reader)[0]);
      f[r] = Double.parseDouble(run(floe, floeSql, reader)[0]);
    }
    double fm = median(f);
    double dm = median(d);
    System.out.printf(
        Locale.ROOT,
        "%s: floe %s ms, duckdb %s ms%n",
        name,
        Arrays.toString(f),
        Arrays.toString(d));
    table.add(
        String.format(
            Locale.ROOT,
            "| %s%s | %s | %s | %.2f |",
            name,
            floeAnswer.equals(duckAnswer) ? "" : " (ANSWERS DIFFER)",
            ms(fm),
            ms(dm),
            dm / fm));
  }

  /** The median time in ms of a full scan through Floe, checking the row count. */
  private double floeOnly(String sql, long expectedRows) throws Exception {
    String answer = run(floe, sql, PerfHarness::scan6)[1];
    long count = Long.parseLong(answer.substring(0, answer.indexOf(' ')));
    if (count != expectedRows) {
      mismatches.add(sql + ": " + count + " rows, expected " + expectedRows);
    }
    double[] f = new double[runs];
    for (int r = 0; r < runs; r++) {
      f[r] = Double.parseDouble(run(floe, sql, PerfHarness::scan6)[0]);
    }
    System.out.printf(Locale.ROOT, "%s: floe %s ms%n", sql, Arrays.toString(f));
    return median(f);
  }

  /** Runs a query as a Statement: {elapsed ms, answer}. */
  private static String[] run(Connection c, String sql, Reader reader) throws Exception {
    long start = System.nanoTime();
    String answer;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      answer = reader.read(rs);
    }
    return new String[] {Double.toString((System.nanoTime() - start) / 1e6), answer};
  }

  private static String scan6(ResultSet rs) throws Exception {
    long count = 0;
    long checksum = 0;
    while (rs.next()) {
      checksum += rs.getLong(1);
      checksum += rs.getInt(2);
      String name = rs.getString(3);
      checksum += name == null ? 0 : name.length();
      checksum += (long) rs.getDouble(4);
      LocalDate date = rs.getObject(5, LocalDate.class);
      checksum += date == null ? 0 : date.toEpochDay();
      LocalDateTime ts = rs.getObject(6, LocalDateTime.class);
      checksum += ts == null ? 0 : ts.getNano() + ts.getSecond();
      count++;
    }
    return count + " rows, checksum " + checksum;
  }

  private static String scan4(ResultSet rs) throws Exception {
    long count = 0;
    long checksum = 0;
    while (rs.next()) {
      checksum += rs.getLong(1);
      checksum += rs.getInt(2);
      String name = rs.getString(3);
      checksum += name == null ? 0 : name.hashCode();
      checksum += Double.hashCode(rs.getDouble(4));
      count++;
    }
    return count + " rows, checksum " + checksum;
  }

  private static String computed(ResultSet rs) throws Exception {
    long count = 0;
    long checksum = 0;
    while (rs.next()) {
      checksum += rs.getLong(1);
      checksum += rs.getLong(2);
      checksum += Double.hashCode(rs.getDouble(3));
      checksum += Double.hashCode(rs.getDouble(4));
      count++;
    }
    return count + " rows, checksum " + checksum;
  }

  /** Every value as a number or string, row by row (the queries order their rows). */
  private static String rows(ResultSet rs) throws Exception {
    StringBuilder out = new StringBuilder();
    ResultSetMetaData meta = rs.getMetaData();
    while (rs.next()) {
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        Object value = rs.getObject(i);
        out.append(
                value instanceof Number n
                    ? (value instanceof Double || value instanceof Float
                        ? Double.toString(n.doubleValue())
                        : Long.toString(n.longValue()))
                    : Objects.toString(value))
            .append(i == meta.getColumnCount() ? ";" : ",");
      }
    }
    return out.toString();
  }

  private static String count(ResultSet rs) throws Exception {
    int columns = rs.getMetaData().getColumnCount();
    long count = 0;
    while (rs.next()) {
      for (int i = 1; i <= columns; i++) {
        rs.getObject(i);
      }
      count++;
    }
    return count + " rows of " + columns + " columns";
  }

  private static String ms(double millis) {
    return millis < 10
        ? String.format(Locale.ROOT, "%.1f", millis)
        : String.format(Locale.ROOT, "%.0f", millis);
  }

  private static String abbreviate(String s) {
    return s.length() <= 120 ? s : s.substring(0, 120) + "...";
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
