package dev.floe.planner.parser.ddl;

import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code DROP VIEW [IF EXISTS] name}. */
public final class SqlDropLakeView extends FloeStatementNode {
  public final SqlIdentifier name;
  public final boolean ifExists;

  public SqlDropLakeView(SqlParserPos pos, SqlIdentifier name, boolean ifExists) {
    super("DROP VIEW", SqlKind.DROP_VIEW, pos);
    this.name = name;
    this.ifExists = ifExists;
  }

  @Override
  protected List<SqlNode> parts() {
    return List.of(name);
  }
}
