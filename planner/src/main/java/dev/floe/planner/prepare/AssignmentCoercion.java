package dev.floe.planner.prepare;

import dev.floe.planner.write.Assignability;
import dev.floe.planner.write.ParameterAssigner;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's implicit coercion of the values of an INSERT or UPDATE, with SQL's assignment rules: a
 * pair of types SQL never assigns (a number into a date) is refused here, at validation (42804,
 * naming the column and both types); the literals of VALUES are assigned to their columns by Floe's
 * assignment (22003 and 22007 naming the column); and a number into an INTEGER, BIGINT or DECIMAL
 * column keeps its own type, so that the one assignment rounds it half up to the column's scale
 * (never cuts it) and checks its range (never wraps it), as it does a parameter. Every other value
 * is cast as Calcite does.
 */
final class AssignmentCoercion extends TypeCoercionImpl {
  AssignmentCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
    super(typeFactory, validator);
  }

  @Override
  public boolean querySourceCoercion(
      @Nullable SqlValidatorScope scope,
      RelDataType sourceRowType,
      RelDataType targetRowType,
      SqlNode query) {
    List<RelDataTypeField> sources = sourceRowType.getFieldList();
    List<RelDataTypeField> targets = targetRowType.getFieldList();
    if (sources.size() != targets.size()) {
      return super.querySourceCoercion(scope, sourceRowType, targetRowType, query);
    }
    assignLiterals(query, targets);
    RelDataTypeFactory.Builder adjusted = factory.builder();
    boolean kept = false;
    for (int i = 0; i < targets.size(); i++) {
      RelDataType source = sources.get(i).getType();
      RelDataType target = targets.get(i).getType();
      Assignability.check(
          targets.get(i).getName(), source.getSqlTypeName().name(), target.getSqlTypeName().name());
      if (assignedWhenWritten(source, target)) {
        adjusted.add(targets.get(i).getName(), source);
        kept = true;
      } else {
        adjusted.add(targets.get(i));
      }
    }
    if (!kept) {
      return super.querySourceCoercion(scope, sourceRowType, targetRowType, query);
    }
    RelDataType rest = adjusted.build();
    if (SqlTypeUtil.equalAsStructSansNullability(factory, sourceRowType, rest, null)) {
      return true;
    }
    return super.querySourceCoercion(scope, sourceRowType, rest, query);
  }

  /** Whether Floe's assignment, not a cast, converts a value of this type for this column. */
  static boolean assignedWhenWritten(RelDataType source, RelDataType target) {
    return source.getSqlTypeName() != SqlTypeName.NULL
        && !SqlTypeUtil.equalSansNullability(source, target)
        && SqlTypeUtil.isNumeric(source)
        && SqlTypeUtil.isExactNumeric(target);
  }

  /**
   * Assigns the literals of an INSERT's VALUES to their columns now, by the rule every written
   * value follows: a number that does not fit its column (after rounding a DECIMAL half up) is
   * 22003 and text that is not a date, time or timestamp is 22007, each naming the column, before
   * Calcite casts the literal its own way.
   */
  private static void assignLiterals(SqlNode query, List<RelDataTypeField> targets) {
    if (!(query instanceof SqlInsert)) {
      return;
    }
    SqlNode source = ((SqlInsert) query).getSource();
    if (source.getKind() != SqlKind.VALUES) {
      return;
    }
    for (SqlNode row : ((SqlCall) source).getOperandList()) {
      if (row.getKind() != SqlKind.ROW) {
        continue;
      }
      List<SqlNode> values = ((SqlCall) row).getOperandList();
      for (int i = 0; i < values.size() && i < targets.size(); i++) {
        Object literal = literalValue(values.get(i));
        RelDataType target = targets.get(i).getType();
        boolean numeric = literal instanceof BigDecimal && SqlTypeUtil.isNumeric(target);
        boolean text =
            literal instanceof String
                && (target.getSqlTypeName() == SqlTypeName.DATE
                    || target.getSqlTypeName() == SqlTypeName.TIME
                    || target.getSqlTypeName() == SqlTypeName.TIMESTAMP);
        if (numeric || text) {
          ParameterAssigner.assign(
              targets.get(i).getName(),
              target.getSqlTypeName().getJdbcOrdinal(),
              target.getPrecision(),
              target.getScale(),
              literal);
        }
      }
    }
  }

  /** The value of a numeric or character literal (a negated number too), or null. */
  private static @Nullable Object literalValue(SqlNode node) {
    if (node instanceof SqlNumericLiteral) {
      return ((SqlNumericLiteral) node).getValueAs(BigDecimal.class);
    }
    if (node instanceof SqlCharStringLiteral) {
      return ((SqlCharStringLiteral) node).getValueAs(String.class);
    }
    if (node.getKind() == SqlKind.MINUS_PREFIX
        && ((SqlCall) node).operand(0) instanceof SqlNumericLiteral) {
      return ((SqlNumericLiteral) ((SqlCall) node).operand(0))
          .getValueAs(BigDecimal.class)
          .negate();
    }
    return null;
  }
}
