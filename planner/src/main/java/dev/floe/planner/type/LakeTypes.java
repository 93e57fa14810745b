package dev.floe.planner.type;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/** Maps Iceberg types to SQL types and back, as the type table lays out (docs/sql.md, "Types"). */
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
   * The Iceberg type that holds every value of a SQL type exactly (the type CREATE TABLE AS SELECT
   * gives a query's column), with field ids of 0 in nested types for the caller to assign; null for
   * a type no Iceberg type holds (an interval, a bare NULL, a multiset).
   */
  public static Type icebergType(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case BOOLEAN:
        return Types.BooleanType.get();
      case TINYINT:
      case SMALLINT:
      case INTEGER:
        return Types.IntegerType.get();
      case BIGINT:
        return Types.LongType.get();
      case REAL:
        return Types.FloatType.get();
      case FLOAT:
      case DOUBLE:
        return Types.DoubleType.get();
      case DECIMAL:
        {
          int precision = Math.min(38, Math.max(1, type.getPrecision()));
          return Types.DecimalType.of(precision, Math.max(0, Math.min(precision, type.getScale())));
        }
      case DATE:
        return Types.DateType.get();
      case TIME:
        return Types.TimeType.get();
      case TIMESTAMP:
        return type.getPrecision() > 6
            ? Types.TimestampNanoType.withoutZone()
            : Types.TimestampType.withoutZone();
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return type.getPrecision() > 6
            ? Types.TimestampNanoType.withZone()
            : Types.TimestampType.withZone();
      case CHAR:
      case VARCHAR:
        return Types.StringType.get();
      case BINARY:
        return type.getPrecision() > 0
            ? Types.FixedType.ofLength(type.getPrecision())
            : Types.BinaryType.get();
      case VARBINARY:
        return Types.BinaryType.get();
      case UUID:
        return Types.UUIDType.get();
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
}
