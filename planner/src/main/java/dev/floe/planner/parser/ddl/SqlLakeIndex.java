package dev.floe.planner.parser.ddl;

import dev.floe.planner.parser.FloeStatementNode;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (columns)} or {@code DROP INDEX [IF
 * EXISTS] name [ON table]}: parsed so that the refusal names the statement; Iceberg tables have
 * no indexes.
 */
public final class SqlLakeIndex extends FloeStatementNode {
  public final boolean create;
  public final SqlIdentifier name;
  /** The table, or null for a DROP INDEX without ON. */
  public final SqlIdentifier table;

  public SqlLakeIndex(SqlParserPos pos, boolean create, SqlIdentifier name, SqlIdentifier table) {
    super(create ? "CREATE INDEX" : "DROP INDEX", create ? SqlKind.CREATE_INDEX : SqlKind.DROP_INDEX, pos);
    this.create = create;
    this.name = name;
    this.table = table;
  }

  @Override
  protected List<SqlNode> parts() {
    return Arrays.asList(name, table);
  }
}
