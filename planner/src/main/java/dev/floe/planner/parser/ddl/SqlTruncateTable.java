package dev.floe.planner.parser.ddl;

import dev.floe.planner.parser.FloeStatementNode;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code TRUNCATE TABLE name}. */
public final class SqlTruncateTable extends FloeStatementNode {
  public final SqlIdentifier name;

  public SqlTruncateTable(SqlParserPos pos, SqlIdentifier name) {
    super("TRUNCATE TABLE", SqlKind.TRUNCATE_TABLE, pos);
    this.name = name;
  }

  @Override
  protected List<SqlNode> parts() {
    return List.of(name);
  }
}
