package dev.floe.tck.bench;

import dev.floe.tck.slt.SltQueries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much of the SQL Logic Test's plans runs on column batches and how much as Calcite's generated
 * row code: for every query the build's SQL Logic Test runs (the same files, each on a fresh lake
 * with the same statements run first and the same queries skipped as unsupported, through {@link
 * SltQueries}), {@code EXPLAIN PLAN FOR} the query through the driver, and the plan's operators
 * counted by name. A {@code LakeTableScan} runs on column batches (an aggregating one, with {@code
 * aggregate=[...]}, also computes its aggregate there; one with {@code topN=[...]} keeps only the
 * rows the top-N above it can return; one with {@code compute=[...]} computes the projection above
 * it); every other operator (joins, aggregates, projections, sorts, limits, unions, values, windows
 * and Floe's own nodes above the scans) runs as row code. The queries are planned, not run. A
 * program, not a test: it prints the tally.
 *
 * <p>Arguments: {@code build} (default: the files every build runs, {@code test/select1.test} and
 * {@code test/evidence/}) or {@code more} (adding the files of the {@code slt} profile, about
 * 41,000 queries), then optionally a number n to explain only every n-th query of each file that
 * the test would run (the first, the (n+1)-th, ...: a deterministic sample; default 1, every
 * query). The statements of every file always run.
 *
 * <p>Exits with status 1 after printing the tally if a statement or an EXPLAIN failed.
 */
public final class SltPlanShare {
  /** A node's line in EXPLAIN's text: indentation, then its name. */
  private static final Pattern NODE = Pattern.compile("^\\s*(\\w+)(\\(.*)?$");

  private static final Pattern AGGREGATE = Pattern.compile("\\baggregate=\\[");

  private static final Pattern TOP_N = Pattern.compile("\\btopN=\\[");

  private static final Pattern COMPUTE = Pattern.compile("\\bcompute=\\[");

  private static final String SCAN = "LakeTableScan";

  private SltPlanShare() {}

  /** The operators of the plans explained so far. */
  private static final class Tally {
    final Map<String, Integer> kinds = new TreeMap<>();
    int plans;
    int operators;
    int scans;
    int aggregatingScans;
    int topNScans;
    int computingScans;
    int scanOnly;

    void add(List<String> lines) {
      plans++;
      int rowCode = 0;
      for (String line : lines) {
        Matcher node = NODE.matcher(line);
        if (line.isBlank() || !node.matches()) {
          continue;
        }
        String name = node.group(1);
        operators++;
        kinds.merge(name, 1, Integer::sum);
        if (name.equals(SCAN)) {
          scans++;
          if (AGGREGATE.matcher(line).find()) {
            aggregatingScans++;
          }
          if (TOP_N.matcher(line).find()) {
            topNScans++;
          }
          if (COMPUTE.matcher(line).find()) {
            computingScans++;
          }
        } else {
          rowCode++;
        }
      }
      if (rowCode == 0) {
        scanOnly++;
      }
    }
  }

  public static void main(String[] argv) throws Exception {
    String joined = String.join(" ", argv).trim();
    String[] args = joined.isEmpty() ? new String[0] : joined.split("\\s+");
    String set = args.length > 0 ? args[0] : "build";
    if (!set.equals("build") && !set.equals("more")) {
      throw new IllegalArgumentException("first argument: build or more, not " + set);
    }
    int every = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    if (every < 1) {
      throw new IllegalArgumentException("every n-th query: n must be at least 1, not " + every);
    }
    List<String> files = SltQueries.files(set.equals("more"));
    Tally tally = new Tally();
    List<String> failures = new ArrayList<>();
    int read = 0;
    int skipped = 0;
    long t0 = System.nanoTime();
    for (String file : files) {
      Path lake = Files.createTempDirectory("floe-slt-plans");
      int[] seen = {0};
      int plansBefore = tally.plans;
      long fileStart = System.nanoTime();
      try {
        SltQueries.Visited visited =
            SltQueries.visit(
                file,
                lake,
                (connection, query) -> {
                  if (seen[0]++ % every != 0) {
                    return;
                  }
                  List<String> lines = new ArrayList<>();
                  try (Statement s = connection.createStatement();
                      ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + query)) {
                    while (rs.next()) {
                      lines.addAll(List.of(rs.getString(1).split("\n")));
                    }
                  }
                  tally.add(lines);
                });
        read += visited.visited();
        skipped += visited.skipped();
        visited.failures().forEach(f -> failures.add(file + ": " + f));
        System.out.printf(
            Locale.ROOT,
            "%-45s %,6d queries run by the test, %,6d explained, %,5d skipped; %6.1f s%n",
            file,
            visited.visited(),
            tally.plans - plansBefore,
            visited.skipped(),
            (System.nanoTime() - fileStart) / 1e9);
      } catch (SQLException e) {
        failures.add(file + ": " + e.getSQLState() + " " + e.getMessage());
      } finally {
        BenchLake.deleteTree(lake);
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;

    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "SQL Logic Test plans (%s set%s): %d files, %,d queries the test runs (%,d skipped as"
            + " unsupported), %,d explained in %.1f s%n%n",
        set,
        every == 1 ? "" : ", every " + every + "-th query of each file",
        files.size(),
        read,
        skipped,
        tally.plans,
        seconds);
    System.out.println("| operator | count | share | runs as |");
    System.out.println("|---|--:|--:|---|");
    tally.kinds.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
        .forEach(
            e ->
                System.out.printf(
                    Locale.ROOT,
                    "| %s | %,d | %.1f %% | %s |%n",
                    e.getKey(),
                    e.getValue(),
                    100.0 * e.getValue() / tally.operators,
                    e.getKey().equals(SCAN) ? "column batches" : "row code"));
    int rowCode = tally.operators - tally.scans;
    System.out.printf(
        Locale.ROOT,
        "%ntotal operators %,d in %,d plans (%.2f a plan); scans %,d (%,d of them aggregating,"
            + " %,d keeping a top-N's rows, %,d computing a projection); row code %,d = %.1f %%; plans that are scans only %,d (%.1f %%)%n",
        tally.operators,
        tally.plans,
        tally.plans == 0 ? 0.0 : (double) tally.operators / tally.plans,
        tally.scans,
        tally.aggregatingScans,
        tally.topNScans,
        tally.computingScans,
        rowCode,
        tally.operators == 0 ? 0.0 : 100.0 * rowCode / tally.operators,
        tally.scanOnly,
        tally.plans == 0 ? 0.0 : 100.0 * tally.scanOnly / tally.plans);
    if (!failures.isEmpty()) {
      System.out.println();
      System.out.println(failures.size() + " failures:");
      failures.stream().limit(30).forEach(f -> System.out.println("  " + f));
      System.exit(1);
    }
  }
}
