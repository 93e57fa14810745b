package dev.floe.command.dml;

import dev.floe.command.QueryRows;
import dev.floe.error.FloeError;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.parser.stmt.SqlMergeInto;
import dev.floe.planner.parser.stmt.SqlMergeInto.Action;
import dev.floe.planner.parser.stmt.SqlMergeInto.Match;
import dev.floe.planner.session.PinnedTable;
import dev.floe.planner.write.LakeWrites;
import dev.floe.planner.write.WritePlan;
import dev.floe.txn.FloeSession;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

/**
 * MERGE INTO with Spark's clauses. One query joins the target, read with each row's data file and
 * position ({@code EXTEND ("_file" VARCHAR, "_pos" BIGINT)}, from the snapshot pinned for the
 * statement), to the source, and computes for each joined row the first clause whose condition
 * holds and the row it writes; the rows go to the DML runtime ({@link LakeWrites}), which writes
 * the new rows through the one assignment function and the changed rows' deletes (position deletes,
 * deletion vectors, or rewritten files under {@code write.merge.mode=copy-on-write}) as one change,
 * checked for conflicts in the partitions it touches. A target row matched by more than one source
 * row stops the statement (21000) before anything is committed.
 */
final class Merge {
  private static final String MATCHED_FLAG = "$floe_matched";
  private static final int DELETE = WritePlan.MERGE_DELETE;
  private static final int INSERT = WritePlan.MERGE_INSERT;
  private static final int UPDATE = WritePlan.MERGE_UPDATE;

  /** One WHEN clause. */
  private record Clause(
      Match match, SqlNode condition, Action action, SqlNodeList columns, SqlNodeList values) {}

  private final Etl etl;
  private final SqlIdentifier target;
  private final SqlIdentifier alias;
  private final SqlNode source;
  private final SqlNode condition;
  private final List<Clause> clauses = new ArrayList<>();

  Merge(Etl etl, SqlMergeInto merge) {
    this.etl = etl;
    this.target = merge.target;
    this.alias = merge.alias;
    this.source = merge.source;
    this.condition = merge.condition;
    for (SqlMergeInto.Clause c : merge.clauses) {
      clauses.add(new Clause(c.match(), c.condition(), c.action(), c.columns(), c.values()));
    }
  }

  /** Calcite's own MERGE form: at most one UPDATE and one INSERT clause, no conditions. */
  Merge(Etl etl, SqlMerge merge) {
    this.etl = etl;
    this.target = (SqlIdentifier) merge.getTargetTable();
    this.alias = merge.getAlias();
    this.source = merge.getSourceTableRef();
    this.condition = merge.getCondition();
    SqlUpdate update = merge.getUpdateCall();
    if (update != null) {
      clauses.add(
          new Clause(
              Match.MATCHED,
              null,
              Action.UPDATE,
              update.getTargetColumnList(),
              update.getSourceExpressionList()));
    }
    SqlInsert insert = merge.getInsertCall();
    if (insert != null) {
      SqlNode values = insert.getSource();
      SqlNodeList row;
      if (values.getKind() == SqlKind.VALUES
          && ((SqlCall) values).operandCount() == 1
          && ((SqlCall) values).operand(0) instanceof SqlCall) {
        row =
            new SqlNodeList(
                ((SqlCall) ((SqlCall) values).operand(0)).getOperandList(), SqlParserPos.ZERO);
      } else {
        throw FloeError.NOT_SUPPORTED.error(
            "MERGE ... WHEN NOT MATCHED THEN INSERT with anything but one VALUES row");
      }
      clauses.add(
          new Clause(
              Match.NOT_MATCHED_BY_TARGET, null, Action.INSERT, insert.getTargetColumnList(), row));
    }
  }

  long run() throws SQLException {
    List<String> path = etl.tablePath(target, "merge into");
    String name = String.join(".", path);
    FloeSession session = etl.connection().session();
    session.checkWritable(path);
    PinnedTable pinned = session.pin(path);
    Table table = pinned.table();
    Layout layout = query(table, name);
    boolean hasMatched = clauses.stream().anyMatch(c -> c.match() == Match.MATCHED);
    try (Statement statement = etl.connection().calciteStatement();
        ResultSet rs = statement.executeQuery(layout.sql())) {
      QueryRows rows = etl.connection().queryRows(rs);
      List<WritePlan.SourceType> types = new ArrayList<>();
      for (RelDataTypeField field : rows.rowType().getFieldList()) {
        types.add(WritePlan.SourceType.of(field.getType()));
      }
      // the last field is the matched flag, which only the cardinality check reads
      types.remove(types.size() - 1);
      WritePlan plan =
          new WritePlan(
              session,
              path,
              TableModify.Operation.MERGE,
              List.copyOf(types),
              List.of(),
              Expressions.alwaysTrue(),
              layout.clauses());
      return LakeWrites.run(plan, new MergeRows(rows, types.size() - 3, hasMatched, name));
    } catch (IllegalStateException e) {
      if (e.getCause() instanceof SQLException) {
        throw (SQLException) e.getCause();
      }
      throw e;
    }
  }

  /**
   * The join of target and source as SQL, and what each clause writes. A row of the join holds the
   * target row's own columns, then the value of every expression a clause assigns (each evaluated
   * only for the rows its clause applies to, and of its own SQL type, so each is assigned to its
   * column as an INSERT or UPDATE assigns it), then the index of the clause that applies (-1:
   * none), the target row's data file and position, and whether the row is a match.
   */
  private record Layout(String sql, List<WritePlan.MergeClause> clauses) {}

  private Layout query(Table table, String name) {
    String targetAlias =
        alias != null ? sql(alias) : identifierPart(target, target.names.size() - 1);
    SqlNode sourceCore = source;
    String sourceAlias;
    String sourceColumns = "";
    if (source.getKind() == SqlKind.AS) {
      SqlCall as = (SqlCall) source;
      sourceCore = as.operand(0);
      sourceAlias = sql(as.operand(1));
      List<String> renamed = new ArrayList<>();
      for (SqlNode column : as.getOperandList().subList(2, as.operandCount())) {
        renamed.add(sql(column));
      }
      if (!renamed.isEmpty()) {
        sourceColumns = " (" + String.join(", ", renamed) + ")";
      }
    } else if (source instanceof SqlIdentifier) {
      SqlIdentifier id = (SqlIdentifier) source;
      sourceAlias = identifierPart(id, id.names.size() - 1);
    } else {
      throw FloeError.VALIDATION.error(
          "Cannot merge into " + name + ": a source query needs an alias (USING (...) AS s)");
    }
    String sourceText = sql(sourceCore);
    if (sourceCore.getKind().belongsTo(SqlKind.QUERY)) {
      sourceText = "(" + sourceText + ")";
    }
    String t = targetAlias;
    String s = sourceAlias;
    String matched =
        t + ".\"_pos\" IS NOT NULL AND " + s + "." + quote(MATCHED_FLAG) + " IS NOT NULL";
    boolean byTarget = false;
    boolean bySource = false;
    List<String> conditions = new ArrayList<>();
    for (Clause clause : clauses) {
      String when;
      switch (clause.match()) {
        case MATCHED:
          when = matched;
          break;
        case NOT_MATCHED_BY_TARGET:
          byTarget = true;
          when = t + ".\"_pos\" IS NULL";
          break;
        default:
          bySource = true;
          when = s + "." + quote(MATCHED_FLAG) + " IS NULL";
          break;
      }
      if (clause.condition() != null) {
        when = "(" + when + ") AND (" + sql(clause.condition()) + ")";
      }
      conditions.add("(" + when + ")");
    }
    List<Types.NestedField> columns = table.schema().columns();
    List<String> select = new ArrayList<>();
    for (Types.NestedField column : columns) {
      select.add(t + "." + quote(column.name()));
    }
    List<WritePlan.MergeClause> written = new ArrayList<>();
    for (int i = 0; i < clauses.size(); i++) {
      Clause clause = clauses.get(i);
      List<Integer> inputs = new ArrayList<>();
      if (clause.action() != Action.DELETE) {
        List<String> values = values(clause, conditions.get(i), columns, s, name);
        for (int j = 0; j < columns.size(); j++) {
          String value = values.get(j);
          if (value == null) {
            inputs.add(clause.action() == Action.UPDATE ? j : -1);
          } else if (value.isEmpty()) {
            inputs.add(-1);
          } else {
            inputs.add(select.size());
            select.add(value);
          }
        }
      }
      written.add(new WritePlan.MergeClause(code(clause), List.copyOf(inputs)));
    }
    StringBuilder action = new StringBuilder("CASE");
    for (int i = 0; i < clauses.size(); i++) {
      action.append(" WHEN ").append(conditions.get(i)).append(" THEN ").append(i);
    }
    select.add(action.append(" ELSE -1 END").toString());
    select.add(t + ".\"_file\"");
    select.add(t + ".\"_pos\"");
    select.add("CASE WHEN " + matched + " THEN 1 ELSE 0 END");
    String join = byTarget && bySource ? "FULL" : byTarget ? "RIGHT" : bySource ? "LEFT" : "INNER";
    List<String> where = new ArrayList<>(conditions);
    if (clauses.stream().anyMatch(c -> c.match() == Match.MATCHED)) {
      where.add("(" + matched + ")");
    }
    String sql =
        "SELECT "
            + String.join(", ", select)
            + " FROM (SELECT * FROM "
            + sql(target)
            + " EXTEND (\"_file\" VARCHAR, \"_pos\" BIGINT)) AS "
            + t
            + " "
            + join
            + " JOIN (SELECT TRUE AS "
            + quote(MATCHED_FLAG)
            + ", \"$floe_source\".* FROM "
            + sourceText
            + " AS \"$floe_source\""
            + sourceColumns
            + ") AS "
            + s
            + " ON "
            + sql(condition)
            + " WHERE "
            + String.join(" OR ", where);
    return new Layout(sql, List.copyOf(written));
  }

  private static int code(Clause clause) {
    switch (clause.action()) {
      case DELETE:
        return DELETE;
      case INSERT:
      case INSERT_ALL:
        return INSERT;
      default:
        return UPDATE;
    }
  }

  /**
   * What an UPDATE or INSERT clause assigns to each table column, as SQL evaluated only where the
   * clause applies ({@code condition}): null for a column it leaves as it was (UPDATE) or does not
   * name (INSERT: NULL), "" for a NULL written as such. A column named twice is refused (42000), as
   * INSERT and UPDATE refuse it.
   */
  private static List<String> values(
      Clause clause, String condition, List<Types.NestedField> columns, String s, String name) {
    List<String> values = new ArrayList<>(java.util.Collections.nCopies(columns.size(), null));
    if (clause.action() == Action.UPDATE_ALL || clause.action() == Action.INSERT_ALL) {
      for (int j = 0; j < columns.size(); j++) {
        values.set(j, s + "." + quote(columns.get(j).name()));
      }
      return values;
    }
    SqlNodeList given = clause.values();
    SqlNodeList named = clause.columns();
    boolean insert = clause.action() == Action.INSERT;
    if (insert && named == null) {
      if (given.size() != columns.size()) {
        throw FloeError.VALUE_COUNT.error(
            name, "the table has " + columns.size() + " columns, INSERT VALUES " + given.size());
      }
      for (int j = 0; j < columns.size(); j++) {
        values.set(j, value(given.get(j), condition));
      }
      return values;
    }
    if (named.size() != given.size()) {
      throw FloeError.VALUE_COUNT.error(
          name,
          (insert ? "INSERT" : "UPDATE SET")
              + " names "
              + named.size()
              + " columns and gives "
              + given.size()
              + " values");
    }
    boolean[] assigned = new boolean[columns.size()];
    for (int i = 0; i < named.size(); i++) {
      Types.NestedField column =
          ColumnNames.field(columns, SqlNames.part((SqlIdentifier) named.get(i)), name);
      int j = columns.indexOf(column);
      if (assigned[j]) {
        throw FloeError.VALIDATION.error(
            "Cannot merge into "
                + name
                + ": column "
                + column.name()
                + " is assigned more than once in one "
                + (insert ? "INSERT" : "UPDATE SET"));
      }
      assigned[j] = true;
      values.set(j, value(given.get(i), condition));
    }
    return values;
  }

  /** An assigned expression as SQL; "" for a bare NULL, which has no type of its own. */
  private static String value(SqlNode node, String condition) {
    if (node instanceof SqlLiteral && ((SqlLiteral) node).getTypeName() == SqlTypeName.NULL) {
      return "";
    }
    return guarded(node, condition);
  }

  /**
   * An assigned expression evaluated only where its clause applies, so that it cannot fail on rows
   * the clause does not write (a CASE), except a column reference, which cannot fail, and a ROW
   * constructor: Calcite's runtime does not compile a CASE of a ROW holding a time or timestamp,
   * and its parser takes no CASE among a ROW's fields.
   */
  private static String guarded(SqlNode node, String condition) {
    if (node instanceof SqlIdentifier || node.getKind() == SqlKind.ROW) {
      return "(" + sql(node) + ")";
    }
    return "(CASE WHEN " + condition + " THEN (" + sql(node) + ") END)";
  }

  private static String identifierPart(SqlIdentifier id, int i) {
    return id.isComponentQuoted(i) ? quote(id.names.get(i)) : id.names.get(i);
  }

  private static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** A parsed node as SQL text: names quoted exactly where they were written quoted. */
  private static String sql(SqlNode node) {
    return node.toSqlString(
            c ->
                c.withDialect(CalciteSqlDialect.DEFAULT)
                    .withQuoteAllIdentifiers(false)
                    .withAlwaysUseParentheses(true))
        .getSql();
  }

  /**
   * The joined rows a clause applies to, in the DML runtime's MERGE layout (the input values, the
   * clause's index, the target row's file and position), checking that no target row is matched
   * twice.
   */
  private static final class MergeRows implements Iterator<Object[]> {
    private final QueryRows rows;
    private final int inputs;
    private final boolean checkCardinality;
    private final String name;
    private final Set<String> matched = new HashSet<>();
    private Object[] next;

    MergeRows(QueryRows rows, int inputs, boolean checkCardinality, String name) {
      this.rows = rows;
      this.inputs = inputs;
      this.checkCardinality = checkCardinality;
      this.name = name;
    }

    @Override
    public boolean hasNext() {
      try {
        while (next == null && rows.next()) {
          int clause = ((Number) rows.value(inputs)).intValue();
          String file = (String) rows.value(inputs + 1);
          Long pos = (Long) rows.value(inputs + 2);
          boolean isMatched = ((Number) rows.value(inputs + 3)).intValue() == 1;
          if (checkCardinality && isMatched && !matched.add(file + "#" + pos)) {
            throw FloeError.CARDINALITY.error(
                "merge into " + name,
                "the target row at position "
                    + pos
                    + " of data file "
                    + file
                    + " is matched by more than one source row");
          }
          if (clause < 0) {
            continue;
          }
          Object[] row = new Object[inputs + 3];
          for (int i = 0; i < inputs; i++) {
            row[i] = rows.value(i);
          }
          row[inputs] = clause;
          row[inputs + 1] = file;
          row[inputs + 2] = file == null ? null : pos;
          next = row;
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      return next != null;
    }

    @Override
    public Object[] next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Object[] row = next;
      next = null;
      return row;
    }
  }
}
