package dev.floe.tck.bench;

import dev.floe.tck.s3.S3TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A full scan of the same table on a local folder and on the S3 test server (s3proxy on 127.0.0.1,
 * in this JVM): the table is written by Floe with one CTAS on each side, then read with every value
 * fetched. Prints the best of several runs. A program, not a test.
 *
 * <p>Arguments: rows in millions (default 5), runs (default 3).
 */
public final class S3ScanBenchmark {
  private S3ScanBenchmark() {}

  public static void main(String[] argv) throws Exception {
    String[] args =
        String.join(" ", argv).trim().isEmpty()
            ? new String[0]
            : String.join(" ", argv).trim().split("\\s+");
    int millions = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    S3TestServer server = S3TestServer.get();
    Path local = Files.createTempDirectory("floe-s3-bench");
    String localUrl = "jdbc:floe:" + local;
    String s3Url = server.url(server.newBucket(), "lake");
    String hundred =
        IntStream.range(0, 100)
            .mapToObj(Integer::toString)
            .collect(Collectors.joining("), (", "(", ")"));
    String ctas =
        "CREATE TABLE big AS SELECT CAST(a.x * 10000 + b.x * 100 + c.x + e.x * 1000000 AS BIGINT) AS id,"
            + " CAST(b.x AS DOUBLE) * 1.5 AS amount, 'name-' || CAST(c.x AS VARCHAR) AS name"
            + " FROM (VALUES "
            + hundred
            + ") AS a(x), (VALUES "
            + hundred
            + ") AS b(x),"
            + " (VALUES "
            + hundred
            + ") AS c(x), (VALUES "
            + IntStream.range(0, millions)
                .mapToObj(Integer::toString)
                .collect(Collectors.joining("), (", "(", ")"))
            + ") AS e(x)";
    for (String url : List.of(localUrl, s3Url)) {
      long t0 = System.nanoTime();
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.executeUpdate(ctas);
      }
      System.out.printf(
          Locale.ROOT,
          "%s: wrote %d million rows in %.1f s%n",
          url.startsWith("jdbc:floe:s3") ? "S3" : "local",
          millions,
          (System.nanoTime() - t0) / 1e9);
    }
    for (String url : List.of(localUrl, s3Url)) {
      List<Double> times = new ArrayList<>();
      long rows = 0;
      for (int run = 0; run < runs; run++) {
        long t0 = System.nanoTime();
        rows = 0;
        try (Connection c = DriverManager.getConnection(url);
            Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT id, amount, name FROM big")) {
          while (rs.next()) {
            rs.getLong(1);
            rs.getDouble(2);
            rs.getString(3);
            rows++;
          }
        }
        times.add((System.nanoTime() - t0) / 1e9);
      }
      System.out.printf(
          Locale.ROOT,
          "%s full scan of %,d rows: best %.2f s of %s%n",
          url.startsWith("jdbc:floe:s3") ? "S3" : "local",
          rows,
          times.stream().mapToDouble(d -> d).min().orElse(0),
          times);
    }
    System.exit(0);
  }
}
