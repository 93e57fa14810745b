package dev.floe.planner.prepare;

import dev.floe.planner.write.Assignability;
import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * The plan-time half of SQL assignment: an INSERT without a column list gives a value for every
 * column, and no value of a type standard SQL never converts implicitly (a number into a date) is
 * assigned to a column, whether it comes from a literal, an expression or a query. Values are
 * checked again, one by one, when they are written.
 */
final class AssignmentCheck {
  private AssignmentCheck() {}

  /**
   * Calcite's conformance, except that an INSERT without a column list must give every column a
   * value (SQLState 21S01), as standard SQL asks.
   */
  static SqlConformance exactInsert(SqlConformance conformance) {
    return new SqlDelegatingConformance(conformance) {
      @Override
      public boolean isInsertSubsetColumnsAllowed() {
        return false;
      }
    };
  }

  /** Checks the values an INSERT gives each column (its input row) against the column types. */
  static void checkInsert(RelOptTable table, RelDataType input) {
    List<RelDataTypeField> columns = table.getRowType().getFieldList();
    List<RelDataTypeField> values = input.getFieldList();
    for (int i = 0; i < columns.size() && i < values.size(); i++) {
      Assignability.check(
          columns.get(i).getName(),
          values.get(i).getType().getSqlTypeName().name(),
          columns.get(i).getType().getSqlTypeName().name());
    }
  }

  /** Checks the new values of an UPDATE against the types of the columns they are assigned to. */
  static void checkUpdate(RelOptTable table, List<String> columns, List<RexNode> values) {
    RelDataType tableType = table.getRowType();
    for (int i = 0; i < columns.size() && i < values.size(); i++) {
      RelDataTypeField field = tableType.getField(columns.get(i), false, false);
      if (field != null) {
        Assignability.check(
            field.getName(),
            values.get(i).getType().getSqlTypeName().name(),
            field.getType().getSqlTypeName().name());
      }
    }
  }
}
