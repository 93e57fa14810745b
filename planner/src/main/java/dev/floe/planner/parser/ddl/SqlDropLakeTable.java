package dev.floe.planner.parser.ddl;

import dev.floe.planner.parser.FloeStatementNode;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code DROP TABLE [IF EXISTS] name [PURGE]}. */
public final class SqlDropLakeTable extends FloeStatementNode {
  public final SqlIdentifier name;
  public final boolean ifExists;
  public final boolean purge;

  public SqlDropLakeTable(SqlParserPos pos, SqlIdentifier name, boolean ifExists, boolean purge) {
    super("DROP TABLE", SqlKind.DROP_TABLE, pos);
    this.name = name;
    this.ifExists = ifExists;
    this.purge = purge;
  }

  @Override
  protected List<SqlNode> parts() {
    return List.of(name);
  }
}
