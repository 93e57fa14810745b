package dev.floe.planner.parser.ddl;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A change of a table's properties: {@code ALTER TABLE t SET PROPERTIES ('k' = 'v', ...)} or
 * Trino's {@code SET PROPERTIES k = v, ...}, Spark's {@code SET TBLPROPERTIES ('k' = 'v', ...)} and
 * {@code UNSET TBLPROPERTIES [IF EXISTS] ('k', ...)}.
 */
public final class SqlAlterTableProperties extends FloeStatementNode {
  public final SqlIdentifier name;

  /** The properties to set, in the order written; empty for UNSET. */
  public final Map<String, String> set;

  /** The properties to remove; empty for SET. */
  public final List<String> unset;

  /** For UNSET: IF EXISTS was written, so a property the table lacks is no error. */
  public final boolean ifExists;

  public SqlAlterTableProperties(
      SqlParserPos pos,
      SqlIdentifier name,
      Map<String, String> set,
      List<String> unset,
      boolean ifExists) {
    super("ALTER TABLE", SqlKind.ALTER_TABLE, pos);
    this.name = name;
    this.set = set;
    this.unset = unset;
    this.ifExists = ifExists;
  }

  @Override
  protected List<SqlNode> parts() {
    return Arrays.asList(name);
  }
}
