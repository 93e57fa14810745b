package dev.floe.planner.parser.ddl;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/** {@code CREATE [OR REPLACE] VIEW [IF NOT EXISTS] name [(column, ...)] AS query}. */
public final class SqlCreateLakeView extends FloeStatementNode {
  public final SqlIdentifier name;
  public final boolean replace;
  public final boolean ifNotExists;

  /** The column names given after the view's name, or null. */
  public final @Nullable SqlNodeList columns;

  public final SqlNode query;

  /** Where the query's text begins in the statement, so the view keeps it as written. */
  public final SqlParserPos queryStart;

  public SqlCreateLakeView(
      SqlParserPos pos,
      SqlIdentifier name,
      boolean replace,
      boolean ifNotExists,
      @Nullable SqlNodeList columns,
      SqlNode query,
      SqlParserPos queryStart) {
    super("CREATE VIEW", SqlKind.CREATE_VIEW, pos);
    this.name = name;
    this.replace = replace;
    this.ifNotExists = ifNotExists;
    this.columns = columns;
    this.query = query;
    this.queryStart = queryStart;
  }

  @Override
  protected List<SqlNode> parts() {
    List<SqlNode> parts = new ArrayList<>();
    parts.add(name);
    parts.add(columns);
    parts.add(query);
    return parts;
  }
}
