package dev.floe.planner.prepare;

import dev.floe.planner.write.Assignability;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;
import org.apache.calcite.sql.validate.SqlValidator;

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

  /** Checks the column types of a validated INSERT against the types of its values. */
  static void checkInsert(SqlInsert insert, SqlValidator validator, Prepare.CatalogReader reader) {
    SqlNode target = insert.getTargetTable();
    if (target instanceof SqlBasicCall && target.getKind() == SqlKind.EXTEND) {
      target = ((SqlBasicCall) target).operand(0);
    }
    if (!(target instanceof SqlIdentifier)) {
      return;
    }
    RelOptTable table = reader.getTable(((SqlIdentifier) target).names);
    if (table == null) {
      return;
    }
    RelDataType tableType = table.getRowType();
    List<RelDataTypeField> columns = new ArrayList<>();
    if (insert.getTargetColumnList() == null) {
      columns.addAll(tableType.getFieldList());
    } else {
      for (SqlNode column : insert.getTargetColumnList()) {
        if (!(column instanceof SqlIdentifier)) {
          return;
        }
        RelDataTypeField field =
            tableType.getField(((SqlIdentifier) column).getSimple(), false, false);
        if (field == null) {
          return;
        }
        columns.add(field);
      }
    }
    RelDataType source = validator.getValidatedNodeType(insert.getSource());
    List<RelDataTypeField> values = source.getFieldList();
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
