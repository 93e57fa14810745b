package dev.floe.planner.type;

import dev.floe.error.FloeError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Maps Iceberg types to SQL types and back, as the type table lays out (docs/sql.md, "Types"): the
 * one place where a SQL type becomes an Iceberg type, whether it is named in DDL (the parser's type
 * spec), in read_csv's column list, or comes from a query's row type (CREATE TABLE AS) or a
 * parameter's JDBC type ({@link dev.floe.planner.write.ParameterAssigner}).
 */
public final class LakeTypes {
  private LakeTypes() {}

  /** The SQL row type of an Iceberg schema. */
  public static RelDataType rowType(RelDataTypeFactory factory, Schema schema) {
    return structType(factory, schema.asStruct());
  }

  /** The SQL row type of an Iceberg schema followed by extra fields. */
  public static RelDataType rowType(
      RelDataTypeFactory factory, Schema schema, List<String> extraNames, List<RelDataType> extra) {
    RelDataTypeFactory.Builder builder = factory.builder();
    for (Types.NestedField field : schema.columns()) {
      builder.add(field.name(), sqlType(factory, field.type(), field.isOptional()));
    }
    for (int i = 0; i < extraNames.size(); i++) {
      builder.add(extraNames.get(i), extra.get(i));
    }
    return builder.build();
  }

  private static RelDataType structType(RelDataTypeFactory factory, Types.StructType struct) {
    List<String> names = new ArrayList<>();
    List<RelDataType> types = new ArrayList<>();
    for (Types.NestedField field : struct.fields()) {
      names.add(field.name());
      types.add(sqlType(factory, field.type(), field.isOptional()));
    }
    return factory.createStructType(types, names);
  }

  /** The SQL type of an Iceberg type, nullable when the field is optional. */
  public static RelDataType sqlType(RelDataTypeFactory factory, Type type, boolean nullable) {
    return factory.createTypeWithNullability(sqlType(factory, type), nullable);
  }

  private static RelDataType sqlType(RelDataTypeFactory factory, Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return factory.createSqlType(SqlTypeName.BOOLEAN);
      case INTEGER:
        return factory.createSqlType(SqlTypeName.INTEGER);
      case LONG:
        return factory.createSqlType(SqlTypeName.BIGINT);
      case FLOAT:
        return factory.createSqlType(SqlTypeName.REAL);
      case DOUBLE:
        return factory.createSqlType(SqlTypeName.DOUBLE);
      case DECIMAL:
        Types.DecimalType decimal = (Types.DecimalType) type;
        return factory.createSqlType(SqlTypeName.DECIMAL, decimal.precision(), decimal.scale());
      case DATE:
        return factory.createSqlType(SqlTypeName.DATE);
      case TIME:
        return factory.createSqlType(SqlTypeName.TIME, 6);
      case TIMESTAMP:
        return ((Types.TimestampType) type).shouldAdjustToUTC()
            ? factory.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6)
            : factory.createSqlType(SqlTypeName.TIMESTAMP, 6);
      case TIMESTAMP_NANO:
        return ((Types.TimestampNanoType) type).shouldAdjustToUTC()
            ? factory.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 9)
            : factory.createSqlType(SqlTypeName.TIMESTAMP, 9);
      case STRING:
        return factory.createTypeWithCharsetAndCollation(
            factory.createSqlType(SqlTypeName.VARCHAR),
            StandardCharsets.UTF_8,
            SqlCollation.IMPLICIT);
      case UUID:
        return factory.createSqlType(SqlTypeName.UUID);
      case FIXED:
        return factory.createSqlType(SqlTypeName.BINARY, ((Types.FixedType) type).length());
      case BINARY:
        return factory.createSqlType(SqlTypeName.VARBINARY);
      case STRUCT:
        return structType(factory, type.asStructType());
      case LIST:
        Types.ListType list = type.asListType();
        return factory.createArrayType(
            sqlType(factory, list.elementType(), list.isElementOptional()), -1);
      case MAP:
        Types.MapType map = type.asMapType();
        return factory.createMapType(
            sqlType(factory, map.keyType(), false),
            sqlType(factory, map.valueType(), map.isValueOptional()));
      default:
        // variant, geometry, unknown: shown as text so the table stays usable.
        return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.VARCHAR), true);
    }
  }

  /**
   * The Iceberg type of a scalar SQL type by its name, as SQL, Spark and Flink spell it: BOOLEAN
   * (BOOL); TINYINT, SMALLINT, INT, INTEGER (all {@code int}); BIGINT (LONG); REAL; FLOAT(p) (a
   * {@code double} when p > 24, else a {@code float}); DOUBLE [PRECISION]; DECIMAL, NUMERIC, DEC
   * (precision 38 and scale 0 unless given); DATE; TIME; TIMESTAMP(p) [WITHOUT TIME ZONE]
   * (TIMESTAMP_NTZ) and TIMESTAMP(p) WITH [LOCAL] TIME ZONE (TIMESTAMP_LTZ, TIMESTAMPTZ), in
   * nanoseconds when p > 6; CHAR, CHARACTER [VARYING], VARCHAR, STRING, TEXT (a {@code string}, the
   * length not kept); BINARY(n) and FIXED(n) (a {@code fixed(n)}), BINARY, VARBINARY, BLOB, BYTES
   * (a {@code binary}); UUID.
   *
   * @param name the type's name, in any case, its words separated by white space
   * @param precision the precision or length written, or -1
   * @param scale the scale written, or -1
   * @return the type, or null when no scalar type bears this name
   * @throws dev.floe.error.FloeException VALIDATION (42000) for a DECIMAL whose precision or scale
   *     is out of range, or a FIXED without a length
   */
  public static @Nullable Type icebergType(String name, int precision, int scale) {
    switch (name.trim().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT)) {
      case "BOOLEAN", "BOOL":
        return Types.BooleanType.get();
      case "TINYINT", "SMALLINT", "INT", "INTEGER":
        return Types.IntegerType.get();
      case "BIGINT", "LONG":
        return Types.LongType.get();
      case "REAL":
        return Types.FloatType.get();
      case "FLOAT":
        return precision > 24 ? Types.DoubleType.get() : Types.FloatType.get();
      case "DOUBLE", "DOUBLE PRECISION":
        return Types.DoubleType.get();
      case "DECIMAL", "NUMERIC", "DEC":
        {
          int p = precision < 0 ? 38 : precision;
          int s = scale < 0 ? 0 : scale;
          String problem = decimalProblem(p, s);
          if (problem != null) {
            throw FloeError.VALIDATION.error(problem);
          }
          return Types.DecimalType.of(p, s);
        }
      case "DATE":
        return Types.DateType.get();
      case "TIME", "TIME WITHOUT TIME ZONE":
        return Types.TimeType.get();
      case "TIMESTAMP", "TIMESTAMP WITHOUT TIME ZONE", "TIMESTAMP_NTZ":
        return precision > 6
            ? Types.TimestampNanoType.withoutZone()
            : Types.TimestampType.withoutZone();
      case "TIMESTAMP WITH TIME ZONE",
      "TIMESTAMP WITH LOCAL TIME ZONE",
      "TIMESTAMP_LTZ",
      "TIMESTAMPTZ":
        return precision > 6 ? Types.TimestampNanoType.withZone() : Types.TimestampType.withZone();
      case "CHAR", "CHARACTER", "CHARACTER VARYING", "VARCHAR", "STRING", "TEXT":
        return Types.StringType.get();
      case "BINARY":
        return precision > 0 ? Types.FixedType.ofLength(precision) : Types.BinaryType.get();
      case "FIXED":
        if (precision <= 0) {
          throw FloeError.VALIDATION.error("FIXED needs a length of at least 1: FIXED(16)");
        }
        return Types.FixedType.ofLength(precision);
      case "VARBINARY", "BLOB", "BYTES":
        return Types.BinaryType.get();
      case "UUID":
        return Types.UUIDType.get();
      default:
        return null;
    }
  }

  /**
   * Why a DECIMAL of this precision and scale cannot be a column (Iceberg's decimals have a
   * precision of 1 to 38 and a scale of 0 to the precision), or null when it can.
   */
  public static @Nullable String decimalProblem(int precision, int scale) {
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
      return "DECIMAL("
          + precision
          + ", "
          + scale
          + ") is out of range: precision 1 to 38, scale 0 to precision";
    }
    return null;
  }

  /**
   * The Iceberg type that holds every value of a SQL type exactly (the type CREATE TABLE AS SELECT
   * gives a query's column), with field ids of 0 in nested types for the caller to assign; null for
   * a type no Iceberg type holds (an interval, a bare NULL, a multiset). Scalar types are mapped by
   * name ({@link #icebergType(String, int, int)}), as DDL names them.
   */
  public static @Nullable Type icebergType(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    switch (name) {
      case FLOAT:
        // Calcite's FLOAT is a double-precision number, as JDBC's is.
        return icebergType("FLOAT", 53, -1);
      case DECIMAL:
        {
          int precision = Math.min(38, Math.max(1, type.getPrecision()));
          return icebergType(
              "DECIMAL", precision, Math.max(0, Math.min(precision, type.getScale())));
        }
      case BOOLEAN,
      TINYINT,
      SMALLINT,
      INTEGER,
      BIGINT,
      REAL,
      DOUBLE,
      DATE,
      TIME,
      TIMESTAMP,
      TIMESTAMP_WITH_LOCAL_TIME_ZONE,
      CHAR,
      VARCHAR,
      BINARY,
      VARBINARY,
      UUID:
        return icebergType(name.getSpaceName(), type.getPrecision(), -1);
      case ROW:
        {
          List<Types.NestedField> fields = new ArrayList<>();
          for (org.apache.calcite.rel.type.RelDataTypeField field : type.getFieldList()) {
            Type fieldType = icebergType(field.getType());
            if (fieldType == null) {
              return null;
            }
            fields.add(
                field.getType().isNullable()
                    ? Types.NestedField.optional(0, field.getName(), fieldType)
                    : Types.NestedField.required(0, field.getName(), fieldType));
          }
          return Types.StructType.of(fields);
        }
      case ARRAY:
        {
          RelDataType element = type.getComponentType();
          Type elementType = element == null ? null : icebergType(element);
          if (elementType == null) {
            return null;
          }
          return element.isNullable()
              ? Types.ListType.ofOptional(0, elementType)
              : Types.ListType.ofRequired(0, elementType);
        }
      case MAP:
        {
          RelDataType key = type.getKeyType();
          RelDataType value = type.getValueType();
          Type keyType = key == null ? null : icebergType(key);
          Type valueType = value == null ? null : icebergType(value);
          if (keyType == null || valueType == null) {
            return null;
          }
          return value.isNullable()
              ? Types.MapType.ofOptional(0, 0, keyType, valueType)
              : Types.MapType.ofRequired(0, 0, keyType, valueType);
        }
      default:
        return null;
    }
  }

  /**
   * The Iceberg type of a JDBC type code ({@link java.sql.Types}) with a precision and scale, by
   * the name JDBC gives it (JDBC's FLOAT is a double-precision number); null for a code JDBC does
   * not define.
   */
  public static @Nullable Type icebergType(int jdbcType, int precision, int scale) {
    java.sql.JDBCType jdbc;
    try {
      jdbc = java.sql.JDBCType.valueOf(jdbcType);
    } catch (IllegalArgumentException e) {
      return null;
    }
    return jdbc == java.sql.JDBCType.FLOAT
        ? icebergType("FLOAT", 53, -1)
        : icebergType(jdbc.getName().replace('_', ' '), precision, scale);
  }
}
