package dev.floe.tck.fuzz;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Term;

/**
 * One step of a history, run on both databases. Steps hold their statements as written for each
 * dialect (or what to do through Iceberg's API), so a history replays the same way on a fresh lake
 * however it was shrunk; a step naming an earlier version names the step that made it.
 */
abstract class Step {
  private final String label;

  Step(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }

  /**
   * Runs the step on Floe and on the reference; a disagreement is a {@link Difference}.
   *
   * @return true when both ran it, false when both refused it
   */
  abstract boolean run(Runner r) throws SQLException;

  /** The step as Floe runs it, for a reproduction. */
  abstract String sql(Ast.Render r);

  /** Smaller forms of this step for the shrinker to try (fewer rows, fewer statements). */
  List<Step> simpler() {
    return List.of();
  }

  /** The halves of a list of rows, and its first row alone. */
  static <T> List<List<T>> halves(List<T> rows) {
    List<List<T>> result = new ArrayList<>();
    if (rows.size() > 1) {
      result.add(rows.subList(0, rows.size() / 2));
      result.add(rows.subList(rows.size() / 2, rows.size()));
      if (rows.size() > 2) {
        result.add(rows.subList(0, 1));
      }
    }
    return result;
  }

  @Override
  public String toString() {
    return label;
  }

  /** One side of a statement: runs it and returns its update count. */
  interface Call {
    long run() throws SQLException;
  }

  /** States that are never an acceptable answer: a defect of Floe's, or damage to the lake. */
  static boolean alarming(SQLException e) {
    String state = String.valueOf(e.getSQLState());
    return state.equals("HY000") || state.equals("58030") || state.equals("null");
  }

  /**
   * Runs one statement on both sides and compares the outcome: both succeed (with equal counts when
   * {@code compareCounts}), or both refuse it; an internal error or damage is a difference whatever
   * DuckDB says.
   *
   * @return whether both succeeded
   */
  static boolean both(String what, Call floe, Call duck, boolean compareCounts)
      throws SQLException {
    long floeCount = -1;
    long duckCount = -1;
    SQLException floeError = null;
    SQLException duckError = null;
    try {
      floeCount = floe.run();
    } catch (SQLException e) {
      floeError = e;
    }
    if (floeError != null && alarming(floeError)) {
      throw new Difference(
          "statement",
          "floe-" + floeError.getSQLState(),
          what + "\n  Floe: " + floeError.getSQLState() + " " + floeError.getMessage(),
          floeError);
    }
    try {
      duckCount = duck.run();
    } catch (SQLException e) {
      duckError = e;
    }
    if (floeError != null && duckError == null) {
      throw new Difference(
          "statement",
          "floe-refuses-" + floeError.getSQLState(),
          what + "\n  Floe: " + floeError.getSQLState() + " " + floeError.getMessage(),
          floeError);
    }
    if (floeError == null && duckError != null) {
      throw new Difference(
          "statement",
          "reference-refuses",
          what + "\n  DuckDB: " + duckError.getMessage() + "\n  (Floe ran it: " + floeCount + ")",
          duckError);
    }
    if (floeError == null && compareCounts && floeCount != duckCount) {
      throw new Difference(
          "statement",
          "update-count",
          what + "\n  Floe counts " + floeCount + ", DuckDB " + duckCount);
    }
    return floeError == null;
  }

  /** CREATE TABLE on both sides. */
  static final class Create extends Step {
    private final String floe;
    private final String duck;

    Create(String label, TableModel model) {
      super(label);
      List<String> floeColumns = new ArrayList<>();
      List<String> duckColumns = new ArrayList<>();
      for (TableModel.Column c : model.columns) {
        floeColumns.add(c.name + " " + c.type.floeDdl() + (c.required ? " NOT NULL" : ""));
        duckColumns.add(c.name + " " + c.type.duckDdl() + (c.required ? " NOT NULL" : ""));
      }
      StringBuilder f =
          new StringBuilder("CREATE TABLE " + TableModel.TABLE + " (")
              .append(String.join(", ", floeColumns))
              .append(")");
      if (!model.partitioning.isEmpty()) {
        f.append(" PARTITIONED BY (")
            .append(
                model.partitioning.stream()
                    .map(p -> p.floeSql(model))
                    .collect(Collectors.joining(", ")))
            .append(")");
      }
      f.append(" WITH ('format-version' = '").append(model.formatVersion).append("'");
      for (Map.Entry<String, String> e : model.properties.entrySet()) {
        f.append(", '").append(e.getKey()).append("' = '").append(e.getValue()).append("'");
      }
      f.append(")");
      this.floe = f.toString();
      this.duck = "CREATE TABLE " + TableModel.TABLE + " (" + String.join(", ", duckColumns) + ")";
    }

    @Override
    boolean run(Runner r) throws SQLException {
      return both(floe, () -> r.floeUpdate(floe), () -> r.duckUpdate(duck), false);
    }

    @Override
    String sql(Ast.Render r) {
      return floe;
    }
  }

  /** A statement both dialects run, written for each (DML and DDL). */
  static final class Sql extends Step {
    private final String floe;
    private final String duck;
    private final boolean compareCounts;

    Sql(String label, String floe, String duck, boolean compareCounts) {
      super(label);
      this.floe = floe;
      this.duck = duck;
      this.compareCounts = compareCounts;
    }

    @Override
    boolean run(Runner r) throws SQLException {
      return both(floe, () -> r.floeUpdate(floe), () -> r.duckUpdate(duck), compareCounts);
    }

    @Override
    String sql(Ast.Render r) {
      return floe;
    }
  }

  /** DML whose text names earlier versions of the table: written when it runs. */
  static final class Rendered extends Step {
    private final java.util.function.Function<Ast.Render, String> text;
    private final boolean compareCounts;

    Rendered(
        String label, java.util.function.Function<Ast.Render, String> text, boolean compareCounts) {
      super(label);
      this.text = text;
      this.compareCounts = compareCounts;
    }

    @Override
    boolean run(Runner r) throws SQLException {
      String floe = text.apply(r.floeRender);
      String duck = text.apply(r.duckRender);
      return both(floe, () -> r.floeUpdate(floe), () -> r.duckUpdate(duck), compareCounts);
    }

    @Override
    String sql(Ast.Render r) {
      return text.apply(r);
    }
  }

  /** {@code INSERT INTO t [(columns)] VALUES (...), ...} of literal rows. */
  static final class InsertValues extends Step {
    private final List<String> columns;
    private final List<ColumnType> types;
    private final List<List<Object>> rows;
    private final boolean columnList;

    InsertValues(
        String label,
        List<String> columns,
        List<ColumnType> types,
        List<List<Object>> rows,
        boolean columnList) {
      super(label);
      this.columns = columns;
      this.types = types;
      this.rows = rows;
      this.columnList = columnList;
    }

    private String text(Dialect dialect) {
      List<String> tuples = new ArrayList<>();
      for (List<Object> row : rows) {
        List<String> literals = new ArrayList<>();
        for (int i = 0; i < row.size(); i++) {
          literals.add(Values.literal(row.get(i), types.get(i), dialect));
        }
        tuples.add("(" + String.join(", ", literals) + ")");
      }
      return "INSERT INTO "
          + TableModel.TABLE
          + (columnList ? " (" + String.join(", ", columns) + ")" : "")
          + " VALUES "
          + String.join(", ", tuples);
    }

    @Override
    boolean run(Runner r) throws SQLException {
      String floe = text(Dialect.FLOE);
      return both(floe, () -> r.floeUpdate(floe), () -> r.duckUpdate(text(Dialect.DUCK)), true);
    }

    @Override
    String sql(Ast.Render r) {
      return text(r.dialect());
    }

    @Override
    List<Step> simpler() {
      List<Step> result = new ArrayList<>();
      for (List<List<Object>> part : halves(rows)) {
        result.add(new InsertValues(label(), columns, types, part, columnList));
      }
      return result;
    }
  }

  /** An INSERT of rows through a PreparedStatement batch (DuckDB: one INSERT of literals). */
  static final class Batch extends Step {
    private final List<String> columns;
    private final List<ColumnType> types;
    private final List<List<Object>> rows;

    Batch(String label, List<String> columns, List<ColumnType> types, List<List<Object>> rows) {
      super(label);
      this.columns = columns;
      this.types = types;
      this.rows = rows;
    }

    @Override
    List<Step> simpler() {
      List<Step> result = new ArrayList<>();
      for (List<List<Object>> part : halves(rows)) {
        result.add(new Batch(label(), columns, types, part));
      }
      return result;
    }

    private String floeSql() {
      return "INSERT INTO "
          + TableModel.TABLE
          + " ("
          + String.join(", ", columns)
          + ") VALUES ("
          + columns.stream().map(c -> "?").collect(Collectors.joining(", "))
          + ")";
    }

    @Override
    boolean run(Runner r) throws SQLException {
      return both(
          sql(r.floeRender),
          () -> {
            r.floeStatements++;
            try (PreparedStatement ps = r.floe.prepareStatement(floeSql())) {
              for (List<Object> row : rows) {
                for (int i = 0; i < row.size(); i++) {
                  Values.bind(ps, i + 1, row.get(i), types.get(i));
                }
                ps.addBatch();
              }
              long n = 0;
              for (int count : ps.executeBatch()) {
                n += count;
              }
              return n;
            }
          },
          () -> r.duckUpdate(values(Dialect.DUCK)),
          true);
    }

    private String values(Dialect dialect) {
      List<String> tuples = new ArrayList<>();
      for (List<Object> row : rows) {
        List<String> literals = new ArrayList<>();
        for (int i = 0; i < row.size(); i++) {
          literals.add(Values.typedLiteral(row.get(i), types.get(i), dialect));
        }
        tuples.add("(" + String.join(", ", literals) + ")");
      }
      return "INSERT INTO "
          + TableModel.TABLE
          + " ("
          + String.join(", ", columns)
          + ") VALUES "
          + String.join(", ", tuples);
    }

    @Override
    String sql(Ast.Render r) {
      return floeSql()
          + "  -- a PreparedStatement batch of "
          + rows.size()
          + " rows: "
          + values(Dialect.FLOE).substring(values(Dialect.FLOE).indexOf(" VALUES ") + 8);
    }
  }

  /**
   * Statements in one transaction (Floe: auto-commit off; DuckDB: BEGIN), reads of the
   * transaction's own writes compared along the way, then COMMIT or ROLLBACK.
   */
  static final class Transaction extends Step {
    private final List<Step> inner;
    private final List<Ast.Query> probes;
    private final boolean commit;

    Transaction(String label, List<Step> inner, List<Ast.Query> probes, boolean commit) {
      super(label);
      this.inner = inner;
      this.probes = probes;
      this.commit = commit;
    }

    @Override
    boolean run(Runner r) throws SQLException {
      r.floe.setAutoCommit(false);
      r.duckExecute("BEGIN TRANSACTION");
      boolean open = true;
      try {
        for (Step s : inner) {
          if (!bothSucceed(s, r)) {
            r.floe.rollback();
            r.duckExecute("ROLLBACK");
            open = false;
            return false;
          }
        }
        for (Ast.Query probe : probes) {
          Oracles.compareWithReference(r, r.floe, probe, "transaction-read");
        }
        if (commit) {
          String what = "COMMIT";
          both(
              what,
              () -> {
                r.floe.commit();
                return 0;
              },
              () -> r.duckUpdate("COMMIT"),
              false);
        } else {
          r.floe.rollback();
          r.duckExecute("ROLLBACK");
        }
        open = false;
        return true;
      } finally {
        if (open) {
          try {
            r.floe.rollback();
          } catch (SQLException e) {
            // the difference being reported is the failure that matters
          }
          try {
            r.duckExecute("ROLLBACK");
          } catch (SQLException e) {
            // as above
          }
        }
        r.floe.setAutoCommit(true);
      }
    }

    @Override
    List<Step> simpler() {
      List<Step> result = new ArrayList<>();
      if (!probes.isEmpty()) {
        result.add(new Transaction(label(), inner, List.of(), commit));
      }
      for (int i = 0; i < inner.size(); i++) {
        List<Step> fewer = new ArrayList<>(inner);
        fewer.remove(i);
        if (!fewer.isEmpty()) {
          result.add(new Transaction(label(), fewer, probes, commit));
        }
      }
      for (int i = 0; i < inner.size(); i++) {
        for (Step smaller : inner.get(i).simpler()) {
          List<Step> replaced = new ArrayList<>(inner);
          replaced.set(i, smaller);
          result.add(new Transaction(label(), replaced, probes, commit));
        }
      }
      return result;
    }

    private static boolean bothSucceed(Step s, Runner r) throws SQLException {
      return s.run(r);
    }

    @Override
    String sql(Ast.Render r) {
      StringBuilder s = new StringBuilder("-- connection.setAutoCommit(false)");
      for (Step step : inner) {
        s.append("\n  ").append(step.sql(r)).append(";");
      }
      for (Ast.Query probe : probes) {
        s.append("\n  ").append(probe.sql(r)).append(";  -- compared inside the transaction");
      }
      return s.append("\n  -- connection.").append(commit ? "commit()" : "rollback()").toString();
    }
  }

  /** {@code ALTER TABLE t EXECUTE optimize}: the rows must stay the same. */
  static final class Optimize extends Step {
    private final String floe;

    Optimize(String label, String arguments) {
      super(label);
      this.floe = "ALTER TABLE " + TableModel.TABLE + " EXECUTE optimize" + arguments;
    }

    @Override
    boolean run(Runner r) throws SQLException {
      List<ColumnType> types = r.tableTypes();
      List<List<Object>> before = r.floeRows(r.floe, "SELECT * FROM " + TableModel.TABLE, types);
      both(floe, () -> r.floeExecute(floe) ? 0 : 0, () -> 0, false);
      List<List<Object>> after = r.floeRows(r.floe, "SELECT * FROM " + TableModel.TABLE, types);
      Oracles.sameRows("optimize", floe, before, after, false);
      return true;
    }

    @Override
    String sql(Ast.Render r) {
      return floe;
    }
  }

  /** {@code expire_snapshots} keeping the last few. */
  static final class Expire extends Step {
    private final String floe;

    Expire(String label, int retainLast) {
      super(label);
      this.floe =
          "ALTER TABLE "
              + TableModel.TABLE
              + " EXECUTE expire_snapshots(retention_threshold => '0s', retain_last => "
              + retainLast
              + ")";
    }

    @Override
    boolean run(Runner r) throws SQLException {
      return both(floe, () -> r.floeExecute(floe) ? 0 : 0, () -> 0, false);
    }

    @Override
    String sql(Ast.Render r) {
      return floe;
    }
  }

  /** {@code rollback_to_snapshot} to the version an earlier step made. */
  static final class Rollback extends Step {
    private final Step target;

    Rollback(String label, Step target) {
      super(label);
      this.target = target;
    }

    @Override
    boolean run(Runner r) throws SQLException {
      String floe = sql(r.floeRender);
      Schema old = r.schemaOf(target);
      String copy = r.copyOf(target);
      return both(
          floe,
          () -> r.floeExecute(floe) ? 0 : 0,
          () ->
              r.duckUpdate(
                  "CREATE OR REPLACE TABLE "
                      + TableModel.TABLE
                      + " AS SELECT "
                      + Runner.project(old, r.iceberg().schema())
                      + " FROM "
                      + copy),
          false);
    }

    @Override
    String sql(Ast.Render r) {
      return "ALTER TABLE "
          + TableModel.TABLE
          + " EXECUTE rollback_to_snapshot("
          + r.snapshotOf(target)
          + ")  -- the version of "
          + target.label();
    }
  }

  /** Partition evolution through Iceberg's API (Floe's DDL has none): the rows stay the same. */
  static final class EvolvePartition extends Step {
    private final boolean add;
    private final String transform;
    private final int param;
    private final String column;
    private final String field;

    EvolvePartition(
        String label, boolean add, String transform, int param, String column, String field) {
      super(label);
      this.add = add;
      this.transform = transform;
      this.param = param;
      this.column = column;
      this.field = field;
    }

    private Term term() {
      switch (transform) {
        case "identity":
          return Expressions.ref(column);
        case "bucket":
          return Expressions.bucket(column, param);
        case "truncate":
          return Expressions.truncate(column, param);
        case "year":
          return Expressions.year(column);
        case "month":
          return Expressions.month(column);
        case "day":
          return Expressions.day(column);
        default:
          return Expressions.hour(column);
      }
    }

    @Override
    boolean run(Runner r) {
      Table table = r.iceberg();
      UpdatePartitionSpec update = table.updateSpec();
      if (add) {
        update.addField(field, term());
      } else {
        update.removeField(field);
      }
      update.commit();
      return true;
    }

    @Override
    String sql(Ast.Render r) {
      return "-- Iceberg API: table.updateSpec()."
          + (add ? "addField(\"" + field + "\", " + term() + ")" : "removeField(\"" + field + "\")")
          + ".commit()";
    }
  }

  /** Table properties set through Iceberg's API (Floe's ALTER TABLE sets none). */
  static final class SetProperties extends Step {
    private final Map<String, String> properties;

    SetProperties(String label, Map<String, String> properties) {
      super(label);
      this.properties = properties;
    }

    @Override
    boolean run(Runner r) {
      UpdateProperties update = r.iceberg().updateProperties();
      properties.forEach(update::set);
      update.commit();
      return true;
    }

    @Override
    String sql(Ast.Render r) {
      return "-- Iceberg API: table.updateProperties()"
          + properties.entrySet().stream()
              .map(e -> ".set(\"" + e.getKey() + "\", \"" + e.getValue() + "\")")
              .collect(Collectors.joining())
          + ".commit()";
    }
  }

  /**
   * {@code INSERT OVERWRITE}: static (a PARTITION clause of identity columns) or dynamic (every
   * partition the query writes into is replaced; an unpartitioned table whole). DuckDB has no such
   * statement: the reference deletes the replaced rows, found by computing each row's partition
   * with Iceberg's transforms, then inserts the query's rows.
   */
  static final class Overwrite extends Step {
    private final Ast.Query query;
    private final List<String> columns;
    private final List<String> staticColumns;
    private final List<Ast.Expr> staticValues;

    Overwrite(
        String label,
        Ast.Query query,
        List<String> columns,
        List<String> staticColumns,
        List<Ast.Expr> staticValues) {
      super(label);
      this.query = query;
      this.columns = columns;
      this.staticColumns = staticColumns;
      this.staticValues = staticValues;
    }

    @Override
    String sql(Ast.Render r) {
      StringBuilder s = new StringBuilder("INSERT OVERWRITE " + TableModel.TABLE);
      if (!staticColumns.isEmpty()) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < staticColumns.size(); i++) {
          parts.add(staticColumns.get(i) + " = " + staticValues.get(i).sql(r));
        }
        s.append(" PARTITION (").append(String.join(", ", parts)).append(")");
      }
      return s.append(" (")
          .append(String.join(", ", columns))
          .append(") ")
          .append(query.sql(r))
          .toString();
    }

    @Override
    boolean run(Runner r) throws SQLException {
      String floe = sql(r.floeRender);
      Table table = r.iceberg();
      Schema schema = table.schema();
      PartitionSpec spec = table.spec();
      return both(floe, () -> r.floeUpdate(floe), () -> reference(r, schema, spec), true);
    }

    private long reference(Runner r, Schema schema, PartitionSpec spec) throws SQLException {
      r.duckExecute("CREATE OR REPLACE TEMP TABLE overwrite_source AS " + query.sql(r.duckRender));
      List<String> all = new ArrayList<>(columns);
      List<String> select = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        select.add("o" + i);
      }
      for (int i = 0; i < staticColumns.size(); i++) {
        all.add(staticColumns.get(i));
        select.add(staticValues.get(i).sql(r.duckRender));
      }
      if (!staticColumns.isEmpty()) {
        List<String> match = new ArrayList<>();
        for (int i = 0; i < staticColumns.size(); i++) {
          match.add(staticColumns.get(i) + " = " + staticValues.get(i).sql(r.duckRender));
        }
        r.duckExecute("DELETE FROM " + TableModel.TABLE + " WHERE " + String.join(" AND ", match));
      } else if (spec.isUnpartitioned()) {
        r.duckExecute("DELETE FROM " + TableModel.TABLE);
      } else {
        deleteReplacedPartitions(r, schema, spec, all, select);
      }
      long n =
          r.duckUpdate(
              "INSERT INTO "
                  + TableModel.TABLE
                  + " ("
                  + String.join(", ", all)
                  + ") SELECT "
                  + String.join(", ", select)
                  + " FROM overwrite_source");
      r.duckExecute("DROP TABLE overwrite_source");
      return n;
    }

    private static void deleteReplacedPartitions(
        Runner r, Schema schema, PartitionSpec spec, List<String> all, List<String> select)
        throws SQLException {
      List<ColumnType> types = Runner.tableTypes(schema);
      List<String> names = schema.columns().stream().map(f -> f.name()).toList();
      // The new rows, as rows of the table (columns the query does not give are NULL).
      List<String> items = new ArrayList<>();
      for (String name : names) {
        int i = all.indexOf(name);
        items.add(i < 0 ? "NULL" : select.get(i));
      }
      List<Object[]> incoming =
          r.duckRawRows("SELECT 0, " + String.join(", ", items) + " FROM overwrite_source", types);
      Set<PartitionKey> replaced = new HashSet<>();
      for (Object[] row : incoming) {
        replaced.add(partition(schema, spec, row));
      }
      List<Object[]> existing =
          r.duckRawRows(
              "SELECT rowid, "
                  + names.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(", "))
                  + " FROM "
                  + TableModel.TABLE,
              types);
      List<String> doomed = new ArrayList<>();
      for (Object[] row : existing) {
        if (replaced.contains(partition(schema, spec, row))) {
          doomed.add(row[0].toString());
        }
      }
      if (!doomed.isEmpty()) {
        r.duckExecute(
            "DELETE FROM "
                + TableModel.TABLE
                + " WHERE rowid IN ("
                + String.join(", ", doomed)
                + ")");
      }
    }

    private static PartitionKey partition(Schema schema, PartitionSpec spec, Object[] row) {
      GenericRecord record = GenericRecord.create(schema);
      for (int i = 0; i < schema.columns().size(); i++) {
        record.set(i, row[i + 1]);
      }
      PartitionKey key = new PartitionKey(spec, schema);
      key.partition(new InternalRecordWrapper(schema.asStruct()).wrap(record));
      return key;
    }
  }
}
