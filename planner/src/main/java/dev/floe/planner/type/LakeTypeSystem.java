package dev.floe.planner.type;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system widened to what Iceberg stores: DECIMAL(38, 38) and datetimes with up to
 * nanosecond precision (Calcite caps both lower by default, silently rounding values), and the
 * types of {@code SUM} and {@code AVG} the anchors' engines give (below).
 */
public final class LakeTypeSystem extends RelDataTypeSystemImpl {
  /** The one instance; named by the connection property {@code typeSystem}. */
  public static final LakeTypeSystem INSTANCE = new LakeTypeSystem();

  private LakeTypeSystem() {}

  @Override
  public int getMaxPrecision(SqlTypeName typeName) {
    switch (typeName) {
      case DECIMAL:
        return 38;
      case TIME:
      case TIME_WITH_LOCAL_TIME_ZONE:
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return 9;
      case VARCHAR:
      case VARBINARY:
        return Integer.MAX_VALUE;
      default:
        return super.getMaxPrecision(typeName);
    }
  }

  @Override
  public int getMaxScale(SqlTypeName typeName) {
    return typeName == SqlTypeName.DECIMAL ? 38 : super.getMaxScale(typeName);
  }

  @Override
  public int getDefaultPrecision(SqlTypeName typeName) {
    switch (typeName) {
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      case TIME:
        // A column declared TIMESTAMP without precision is Iceberg's microsecond timestamp.
        return 6;
      default:
        return super.getDefaultPrecision(typeName);
    }
  }

  /**
   * The type of {@code SUM}: wide enough for the sums analysts take, as PostgreSQL, Trino, Spark
   * and DuckDB type them, not the argument's own type (Calcite's rule, under which {@code SUM} of
   * an INTEGER column fails once the total passes 2^31 and a DECIMAL(5, 2) column once it passes
   * 999.99): TINYINT, SMALLINT and INTEGER sum to BIGINT; DECIMAL(p, s) to DECIMAL(38, s) (Trino
   * and DuckDB); REAL to DOUBLE, added in {@code double} (adding in {@code float} loses the last
   * digits once the sum passes 2^24); BIGINT and DOUBLE keep their type (a BIGINT sum that does not
   * fit is {@code 22003}, as in Trino).
   */
  @Override
  public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
    RelDataType sum;
    switch (argumentType.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
        sum = typeFactory.createSqlType(SqlTypeName.BIGINT);
        break;
      case DECIMAL:
        sum =
            typeFactory.createSqlType(
                SqlTypeName.DECIMAL, getMaxPrecision(SqlTypeName.DECIMAL), argumentType.getScale());
        break;
      case REAL:
        sum = typeFactory.createSqlType(SqlTypeName.DOUBLE);
        break;
      default:
        return super.deriveSumType(typeFactory, argumentType);
    }
    return typeFactory.createTypeWithNullability(sum, argumentType.isNullable());
  }

  /**
   * The type of {@code AVG}: an average of integers is DOUBLE (Trino, Spark and DuckDB; Calcite's
   * rule keeps INTEGER and truncates, so the average of 1 and 2 was 1), and an average of
   * DECIMAL(p, s) is DECIMAL(38, s + 4), four more digits after the point as in Spark (the average
   * of 0.01 and 0.02 in a DECIMAL(4, 2) column is 0.015000, not 0.01), fewer only where the
   * column's digits before the point need them. Its precision is 38, not p + 4: Calcite divides the
   * sum, cast to this type, by the count, and the sum of many values needs more digits than one
   * value. REAL and DOUBLE keep their type.
   */
  @Override
  public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
    RelDataType avg;
    switch (argumentType.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        avg = typeFactory.createSqlType(SqlTypeName.DOUBLE);
        break;
      case DECIMAL:
        int max = getMaxPrecision(SqlTypeName.DECIMAL);
        int integerDigits = argumentType.getPrecision() - argumentType.getScale();
        int scale = Math.min(argumentType.getScale() + 4, max - integerDigits);
        avg = typeFactory.createSqlType(SqlTypeName.DECIMAL, max, scale);
        break;
      default:
        return super.deriveAvgAggType(typeFactory, argumentType);
    }
    return typeFactory.createTypeWithNullability(avg, argumentType.isNullable());
  }

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }
}
