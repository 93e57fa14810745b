package dev.floe.tck.fuzz;

import dev.floe.tck.fuzz.Ast.Expr;
import dev.floe.tck.fuzz.QueryGenerator.Ref;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;

/**
 * Writes a random history, a step at a time: the table's creation, then DML of every kind (alone or
 * in transactions that commit or roll back), maintenance, and schema and partition evolution. Each
 * step is written against the generator's {@link TableModel}; the runner's state (versions,
 * ancestors, the current partition spec, the row count) decides what is possible next.
 */
final class HistoryGenerator {
  private final Random rnd;
  final TableModel model;
  final QueryGenerator queries;
  private int count;

  HistoryGenerator(Random rnd) {
    this.rnd = rnd;
    this.model = randomTable(rnd);
    this.queries = new QueryGenerator(rnd, model);
  }

  private String label() {
    return "step " + count++;
  }

  private boolean chance(double p) {
    return rnd.nextDouble() < p;
  }

  private <T> T pick(List<T> items) {
    return items.get(rnd.nextInt(items.size()));
  }

  /** A random table: 2 to 7 columns, 0 to 2 partition fields, format 2 or 3, delete modes. */
  static TableModel randomTable(Random rnd) {
    TableModel m = new TableModel(rnd.nextBoolean() ? 2 : 3);
    int n = 2 + rnd.nextInt(6);
    for (int i = 0; i < n; i++) {
      m.addColumn(m.randomType(rnd), rnd.nextInt(12) == 0);
    }
    int fields = rnd.nextInt(3);
    Set<Integer> used = new HashSet<>();
    for (int i = 0; i < fields; i++) {
      TableModel.Column c = m.columns.get(rnd.nextInt(m.columns.size()));
      List<String> transforms = TableModel.transforms(c.type);
      if (c.type.isFloatingPoint() || !used.add(c.id)) {
        continue;
      }
      String t = transforms.get(rnd.nextInt(transforms.size()));
      int param =
          t.equals("bucket") ? 1 + rnd.nextInt(4) : t.equals("truncate") ? 1 + rnd.nextInt(3) : 0;
      m.partitioning.add(new TableModel.PartitionField(t, param, c.id));
      c.partitionSource = true;
    }
    for (String mode : List.of("write.delete.mode", "write.update.mode", "write.merge.mode")) {
      if (rnd.nextInt(3) == 0) {
        m.properties.put(mode, "copy-on-write");
      }
    }
    if (rnd.nextInt(4) == 0) {
      // Small files: inserts write several files per partition.
      m.properties.put("write.target-file-size-bytes", Integer.toString(1024 + rnd.nextInt(4096)));
    }
    if (rnd.nextInt(4) == 0) {
      m.properties.put("write.parquet.row-group-size-bytes", "1024");
    }
    return m;
  }

  Step create() {
    return new Step.Create(label(), model);
  }

  /** The next step of the history. */
  Step next(Runner r, long rows) {
    int roll = rnd.nextInt(100);
    if (roll < 18) {
      return insertValues();
    }
    if (roll < 30) {
      return batch();
    }
    if (roll < 36 && rows < 300) {
      return insertSelect(r);
    }
    if (roll < 48) {
      return delete();
    }
    if (roll < 57) {
      return update();
    }
    if (roll < 64) {
      return merge();
    }
    if (roll < 68) {
      Step s = overwrite(r);
      if (s != null) {
        return s;
      }
    }
    if (roll < 70) {
      return new Step.Sql(
          label(), "TRUNCATE TABLE " + TableModel.TABLE, "DELETE FROM " + TableModel.TABLE, false);
    }
    if (roll < 78) {
      return transaction(r, rows);
    }
    if (roll < 83) {
      return optimize(r);
    }
    if (roll < 85) {
      return new Step.Expire(label(), 1 + rnd.nextInt(3));
    }
    if (roll < 88) {
      List<Step> ancestors = r.ancestorVersions();
      if (!ancestors.isEmpty()) {
        return new Step.Rollback(label(), pick(ancestors));
      }
    }
    if (roll < 95) {
      Step s = schemaChange();
      if (s != null) {
        return s;
      }
    }
    if (roll < 98) {
      Step s = partitionChange(r);
      if (s != null) {
        return s;
      }
    }
    if (roll < 100) {
      Map<String, String> p = new LinkedHashMap<>();
      for (String mode : List.of("write.delete.mode", "write.update.mode", "write.merge.mode")) {
        if (rnd.nextBoolean()) {
          p.put(mode, rnd.nextBoolean() ? "copy-on-write" : "merge-on-read");
        }
      }
      if (!p.isEmpty()) {
        return new Step.SetProperties(label(), p);
      }
    }
    return insertValues();
  }

  /** A row of new values for the current columns (required ones never NULL). */
  private List<Object> row() {
    List<Object> row = new ArrayList<>();
    for (TableModel.Column c : model.columns) {
      Object v =
          !c.seen.isEmpty() && chance(0.3)
              ? c.seen.get(rnd.nextInt(c.seen.size()))
              : Values.random(rnd, c.type, c.required ? 0 : 0.15);
      model.saw(c, v, rnd);
      row.add(v);
    }
    return row;
  }

  private List<ColumnType> types() {
    return model.columns.stream().map(c -> c.type).toList();
  }

  private List<String> names() {
    return model.columns.stream().map(c -> c.name).toList();
  }

  Step insertValues() {
    int n = 1 + rnd.nextInt(8);
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(row());
    }
    return new Step.InsertValues(label(), names(), types(), rows, chance(0.5));
  }

  Step batch() {
    int n = 1 + rnd.nextInt(60);
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(row());
    }
    return new Step.Batch(label(), names(), types(), rows);
  }

  /** INSERT INTO t (cols) SELECT cols FROM t [FOR VERSION AS OF v] WHERE p. */
  Step insertSelect(Runner r) {
    QueryGenerator.Source s = queries.source(r, true, null);
    List<String> target = new ArrayList<>();
    List<Expr> items = new ArrayList<>();
    for (TableModel.Column c : model.columns) {
      for (Ref ref : s.cols()) {
        if (ref.name().equals(c.name) && (ref.type().equals(c.type) || c.type.widens(ref.type()))) {
          target.add(c.name);
          items.add(ref.col(null));
        }
      }
    }
    for (TableModel.Column c : model.columns) {
      if (c.required && !target.contains(c.name)) {
        return insertValues();
      }
    }
    if (target.isEmpty()) {
      return insertValues();
    }
    Ast.Select q =
        Ast.Select.of(items, s.ref(), chance(0.7) ? queries.predicate(s.cols(), null, true) : null);
    String columns = String.join(", ", target);
    return new Step.Rendered(
        label(),
        render -> "INSERT INTO " + TableModel.TABLE + " (" + columns + ") " + q.sql(render),
        true);
  }

  /** A predicate that often covers whole partitions or files. */
  private Expr deletePredicate() {
    List<Ref> cols = queries.current();
    if (!model.partitioning.isEmpty() && chance(0.5)) {
      List<TableModel.Column> identity = model.identityPartitionColumns();
      TableModel.PartitionField f = pick(model.partitioning);
      TableModel.Column c = model.hasColumn(f.columnId()) ? model.column(f.columnId()) : null;
      if (c != null && !identity.isEmpty() && chance(0.6)) {
        c = pick(identity);
      }
      if (c != null) {
        Ref ref = new Ref(c.name, c.type, c.seen, c.required);
        switch (rnd.nextInt(4)) {
          case 0:
            return new Ast.IsNull(ref.col(null), false);
          case 1:
            return new Ast.In(
                ref.col(null), List.of(queries.literal(ref), queries.literal(ref)), false);
          default:
            return new Ast.Cmp(
                c.type.orderedAlike() ? pick(List.of("=", "=", "<", ">=")) : "=",
                ref.col(null),
                queries.literal(ref));
        }
      }
    }
    return queries.predicate(cols, null, true);
  }

  Step delete() {
    if (chance(0.05)) {
      return new Step.Sql(
          label(), "DELETE FROM " + TableModel.TABLE, "DELETE FROM " + TableModel.TABLE, true);
    }
    Expr p = deletePredicate();
    return new Step.Sql(
        label(),
        "DELETE FROM " + TableModel.TABLE + " WHERE " + p.sql(Render.FLOE),
        "DELETE FROM " + TableModel.TABLE + " WHERE " + p.sql(Render.DUCK),
        true);
  }

  /**
   * A value to assign to a column: a literal, NULL, another column or an expression of its type.
   */
  private Expr assignment(TableModel.Column c, List<Ref> cols) {
    Ref ref = new Ref(c.name, c.type, c.seen, c.required);
    int choice = rnd.nextInt(6);
    if (choice == 0 && !c.required) {
      return new Ast.TypedLit(null, c.type);
    }
    if (choice == 1) {
      for (Ref other : cols) {
        if (other.type().equals(c.type)
            && !other.name().equals(c.name)
            && !other.required() == !c.required) {
          return other.col(null);
        }
      }
    }
    if (choice == 2) {
      switch (c.type.kind()) {
        case INT:
          return new Ast.Template("(%1 + 1)", "(%1 + 1)", List.of(ref.col(null)), c.type);
        case VARCHAR:
          return new Ast.Template("(%1 || 'u')", "(%1 || 'u')", List.of(ref.col(null)), c.type);
        case DECIMAL:
          return new Ast.Cast(new Ast.Func("ABS", "abs", List.of(ref.col(null)), c.type), c.type);
        default:
          break;
      }
    }
    Object v = Values.random(rnd, c.type, 0);
    model.saw(c, v, rnd);
    return new Ast.TypedLit(v, c.type);
  }

  Step update() {
    List<Ref> cols = queries.current();
    List<String> sets = new ArrayList<>();
    List<String> duckSets = new ArrayList<>();
    Set<String> done = new HashSet<>();
    int n = 1 + rnd.nextInt(2);
    for (int i = 0; i < n; i++) {
      TableModel.Column c = pick(model.columns);
      if (!done.add(c.name)) {
        continue;
      }
      Expr e = assignment(c, cols);
      sets.add(c.name + " = " + e.sql(Render.FLOE));
      duckSets.add(c.name + " = " + e.sql(Render.DUCK));
    }
    Expr p =
        chance(0.9)
            ? (chance(0.3) ? deletePredicate() : queries.predicate(cols, null, true))
            : null;
    String where = p == null ? "" : " WHERE ";
    return new Step.Sql(
        label(),
        "UPDATE "
            + TableModel.TABLE
            + " SET "
            + String.join(", ", sets)
            + where
            + (p == null ? "" : p.sql(Render.FLOE)),
        "UPDATE "
            + TableModel.TABLE
            + " SET "
            + String.join(", ", duckSets)
            + where
            + (p == null ? "" : p.sql(Render.DUCK)),
        true);
  }

  /**
   * MERGE from literal rows whose keys are distinct (so no target row matches twice), with one to
   * four clauses of every kind.
   */
  Step merge() {
    List<TableModel.Column> keys = new ArrayList<>();
    for (TableModel.Column c : model.columns) {
      if (!c.type.isFloatingPoint()) {
        keys.add(c);
      }
    }
    if (keys.isEmpty()) {
      return insertValues();
    }
    TableModel.Column key = pick(keys);
    // Source columns: o0 the key, then one per target column.
    List<ColumnType> types = new ArrayList<>();
    types.add(key.type);
    types.addAll(types());
    Set<Object> usedKeys = new HashSet<>();
    List<List<Object>> rows = new ArrayList<>();
    int n = 1 + rnd.nextInt(6);
    for (int i = 0; i < n; i++) {
      Object k = model.someValue(key, rnd);
      if (k == null || !usedKeys.add(Values.canonical(k, key.type))) {
        continue;
      }
      List<Object> row = new ArrayList<>();
      row.add(k);
      row.addAll(row());
      rows.add(row);
    }
    if (rows.isEmpty()) {
      return insertValues();
    }
    Ast.ValuesQuery source = new Ast.ValuesQuery(types, rows);
    // DuckDB accepts one unconditional clause of each kind; a later clause of that kind could
    // never apply anyway.
    List<String[]> clauses = new ArrayList<>();
    Set<String> unconditional = new HashSet<>();
    int m = 1 + rnd.nextInt(4);
    for (int i = 0; i < m; i++) {
      String[] clause = clause(key, types);
      String kind =
          clause[0].startsWith("WHEN NOT MATCHED BY SOURCE")
              ? "source"
              : clause[0].startsWith("WHEN NOT MATCHED") ? "target" : "matched";
      if (unconditional.contains(kind)) {
        continue;
      }
      if (!clause[0].contains(" AND ")) {
        unconditional.add(kind);
      }
      clauses.add(clause);
    }
    String floe = mergeSql(source, key, clauses, Render.FLOE, 0);
    String duck = mergeSql(source, key, clauses, Render.DUCK, 1);
    return new Step.Sql(label(), floe, duck, true);
  }

  private String mergeSql(
      Ast.ValuesQuery source,
      TableModel.Column key,
      List<String[]> clauses,
      Ast.Render r,
      int side) {
    StringBuilder s =
        new StringBuilder("MERGE INTO " + TableModel.TABLE + " AS tg USING (")
            .append(source.sql(r))
            .append(") AS s ON tg.")
            .append(key.name)
            .append(" = s.o0");
    for (String[] clause : clauses) {
      s.append(' ').append(clause[side]);
    }
    return s.toString();
  }

  /** One WHEN clause, written for Floe and DuckDB. */
  private String[] clause(TableModel.Column key, List<ColumnType> sourceTypes) {
    List<Ref> target = new ArrayList<>();
    for (TableModel.Column c : model.columns) {
      target.add(new Ref(c.name, c.type, c.seen, c.required));
    }
    switch (rnd.nextInt(5)) {
      case 0:
      case 1:
        {
          String[] cond = condition(target, "tg");
          String[] set = setFromSource();
          return new String[] {
            "WHEN MATCHED" + cond[0] + " THEN UPDATE SET " + set[0],
            "WHEN MATCHED" + cond[1] + " THEN UPDATE SET " + set[1]
          };
        }
      case 2:
        {
          String[] cond = condition(target, "tg");
          return new String[] {
            "WHEN MATCHED" + cond[0] + " THEN DELETE", "WHEN MATCHED" + cond[1] + " THEN DELETE"
          };
        }
      case 3:
        {
          List<String> columns = new ArrayList<>();
          List<String> values = new ArrayList<>();
          for (int i = 0; i < model.columns.size(); i++) {
            TableModel.Column c = model.columns.get(i);
            if (c == key) {
              columns.add(c.name);
              values.add("s.o0");
            } else if (c.required || chance(0.7)) {
              columns.add(c.name);
              values.add("s.o" + (i + 1));
            }
          }
          List<Ref> source = new ArrayList<>();
          for (int i = 0; i < sourceTypes.size(); i++) {
            source.add(
                new Ref(
                    "o" + i,
                    sourceTypes.get(i),
                    i == 0 ? key.seen : model.columns.get(i - 1).seen,
                    false));
          }
          String[] cond = condition(source, "s");
          String insert =
              " THEN INSERT ("
                  + String.join(", ", columns)
                  + ") VALUES ("
                  + String.join(", ", values)
                  + ")";
          return new String[] {
            "WHEN NOT MATCHED" + cond[0] + insert, "WHEN NOT MATCHED" + cond[1] + insert
          };
        }
      default:
        {
          String[] cond = condition(target, "tg");
          if (rnd.nextBoolean()) {
            return new String[] {
              "WHEN NOT MATCHED BY SOURCE" + cond[0] + " THEN DELETE",
              "WHEN NOT MATCHED BY SOURCE" + cond[1] + " THEN DELETE"
            };
          }
          TableModel.Column c = pick(model.columns);
          Expr v = assignment(c, List.of());
          return new String[] {
            "WHEN NOT MATCHED BY SOURCE"
                + cond[0]
                + " THEN UPDATE SET "
                + c.name
                + " = "
                + v.sql(Render.FLOE),
            "WHEN NOT MATCHED BY SOURCE"
                + cond[1]
                + " THEN UPDATE SET "
                + c.name
                + " = "
                + v.sql(Render.DUCK)
          };
        }
    }
  }

  private String[] condition(List<Ref> target, String qualifier) {
    if (chance(0.5)) {
      return new String[] {"", ""};
    }
    Expr p = queries.predicate(target, qualifier, true);
    return new String[] {" AND " + p.sql(Render.FLOE), " AND " + p.sql(Render.DUCK)};
  }

  /** {@code col = s.o<i>, ...}: target columns from the source's value of the same column. */
  private String[] setFromSource() {
    List<String> sets = new ArrayList<>();
    int n = 1 + rnd.nextInt(2);
    Set<String> done = new HashSet<>();
    for (int i = 0; i < n; i++) {
      int j = rnd.nextInt(model.columns.size());
      TableModel.Column c = model.columns.get(j);
      if (done.add(c.name)) {
        sets.add(c.name + " = s.o" + (j + 1));
      }
    }
    String set = String.join(", ", sets);
    return new String[] {set, set};
  }

  /** INSERT OVERWRITE, static or dynamic; null once the partition spec has evolved. */
  Step overwrite(Runner r) {
    if (model.specEvolved) {
      return null;
    }
    List<TableModel.Column> identity = model.identityPartitionColumns();
    List<String> staticColumns = new ArrayList<>();
    List<Expr> staticValues = new ArrayList<>();
    if (!identity.isEmpty() && chance(0.5)) {
      for (TableModel.Column c : identity) {
        Object v = model.someValue(c, rnd);
        if (v == null) {
          v = Values.random(rnd, c.type, 0);
        }
        staticColumns.add(c.name);
        staticValues.add(new Ast.Lit(v, c.type));
      }
    }
    List<String> columns = new ArrayList<>();
    List<ColumnType> types = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < model.columns.size(); i++) {
      TableModel.Column c = model.columns.get(i);
      if (!staticColumns.contains(c.name)) {
        columns.add(c.name);
        types.add(c.type);
        positions.add(i);
      }
    }
    Ast.Query query;
    if (chance(0.5)) {
      List<List<Object>> rows = new ArrayList<>();
      int n = rnd.nextInt(6);
      for (int i = 0; i < n; i++) {
        List<Object> full = row();
        List<Object> row = new ArrayList<>();
        positions.forEach(p -> row.add(full.get(p)));
        rows.add(row);
      }
      if (rows.isEmpty()) {
        // VALUES needs a row: select none from the table instead.
        List<Expr> items = new ArrayList<>();
        for (String c : columns) {
          items.add(new Ast.Col(null, c, model.columns.get(names().indexOf(c)).type));
        }
        query =
            Ast.Select.of(
                items,
                new Ast.TableRef(TableModel.TABLE, null, null),
                new Ast.Lit(false, ColumnType.BOOLEAN));
      } else {
        query = new Ast.ValuesQuery(types, rows);
      }
    } else {
      List<Expr> items = new ArrayList<>();
      for (String c : columns) {
        items.add(new Ast.Col(null, c, model.columns.get(names().indexOf(c)).type));
      }
      query =
          Ast.Select.of(
              items,
              new Ast.TableRef(TableModel.TABLE, null, null),
              queries.predicate(queries.current(), null, true));
    }
    return new Step.Overwrite(label(), query, columns, staticColumns, staticValues);
  }

  /** Two to four statements in one transaction, reads of its own writes, commit or rollback. */
  Step transaction(Runner r, long rows) {
    List<Step> inner = new ArrayList<>();
    int n = 2 + rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      switch (rnd.nextInt(8)) {
        case 0:
        case 1:
          inner.add(insertValues());
          break;
        case 2:
          inner.add(batch());
          break;
        case 3:
          inner.add(delete());
          break;
        case 4:
          inner.add(update());
          break;
        case 5:
          inner.add(merge());
          break;
        case 6:
          if (rows < 300) {
            inner.add(insertSelect(r));
            break;
          }
          inner.add(batch());
          break;
        default:
          {
            Step s = overwrite(r);
            inner.add(s == null ? insertValues() : s);
          }
      }
    }
    List<Ast.Query> probes = new ArrayList<>();
    int p = rnd.nextInt(3);
    for (int i = 0; i < p; i++) {
      QueryGenerator.Source s =
          new QueryGenerator.Source(
              new Ast.TableRef(TableModel.TABLE, null, null), queries.current());
      probes.add(
          rnd.nextBoolean() ? queries.plain(s, true) : queries.grouped(s, true, rnd.nextBoolean()));
    }
    return new Step.Transaction(label(), inner, probes, chance(0.75));
  }

  Step optimize(Runner r) {
    String args = "";
    if (chance(0.3)) {
      args = "(file_size_threshold => '" + pick(List.of("1kB", "10kB", "1MB", "100MB")) + "')";
    }
    List<TableModel.Column> identity = model.identityPartitionColumns();
    if (!identity.isEmpty() && !model.specEvolved && chance(0.3)) {
      TableModel.Column c = pick(identity);
      Object v = model.someValue(c, rnd);
      if (v != null) {
        args += " WHERE " + c.name + " = " + Values.literal(v, c.type, Dialect.FLOE);
      }
    }
    return new Step.Optimize(label(), args);
  }

  /** ADD, DROP, RENAME or widen a column; null when none applies. */
  Step schemaChange() {
    switch (rnd.nextInt(4)) {
      case 0:
        {
          ColumnType type = model.randomType(rnd);
          TableModel.Column c = model.addColumn(type, false);
          return new Step.Sql(
              label(),
              "ALTER TABLE " + TableModel.TABLE + " ADD COLUMN " + c.name + " " + type.floeDdl(),
              "ALTER TABLE " + TableModel.TABLE + " ADD COLUMN " + c.name + " " + type.duckDdl(),
              false);
        }
      case 1:
        {
          List<TableModel.Column> droppable = new ArrayList<>();
          for (TableModel.Column c : model.columns) {
            if (!c.partitionSource) {
              droppable.add(c);
            }
          }
          if (droppable.isEmpty() || model.columns.size() <= 2) {
            return null;
          }
          TableModel.Column c = pick(droppable);
          model.columns.remove(c);
          String sql = "ALTER TABLE " + TableModel.TABLE + " DROP COLUMN " + c.name;
          return new Step.Sql(label(), sql, sql, false);
        }
      case 2:
        {
          TableModel.Column c = pick(model.columns);
          String old = c.name;
          c.name = model.freshName();
          String sql =
              "ALTER TABLE " + TableModel.TABLE + " RENAME COLUMN " + old + " TO " + c.name;
          return new Step.Sql(label(), sql, sql, false);
        }
      default:
        {
          for (TableModel.Column c : model.columns) {
            ColumnType wider = wider(c.type);
            if (wider != null && chance(0.5)) {
              c.type = wider;
              List<Object> converted = new ArrayList<>();
              for (Object v : c.seen) {
                converted.add(widen(v, wider));
              }
              c.seen.clear();
              c.seen.addAll(converted);
              return new Step.Sql(
                  label(),
                  "ALTER TABLE "
                      + TableModel.TABLE
                      + " ALTER COLUMN "
                      + c.name
                      + " SET DATA TYPE "
                      + wider.floeDdl(),
                  "ALTER TABLE "
                      + TableModel.TABLE
                      + " ALTER COLUMN "
                      + c.name
                      + " SET DATA TYPE "
                      + wider.duckDdl(),
                  false);
            }
          }
          return null;
        }
    }
  }

  private static ColumnType wider(ColumnType t) {
    switch (t.kind()) {
      case INT:
        return ColumnType.BIGINT;
      case REAL:
        return ColumnType.DOUBLE;
      case DECIMAL:
        return t.precision() < 38 ? ColumnType.decimal(t.precision() + 1, t.scale()) : null;
      default:
        return null;
    }
  }

  private static Object widen(Object v, ColumnType to) {
    switch (to.kind()) {
      case BIGINT:
        return ((Number) v).longValue();
      case DOUBLE:
        return ((Number) v).doubleValue();
      default:
        return (BigDecimal) v;
    }
  }

  /** Adds or removes a partition field through Iceberg's API; null when none applies. */
  Step partitionChange(Runner r) {
    PartitionSpec spec = r.iceberg().spec();
    if (!spec.fields().isEmpty() && chance(0.4)) {
      PartitionField f = pick(spec.fields());
      model.specEvolved = true;
      model.partitioning.removeIf(p -> true);
      return new Step.EvolvePartition(label(), false, null, 0, null, f.name());
    }
    TableModel.Column c = pick(model.columns);
    List<String> transforms = TableModel.transforms(c.type);
    if (c.type.isFloatingPoint()) {
      return null;
    }
    String t = pick(transforms);
    for (PartitionField f : spec.fields()) {
      if (r.iceberg().schema().findColumnName(f.sourceId()).equals(c.name)) {
        return null; // one field per source column keeps Iceberg from refusing redundant ones
      }
    }
    int param =
        t.equals("bucket") ? 1 + rnd.nextInt(4) : t.equals("truncate") ? 1 + rnd.nextInt(3) : 0;
    model.specEvolved = true;
    c.partitionSource = true;
    model.partitioning.removeIf(p -> true);
    return new Step.EvolvePartition(label(), true, t, param, c.name, "p_" + count + "_" + c.name);
  }

  /** Writes expressions for one dialect, outside any history's versions. */
  private enum Render implements Ast.Render {
    FLOE(Dialect.FLOE),
    DUCK(Dialect.DUCK);

    private final Dialect dialect;

    Render(Dialect dialect) {
      this.dialect = dialect;
    }

    @Override
    public Dialect dialect() {
      return dialect;
    }

    @Override
    public String snapshotOf(Step step) {
      throw new IllegalStateException("A statement written ahead names no version");
    }

    @Override
    public String copyOf(Step step) {
      throw new IllegalStateException("A statement written ahead names no version");
    }
  }
}
