package dev.floe.planner.prepare;

import dev.floe.planner.write.Assignability;
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
 * Calcite's implicit coercion of the values of an INSERT or UPDATE, with SQL's assignment rules:
 * a pair of types SQL never assigns (a number into a date) is refused here, at validation (42804,
 * naming the column and both types), and a number into a numeric column keeps its own type, so
 * that Floe's assignment rounds it half up to the column's scale and refuses it if it does not
 * fit (22003) instead of a cast cutting it. Every other value is cast as Calcite does.
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
      Assignability.check(
          targets.get(i).getName(),
          source.getSqlTypeName().name(),
          target.getSqlTypeName().name());
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
        && SqlTypeUtil.isNumeric(target);
  }
}
