package dev.floe.planner.type;

import java.lang.reflect.Type;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's Java type factory with two changes: a TIME finer than a millisecond is held at run time
 * as a {@code long} (microseconds of the day for TIME(4..6), nanoseconds for TIME(7..9)), where
 * Calcite holds every TIME as an {@code int} of milliseconds, which cannot carry Iceberg's
 * microsecond times; and a UUID is declared as the {@link java.util.UUID} it is held as, where
 * Calcite declares it {@code Object}, for which some of its generated code does not compile (a
 * merge join's comparator, the grouping keys of several DISTINCT aggregates).
 */
public final class LakeJavaTypeFactory extends JavaTypeFactoryImpl {
  /** Creates a factory over {@link LakeTypeSystem}; one per connection. */
  public LakeJavaTypeFactory() {
    super(LakeTypeSystem.INSTANCE);
  }

  /** Whether values of this type are held as a {@code long} finer than milliseconds. */
  public static boolean isFineTime(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.TIME && type.getPrecision() > 3;
  }

  @Override
  public Type getJavaClass(RelDataType type) {
    if (isFineTime(type) && !(type instanceof JavaType)) {
      return type.isNullable() ? Long.class : long.class;
    }
    if (type.getSqlTypeName() == SqlTypeName.UUID && !(type instanceof JavaType)) {
      return java.util.UUID.class;
    }
    return super.getJavaClass(type);
  }
}
