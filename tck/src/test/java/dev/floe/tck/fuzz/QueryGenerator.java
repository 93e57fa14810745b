package dev.floe.tck.fuzz;

import dev.floe.tck.fuzz.Ast.Agg;
import dev.floe.tck.fuzz.Ast.Expr;
import dev.floe.tck.fuzz.Ast.Order;
import dev.floe.tck.fuzz.Ast.Query;
import dev.floe.tck.fuzz.Ast.Select;
import dev.floe.tck.fuzz.Ast.TableRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * Random predicates, expressions and queries over the table (as it is, or as an earlier step left
 * it), and the checks each query is put through.
 *
 * <p>A {@code duck} flag keeps to what both engines define alike; without it, the metamorphic
 * oracles (which compare Floe with itself) may use anything Floe accepts.
 */
final class QueryGenerator {
  private final Random rnd;
  private final TableModel model;

  QueryGenerator(Random rnd, TableModel model) {
    this.rnd = rnd;
    this.model = model;
  }

  /** A column as a query sees it: its name, type and some values it held. */
  record Ref(String name, ColumnType type, List<Object> seen, boolean required) {
    Ast.Col col(String qualifier) {
      return new Ast.Col(qualifier, name, type);
    }
  }

  /** The current table's columns. */
  List<Ref> current() {
    List<Ref> refs = new ArrayList<>();
    for (TableModel.Column c : model.columns) {
      refs.add(new Ref(c.name, c.type, c.seen, c.required));
    }
    return refs;
  }

  /** The columns of the version a step made, as its own schema has them. */
  List<Ref> version(Schema schema) {
    List<Ref> refs = new ArrayList<>();
    for (Types.NestedField f : schema.columns()) {
      ColumnType type = ColumnType.ofIceberg(f.type());
      List<Object> seen = List.of();
      for (TableModel.Column c : model.columns) {
        if (c.name.equals(f.name()) && c.type.equals(type)) {
          seen = c.seen;
        }
      }
      refs.add(new Ref(f.name(), type, seen, f.isRequired()));
    }
    return refs;
  }

  <T> T pick(List<T> items) {
    return items.get(rnd.nextInt(items.size()));
  }

  boolean chance(double p) {
    return rnd.nextDouble() < p;
  }

  /** A value of the column: one it held, or a new one. */
  Object value(Ref c) {
    if (!c.seen().isEmpty() && rnd.nextInt(4) != 0) {
      return c.seen().get(rnd.nextInt(c.seen().size()));
    }
    return Values.random(rnd, c.type(), 0);
  }

  Ast.Lit literal(Ref c) {
    return new Ast.Lit(value(c), c.type());
  }

  // ---------------------------------------------------------------- predicates

  /** A random predicate over columns of one table (qualified by {@code q}, or not). */
  Expr predicate(List<Ref> cols, String q, boolean duck) {
    return predicate(cols, q, duck, 0);
  }

  private Expr predicate(List<Ref> cols, String q, boolean duck, int depth) {
    int choice = rnd.nextInt(depth >= 2 ? 10 : 14);
    if (choice >= 10) {
      Expr a = predicate(cols, q, duck, depth + 1);
      Expr b = predicate(cols, q, duck, depth + 1);
      switch (choice) {
        case 10:
          return new Ast.Junction("AND", List.of(a, b));
        case 11:
          return new Ast.Junction("OR", List.of(a, b));
        case 12:
          return new Ast.Not(a);
        default:
          return new Ast.Junction("AND", List.of(a, new Ast.Junction("OR", List.of(b, a))));
      }
    }
    Ref c = pick(cols);
    Ast.Col col = c.col(q);
    boolean ordered = !duck || c.type().orderedAlike();
    switch (choice) {
      case 0:
      case 1:
      case 2:
        return new Ast.Cmp(comparison(ordered), col, literal(c));
      case 3:
        return new Ast.IsNull(col, rnd.nextBoolean());
      case 4:
        if (ordered) {
          Ast.Lit a = literal(c);
          Ast.Lit b = literal(c);
          return new Ast.Between(col, a, b, chance(0.2));
        }
        return new Ast.Cmp("=", col, literal(c));
      case 5:
        {
          List<Expr> items = new ArrayList<>();
          int n = 1 + rnd.nextInt(4);
          for (int i = 0; i < n; i++) {
            items.add(chance(0.1) ? new Ast.Lit(null, c.type()) : literal(c));
          }
          return new Ast.In(col, items, chance(0.25));
        }
      case 6:
        if (c.type().kind() == ColumnType.Kind.VARCHAR) {
          return new Ast.Like(col, pattern(c), chance(0.2));
        }
        if (c.type().kind() == ColumnType.Kind.BOOLEAN) {
          return chance(0.5) ? col : new Ast.Not(col);
        }
        return new Ast.Cmp(
            chance(0.5) ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM", col, literal(c));
      case 7:
        {
          List<Ref> same = new ArrayList<>();
          for (Ref other : cols) {
            if (other != c && other.type().equals(c.type())) {
              same.add(other);
            }
          }
          if (same.isEmpty()) {
            return new Ast.Cmp(comparison(ordered), col, literal(c));
          }
          return new Ast.Cmp(comparison(ordered), col, pick(same).col(q));
        }
      default:
        {
          Expr e = expression(c, q);
          if (e == null) {
            return new Ast.Cmp(comparison(ordered), col, literal(c));
          }
          ColumnType t = e.type();
          Object v =
              t.kind() == ColumnType.Kind.EXACT
                  ? java.math.BigDecimal.valueOf(rnd.nextInt(7) - 1)
                  : t.kind() == ColumnType.Kind.APPROX
                      ? Double.valueOf(rnd.nextInt(9) - 4)
                      : t.kind() == c.type().kind() ? value(c) : Values.random(rnd, t, 0);
          ColumnType litType = t.kind() == ColumnType.Kind.APPROX ? ColumnType.DOUBLE : t;
          return new Ast.Cmp(comparison(true), e, new Ast.Lit(v, litType));
        }
    }
  }

  private String comparison(boolean ordered) {
    if (!ordered) {
      return chance(0.7) ? "=" : "<>";
    }
    return pick(List.of("=", "<>", "<", "<=", ">", ">="));
  }

  private String pattern(Ref c) {
    Object v = value(c);
    String s = v instanceof String ? (String) v : "a";
    switch (rnd.nextInt(5)) {
      case 0:
        return s;
      case 1:
        return (s.isEmpty() ? "" : s.substring(0, 1)) + "%";
      case 2:
        return "%" + (s.isEmpty() ? "" : s.substring(s.length() - 1));
      case 3:
        return "_" + (s.length() > 1 ? s.substring(1) : "%");
      default:
        return "%";
    }
  }

  /** A value expression over a column whose answer both engines define alike, or null. */
  Expr expression(Ref c, String q) {
    Ast.Col col = c.col(q);
    switch (c.type().kind()) {
      case VARCHAR:
        switch (rnd.nextInt(4)) {
          case 0:
            return new Ast.Func("UPPER", "upper", List.of(col), ColumnType.VARCHAR);
          case 1:
            return new Ast.Func("CHAR_LENGTH", "length", List.of(col), ColumnType.EXACT);
          case 2:
            return new Ast.Template(
                "SUBSTRING(%1 FROM 1 FOR 2)",
                "substring(%1, 1, 2)", List.of(col), ColumnType.VARCHAR);
          default:
            return new Ast.Template("(%1 || 'x')", "(%1 || 'x')", List.of(col), ColumnType.VARCHAR);
        }
      case INT:
      case BIGINT:
        switch (rnd.nextInt(3)) {
          case 0:
            return new Ast.Func("ABS", "abs", List.of(col), ColumnType.EXACT);
          case 1:
            return new Ast.Template("MOD(%1, 3)", "(%1 % 3)", List.of(col), ColumnType.EXACT);
          default:
            return new Ast.Template(
                "(CAST(%1 AS BIGINT) + 1)",
                "(CAST(%1 AS BIGINT) + 1)", List.of(col), ColumnType.EXACT);
        }
      case REAL:
      case DOUBLE:
        return new Ast.Func("ABS", "abs", List.of(col), ColumnType.APPROX);
      case DECIMAL:
        return new Ast.Func("ABS", "abs", List.of(col), ColumnType.EXACT);
      case DATE:
        return new Ast.Template(
            rnd.nextBoolean() ? "EXTRACT(YEAR FROM %1)" : "EXTRACT(MONTH FROM %1)",
            null,
            List.of(col),
            ColumnType.EXACT);
      case TIMESTAMP:
        return rnd.nextBoolean()
            ? new Ast.Cast(col, ColumnType.DATE)
            : new Ast.Template("EXTRACT(HOUR FROM %1)", null, List.of(col), ColumnType.EXACT);
      default:
        return null;
    }
  }

  // ---------------------------------------------------------------- queries

  /** The table as a query names it: now, or at a version. */
  record Source(TableRef ref, List<Ref> cols) {}

  Source source(Runner r, boolean allowVersions, String alias) {
    if (allowVersions && chance(0.2)) {
      List<Step> versions = r.readableVersions();
      if (!versions.isEmpty()) {
        Step v = pick(versions);
        return new Source(new TableRef(TableModel.TABLE, v, alias), version(r.schemaOf(v)));
      }
    }
    return new Source(new TableRef(TableModel.TABLE, null, alias), current());
  }

  private List<Ref> subset(List<Ref> cols, int max) {
    List<Ref> copy = new ArrayList<>(cols);
    Collections.shuffle(copy, rnd);
    return copy.subList(0, 1 + rnd.nextInt(Math.min(max, copy.size())));
  }

  /** A random query both engines can answer, of one of the shapes the issue lists. */
  Query query(Runner r, long rows) {
    switch (rnd.nextInt(12)) {
      case 0:
      case 1:
        return plain(source(r, true, null), true);
      case 2:
      case 3:
        return grouped(source(r, true, null), true, true);
      case 4:
        return grouped(source(r, true, null), true, false);
      case 5:
        return distinct(source(r, true, null));
      case 6:
        return ordered(source(r, true, null));
      case 7:
        return window(source(r, true, null));
      case 8:
        return join(r, rows);
      case 9:
        return setOperation(r);
      case 10:
        return subquery(r);
      default:
        return plain(source(r, true, null), true);
    }
  }

  /** {@code SELECT columns, expression FROM t WHERE p}. */
  Select plain(Source s, boolean duck) {
    List<Expr> items = new ArrayList<>();
    for (Ref c : subset(s.cols(), 4)) {
      items.add(c.col(null));
    }
    if (chance(0.3)) {
      Expr e = expression(pick(s.cols()), null);
      if (e != null) {
        items.add(e);
      }
    }
    return Select.of(items, s.ref(), chance(0.8) ? predicate(s.cols(), null, duck) : null);
  }

  /** Aggregates, grouped by one or two columns or not at all. */
  Select grouped(Source s, boolean duck, boolean groupBy) {
    List<Expr> groups = new ArrayList<>();
    if (groupBy) {
      for (Ref c : subset(s.cols(), 2)) {
        groups.add(c.col(null));
      }
    }
    List<Expr> items = new ArrayList<>(groups);
    int n = 1 + rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      items.add(aggregate(pick(s.cols()), null, duck));
    }
    Expr having =
        groupBy && chance(0.2)
            ? new Ast.Cmp(
                ">",
                new Agg("COUNT", false, null, ColumnType.EXACT),
                new Ast.Lit(1, ColumnType.INT))
            : null;
    return new Select(
        false,
        items,
        s.ref(),
        null,
        null,
        null,
        chance(0.6) ? predicate(s.cols(), null, duck) : null,
        groups,
        having,
        List.of(),
        null);
  }

  /** An aggregate of a column both engines type and compute alike (by value). */
  Agg aggregate(Ref c, String q, boolean duck) {
    Ast.Col col = c.col(q);
    ColumnType t = c.type();
    List<String> fns = new ArrayList<>(List.of("COUNT", "COUNT", "COUNTD"));
    if (t.isNumeric()) {
      fns.add("SUM");
      fns.add("SUM");
      fns.add("AVG");
    }
    // DuckDB orders UUIDs otherwise than Floe (docs/limits.md, "Known limits").
    if (!duck || t.orderedAlike()) {
      fns.add("MIN");
      fns.add("MAX");
    }
    switch (pick(fns)) {
      case "COUNT":
        return chance(0.4)
            ? new Agg("COUNT", false, null, ColumnType.EXACT)
            : new Agg("COUNT", false, col, ColumnType.EXACT);
      case "COUNTD":
        return new Agg("COUNT", true, col, ColumnType.EXACT);
      case "SUM":
        return new Agg("SUM", false, col, t.sumType());
      case "AVG":
        // AVG of an integer is DOUBLE in both engines; of a DECIMAL it is a DECIMAL with four more
        // digits after the point in Floe and DOUBLE in DuckDB: the reference compares the average
        // of the values as doubles.
        if (t.isFloatingPoint() || t.isInteger()) {
          return new Agg("AVG", false, col, ColumnType.APPROX);
        }
        return duck
            ? new Agg("AVG", false, new Ast.Cast(col, ColumnType.DOUBLE), ColumnType.APPROX)
            : new Agg("AVG", false, col, t.byValue());
      default:
        return new Agg(rnd.nextBoolean() ? "MIN" : "MAX", false, col, t.byValue());
    }
  }

  /** {@code SELECT DISTINCT ...}, or a COUNT(DISTINCT ...). */
  Select distinct(Source s) {
    Select plain = plain(s, true);
    return new Select(
        true,
        plain.items(),
        s.ref(),
        null,
        null,
        null,
        plain.where(),
        List.of(),
        null,
        List.of(),
        null);
  }

  /** ORDER BY every output column (so ties are equal rows), with LIMIT. */
  Select ordered(Source s) {
    List<Ref> cols = new ArrayList<>();
    for (Ref c : s.cols()) {
      if (c.type().orderedAlike()) {
        cols.add(c);
      }
    }
    if (cols.isEmpty()) {
      return plain(s, true);
    }
    Select base =
        chance(0.3)
            ? grouped(new Source(s.ref(), cols), true, true)
            : plain(new Source(s.ref(), cols), true);
    List<Order> order = new ArrayList<>();
    for (int i = 0; i < base.items().size(); i++) {
      if (!base.items().get(i).type().orderedAlike()) {
        return base;
      }
      order.add(
          new Order(new Ast.Lit(i + 1, ColumnType.INT), rnd.nextBoolean(), rnd.nextBoolean()));
    }
    Collections.shuffle(order, rnd);
    return new Select(
        base.distinct(),
        base.items(),
        base.from(),
        null,
        null,
        null,
        base.where(),
        base.groupBy(),
        base.having(),
        order,
        chance(0.8) ? 1 + rnd.nextInt(12) : null);
  }

  /** Window functions over partitions of the rows. */
  Select window(Source s) {
    List<Ref> cols = new ArrayList<>();
    for (Ref c : s.cols()) {
      if (c.type().orderedAlike()) {
        cols.add(c);
      }
    }
    if (cols.isEmpty()) {
      return plain(s, true);
    }
    List<Ref> shown = subset(cols, 3);
    List<Expr> items = new ArrayList<>();
    List<Order> all = new ArrayList<>();
    for (Ref c : shown) {
      items.add(c.col(null));
      all.add(new Order(c.col(null), rnd.nextBoolean(), rnd.nextBoolean()));
    }
    List<Expr> partition = chance(0.7) ? List.of(pick(shown).col(null)) : List.of();
    Ref other = pick(cols);
    switch (rnd.nextInt(5)) {
      case 0:
        items.add(
            new Ast.Window(
                new Ast.Template("ROW_NUMBER()", "ROW_NUMBER()", List.of(), ColumnType.EXACT),
                partition,
                all));
        break;
      case 1:
        items.add(
            new Ast.Window(
                new Ast.Template(
                    rnd.nextBoolean() ? "RANK()" : "DENSE_RANK()",
                    null,
                    List.of(),
                    ColumnType.EXACT),
                partition,
                List.of(new Order(other.col(null), rnd.nextBoolean(), rnd.nextBoolean()))));
        break;
      case 2:
        {
          // Floe refuses a window aggregate of DISTINCT values (docs/limits.md, "Known limits").
          Agg agg = aggregate(other, null, true);
          if (agg.distinct()) {
            agg = new Agg(agg.fn(), false, agg.arg(), agg.type());
          }
          items.add(new Ast.Window(agg, partition, List.of()));
          break;
        }
      case 3:
        items.add(
            new Ast.Window(
                new Agg("COUNT", false, null, ColumnType.EXACT),
                partition,
                List.of(new Order(other.col(null), rnd.nextBoolean(), rnd.nextBoolean()))));
        break;
      default:
        {
          Ref numeric = null;
          for (Ref c : cols) {
            if (c.type().isNumeric()) {
              numeric = c;
            }
          }
          Agg agg =
              numeric == null
                  ? new Agg("COUNT", false, other.col(null), ColumnType.EXACT)
                  : new Agg("SUM", false, numeric.col(null), numeric.type().sumType());
          items.add(
              new Ast.Window(
                  agg,
                  partition,
                  List.of(new Order(other.col(null), rnd.nextBoolean(), rnd.nextBoolean()))));
        }
    }
    return Select.of(items, s.ref(), chance(0.5) ? predicate(s.cols(), null, true) : null);
  }

  /** Two columns of the same type in two tables, for a join condition; or null. */
  private Ref[] joinable(List<Ref> left, List<Ref> right) {
    List<Ref[]> pairs = new ArrayList<>();
    for (Ref a : left) {
      for (Ref b : right) {
        if (a.type().equals(b.type()) && !a.type().isFloatingPoint()) {
          pairs.add(new Ref[] {a, b});
        }
      }
    }
    return pairs.isEmpty() ? null : pick(pairs);
  }

  /** The table joined with itself, or with an earlier version of itself. */
  Select join(Runner r, long rows) {
    Source a = new Source(new TableRef(TableModel.TABLE, null, "a"), current());
    Source b = source(r, true, "b");
    Ref[] on = joinable(a.cols(), b.cols());
    if (on == null) {
      return plain(source(r, true, null), true);
    }
    Expr condition = new Ast.Cmp("=", on[0].col("a"), on[1].col("b"));
    if (chance(0.3)) {
      condition = new Ast.Junction("AND", List.of(condition, predicate(b.cols(), "b", true)));
    }
    String kind = pick(List.of("JOIN", "JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"));
    Expr where = chance(0.5) ? predicate(a.cols(), "a", true) : null;
    if (rows <= 40 && chance(0.5)) {
      List<Expr> items = new ArrayList<>();
      for (Ref c : subset(a.cols(), 2)) {
        items.add(c.col("a"));
      }
      for (Ref c : subset(b.cols(), 2)) {
        items.add(c.col("b"));
      }
      return new Select(
          false, items, a.ref(), kind, b.ref(), condition, where, List.of(), null, List.of(), null);
    }
    // grouped by a column of either side, aggregating the other (or the same) side's values: the
    // shapes an aggregate split around the join (eager aggregation) takes and leaves
    boolean groupOnB = chance(0.3);
    Expr g = groupOnB ? pick(b.cols()).col("b") : pick(a.cols()).col("a");
    List<Expr> items = new ArrayList<>();
    items.add(g);
    if (chance(0.6)) {
      items.add(new Agg("COUNT", false, null, ColumnType.EXACT));
    }
    items.add(aggregate(pick(b.cols()), "b", true));
    if (chance(0.4)) {
      items.add(aggregate(pick(b.cols()), "b", true));
    }
    return new Select(
        false, items, a.ref(), kind, b.ref(), condition, where, List.of(g), null, List.of(), null);
  }

  /** UNION [ALL], INTERSECT or EXCEPT of two filtered reads (maybe of two versions). */
  Query setOperation(Runner r) {
    Source s = source(r, false, null);
    Select left = plain(s, true);
    Source other = source(r, true, null);
    List<Expr> items = new ArrayList<>();
    for (Expr e : left.items()) {
      Ref match = null;
      if (e instanceof Ast.Col) {
        for (Ref c : other.cols()) {
          if (c.name().equals(((Ast.Col) e).name()) && c.type().equals(e.type())) {
            match = c;
          }
        }
      }
      if (match == null) {
        other = s;
        items = left.items();
        break;
      }
      items.add(match.col(null));
    }
    Select right =
        Select.of(items, other.ref(), chance(0.8) ? predicate(other.cols(), null, true) : null);
    return new Ast.SetOp(pick(List.of("UNION", "UNION ALL", "INTERSECT", "EXCEPT")), left, right);
  }

  /** IN and EXISTS subqueries, correlated or not. */
  Select subquery(Runner r) {
    Source a = new Source(new TableRef(TableModel.TABLE, null, "a"), current());
    Source b = source(r, true, "b");
    Ref[] on = joinable(a.cols(), b.cols());
    Select base = plain(a, true);
    List<Expr> items = new ArrayList<>();
    for (Expr e : base.items()) {
      items.add(e instanceof Ast.Col ? new Ast.Col("a", ((Ast.Col) e).name(), e.type()) : e);
    }
    if (on == null) {
      return Select.of(items, a.ref(), predicate(a.cols(), "a", true));
    }
    Expr inner = chance(0.6) ? predicate(b.cols(), "b", true) : null;
    Expr test;
    if (rnd.nextBoolean()) {
      Select sub = Select.of(List.of(on[1].col("b")), b.ref(), inner);
      test = new Ast.InQuery(on[0].col("a"), sub, chance(0.3));
    } else {
      Expr correlated = new Ast.Cmp("=", on[1].col("b"), on[0].col("a"));
      Select sub =
          Select.of(
              List.of(new Ast.Lit(1, ColumnType.INT)),
              b.ref(),
              inner == null ? correlated : new Ast.Junction("AND", List.of(correlated, inner)));
      test = new Ast.Exists(sub, chance(0.3));
    }
    return Select.of(items, a.ref(), test);
  }

  // ---------------------------------------------------------------- checks

  /**
   * The checks after a step: the query against DuckDB, and now and then against Floe itself in
   * another form.
   */
  List<Oracles.Check> checks(Runner r, long rows) {
    List<Oracles.Check> checks = new ArrayList<>();
    Query q = query(r, rows);
    checks.add(new Oracles.Differential(q));
    if (chance(0.25)) {
      checks.add(new Oracles.Threads(q));
    }
    if (chance(0.3)) {
      checks.add(metamorphic(r));
    }
    return checks;
  }

  /** A check of Floe against itself: TLP, NoREC, or with and without pushdown. */
  Oracles.Check metamorphic(Runner r) {
    Source s = source(r, true, null);
    Expr p = predicate(s.cols(), null, false);
    switch (rnd.nextInt(6)) {
      case 0:
        {
          // TLP: the rows of Q are those of Q under p, NOT p and p IS NULL
          Select q = plain(s, false);
          Expr base = q.where();
          Query partitioned =
              new Ast.SetOp(
                  "UNION ALL",
                  new Ast.SetOp(
                      "UNION ALL",
                      q.withWhere(and(base, p)),
                      q.withWhere(and(base, new Ast.Not(p)))),
                  q.withWhere(and(base, new Ast.IsNull(p, false))));
          return new Oracles.Same("tlp", q, partitioned, false);
        }
      case 1:
        {
          // TLP on aggregates: MIN, MAX, COUNT and SUM of the parts combine to the whole
          Ref c = pick(s.cols());
          String fn =
              c.type().isNumeric()
                  ? pick(List.of("MIN", "MAX", "SUM", "COUNT"))
                  : pick(List.of("MIN", "MAX", "COUNT"));
          ColumnType t =
              fn.equals("COUNT")
                  ? ColumnType.EXACT
                  : fn.equals("SUM") ? c.type().sumType() : c.type().byValue();
          Agg whole = new Agg(fn, false, c.col(null), t);
          Select all = Select.of(List.of(whole), s.ref(), null);
          Query parts =
              new Ast.SetOp(
                  "UNION ALL",
                  new Ast.SetOp(
                      "UNION ALL",
                      Select.of(List.of(whole), s.ref(), p),
                      Select.of(List.of(whole), s.ref(), new Ast.Not(p))),
                  Select.of(List.of(whole), s.ref(), new Ast.IsNull(p, false)));
          Agg combine =
              new Agg(fn.equals("COUNT") ? "SUM" : fn, false, new Ast.Col(null, "o0", t), t);
          Query combined = new Ast.Outer(combine, parts);
          return new Oracles.Same("tlp-aggregate", all, combined, false);
        }
      case 2:
        {
          // NoREC: a filtered COUNT(*) against the rows a CASE counts, and the rows returned
          Select counted =
              Select.of(List.of(new Agg("COUNT", false, null, ColumnType.EXACT)), s.ref(), p);
          Expr one =
              new Ast.Case(
                  List.of(p),
                  List.of(new Ast.Lit(1, ColumnType.INT)),
                  new Ast.Lit(0, ColumnType.INT),
                  ColumnType.EXACT);
          Select summed =
              Select.of(
                  List.of(
                      new Ast.Template(
                          "COALESCE(SUM(%1), 0)", null, List.of(one), ColumnType.EXACT)),
                  s.ref(),
                  null);
          if (rnd.nextBoolean()) {
            return new Oracles.Same("norec", counted, summed, false);
          }
          return new Oracles.CountOf(
              "norec", Select.of(List.of(pick(s.cols()).col(null)), s.ref(), p), counted);
        }
      default:
        {
          // The same query with its filter kept out of the scan (an expression Floe cannot push:
          // RAND() is never constant-folded), so neither the filter nor an aggregate reaches it.
          Select q = rnd.nextBoolean() ? plain(s, false) : grouped(s, false, rnd.nextBoolean());
          Expr where = q.where() == null ? new Ast.Lit(true, ColumnType.BOOLEAN) : q.where();
          Ref rowPath = null;
          for (Ref c : s.cols()) {
            if (c.type().kind() == ColumnType.Kind.DECIMAL
                || c.type().kind() == ColumnType.Kind.UUID
                || c.type().isBinary()) {
              rowPath = c;
            }
          }
          Expr always =
              rowPath != null && rnd.nextBoolean()
                  ? new Ast.Junction(
                      "OR",
                      List.of(
                          new Ast.Template("(RAND() >= 0)", null, List.of(), ColumnType.BOOLEAN),
                          new Ast.IsNull(rowPath.col(null), false)))
                  : new Ast.Template("(RAND() >= 0)", null, List.of(), ColumnType.BOOLEAN);
          Expr kept =
              new Ast.Case(
                  List.of(always),
                  List.of(where),
                  new Ast.Lit(false, ColumnType.BOOLEAN),
                  ColumnType.BOOLEAN);
          return new Oracles.Same("pushdown", q, q.withWhere(kept), false);
        }
    }
  }

  private static Expr and(Expr a, Expr b) {
    return a == null ? b : new Ast.Junction("AND", List.of(a, b));
  }
}
