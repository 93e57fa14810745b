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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipFile;

/**
 * Time to the first row on a fresh JVM: a child JVM whose class path is only the shaded driver jar
 * (and this class) connects through DriverManager and reads the first row of the benchmark table;
 * it reports the time from its own start to that row. Prints each run and the median.
 *
 * <p>Arguments: path of the shaded driver jar, runs (default 5), and {@code off} to run the
 * children with the driver's class preloading turned off ({@code -Dfloe.preload=false}).
 *
 * <p>With {@code list <file>} instead of the runs, it writes the driver's list of classes to
 * preload (docs/performance.md, "Time to the first row"): the classes one such child loads from the
 * jar and from the JDK's modules with preloading off, in the order it loads them, one package a
 * line. Regenerate it into {@code driver/src/main/resources/META-INF/floe/first-query-classes.txt}
 * after changing what a first query loads.
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
    if (args.length > 2 && args[1].equals("list")) {
      writeList(jar, Path.of(args[2]));
      return;
    }
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    boolean off = args.length > 2 && args[2].equals("off");
    double[] millis = firstRowMillis(jar, runs, off ? List.of("-Dfloe.preload=false") : List.of());
    for (int r = 0; r < runs; r++) {
      System.out.printf(Locale.ROOT, "run %d: first row after %.0f ms%n", r + 1, millis[r]);
    }
    Arrays.sort(millis);
    System.out.printf(
        Locale.ROOT,
        "RESULT time to first row on a fresh JVM (shaded jar only%s): median %.0f ms of %d runs%n",
        off ? ", preloading off" : "",
        millis[runs / 2],
        runs);
  }

  /** Writes the classes a first query loads, one package a line, in the order they load. */
  public static void writeList(String jar, Path output) throws Exception {
    Path log = Files.createTempFile("floe-class-load", ".log");
    firstRowMillis(jar, 1, List.of("-Dfloe.preload=false", "-Xlog:class+load=info:file=" + log));
    // the JVM names the jar without ".." (the kit's path to it has one) and, where the
    // platform resolves links, by its real path
    String source = Path.of(jar).toAbsolutePath().normalize().toString();
    String real = Path.of(jar).toRealPath().toString();
    Map<String, List<String>> packages = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    try (ZipFile zip = new ZipFile(source)) {
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        int at = line.indexOf("] ");
        int from = line.indexOf(" source: ");
        if (at < 0 || from < 0) {
          continue;
        }
        String name = line.substring(at + 2, from).trim();
        if (name.startsWith("java.lang.management.")) {
          break; // the child has its first row and asks for its start time
        }
        String where = line.substring(from + " source: ".length());
        boolean listed =
            where.startsWith("jrt:/")
                || (where.contains(source) || where.contains(real))
                    && zip.getEntry(name.replace('.', '/') + ".class") != null;
        int dot = name.lastIndexOf('.');
        // shared-archive classes load cheaply; generated and hidden ones cannot be named
        if (!listed || dot < 0 || name.contains("$$") || name.contains("/") || !seen.add(name)) {
          continue;
        }
        packages
            .computeIfAbsent(name.substring(0, dot), k -> new ArrayList<>())
            .add(name.substring(dot + 1));
      }
    }
    Files.delete(log);
    StringBuilder text = new StringBuilder();
    packages.forEach(
        (p, names) -> text.append(p).append(' ').append(String.join(" ", names)).append('\n'));
    Files.createDirectories(output.toAbsolutePath().getParent());
    Files.writeString(output, text, StandardCharsets.UTF_8);
    System.out.printf(
        Locale.ROOT,
        "%d classes in %d packages written to %s%n",
        seen.size(),
        packages.size(),
        output);
  }

  /** Each run's time from a fresh JVM's start to its first row, in milliseconds. */
  static double[] firstRowMillis(String jar, int runs) throws Exception {
    return firstRowMillis(jar, runs, List.of());
  }

  /** The same, with options for the child JVMs. */
  static double[] firstRowMillis(String jar, int runs, List<String> options) throws Exception {
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
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(options);
      command.addAll(
          List.of(
              "-cp",
              jar + File.pathSeparator + classes,
              FirstRowBenchmark.class.getName(),
              "child",
              root.toString()));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
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
