package dev.floe.planner.write;

import dev.floe.planner.type.LakeTypes;
import java.sql.Types;
import org.apache.iceberg.types.Type;

/**
 * Assignment of a JDBC parameter value to the SQL type its parameter has, with the rule every
 * written value follows ({@link ValueAssigner}): a number out of range is 22003 (never wrapped or
 * clamped), a DECIMAL is rounded half up to its scale, a number is never a date, time, timestamp or
 * boolean (42804), bad text is 22018 or 22007, and a Java object of a type Floe cannot convert is
 * 07006.
 */
public final class ParameterAssigner {
  private ParameterAssigner() {}

  /**
   * The value a parameter of a JDBC type holds, converted by SQL assignment: an {@code Integer} for
   * INTEGER, a {@code Long} for BIGINT, a {@code BigDecimal} of the parameter's scale for DECIMAL,
   * a {@code Float} for REAL, a {@code Double} for DOUBLE, a {@code Boolean}, a {@code LocalDate},
   * {@code LocalTime} or {@code LocalDateTime}; other types are returned unchanged.
   *
   * @throws dev.floe.error.FloeException with the SQLState of the assignment rule broken
   */
  public static Object assign(String name, int jdbcType, int precision, int scale, Object value) {
    if (value == null) {
      return null;
    }
    if (jdbcType == Types.TIME
        || jdbcType == Types.TIMESTAMP
        || jdbcType == Types.TIMESTAMP_WITH_TIMEZONE) {
      Assignability.check(
          name, ValueAssigner.jdbcTypeName(value), jdbcType == Types.TIME ? "TIME" : "TIMESTAMP");
      if (value instanceof String && jdbcType != Types.TIMESTAMP_WITH_TIMEZONE) {
        // Text is parsed as the column's type would parse it (22007 when it is not a value).
        Type type = LakeTypes.icebergType(jdbcType == Types.TIME ? "TIME" : "TIMESTAMP", -1, -1);
        new ValueAssigner(
                name,
                org.apache.iceberg.types.Types.NestedField.optional(1, name, type),
                WritePlan.SourceType.JDBC)
            .assign(value);
      }
      return value;
    }
    Type type = icebergType(jdbcType, precision, scale);
    if (type == null) {
      return value;
    }
    ValueAssigner assigner =
        new ValueAssigner(
            name,
            org.apache.iceberg.types.Types.NestedField.optional(1, name, type),
            WritePlan.SourceType.JDBC);
    return assigner.assign(value);
  }

  /**
   * The type a parameter of a JDBC type is assigned to, from the one mapping ({@link
   * LakeTypes#icebergType(int, int, int)}): numbers, booleans and dates; null for the types whose
   * values pass as they are (text, binary, a DECIMAL of no valid precision), converted where the
   * statement assigns them to a column.
   */
  private static Type icebergType(int jdbcType, int precision, int scale) {
    return switch (jdbcType) {
      case Types.TINYINT,
          Types.SMALLINT,
          Types.INTEGER,
          Types.BIGINT,
          Types.REAL,
          Types.FLOAT,
          Types.DOUBLE,
          Types.BOOLEAN,
          Types.DATE ->
          LakeTypes.icebergType(jdbcType, -1, -1);
      case Types.DECIMAL, Types.NUMERIC ->
          LakeTypes.decimalProblem(precision, scale) == null
              ? LakeTypes.icebergType(jdbcType, precision, scale)
              : null;
      default -> null;
    };
  }
}
