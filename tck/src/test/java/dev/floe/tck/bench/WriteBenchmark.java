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
 * <p>Arguments: insert rows (default 1,000,000), delete-table rows (default 5,000,000).
 */
public final class WriteBenchmark {
  private WriteBenchmark() {}

  public static void main(String[] argv) throws Exception {
    String joined = String.join(" ", argv).trim();
    String[] args = joined.isEmpty() ? new String[0] : joined.split("\\s+");
    long insertRows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
    long deleteRows = args.length > 1 ? Long.parseLong(args[1]) : 5_000_000L;
    Path root = Files.createTempDirectory("floe-write-bench");
    try {
      insert(root, insertRows);
      delete(root, deleteRows, "merge-on-read");
      delete(root, deleteRows, "copy-on-write");
    } finally {
      BenchLake.deleteTree(root);
    }
  }

  private static void insert(Path root, long rows) throws Exception {
    double[] rates = insertRates(root, rows);
    System.out.printf(
        Locale.ROOT,
        "RESULT batch insert of %,d rows (batches of 10,000, one commit): floe %,.0f rows/s, iceberg generic writer %,.0f rows/s, ratio %.2f%n",
        rows,
        rates[0],
        rates[1],
        rates[0] / rates[1]);
  }

  /**
   * Inserts {@code rows} rows through a PreparedStatement batch (batches of 10,000, one commit) and
   * writes the same rows with Iceberg's generic writer; returns both in rows/s: {Floe, Iceberg}.
   */
  static double[] insertRates(Path root, long rows) throws Exception {
    long start = System.nanoTime();
    BenchLake.write(root.resolve("reference"), rows, 1);
    double icebergSeconds = (System.nanoTime() - start) / 1e9;

    Record record = GenericRecord.create(BenchLake.SCHEMA);
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + root)) {
      try (Statement s = c.createStatement()) {
        s.execute(
            "CREATE TABLE floe_insert (id BIGINT NOT NULL, k INT NOT NULL, name VARCHAR, v DOUBLE, d DATE, ts TIMESTAMP)");
      }
      start = System.nanoTime();
      c.setAutoCommit(false);
      try (PreparedStatement p =
          c.prepareStatement("INSERT INTO floe_insert VALUES (?, ?, ?, ?, ?, ?)")) {
        for (long i = 0; i < rows; i++) {
          BenchLake.row(record, i);
          p.setLong(1, (Long) record.get(0));
          p.setInt(2, (Integer) record.get(1));
          p.setString(3, (String) record.get(2));
          p.setDouble(4, (Double) record.get(3));
          p.setObject(5, (LocalDate) record.get(4));
          p.setObject(6, (LocalDateTime) record.get(5));
          p.addBatch();
          if ((i + 1) % 10_000 == 0) {
            p.executeBatch();
          }
        }
        p.executeBatch();
      }
      c.commit();
    }
    double floeSeconds = (System.nanoTime() - start) / 1e9;
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + root);
        Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(id) FROM floe_insert")) {
      if (!rs.next() || rs.getLong(1) != rows || rs.getLong(2) != rows * (rows - 1) / 2) {
        throw new IllegalStateException("The inserted table does not hold the rows inserted");
      }
    }
    return new double[] {rows / floeSeconds, rows / icebergSeconds};
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
