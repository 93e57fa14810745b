package dev.floe.planner.write;

import dev.floe.planner.spi.LakeSession;
import java.util.List;
import org.apache.calcite.rel.core.TableModify;
import org.apache.iceberg.expressions.Expression;

/**
 * What one DML statement does at run time, handed from the plan to {@link LakeWrites}.
 *
 * @param session the connection's session
 * @param path the table's path under the root
 * @param operation INSERT, DELETE or UPDATE
 * @param inputTypes the SQL type of each input field, to convert values exactly
 * @param updateColumns for UPDATE, the table column index each new value goes to
 * @param deleteFilter for DELETE and UPDATE, a filter selecting at least every row changed
 */
public record WritePlan(
    LakeSession session,
    List<String> path,
    TableModify.Operation operation,
    List<SourceType> inputTypes,
    List<Integer> updateColumns,
    Expression deleteFilter) {

  /**
   * The SQL type of an input value, as far as conversion needs it.
   *
   * @param typeName the SQL type name, as in {@link org.apache.calcite.sql.type.SqlTypeName}
   * @param precision the precision, or -1
   * @param scale the scale, or -1
   */
  public record SourceType(String typeName, int precision, int scale) {}
}
