package dev.floe.planner.type;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system widened to what Iceberg stores: DECIMAL(38, 38) and datetimes with up to
 * nanosecond precision (Calcite caps both lower by default, silently rounding values), and a {@code
 * SUM} of REAL that is DOUBLE, added in {@code double} (as DuckDB and Spark type it; adding in
 * {@code float} loses the last digits once the sum passes 2^24).
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

  @Override
  public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
    if (argumentType.getSqlTypeName() == SqlTypeName.REAL) {
      return typeFactory.createTypeWithNullability(
          typeFactory.createSqlType(SqlTypeName.DOUBLE), argumentType.isNullable());
    }
    return super.deriveSumType(typeFactory, argumentType);
  }

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }
}
