package dev.floe.planner.parser.ddl;

import dev.floe.planner.parser.FloeStatementNode;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.iceberg.types.Type;

/**
 * {@code ALTER TABLE name} with one column action: {@code ADD [COLUMN] def}, {@code DROP [COLUMN]
 * c}, {@code RENAME COLUMN c TO d}, {@code ALTER [COLUMN] c [SET DATA] TYPE type}.
 */
public final class SqlAlterLakeTable extends FloeStatementNode {
  /** The column action. */
  public enum Action {
    ADD_COLUMN,
    DROP_COLUMN,
    RENAME_COLUMN,
    ALTER_COLUMN_TYPE
  }

  public final SqlIdentifier name;
  public final Action action;
  /** The new column, for ADD COLUMN. */
  public final ColumnDef column;
  /** The column acted on, for DROP, RENAME and ALTER COLUMN. */
  public final SqlIdentifier target;
  /** The new name, for RENAME COLUMN. */
  public final SqlIdentifier newName;
  /** The new type, for ALTER COLUMN. */
  public final Type type;

  public SqlAlterLakeTable(
      SqlParserPos pos,
      SqlIdentifier name,
      Action action,
      ColumnDef column,
      SqlIdentifier target,
      SqlIdentifier newName,
      Type type) {
    super("ALTER TABLE", SqlKind.ALTER_TABLE, pos);
    this.name = name;
    this.action = action;
    this.column = column;
    this.target = target;
    this.newName = newName;
    this.type = type;
  }

  @Override
  protected List<SqlNode> parts() {
    return Arrays.asList(name, column == null ? null : column.name(), target, newName);
  }
}
