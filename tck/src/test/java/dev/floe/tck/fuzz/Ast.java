package dev.floe.tck.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The syntax of generated statements, written out in either dialect. A query is kept as a tree (not
 * as text) so the metamorphic oracles can derive variants of it and the shrinker can simplify it; a
 * table read at an earlier version names the step that made that version, which each replay of a
 * history resolves to its own snapshot id (Floe) and copy of the reference table (DuckDB).
 */
final class Ast {
  private Ast() {}

  /** How to write a tree: the dialect, and where each earlier version of the table is. */
  interface Render {
    Dialect dialect();

    /** Floe's snapshot id (as text) of the version step {@code step} made. */
    String snapshotOf(Step step);

    /** The DuckDB table holding the reference rows of the version step {@code step} made. */
    String copyOf(Step step);

    default boolean floe() {
      return dialect() == Dialect.FLOE;
    }
  }

  /** An expression of a known type. */
  interface Expr {
    ColumnType type();

    String sql(Render r);
  }

  /** A column, qualified by a table alias or not. */
  record Col(String qualifier, String name, ColumnType type) implements Expr {
    @Override
    public String sql(Render r) {
      return qualifier == null ? name : qualifier + "." + name;
    }
  }

  /** A literal. */
  record Lit(Object value, ColumnType type) implements Expr {
    @Override
    public String sql(Render r) {
      return Values.literal(value, type, r.dialect());
    }
  }

  /** A literal of exactly its type (a NULL of a type, a VARCHAR rather than a CHAR). */
  record TypedLit(Object value, ColumnType type) implements Expr {
    @Override
    public String sql(Render r) {
      return Values.typedLiteral(value, type, r.dialect());
    }
  }

  /** A comparison: {@code =, <>, <, <=, >, >=, IS DISTINCT FROM, IS NOT DISTINCT FROM}. */
  record Cmp(String op, Expr left, Expr right) implements Expr {
    @Override
    public ColumnType type() {
      return ColumnType.BOOLEAN;
    }

    @Override
    public String sql(Render r) {
      return "(" + left.sql(r) + " " + op + " " + right.sql(r) + ")";
    }
  }

  /** {@code e IS [NOT] NULL}. */
  record IsNull(Expr arg, boolean not) implements Expr {
    @Override
    public ColumnType type() {
      return ColumnType.BOOLEAN;
    }

    @Override
    public String sql(Render r) {
      return "(" + arg.sql(r) + (not ? " IS NOT NULL)" : " IS NULL)");
    }
  }

  /** {@code e [NOT] BETWEEN lo AND hi}. */
  record Between(Expr arg, Expr low, Expr high, boolean not) implements Expr {
    @Override
    public ColumnType type() {
      return ColumnType.BOOLEAN;
    }

    @Override
    public String sql(Render r) {
      return "("
          + arg.sql(r)
          + (not ? " NOT BETWEEN " : " BETWEEN ")
          + low.sql(r)
          + " AND "
          + high.sql(r)
          + ")";
    }
  }

  /** {@code e [NOT] IN (items)}. */
  record In(Expr arg, List<Expr> items, boolean not) implements Expr {
    @Override
    public ColumnType type() {
      return ColumnType.BOOLEAN;
    }

    @Override
    public String sql(Render r) {
      return "("
          + arg.sql(r)
          + (not ? " NOT IN (" : " IN (")
          + items.stream().map(e -> e.sql(r)).collect(Collectors.joining(", "))
          + "))";
    }
  }

  /** {@code e [NOT] IN (subquery)}. */
  record InQuery(Expr arg, Query query, boolean not) implements Expr {
    @Override
    public ColumnType type() {
      return ColumnType.BOOLEAN;
    }

    @Override
    public String sql(Render r) {
      return "(" + arg.sql(r) + (not ? " NOT IN (" : " IN (") + query.sql(r) + "))";
    }
  }

  /** {@code [NOT] EXISTS (subquery)}. */
  record Exists(Query query, boolean not) implements Expr {
    @Override
    public ColumnType type() {
      return ColumnType.BOOLEAN;
    }

    @Override
    public String sql(Render r) {
      return "(" + (not ? "NOT EXISTS (" : "EXISTS (") + query.sql(r) + "))";
    }
  }

  /** {@code e [NOT] LIKE 'pattern'}. */
  record Like(Expr arg, String pattern, boolean not) implements Expr {
    @Override
    public ColumnType type() {
      return ColumnType.BOOLEAN;
    }

    @Override
    public String sql(Render r) {
      return "("
          + arg.sql(r)
          + (not ? " NOT LIKE " : " LIKE ")
          + Values.literal(pattern, ColumnType.VARCHAR, r.dialect())
          + ")";
    }
  }

  /** {@code AND} or {@code OR} of two or more terms. */
  record Junction(String op, List<Expr> terms) implements Expr {
    @Override
    public ColumnType type() {
      return ColumnType.BOOLEAN;
    }

    @Override
    public String sql(Render r) {
      return "("
          + terms.stream().map(e -> e.sql(r)).collect(Collectors.joining(" " + op + " "))
          + ")";
    }
  }

  /** {@code NOT e}. */
  record Not(Expr arg) implements Expr {
    @Override
    public ColumnType type() {
      return ColumnType.BOOLEAN;
    }

    @Override
    public String sql(Render r) {
      return "(NOT " + arg.sql(r) + ")";
    }
  }

  /** A function whose name may differ between the dialects. */
  record Func(String floeName, String duckName, List<Expr> args, ColumnType type) implements Expr {
    @Override
    public String sql(Render r) {
      return (r.floe() ? floeName : duckName)
          + "("
          + args.stream().map(e -> e.sql(r)).collect(Collectors.joining(", "))
          + ")";
    }
  }

  /** Written out as given in each dialect, around its arguments ({@code %1}, {@code %2}...). */
  record Template(String floe, String duck, List<Expr> args, ColumnType type) implements Expr {
    @Override
    public String sql(Render r) {
      String text = r.floe() || duck == null ? floe : duck;
      for (int i = args.size(); i >= 1; i--) {
        text = text.replace("%" + i, args.get(i - 1).sql(r));
      }
      return text;
    }
  }

  /** {@code CAST(e AS type)}. */
  record Cast(Expr arg, ColumnType type) implements Expr {
    @Override
    public String sql(Render r) {
      return "CAST(" + arg.sql(r) + " AS " + (r.floe() ? type.floeDdl() : type.duckDdl()) + ")";
    }
  }

  /** {@code CASE WHEN c THEN v ... ELSE e END}. */
  record Case(List<Expr> whens, List<Expr> thens, Expr otherwise, ColumnType type) implements Expr {
    @Override
    public String sql(Render r) {
      StringBuilder s = new StringBuilder("(CASE");
      for (int i = 0; i < whens.size(); i++) {
        s.append(" WHEN ").append(whens.get(i).sql(r)).append(" THEN ").append(thens.get(i).sql(r));
      }
      if (otherwise != null) {
        s.append(" ELSE ").append(otherwise.sql(r));
      }
      return s.append(" END)").toString();
    }
  }

  /** An aggregate call; {@code arg} null for {@code COUNT(*)}. */
  record Agg(String fn, boolean distinct, Expr arg, ColumnType type) implements Expr {
    @Override
    public String sql(Render r) {
      return fn + "(" + (arg == null ? "*" : (distinct ? "DISTINCT " : "") + arg.sql(r)) + ")";
    }
  }

  /** A window function call. */
  record Window(Expr call, List<Expr> partitionBy, List<Order> orderBy) implements Expr {
    @Override
    public ColumnType type() {
      return call.type();
    }

    @Override
    public String sql(Render r) {
      List<String> parts = new ArrayList<>();
      if (!partitionBy.isEmpty()) {
        parts.add(
            "PARTITION BY "
                + partitionBy.stream().map(e -> e.sql(r)).collect(Collectors.joining(", ")));
      }
      if (!orderBy.isEmpty()) {
        parts.add(
            "ORDER BY " + orderBy.stream().map(o -> o.sql(r)).collect(Collectors.joining(", ")));
      }
      return call.sql(r) + " OVER (" + String.join(" ", parts) + ")";
    }
  }

  /** A sort key. */
  record Order(Expr expr, boolean descending, boolean nullsFirst) {
    String sql(Render r) {
      return expr.sql(r)
          + (descending ? " DESC" : " ASC")
          + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
  }

  /** A table in a FROM clause: the table now, or as a step left it. */
  record TableRef(String table, Step version, String alias) {
    String sql(Render r) {
      String name;
      if (version == null) {
        name = table;
      } else if (r.floe()) {
        name = table + " FOR VERSION AS OF " + r.snapshotOf(version);
      } else {
        name = r.copyOf(version);
      }
      return alias == null ? name : name + " AS " + alias;
    }
  }

  /** A query: SELECT or a set operation. */
  interface Query {
    /** The types of the output columns, in order. */
    List<ColumnType> types();

    /** Whether the rows come in an order both engines must agree on. */
    boolean ordered();

    String sql(Render r);
  }

  /** Literal rows: {@code SELECT * FROM (VALUES ...) AS v(o0, o1, ...)}, each value typed. */
  record ValuesQuery(List<ColumnType> types, List<List<Object>> rows) implements Query {
    @Override
    public boolean ordered() {
      return false;
    }

    @Override
    public String sql(Render r) {
      List<String> tuples = new ArrayList<>();
      for (List<Object> row : rows) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < row.size(); i++) {
          values.add(Values.typedLiteral(row.get(i), types.get(i), r.dialect()));
        }
        tuples.add("(" + String.join(", ", values) + ")");
      }
      List<String> names = new ArrayList<>();
      for (int i = 0; i < types.size(); i++) {
        names.add("o" + i);
      }
      return "SELECT * FROM (VALUES "
          + String.join(", ", tuples)
          + ") AS v("
          + String.join(", ", names)
          + ")";
    }
  }

  /** One expression over the rows of a query: {@code SELECT e AS o0 FROM (query) AS x}. */
  record Outer(Expr item, Query inner) implements Query {
    @Override
    public List<ColumnType> types() {
      return List.of(item.type());
    }

    @Override
    public boolean ordered() {
      return false;
    }

    @Override
    public String sql(Render r) {
      return "SELECT " + item.sql(r) + " AS o0 FROM (" + inner.sql(r) + ") AS x";
    }
  }

  /** Two queries combined by {@code UNION [ALL]}, {@code INTERSECT} or {@code EXCEPT}. */
  record SetOp(String op, Query left, Query right) implements Query {
    @Override
    public List<ColumnType> types() {
      return left.types();
    }

    @Override
    public boolean ordered() {
      return false;
    }

    @Override
    public String sql(Render r) {
      return "(" + left.sql(r) + ") " + op + " (" + right.sql(r) + ")";
    }
  }

  /** A SELECT over one table or a join of two. */
  record Select(
      boolean distinct,
      List<Expr> items,
      TableRef from,
      String joinKind,
      TableRef joined,
      Expr on,
      Expr where,
      List<Expr> groupBy,
      Expr having,
      List<Order> orderBy,
      Integer limit)
      implements Query {

    static Select of(List<Expr> items, TableRef from, Expr where) {
      return new Select(
          false, items, from, null, null, null, where, List.of(), null, List.of(), null);
    }

    @Override
    public List<ColumnType> types() {
      return items.stream().map(Expr::type).toList();
    }

    @Override
    public boolean ordered() {
      return !orderBy.isEmpty();
    }

    Select withWhere(Expr newWhere) {
      return new Select(
          distinct, items, from, joinKind, joined, on, newWhere, groupBy, having, orderBy, limit);
    }

    Select withItems(List<Expr> newItems) {
      return new Select(
          distinct, newItems, from, joinKind, joined, on, where, groupBy, having, orderBy, limit);
    }

    Select withFrom(TableRef newFrom) {
      return new Select(
          distinct, items, newFrom, joinKind, joined, on, where, groupBy, having, orderBy, limit);
    }

    Select withoutOrder() {
      return new Select(
          distinct, items, from, joinKind, joined, on, where, groupBy, having, List.of(), null);
    }

    @Override
    public String sql(Render r) {
      StringBuilder s = new StringBuilder("SELECT ");
      if (distinct) {
        s.append("DISTINCT ");
      }
      List<String> columns = new ArrayList<>();
      for (int i = 0; i < items.size(); i++) {
        columns.add(items.get(i).sql(r) + " AS o" + i);
      }
      s.append(String.join(", ", columns)).append(" FROM ").append(from.sql(r));
      if (joined != null) {
        s.append(' ').append(joinKind).append(' ').append(joined.sql(r));
        s.append(" ON ").append(on.sql(r));
      }
      if (where != null) {
        s.append(" WHERE ").append(where.sql(r));
      }
      if (!groupBy.isEmpty()) {
        s.append(" GROUP BY ")
            .append(groupBy.stream().map(e -> e.sql(r)).collect(Collectors.joining(", ")));
      }
      if (having != null) {
        s.append(" HAVING ").append(having.sql(r));
      }
      if (!orderBy.isEmpty()) {
        s.append(" ORDER BY ")
            .append(orderBy.stream().map(o -> o.sql(r)).collect(Collectors.joining(", ")));
      }
      if (limit != null) {
        s.append(" LIMIT ").append(limit);
      }
      return s.toString();
    }
  }
}
