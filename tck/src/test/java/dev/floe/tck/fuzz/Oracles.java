package dev.floe.tck.fuzz;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The oracles: Floe against the DuckDB reference, Floe against Iceberg's own reader, and Floe
 * against itself (SQLancer's ternary logic partitioning and non-optimizing reference engine
 * construction, one scan thread against many, with and without what Floe pushes into its scan).
 * Each check throws a {@link Difference} when the answers disagree.
 */
final class Oracles {
  /** Relative tolerance for {@link ColumnType.Kind#APPROX} values. */
  private static final double TOLERANCE = 1e-6;

  private Oracles() {}

  /** A check that can run again on a replayed history (for shrinking). */
  interface Check {
    void run(Runner r) throws SQLException;

    /** The queries it compares, as Floe runs them. */
    String describe(Ast.Render r);
  }

  /** The answer of a query, or the SQLException it failed with. */
  record Answer(List<List<Object>> rows, SQLException error) {}

  static Answer floe(Runner r, Connection c, Ast.Query q) {
    try {
      return new Answer(r.floeRows(c, q.sql(r.floeRender), q.types()), null);
    } catch (SQLException e) {
      return new Answer(null, e);
    }
  }

  /** Floe's answer to a query, which must not fail; a failure is a difference of its own. */
  static List<List<Object>> floeMust(Runner r, Connection c, Ast.Query q, String oracle) {
    return rowsOrDifference(r, floe(r, c, q), q, oracle);
  }

  /** The rows of an answer of Floe's, or its error as a difference. */
  static List<List<Object>> rowsOrDifference(Runner r, Answer a, Ast.Query q, String oracle) {
    if (a.error != null) {
      throw new Difference(
          oracle,
          "floe-error-" + a.error.getSQLState(),
          q.sql(r.floeRender) + "\n  Floe: " + a.error.getSQLState() + " " + a.error.getMessage(),
          a.error);
    }
    return a.rows;
  }

  /** Compares Floe's answer on a connection with DuckDB's. */
  static void compareWithReference(Runner r, Connection c, Ast.Query q, String oracle) {
    String sql = q.sql(r.floeRender);
    Answer floe = floe(r, c, q);
    if (floe.error != null && Step.alarming(floe.error)) {
      throw new Difference(
          oracle,
          "floe-error-" + floe.error.getSQLState(),
          sql + "\n  Floe: " + floe.error.getSQLState() + " " + floe.error.getMessage(),
          floe.error);
    }
    List<List<Object>> duck;
    SQLException duckError = null;
    try {
      duck = r.duckRows(q.sql(r.duckRender), q.types());
    } catch (SQLException e) {
      duck = null;
      duckError = e;
    }
    if (floe.error != null && duckError != null) {
      return; // both refuse it
    }
    if (floe.error != null) {
      throw new Difference(
          oracle,
          "floe-error-" + floe.error.getSQLState(),
          sql + "\n  Floe: " + floe.error.getSQLState() + " " + floe.error.getMessage(),
          floe.error);
    }
    if (duckError != null) {
      throw new Difference(
          oracle,
          "reference-error",
          sql + "\n  DuckDB: " + q.sql(r.duckRender) + "\n  " + duckError.getMessage(),
          duckError);
    }
    sameRows(oracle, sql, floe.rows, duck, q.ordered());
  }

  /** Whether two answers hold the same rows (in the same order when {@code ordered}). */
  static void sameRows(
      String oracle,
      String what,
      List<List<Object>> floe,
      List<List<Object>> other,
      boolean ordered) {
    List<List<Object>> a = ordered ? floe : sorted(floe);
    List<List<Object>> b = ordered ? other : sorted(other);
    if (a.size() == b.size()) {
      boolean same = true;
      for (int i = 0; i < a.size() && same; i++) {
        same = sameRow(a.get(i), b.get(i));
      }
      if (same) {
        return;
      }
    }
    throw new Difference(oracle, "rows", what + "\n" + describe(a, b, ordered));
  }

  private static String describe(List<List<Object>> a, List<List<Object>> b, boolean ordered) {
    StringBuilder s = new StringBuilder();
    s.append("  Floe: ")
        .append(a.size())
        .append(" rows, expected: ")
        .append(b.size())
        .append(" rows");
    if (ordered) {
      for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
        List<Object> x = i < a.size() ? a.get(i) : null;
        List<Object> y = i < b.size() ? b.get(i) : null;
        if (x == null || y == null || !sameRow(x, y)) {
          s.append("\n  first difference at row ").append(i + 1).append(": Floe ").append(x);
          s.append(", expected ").append(y);
          break;
        }
      }
      return s.toString();
    }
    List<List<Object>> onlyA = new ArrayList<>(a);
    List<List<Object>> onlyB = new ArrayList<>();
    for (List<Object> row : b) {
      int found = -1;
      for (int i = 0; i < onlyA.size(); i++) {
        if (sameRow(onlyA.get(i), row)) {
          found = i;
          break;
        }
      }
      if (found >= 0) {
        onlyA.remove(found);
      } else {
        onlyB.add(row);
      }
    }
    s.append("\n  only in Floe's answer (").append(onlyA.size()).append("): ");
    s.append(onlyA.subList(0, Math.min(onlyA.size(), 8)));
    s.append("\n  only in the expected answer (").append(onlyB.size()).append("): ");
    s.append(onlyB.subList(0, Math.min(onlyB.size(), 8)));
    return s.toString();
  }

  static boolean sameRow(List<Object> a, List<Object> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      Object x = a.get(i);
      Object y = b.get(i);
      if (x instanceof Double && y instanceof Double) {
        double dx = (Double) x;
        double dy = (Double) y;
        if (dx != dy
            && Math.abs(dx - dy) > TOLERANCE * Math.max(1, Math.max(Math.abs(dx), Math.abs(dy)))) {
          return false;
        }
      } else if (!x.equals(y)) {
        return false;
      }
    }
    return true;
  }

  static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(ROWS);
    return copy;
  }

  private static final Comparator<List<Object>> ROWS =
      (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
          int c = compareValues(a.get(i), b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(a.size(), b.size());
      };

  private static int compareValues(Object a, Object b) {
    if (a instanceof Double && b instanceof Double) {
      // Round to fewer digits than the tolerance, so values within it sort alike.
      return Double.compare(round((Double) a), round((Double) b));
    }
    if (a instanceof Double) {
      return 1;
    }
    if (b instanceof Double) {
      return -1;
    }
    return ((String) a).compareTo((String) b);
  }

  private static double round(double d) {
    if (d == 0 || Double.isInfinite(d) || Double.isNaN(d)) {
      return d;
    }
    double scale = Math.pow(10, 5 - Math.floor(Math.log10(Math.abs(d))));
    return Math.round(d * scale) / scale;
  }

  /** The query against DuckDB's answer (Floe's default connection). */
  record Differential(Ast.Query query) implements Check {
    @Override
    public void run(Runner r) {
      compareWithReference(r, r.floe, query, "reference");
    }

    @Override
    public String describe(Ast.Render r) {
      return query.sql(r);
    }
  }

  /** The table's rows: Floe's {@code SELECT *} against Iceberg's generic reader and DuckDB. */
  record TableRows() implements Check {
    @Override
    public void run(Runner r) throws SQLException {
      String sql = "SELECT * FROM " + TableModel.TABLE;
      List<ColumnType> types = r.tableTypes();
      List<String> names = r.columnNames();
      List<List<Object>> floe;
      try {
        floe = r.floeRows(r.floe, sql, types);
      } catch (SQLException e) {
        throw new Difference(
            "iceberg-reader",
            "floe-error-" + e.getSQLState(),
            sql + "\n  Floe: " + e.getSQLState() + " " + e.getMessage(),
            e);
      }
      sameRows("iceberg-reader", sql, floe, r.icebergRows(), false);
      List<String> quoted = names.stream().map(n -> "\"" + n + "\"").toList();
      sameRows(
          "reference",
          sql,
          floe,
          r.duckRows("SELECT " + String.join(", ", quoted) + " FROM " + TableModel.TABLE, types),
          false);
    }

    @Override
    public String describe(Ast.Render r) {
      return "SELECT * FROM " + TableModel.TABLE + "  -- against Iceberg's reader and DuckDB";
    }
  }

  /** The same query on one scan thread with row-by-row results, and on many scan threads. */
  record Threads(Ast.Query query) implements Check {
    @Override
    public void run(Runner r) {
      String sql = query.sql(r.floeRender);
      List<List<Object>> base = floeMust(r, r.floe, query, "scan-threads");
      sameRows(
          "scan-threads",
          sql + "  -- scanThreads=1, columnarResults=false",
          floeMust(r, r.floeSingle, query, "scan-threads"),
          base,
          query.ordered());
      Answer many = floe(r, r.floeMany, query);
      if (windowPastBudget(many.error)) {
        return;
      }
      sameRows(
          "scan-threads",
          sql + "  -- scanThreads=5",
          rowsOrDifference(r, many, query, "scan-threads"),
          base,
          query.ordered());
    }

    /**
     * A window holds every row of its input and cannot spill (docs/limits.md, "Known limits"): on
     * the connection whose budget is a few kilobytes, so that joins, sorts and aggregates spill, it
     * fails with 53200, as documented.
     */
    private static boolean windowPastBudget(SQLException error) {
      return error != null
          && "53200".equals(error.getSQLState())
          && String.valueOf(error.getMessage()).contains("the window holding its partitions");
    }

    @Override
    public String describe(Ast.Render r) {
      return query.sql(r) + "  -- on connections with scanThreads=1 and scanThreads=5";
    }
  }

  /** Two forms of one question Floe must answer alike (pushdown, TLP, NoREC). */
  record Same(String oracle, Ast.Query query, Ast.Query equivalent, boolean ordered)
      implements Check {
    @Override
    public void run(Runner r) {
      List<List<Object>> a = floeMust(r, r.floe, query, oracle);
      List<List<Object>> b = floeMust(r, r.floe, equivalent, oracle);
      sameRows(
          oracle,
          query.sql(r.floeRender) + "\n  against\n  " + equivalent.sql(r.floeRender),
          a,
          b,
          ordered);
    }

    @Override
    public String describe(Ast.Render r) {
      return query.sql(r) + "\n  -- against --\n  " + equivalent.sql(r);
    }
  }

  /** A query whose row count must equal another query's single count. */
  record CountOf(String oracle, Ast.Query rows, Ast.Query count) implements Check {
    @Override
    public void run(Runner r) {
      int n = floeMust(r, r.floe, rows, oracle).size();
      List<List<Object>> c = floeMust(r, r.floe, count, oracle);
      Object counted = c.get(0).get(0);
      if (!String.valueOf(n).equals(counted)) {
        throw new Difference(
            oracle,
            "count",
            rows.sql(r.floeRender)
                + " returns "
                + n
                + " rows, but "
                + count.sql(r.floeRender)
                + " says "
                + counted);
      }
    }

    @Override
    public String describe(Ast.Render r) {
      return rows.sql(r) + "\n  -- its row count against --\n  " + count.sql(r);
    }
  }
}
