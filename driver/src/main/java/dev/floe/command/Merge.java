package dev.floe.command;

import dev.floe.error.FloeError;
import dev.floe.planner.parser.stmt.SqlMergeInto;
import dev.floe.planner.parser.stmt.SqlMergeInto.Action;
import dev.floe.planner.parser.stmt.SqlMergeInto.Match;
import dev.floe.planner.spi.PinnedTable;
import dev.floe.planner.write.LakeWrites;
import dev.floe.planner.write.WritePlan;
import dev.floe.txn.FloeSession;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
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
    List<String> path = etl.tablePath(target);
    String name = String.join(".", path);
    FloeSession session = etl.connection().session();
    session.checkWritable(path);
    PinnedTable pinned = session.pin(path);
    Table table = pinned.table();
    List<Types.NestedField> columns = table.schema().columns();
    String query = query(table, name);
    boolean hasMatched = clauses.stream().anyMatch(c -> c.match() == Match.MATCHED);
    try (Statement statement = etl.connection().calciteStatement();
        ResultSet rs = statement.executeQuery(query)) {
      ResultSetMetaData meta = rs.getMetaData();
      List<WritePlan.SourceType> types = new ArrayList<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        types.add(
            new WritePlan.SourceType(typeName(meta, i), meta.getPrecision(i), meta.getScale(i)));
      }
      WritePlan plan =
          new WritePlan(
              session,
              path,
              TableModify.Operation.MERGE,
              List.copyOf(types),
              List.of(),
              Expressions.alwaysTrue());
      return LakeWrites.run(plan, new MergeRows(rs, types, columns.size(), hasMatched, name));
    } catch (IllegalStateException e) {
      if (e.getCause() instanceof SQLException) {
        throw (SQLException) e.getCause();
      }
      throw e;
    }
  }

  /** The join of target and source, one output row per joined row a clause applies to. */
  private String query(Table table, String name) {
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
      StringBuilder value = new StringBuilder("CASE");
      for (int i = 0; i < clauses.size(); i++) {
        value
            .append(" WHEN ")
            .append(conditions.get(i))
            .append(" THEN ")
            .append(value(clauses.get(i), column, columns, t, s, name));
      }
      select.add(value.append(" END AS ").append(quote(column.name())).toString());
    }
    StringBuilder action = new StringBuilder("CASE");
    for (int i = 0; i < clauses.size(); i++) {
      action
          .append(" WHEN ")
          .append(conditions.get(i))
          .append(" THEN ")
          .append(code(clauses.get(i)));
    }
    select.add(action.append(" ELSE 0 END").toString());
    select.add(t + ".\"_file\"");
    select.add(t + ".\"_pos\"");
    select.add("CASE WHEN " + matched + " THEN 1 ELSE 0 END");
    String join = byTarget && bySource ? "FULL" : byTarget ? "RIGHT" : bySource ? "LEFT" : "INNER";
    List<String> where = new ArrayList<>(conditions);
    if (clauses.stream().anyMatch(c -> c.match() == Match.MATCHED)) {
      where.add("(" + matched + ")");
    }
    return "SELECT "
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

  /** What a clause writes into a column. */
  private static String value(
      Clause clause,
      Types.NestedField column,
      List<Types.NestedField> columns,
      String t,
      String s,
      String name) {
    String own = t + "." + quote(column.name());
    switch (clause.action()) {
      case DELETE:
        return own;
      case UPDATE_ALL:
      case INSERT_ALL:
        return s + "." + quote(column.name());
      case UPDATE:
        {
          String found = null;
          for (int i = 0; i < clause.columns().size(); i++) {
            SqlIdentifier target = (SqlIdentifier) clause.columns().get(i);
            String written = target.names.get(target.names.size() - 1);
            if (column(columns, written, target.isComponentQuoted(target.names.size() - 1), name)
                == column) {
              if (found != null) {
                throw FloeError.VALIDATION.error(
                    "Cannot merge into " + name + ": column " + column.name() + " is set twice");
              }
              found = "(" + sql(clause.values().get(i)) + ")";
            }
          }
          return found == null ? own : found;
        }
      default:
        {
          SqlNodeList values = clause.values();
          if (clause.columns() == null) {
            if (values.size() != columns.size()) {
              throw FloeError.VALUE_COUNT.error(
                  name,
                  "the table has " + columns.size() + " columns, INSERT VALUES " + values.size());
            }
            return "(" + sql(values.get(columns.indexOf(column))) + ")";
          }
          if (clause.columns().size() != values.size()) {
            throw FloeError.VALUE_COUNT.error(
                name,
                "INSERT names "
                    + clause.columns().size()
                    + " columns and gives "
                    + values.size()
                    + " values");
          }
          String found = null;
          for (int i = 0; i < clause.columns().size(); i++) {
            SqlIdentifier target = (SqlIdentifier) clause.columns().get(i);
            if (column(columns, target.getSimple(), target.isComponentQuoted(0), name) == column) {
              found = "(" + sql(values.get(i)) + ")";
            }
          }
          // a column the INSERT does not name is NULL: the target side of an unmatched row is.
          return found == null ? own : found;
        }
    }
  }

  /** A column named in a clause: exactly when quoted, ignoring case otherwise. */
  private static Types.NestedField column(
      List<Types.NestedField> columns, String written, boolean quoted, String name) {
    for (Types.NestedField column : columns) {
      if (quoted ? column.name().equals(written) : column.name().equalsIgnoreCase(written)) {
        return column;
      }
    }
    throw FloeError.COLUMN_NOT_FOUND.error(written + " in " + name);
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

  private static String typeName(ResultSetMetaData meta, int column) throws SQLException {
    String name = meta.getColumnTypeName(column);
    int paren = name.indexOf('(');
    return (paren < 0 ? name : name.substring(0, paren)).trim().toUpperCase(Locale.ROOT);
  }

  /**
   * The joined rows a clause applies to, in the DML runtime's MERGE layout (the new row's values,
   * the action, the target row's file and position), checking that no target row is matched twice.
   */
  private static final class MergeRows implements Iterator<Object[]> {
    private final ResultSet rs;
    private final List<WritePlan.SourceType> types;
    private final int columns;
    private final boolean checkCardinality;
    private final String name;
    private final Set<String> matched = new HashSet<>();
    private Object[] next;

    MergeRows(
        ResultSet rs,
        List<WritePlan.SourceType> types,
        int columns,
        boolean checkCardinality,
        String name) {
      this.rs = rs;
      this.types = types;
      this.columns = columns;
      this.checkCardinality = checkCardinality;
      this.name = name;
    }

    @Override
    public boolean hasNext() {
      try {
        while (next == null && rs.next()) {
          Object[] row = new Object[columns + 3];
          for (int i = 0; i < columns; i++) {
            String type = types.get(i).typeName();
            Object value;
            // Calcite's runtime holds a DATE as an int of days, a TIME of at most millisecond
            // precision as an int of milliseconds, and a finer TIME and every TIMESTAMP as a long
            // (micro- or nanoseconds): read the number as it is held, never narrowed.
            if (type.equals("DATE") || (type.equals("TIME") && types.get(i).precision() <= 3)) {
              value = rs.getInt(i + 1);
            } else if (type.startsWith("TIMESTAMP") || type.equals("TIME")) {
              value = rs.getLong(i + 1);
            } else {
              value = rs.getObject(i + 1);
            }
            row[i] = rs.wasNull() ? null : value;
          }
          int action = rs.getInt(columns + 1);
          String file = rs.getString(columns + 2);
          long pos = rs.getLong(columns + 3);
          boolean isMatched = rs.getInt(columns + 4) == 1;
          if (checkCardinality && isMatched && !matched.add(file + "#" + pos)) {
            throw FloeError.CARDINALITY.error(
                "merge into " + name,
                "the target row at position "
                    + pos
                    + " of data file "
                    + file
                    + " is matched by more than one source row");
          }
          if (action == 0) {
            continue;
          }
          row[columns] = action;
          row[columns + 1] = file;
          row[columns + 2] = file == null ? null : pos;
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
