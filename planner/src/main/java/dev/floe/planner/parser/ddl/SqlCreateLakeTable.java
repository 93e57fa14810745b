package dev.floe.planner.parser.ddl;

import dev.floe.planner.parser.FloeStatementNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name [(columns [, PRIMARY KEY (a, b) [NOT
 * ENFORCED]])] [PARTITIONED BY (...)] [WITH | TBLPROPERTIES ('k' = 'v', ...)] [AS query]}.
 * {@link #queryStart} is where the query's text begins in the statement (it runs to the end).
 */
public final class SqlCreateLakeTable extends FloeStatementNode {
  public final SqlIdentifier name;
  public final boolean replace;
  public final boolean ifNotExists;
  public final List<ColumnDef> columns;
  /** The PRIMARY KEY columns, from column constraints and the table constraint, in order. */
  public final List<SqlIdentifier> primaryKey;
  public final List<PartitionField> partitioning;
  public final Map<String, String> properties;
  public final SqlNode query;
  public final SqlParserPos queryStart;

  public SqlCreateLakeTable(
      SqlParserPos pos,
      SqlIdentifier name,
      boolean replace,
      boolean ifNotExists,
      List<ColumnDef> columns,
      List<SqlIdentifier> primaryKey,
      List<PartitionField> partitioning,
      Map<String, String> properties,
      SqlNode query,
      SqlParserPos queryStart) {
    super("CREATE TABLE", SqlKind.CREATE_TABLE, pos);
    this.name = name;
    this.replace = replace;
    this.ifNotExists = ifNotExists;
    this.columns = List.copyOf(columns);
    this.primaryKey = List.copyOf(primaryKey);
    this.partitioning = List.copyOf(partitioning);
    this.properties = properties;
    this.query = query;
    this.queryStart = queryStart;
  }

  @Override
  protected List<SqlNode> parts() {
    List<SqlNode> parts = new ArrayList<>();
    parts.add(name);
    parts.add(query);
    return parts;
  }
}
