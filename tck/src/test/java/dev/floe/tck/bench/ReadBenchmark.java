package dev.floe.tck.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Full-scan throughput through JDBC: Floe reading the benchmark table against DuckDB's JDBC driver
 * reading the same Parquet files with {@code read_parquet}, and Iceberg's own generic reader, in
 * one run; every value is fetched with its typed getter. Prints rows/s, medians of several runs,
 * and the ratios. A program, not a test: timings on a shared machine are noisy.
 *
 * <p>Arguments: rows (default 5,000,000), runs (default 5).
 */
public final class ReadBenchmark {
  private ReadBenchmark() {}

  public static void main(String[] argv) throws Exception {
    String[] args =
        String.join(" ", argv).trim().isEmpty()
            ? new String[0]
            : String.join(" ", argv).trim().split("\\s+");
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Path root = Files.createTempDirectory("floe-bench");
    Path folder = root.resolve("bench");
    long t0 = System.nanoTime();
    Table table = BenchLake.write(folder, rows, 4);
    System.out.printf(
        Locale.ROOT,
        "wrote %,d rows in %.1f s (%,d bytes)%n",
        rows,
        (System.nanoTime() - t0) / 1e9,
        BenchLake.bytesUnder(folder));
    List<String> files = BenchLake.dataFiles(folder);
    String duckFiles =
        "[" + String.join(", ", files.stream().map(f -> "'" + f + "'").toList()) + "]";

    double[] floe = new double[runs];
    double[] duck = new double[runs];
    double[] floeSql = new double[runs];
    double[] duckSql = new double[runs];
    double[] iceberg = new double[runs];
    try (Connection f = DriverManager.getConnection("jdbc:floe:" + root);
        Connection d = DriverManager.getConnection("jdbc:duckdb:")) {
      for (int r = 0; r < runs; r++) {
        String duckSqlText = "SELECT id, k, name, v, d, ts FROM read_parquet(" + duckFiles + ")";
        String floeSqlText = "SELECT id, k, name, v, d, ts FROM bench";
        duck[r] = scan(d, duckSqlText, rows, true);
        floe[r] = scan(f, floeSqlText, rows, true);
        duckSql[r] = scan(d, duckSqlText, rows, false);
        floeSql[r] = scan(f, floeSqlText, rows, false);
        iceberg[r] = icebergScan(table, rows);
        System.out.printf(
            Locale.ROOT,
            "run %d: java.time getters: floe %,.0f rows/s, duckdb %,.0f rows/s; java.sql getters: floe %,.0f, duckdb %,.0f; iceberg generic reader %,.0f rows/s%n",
            r + 1,
            floe[r],
            duck[r],
            floeSql[r],
            duckSql[r],
            iceberg[r]);
      }
    }
    double floeMedian = median(floe);
    double duckMedian = median(duck);
    double icebergMedian = median(iceberg);
    System.out.printf(
        Locale.ROOT,
        "RESULT full scan, %,d rows, 6 columns, getObject(LocalDate/LocalDateTime): floe %,.0f rows/s = %.2fx duckdb (%,.0f rows/s); iceberg generic reader alone %,.0f rows/s = %.2fx duckdb%n",
        rows,
        floeMedian,
        floeMedian / duckMedian,
        duckMedian,
        icebergMedian,
        icebergMedian / duckMedian);
    System.out.printf(
        Locale.ROOT,
        "RESULT full scan, %,d rows, 6 columns, getDate/getTimestamp: floe %,.0f rows/s = %.2fx duckdb (%,.0f rows/s)%n",
        rows,
        median(floeSql),
        median(floeSql) / median(duckSql),
        median(duckSql));
    BenchLake.deleteTree(root);
  }

  static double scan(Connection c, String sql, long expected, boolean javaTime) throws Exception {
    long start = System.nanoTime();
    long count = 0;
    long checksum = 0;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        checksum += rs.getLong(1);
        checksum += rs.getInt(2);
        String name = rs.getString(3);
        checksum += name == null ? 0 : name.length();
        checksum += (long) rs.getDouble(4);
        if (javaTime) {
          LocalDate date = rs.getObject(5, LocalDate.class);
          checksum += date == null ? 0 : date.getDayOfMonth();
          LocalDateTime ts = rs.getObject(6, LocalDateTime.class);
          checksum += ts == null ? 0 : ts.getNano();
        } else {
          java.sql.Date date = rs.getDate(5);
          checksum += date == null ? 0 : date.getTime() & 0xff;
          java.sql.Timestamp ts = rs.getTimestamp(6);
          checksum += ts == null ? 0 : ts.getNanos();
        }
        count++;
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (count != expected || checksum == 0) {
      throw new IllegalStateException("Read " + count + " rows, expected " + expected);
    }
    return count / seconds;
  }

  static double icebergScan(Table table, long expected) throws Exception {
    long start = System.nanoTime();
    long count = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        count += record.get(0) == null ? 0 : 1;
      }
    }
    if (count != expected) {
      throw new IllegalStateException("Read " + count + " rows, expected " + expected);
    }
    return count / ((System.nanoTime() - start) / 1e9);
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
