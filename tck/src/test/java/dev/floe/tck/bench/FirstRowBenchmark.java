package dev.floe.tck.bench;

import java.io.File;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;

/**
 * Time to the first row on a fresh JVM: a child JVM whose class path is only the shaded driver jar
 * (and this class) connects through DriverManager and reads the first row of the benchmark table;
 * it reports the time from its own start to that row. Prints each run and the median.
 *
 * <p>Arguments: path of the shaded driver jar, runs (default 5).
 */
public final class FirstRowBenchmark {
  private FirstRowBenchmark() {}

  public static void main(String[] argv) throws Exception {
    String[] args = String.join(" ", argv).trim().split("\\s+");
    if (args.length >= 1 && args[0].equals("child")) {
      child(args[1]);
      return;
    }
    String jar = args[0];
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    double[] millis = firstRowMillis(jar, runs);
    for (int r = 0; r < runs; r++) {
      System.out.printf(Locale.ROOT, "run %d: first row after %.0f ms%n", r + 1, millis[r]);
    }
    Arrays.sort(millis);
    System.out.printf(
        Locale.ROOT,
        "RESULT time to first row on a fresh JVM (shaded jar only): median %.0f ms of %d runs%n",
        millis[runs / 2],
        runs);
  }

  /** Each run's time from a fresh JVM's start to its first row, in milliseconds. */
  static double[] firstRowMillis(String jar, int runs) throws Exception {
    Path root = Files.createTempDirectory("floe-first-row");
    BenchLake.write(root.resolve("bench"), 100_000, 2);
    Path classes = Files.createTempDirectory("floe-first-row-classes");
    Path target = classes.resolve(FirstRowBenchmark.class.getName().replace('.', '/') + ".class");
    Files.createDirectories(target.getParent());
    try (InputStream in = FirstRowBenchmark.class.getResourceAsStream("FirstRowBenchmark.class")) {
      Files.copy(in, target);
    }
    double[] millis = new double[runs];
    for (int r = 0; r < runs; r++) {
      Process process =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  jar + File.pathSeparator + classes,
                  FirstRowBenchmark.class.getName(),
                  "child",
                  root.toString())
              .redirectErrorStream(true)
              .start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.waitFor() != 0) {
        throw new IllegalStateException("The child failed:\n" + out);
      }
      String last = out.strip().lines().reduce((a, b) -> b).orElseThrow();
      millis[r] = Double.parseDouble(last);
    }
    BenchLake.deleteTree(root);
    BenchLake.deleteTree(classes);
    return millis;
  }

  private static void child(String lake) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, name, ts FROM bench")) {
      if (!rs.next() || rs.getString(2) == null) {
        throw new IllegalStateException("No first row");
      }
      long start = ManagementFactory.getRuntimeMXBean().getStartTime();
      System.out.println(System.currentTimeMillis() - start);
    }
  }
}
