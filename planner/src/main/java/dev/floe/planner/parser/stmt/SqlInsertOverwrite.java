package dev.floe.planner.parser.stmt;

import dev.floe.planner.parser.FloeStatementNode;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code INSERT OVERWRITE [TABLE] t [PARTITION (c = v, ...)] [(columns)] query}: the rows of the
 * query replace the table's rows (or those of the named partition, when PARTITION is given).
 */
public final class SqlInsertOverwrite extends FloeStatementNode {
  public final SqlIdentifier table;
  /** The static partition's columns, empty when PARTITION is absent. */
  public final SqlNodeList partitionColumns;
  /** The static partition's values, one per column. */
  public final SqlNodeList partitionValues;
  /** The target column list, or null. */
  public final SqlNodeList columns;
  public final SqlNode query;

  public SqlInsertOverwrite(
      SqlParserPos pos,
      SqlIdentifier table,
      SqlNodeList partitionColumns,
      SqlNodeList partitionValues,
      SqlNodeList columns,
      SqlNode query) {
    super("INSERT OVERWRITE", SqlKind.INSERT, pos);
    this.table = table;
    this.partitionColumns = partitionColumns;
    this.partitionValues = partitionValues;
    this.columns = columns;
    this.query = query;
  }

  @Override
  protected List<SqlNode> parts() {
    return Arrays.asList(table, partitionColumns, partitionValues, columns, query);
  }
}
