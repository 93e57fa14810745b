package dev.floe.tck.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;

/**
 * Writes: a PreparedStatement batch insert through Floe against Iceberg's own generic writer
 * writing the same rows in the same run; then DELETE of 1% of the rows of a large table, as
 * merge-on-read (position deletes) and as copy-on-write, with time and bytes written. A program,
 * not a test.
 *
 * <p>Arguments: insert rows (default 1,000,000), delete-table rows (default 5,000,000; 0 skips the
 * deletes), batch size (default 10,000), measured insert runs (default 3).
 */
public final class WriteBenchmark {
  private WriteBenchmark() {}

  public static void main(String[] argv) throws Exception {
    String joined = String.join(" ", argv).trim();
    String[] args = joined.isEmpty() ? new String[0] : joined.split("\\s+");
    long insertRows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
    long deleteRows = args.length > 1 ? Long.parseLong(args[1]) : 5_000_000L;
    int batch = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    Path root = Files.createTempDirectory("floe-write-bench");
    try {
      insert(root, insertRows, batch, runs);
      if (deleteRows > 0) {
        delete(root, deleteRows, "merge-on-read");
        delete(root, deleteRows, "copy-on-write");
      }
    } finally {
      BenchLake.deleteTree(root);
    }
  }

  private static void insert(Path root, long rows, int batch, int runs) throws Exception {
    double[] rates = insertRates(root, rows, batch, runs);
    System.out.printf(
        Locale.ROOT,
        "RESULT batch insert of %,d rows (batches of %,d, one commit, median of %d): floe %,.0f"
            + " rows/s, iceberg generic writer %,.0f rows/s, ratio %.2f; by process CPU time:"
            + " floe %,.0f rows/s, iceberg %,.0f rows/s, ratio %.2f%n",
        rows,
        batch,
        runs,
        rates[0],
        rates[1],
        rates[0] / rates[1],
        rates[2],
        rates[3],
        rates[2] / rates[3]);
  }

  /**
   * Inserts {@code rows} rows through a PreparedStatement batch (batches of 10,000, one commit) and
   * writes the same rows with Iceberg's generic writer, after one unmeasured run of each; returns
   * the median of 3 runs in rows/s: {Floe, Iceberg} by elapsed time, then by process CPU time.
   */
  static double[] insertRates(Path root, long rows) throws Exception {
    return insertRates(root, rows, 10_000, 3);
  }

  /**
   * As {@link #insertRates(Path, long)}, with the batch size and the number of measured runs;
   * Floe's and Iceberg's runs alternate.
   */
  static double[] insertRates(Path root, long rows, int batch, int runs) throws Exception {
    long warmUp = Math.min(rows, 100_000L);
    icebergRun(root, warmUp, 0);
    floeRun(root, warmUp, batch, 0);
    double[][] floe = new double[2][runs];
    double[][] iceberg = new double[2][runs];
    for (int run = 0; run < runs; run++) {
      double[] i = icebergRun(root, rows, run + 1);
      double[] f = floeRun(root, rows, batch, run + 1);
      for (int k = 0; k < 2; k++) {
        iceberg[k][run] = rows / i[k];
        floe[k][run] = rows / f[k];
      }
    }
    return new double[] {median(floe[0]), median(iceberg[0]), median(floe[1]), median(iceberg[1])};
  }

  /** Iceberg's generic writer: {elapsed seconds, process CPU seconds}. */
  private static double[] icebergRun(Path root, long rows, int run) throws Exception {
    Path folder = root.resolve("reference_" + run);
    long start = System.nanoTime();
    long cpu = processCpuNanos();
    BenchLake.write(folder, rows, 1);
    double[] seconds = {(System.nanoTime() - start) / 1e9, (processCpuNanos() - cpu) / 1e9};
    BenchLake.deleteTree(folder);
    return seconds;
  }

  /** Floe's PreparedStatement batches, one commit: {elapsed seconds, process CPU seconds}. */
  private static double[] floeRun(Path root, long rows, int batch, int run) throws Exception {
    String table = "floe_insert_" + run;
    Record record = GenericRecord.create(BenchLake.SCHEMA);
    long start;
    long cpu;
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + root)) {
      try (Statement s = c.createStatement()) {
        s.execute(
            "CREATE TABLE "
                + table
                + " (id BIGINT NOT NULL, k INT NOT NULL, name VARCHAR, v DOUBLE, d DATE, ts TIMESTAMP)");
      }
      start = System.nanoTime();
      cpu = processCpuNanos();
      c.setAutoCommit(false);
      try (PreparedStatement p =
          c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?, ?, ?)")) {
        for (long i = 0; i < rows; i++) {
          BenchLake.row(record, i);
          p.setLong(1, (Long) record.get(0));
          p.setInt(2, (Integer) record.get(1));
          p.setString(3, (String) record.get(2));
          p.setDouble(4, (Double) record.get(3));
          p.setObject(5, (LocalDate) record.get(4));
          p.setObject(6, (LocalDateTime) record.get(5));
          p.addBatch();
          if ((i + 1) % batch == 0) {
            p.executeBatch();
          }
        }
        p.executeBatch();
      }
      c.commit();
    }
    double[] seconds = {(System.nanoTime() - start) / 1e9, (processCpuNanos() - cpu) / 1e9};
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + root);
        Statement s = c.createStatement()) {
      try (java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(id) FROM " + table)) {
        if (!rs.next() || rs.getLong(1) != rows || rs.getLong(2) != rows * (rows - 1) / 2) {
          throw new IllegalStateException("The inserted table does not hold the rows inserted");
        }
      }
      s.execute("DROP TABLE " + table + " PURGE");
    }
    return seconds;
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static void delete(Path root, long rows, String mode) throws Exception {
    Path folder = root.resolve("delete_" + mode.replace('-', '_'));
    BenchLake.write(folder, rows, 4);
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + root)) {
      String table = folder.getFileName().toString();
      org.apache.iceberg.Table t =
          new org.apache.iceberg.hadoop.HadoopTables(new org.apache.hadoop.conf.Configuration())
              .load(folder.toString());
      t.updateProperties().set("write.delete.mode", mode).commit();
      long before = BenchLake.bytesUnder(folder);
      long start = System.nanoTime();
      long deleted;
      try (Statement s = c.createStatement()) {
        deleted = s.executeLargeUpdate("DELETE FROM " + table + " WHERE MOD(id, 100) = 0");
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long written = BenchLake.bytesUnder(folder) - before;
      if (deleted != (rows + 99) / 100) {
        throw new IllegalStateException("Deleted " + deleted + " rows");
      }
      System.out.printf(
          Locale.ROOT,
          "RESULT delete 1%% of %,d rows, %s: %.2f s, %,d bytes written, %,d rows deleted%n",
          rows,
          mode,
          seconds,
          written,
          deleted);
    }
  }
}
