package dev.floe.jdbc.meta;

import dev.floe.planner.type.LakeTypes;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * How Floe names and sizes SQL types in metadata, one answer for {@code getColumns}, {@code
 * getTypeInfo} and {@code ResultSetMetaData} (docs/sql.md, "Types"). Type names are the spellings
 * Floe's CREATE TABLE accepts, so a DDL written from metadata (as DBeaver's DDL tab does) creates
 * the same table; sizes follow JDBC: digits for numbers, characters for text and for the text form
 * of dates and times, bytes for binary.
 */
public final class MetadataTypes {
  /** What metadata says about one SQL type. Null sizes mean "not applicable". */
  public record Description(
      int jdbcType, String name, Integer size, Integer digits, Integer radix, Integer octets) {}

  /** Unbounded text and binary report the largest size JDBC can express. */
  public static final int UNBOUNDED = Integer.MAX_VALUE;

  private MetadataTypes() {}

  /**
   * The description of an Iceberg column type: scalars as the planner types them ({@link
   * LakeTypes}); arrays, maps and structs spelled as CREATE TABLE writes them, with their fields'
   * NOT NULL (which Calcite's row type loses inside a nullable struct).
   */
  public static Description of(RelDataTypeFactory types, Type type, boolean optional) {
    switch (type.typeId()) {
      case LIST:
        return complex(
            java.sql.Types.ARRAY,
            "ARRAY<" + of(types, type.asListType().elementType(), true).name() + ">");
      case MAP:
        return complex(
            java.sql.Types.OTHER,
            "MAP<"
                + of(types, type.asMapType().keyType(), false).name()
                + ", "
                + of(types, type.asMapType().valueType(), true).name()
                + ">");
      case STRUCT:
        {
          List<String> fields = new ArrayList<>();
          for (Types.NestedField field : type.asStructType().fields()) {
            fields.add(
                field.name()
                    + ": "
                    + of(types, field.type(), field.isOptional()).name()
                    + (field.isOptional() ? "" : " NOT NULL"));
          }
          return complex(java.sql.Types.STRUCT, "STRUCT<" + String.join(", ", fields) + ">");
        }
      default:
        RelDataType sql = LakeTypes.sqlType(types, type, optional);
        return scalar(sql.getSqlTypeName(), sql.getPrecision(), sql.getScale());
    }
  }

  /**
   * The description of a result column that does not come straight from a table, from what Calcite
   * reports: scalars exactly; arrays, maps and structs by their kind only.
   */
  public static Description ofResult(int jdbcType, String calciteName, int precision, int scale) {
    if (jdbcType == java.sql.Types.ARRAY) {
      return complex(java.sql.Types.ARRAY, "ARRAY");
    }
    if (jdbcType == java.sql.Types.STRUCT) {
      return complex(java.sql.Types.STRUCT, "STRUCT");
    }
    if (calciteName != null && calciteName.endsWith(" MAP")) {
      return complex(java.sql.Types.OTHER, "MAP");
    }
    SqlTypeName name = calciteName == null ? null : SqlTypeName.get(calciteName);
    if (name == null) {
      return new Description(jdbcType, calciteName, null, null, null, null);
    }
    return scalar(name, precision, scale);
  }

  private static Description complex(int jdbcType, String name) {
    return new Description(jdbcType, name, null, null, null, null);
  }

  private static Description scalar(SqlTypeName name, int precision, int scale) {
    switch (name) {
      case BOOLEAN:
        return new Description(java.sql.Types.BOOLEAN, "BOOLEAN", 1, null, null, null);
      case TINYINT:
        return new Description(java.sql.Types.TINYINT, "TINYINT", 3, 0, 10, null);
      case SMALLINT:
        return new Description(java.sql.Types.SMALLINT, "SMALLINT", 5, 0, 10, null);
      case INTEGER:
        return new Description(java.sql.Types.INTEGER, "INTEGER", 10, 0, 10, null);
      case BIGINT:
        return new Description(java.sql.Types.BIGINT, "BIGINT", 19, 0, 10, null);
      case REAL:
        return new Description(java.sql.Types.REAL, "REAL", 7, null, 10, null);
      case FLOAT:
      case DOUBLE:
        return new Description(java.sql.Types.DOUBLE, "DOUBLE", 15, null, 10, null);
      case DECIMAL:
        return new Description(java.sql.Types.DECIMAL, "DECIMAL", precision, scale, 10, null);
      case DATE:
        return new Description(java.sql.Types.DATE, "DATE", 10, null, null, null);
      case TIME:
        return new Description(
            java.sql.Types.TIME, "TIME", timeSize(8, precision), precision, null, null);
      case TIMESTAMP:
        return new Description(
            java.sql.Types.TIMESTAMP, "TIMESTAMP", timeSize(19, precision), precision, null, null);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return new Description(
            java.sql.Types.TIMESTAMP,
            "TIMESTAMP WITH LOCAL TIME ZONE",
            timeSize(19, precision),
            precision,
            null,
            null);
      case CHAR:
        return new Description(java.sql.Types.CHAR, "CHAR", precision, null, null, 4 * precision);
      case VARCHAR:
        {
          int size = precision > 0 ? precision : UNBOUNDED;
          return new Description(
              java.sql.Types.VARCHAR,
              "VARCHAR",
              size,
              null,
              null,
              precision > 0 ? 4 * precision : UNBOUNDED);
        }
      case UUID:
        return new Description(java.sql.Types.OTHER, "UUID", 36, null, null, null);
      case BINARY:
        return new Description(java.sql.Types.BINARY, "BINARY", precision, null, null, precision);
      case VARBINARY:
        {
          int size = precision > 0 ? precision : UNBOUNDED;
          return new Description(java.sql.Types.VARBINARY, "VARBINARY", size, null, null, size);
        }
      default:
        return new Description(
            name.getJdbcOrdinal(), name.getName().replace('_', ' '), null, null, null, null);
    }
  }

  /** The length of a time's text form: the whole seconds, then a point and the fraction. */
  private static int timeSize(int wholeSeconds, int precision) {
    return precision > 0 ? wholeSeconds + 1 + precision : wholeSeconds;
  }

  /** The rows of {@code getTypeInfo}: the types a Floe column can have, by JDBC type code. */
  static MetadataResults.Rows typeInfo() {
    MetadataResults.Rows rows = new MetadataResults.Rows(MetadataResults.TYPE_INFO);
    type(rows, "BIGINT", java.sql.Types.BIGINT, 19, null, null, null, 0, 0, 10);
    type(rows, "VARBINARY", java.sql.Types.VARBINARY, UNBOUNDED, "X'", "'", null, 0, 0, null);
    type(rows, "BINARY", java.sql.Types.BINARY, UNBOUNDED, "X'", "'", "length", 0, 0, null);
    type(rows, "DECIMAL", java.sql.Types.DECIMAL, 38, null, null, "precision,scale", 0, 38, 10);
    type(rows, "INTEGER", java.sql.Types.INTEGER, 10, null, null, null, 0, 0, 10);
    type(rows, "REAL", java.sql.Types.REAL, 7, null, null, null, 0, 0, 10);
    type(rows, "DOUBLE", java.sql.Types.DOUBLE, 15, null, null, null, 0, 0, 10);
    type(rows, "VARCHAR", java.sql.Types.VARCHAR, UNBOUNDED, "'", "'", null, 0, 0, null);
    type(rows, "BOOLEAN", java.sql.Types.BOOLEAN, 1, null, null, null, 0, 0, null);
    type(rows, "DATE", java.sql.Types.DATE, 10, "DATE '", "'", null, 0, 0, null);
    type(rows, "TIME", java.sql.Types.TIME, 15, "TIME '", "'", null, 6, 6, null);
    type(
        rows,
        "TIMESTAMP",
        java.sql.Types.TIMESTAMP,
        29,
        "TIMESTAMP '",
        "'",
        "precision",
        6,
        9,
        null);
    type(
        rows,
        "TIMESTAMP WITH LOCAL TIME ZONE",
        java.sql.Types.TIMESTAMP,
        29,
        "TIMESTAMP WITH LOCAL TIME ZONE '",
        "'",
        "precision",
        6,
        9,
        null);
    type(rows, "UUID", java.sql.Types.OTHER, 36, null, null, null, 0, 0, null);
    type(rows, "MAP", java.sql.Types.OTHER, null, null, null, null, 0, 0, null);
    type(rows, "STRUCT", java.sql.Types.STRUCT, null, null, null, null, 0, 0, null);
    type(rows, "ARRAY", java.sql.Types.ARRAY, null, null, null, null, 0, 0, null);
    return rows;
  }

  private static void type(
      MetadataResults.Rows rows,
      String name,
      int jdbcType,
      Integer precision,
      String prefix,
      String suffix,
      String createParams,
      int minScale,
      int maxScale,
      Integer radix) {
    boolean text = jdbcType == java.sql.Types.VARCHAR;
    boolean complex =
        jdbcType == java.sql.Types.ARRAY || jdbcType == java.sql.Types.STRUCT || name.equals("MAP");
    short searchable =
        (short)
            (text
                ? DatabaseMetaData.typeSearchable
                : complex ? DatabaseMetaData.typePredNone : DatabaseMetaData.typePredBasic);
    rows.add(
        name,
        jdbcType,
        precision,
        prefix,
        suffix,
        createParams,
        (short) DatabaseMetaData.typeNullable,
        text,
        searchable,
        false,
        false,
        false,
        name,
        (short) minScale,
        (short) maxScale,
        null,
        null,
        radix);
  }
}
