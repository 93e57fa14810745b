package dev.floe.command.dml;

import dev.floe.command.CommandContext;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.session.PinnedTable;
import dev.floe.planner.write.LakeWrites;
import dev.floe.planner.write.WritePlan;
import dev.floe.txn.FloeSession;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

/**
 * The batch path of {@code INSERT INTO t [(columns)] VALUES (?, ?, ...)}: an ETL batch of any size
 * becomes one write of data files and one staged change, instead of one statement per row. Values
 * are assigned with the same rules as any INSERT.
 */
public final class FastInsert {
  private final List<String> tablePath;
  private final List<TableNames.Part> columns;

  private FastInsert(List<String> tablePath, List<TableNames.Part> columns) {
    this.tablePath = tablePath;
    this.columns = columns;
  }

  /** The fast path for a statement, or null when it is not a plain parameterized INSERT. */
  public static FastInsert analyze(CommandContext connection, String sql) throws SQLException {
    SqlNode node;
    try {
      node =
          SqlParser.create(
                  sql,
                  SqlParser.config()
                      .withQuoting(Quoting.DOUBLE_QUOTE)
                      .withUnquotedCasing(Casing.UNCHANGED)
                      .withQuotedCasing(Casing.UNCHANGED)
                      .withCaseSensitive(false)
                      .withConformance(SqlConformanceEnum.LENIENT))
              .parseStmt();
    } catch (SqlParseException e) {
      return null;
    }
    if (!(node instanceof SqlInsert)) {
      return null;
    }
    SqlInsert insert = (SqlInsert) node;
    if (!(insert.getTargetTable() instanceof SqlIdentifier)
        || insert.getSource().getKind() != SqlKind.VALUES) {
      return null;
    }
    List<SqlNode> rows = ((SqlBasicCall) insert.getSource()).getOperandList();
    if (rows.size() != 1 || rows.get(0).getKind() != SqlKind.ROW) {
      return null;
    }
    List<SqlNode> values = ((SqlBasicCall) rows.get(0)).getOperandList();
    for (int i = 0; i < values.size(); i++) {
      if (!(values.get(i) instanceof SqlDynamicParam)
          || ((SqlDynamicParam) values.get(i)).getIndex() != i) {
        return null;
      }
    }
    List<String> path = resolve(connection, (SqlIdentifier) insert.getTargetTable());
    if (path == null) {
      return null;
    }
    List<TableNames.Part> columns = new ArrayList<>();
    SqlNodeList targets = insert.getTargetColumnList();
    if (targets != null) {
      for (SqlNode target : targets) {
        columns.add(SqlNames.part((SqlIdentifier) target));
      }
    }
    if (targets != null && columns.size() != values.size()) {
      return null;
    }
    return new FastInsert(path, columns);
  }

  /** Writes every batch row as one change; returns the row count. */
  public long run(FloeSession session, List<Object[]> batch) {
    Prepared prepared = prepare(session);
    return LakeWrites.run(prepared.plan(), prepared.rows(batch));
  }

  /**
   * Adds every batch row to the files the transaction keeps open for the table, to be staged as one
   * change when the transaction next needs the table; returns the row count.
   */
  public long append(FloeSession session, List<Object[]> batch) {
    Prepared prepared = prepare(session);
    return session.append(prepared.plan(), prepared.rows(batch));
  }

  /** The write of the table as the session sees it, and where each parameter goes in a row. */
  private record Prepared(WritePlan plan, int[] positions, int width) {
    /**
     * The batch rows in table column order (columns left out stay null), all in one array filled
     * again for each row: the writer assigns its values before it asks for the next row.
     */
    Iterator<Object[]> rows(List<Object[]> batch) {
      Object[] row = new Object[width];
      return new Iterator<>() {
        private int next;

        @Override
        public boolean hasNext() {
          return next < batch.size();
        }

        @Override
        public Object[] next() {
          Object[] params = batch.get(next++);
          for (int i = 0; i < positions.length; i++) {
            row[positions[i]] = params[i];
          }
          return row;
        }
      };
    }
  }

  private Prepared prepare(FloeSession session) {
    PinnedTable pinned = session.pin(tablePath);
    List<Types.NestedField> fields = pinned.table().schema().columns();
    int[] positions = new int[columns.isEmpty() ? fields.size() : columns.size()];
    if (columns.isEmpty()) {
      for (int i = 0; i < positions.length; i++) {
        positions[i] = i;
      }
    } else {
      List<String> names = ColumnNames.names(fields);
      for (int i = 0; i < positions.length; i++) {
        positions[i] = ColumnNames.indexOf(names, columns.get(i), pinned.name());
      }
    }
    List<WritePlan.SourceType> sources = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      sources.add(WritePlan.SourceType.JDBC);
    }
    WritePlan plan =
        new WritePlan(
            session,
            tablePath,
            TableModify.Operation.INSERT,
            sources,
            List.of(),
            Expressions.alwaysTrue());
    return new Prepared(plan, positions, fields.size());
  }

  /** The folder path a table name resolves to, through the one resolver; null if none. */
  private static List<String> resolve(CommandContext connection, SqlIdentifier name)
      throws SQLException {
    return new TableNames(connection.session().catalog())
        .table(connection.schemaPath(), SqlNames.parts(name));
  }
}
