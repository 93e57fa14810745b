package dev.floe.command.introspection;

import dev.floe.planner.scan.ScanStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code EXPLAIN ANALYZE <query>}: plans the query, runs it to its last row (the rows are read and
 * dropped), and answers with its plan followed by what each scan did (files opened, row groups read
 * and skipped, rows read and returned) and where the time went: planning, the scans, and the rest
 * of the execution.
 */
public final class ExplainAnalyze {
  private static final Pattern STATEMENT =
      Pattern.compile(
          "^(?:\\s|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*EXPLAIN\\s+ANALYZE\\s+(.*?)[\\s;]*$",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  private ExplainAnalyze() {}

  /** The query of an {@code EXPLAIN ANALYZE} statement, or null for any other statement. */
  public static String queryOf(String sql) {
    Matcher m = STATEMENT.matcher(sql);
    return m.matches() ? m.group(1) : null;
  }

  /** Runs the query on a connection and returns the report, one line per element. */
  public static List<String> analyze(Connection connection, String query) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Statement explain = connection.createStatement();
        ResultSet plan = explain.executeQuery("EXPLAIN PLAN FOR " + query)) {
      while (plan.next()) {
        for (String line : plan.getString(1).split("\n")) {
          if (!line.isBlank()) {
            lines.add(line);
          }
        }
      }
    }
    long rows = 0;
    long planning;
    long execution;
    List<ScanStats> scans;
    long started = System.nanoTime();
    try (PreparedStatement statement = connection.prepareStatement(query)) {
      planning = System.nanoTime() - started;
      long executing = System.nanoTime();
      try (ScanStats.Collection collection = ScanStats.collect();
          ResultSet rs = statement.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          for (int i = 1; i <= columns; i++) {
            rs.getObject(i);
          }
          rows++;
        }
        execution = System.nanoTime() - executing;
        scans = collection.scans();
      }
    }
    long scanning = 0;
    lines.add("");
    // a scan executed once per outer row (a nested-loop join) is one summed line, not thousands
    for (ScanStats scan : ScanStats.folded(scans, 16)) {
      lines.add(scan.describe());
      scanning += scan.nanos();
    }
    lines.add("rows returned by the query: " + rows);
    dev.floe.planner.session.MemoryBudget memory =
        dev.floe.planner.session.Cancellation.current().memory();
    lines.add(
        "peak memory held by joins, sorts and aggregates (estimated): "
            + (memory.peak() + 1023) / 1024
            + " KiB of the statement's budget of "
            + (memory.limit() == Long.MAX_VALUE ? "no limit" : memory.limitText()));
    if (memory.spills() > 0) {
      lines.add(
          "rows written to disk by joins, sorts and aggregates that did not fit: "
              + (memory.spilledBytes() + 1023) / 1024
              + " KiB in "
              + memory.spills()
              + " writes (a join's partitioning, a sort's run, an aggregate's partitioning)");
    }
    lines.add(
        "time: planning: "
            + millis(planning)
            + " ms, scan: "
            + millis(scanning)
            + " ms, rest: "
            + millis(Math.max(0, execution - scanning))
            + " ms");
    return lines;
  }

  /** A query whose one column, {@code PLAN}, holds the given lines in order. */
  public static String asQuery(List<String> lines) {
    StringBuilder sql = new StringBuilder("SELECT \"PLAN\" FROM (VALUES ");
    for (int i = 0; i < lines.size(); i++) {
      if (i > 0) {
        sql.append(", ");
      }
      sql.append("(")
          .append(i)
          .append(", CAST('")
          .append(lines.get(i).replace("'", "''"))
          .append("' AS VARCHAR))");
    }
    return sql.append(") AS t(\"N\", \"PLAN\") ORDER BY \"N\"").toString();
  }

  private static long millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }
}
