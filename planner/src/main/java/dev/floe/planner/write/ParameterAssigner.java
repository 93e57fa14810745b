package dev.floe.planner.write;

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
        Type type =
            jdbcType == Types.TIME
                ? org.apache.iceberg.types.Types.TimeType.get()
                : org.apache.iceberg.types.Types.TimestampType.withoutZone();
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

  private static Type icebergType(int jdbcType, int precision, int scale) {
    return switch (jdbcType) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER ->
          org.apache.iceberg.types.Types.IntegerType.get();
      case Types.BIGINT -> org.apache.iceberg.types.Types.LongType.get();
      case Types.REAL -> org.apache.iceberg.types.Types.FloatType.get();
      case Types.FLOAT, Types.DOUBLE -> org.apache.iceberg.types.Types.DoubleType.get();
      case Types.DECIMAL, Types.NUMERIC ->
          precision > 0 && precision <= 38 && scale >= 0 && scale <= precision
              ? org.apache.iceberg.types.Types.DecimalType.of(precision, scale)
              : null;
      case Types.BOOLEAN -> org.apache.iceberg.types.Types.BooleanType.get();
      case Types.DATE -> org.apache.iceberg.types.Types.DateType.get();
      default -> null;
    };
  }
}
