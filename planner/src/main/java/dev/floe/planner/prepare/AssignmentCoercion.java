package dev.floe.planner.prepare;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's implicit coercion, except for the values of an INSERT or UPDATE that Floe's own
 * assignment converts when it writes them: a number into a numeric column (Calcite's cast would
 * cut {@code 999.999} to {@code 999.99} where SQL rounds and then refuses), a string into a
 * DATE, TIME or TIMESTAMP column (parsed, 22007 naming the column when bad), and the pairs SQL
 * never assigns (a number into a date: 42804, reported by {@link AssignmentCheck}). Those values
 * keep their own type; every other value is cast as Calcite does.
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
    RelDataTypeFactory.Builder adjusted = factory.builder();
    boolean kept = false;
    for (int i = 0; i < targets.size(); i++) {
      RelDataType source = sources.get(i).getType();
      RelDataType target = targets.get(i).getType();
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
    if (source.getSqlTypeName() == SqlTypeName.NULL
        || SqlTypeUtil.equalSansNullability(source, target)) {
      return false;
    }
    boolean sourceNumeric = SqlTypeUtil.isNumeric(source);
    boolean sourceBoolean = SqlTypeUtil.isBoolean(source);
    boolean targetNumeric = SqlTypeUtil.isNumeric(target);
    boolean targetDatetime = SqlTypeUtil.isDatetime(target);
    SqlTypeName name = target.getSqlTypeName();
    return (sourceNumeric && (targetNumeric || targetDatetime || SqlTypeUtil.isBoolean(target)))
        || (sourceBoolean && (targetNumeric || targetDatetime))
        || (SqlTypeUtil.isCharacter(source)
            && (name == SqlTypeName.DATE
                || name == SqlTypeName.TIME
                || name == SqlTypeName.TIMESTAMP));
  }
}
