package dev.floe.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * How Floe names and sizes SQL types in metadata, one answer for {@code getColumns}, {@code
 * getTypeInfo} and {@code ResultSetMetaData} (DESIGN §4). Type names are the spellings Floe's
 * CREATE TABLE accepts, so a DDL written from metadata (as DBeaver's DDL tab does) creates the same
 * table; sizes follow JDBC: digits for numbers, characters for text and for the text form of dates
 * and times, bytes for binary.
 */
final class MetadataTypes {
  /** What metadata says about one SQL type. Null sizes mean "not applicable". */
  record Description(
      int jdbcType,
      String name,
      Integer size,
      Integer digits,
      Integer radix,
      Integer octets) {}

  /** Unbounded text and binary report the largest size JDBC can express. */
  static final int UNBOUNDED = Integer.MAX_VALUE;

  private MetadataTypes() {}

  /** The description of a column type, as the planner types Iceberg columns. */
  static Description of(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    switch (name) {
      case ARRAY:
        return complex(Types.ARRAY, "ARRAY<" + of(type.getComponentType()).name() + ">");
      case MAP:
        return complex(
            Types.OTHER,
            "MAP<" + of(type.getKeyType()).name() + ", " + of(type.getValueType()).name() + ">");
      case ROW:
        {
          List<String> fields = new ArrayList<>();
          for (RelDataTypeField field : type.getFieldList()) {
            fields.add(
                field.getName()
                    + ": "
                    + of(field.getType()).name()
                    + (field.getType().isNullable() ? "" : " NOT NULL"));
          }
          return complex(Types.STRUCT, "STRUCT<" + String.join(", ", fields) + ">");
        }
      default:
        return scalar(name, type.getPrecision(), type.getScale());
    }
  }

  /**
   * The description of a result column that does not come straight from a table, from what
   * Calcite reports: scalars exactly; arrays, maps and structs by their kind only.
   */
  static Description ofResult(int jdbcType, String calciteName, int precision, int scale) {
    if (jdbcType == Types.ARRAY) {
      return complex(Types.ARRAY, "ARRAY");
    }
    if (jdbcType == Types.STRUCT) {
      return complex(Types.STRUCT, "STRUCT");
    }
    if (calciteName != null && calciteName.endsWith(" MAP")) {
      return complex(Types.OTHER, "MAP");
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
        return new Description(Types.BOOLEAN, "BOOLEAN", 1, null, null, null);
      case TINYINT:
        return new Description(Types.TINYINT, "TINYINT", 3, 0, 10, null);
      case SMALLINT:
        return new Description(Types.SMALLINT, "SMALLINT", 5, 0, 10, null);
      case INTEGER:
        return new Description(Types.INTEGER, "INTEGER", 10, 0, 10, null);
      case BIGINT:
        return new Description(Types.BIGINT, "BIGINT", 19, 0, 10, null);
      case REAL:
        return new Description(Types.REAL, "REAL", 7, null, 10, null);
      case FLOAT:
      case DOUBLE:
        return new Description(Types.DOUBLE, "DOUBLE", 15, null, 10, null);
      case DECIMAL:
        return new Description(Types.DECIMAL, "DECIMAL", precision, scale, 10, null);
      case DATE:
        return new Description(Types.DATE, "DATE", 10, null, null, null);
      case TIME:
        return new Description(Types.TIME, "TIME", timeSize(8, precision), precision, null, null);
      case TIMESTAMP:
        return new Description(
            Types.TIMESTAMP, "TIMESTAMP", timeSize(19, precision), precision, null, null);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return new Description(
            Types.TIMESTAMP,
            "TIMESTAMP WITH LOCAL TIME ZONE",
            timeSize(19, precision),
            precision,
            null,
            null);
      case CHAR:
        return new Description(Types.CHAR, "CHAR", precision, null, null, 4 * precision);
      case VARCHAR:
        {
          int size = precision > 0 ? precision : UNBOUNDED;
          return new Description(
              Types.VARCHAR, "VARCHAR", size, null, null, precision > 0 ? 4 * precision : UNBOUNDED);
        }
      case UUID:
        return new Description(Types.OTHER, "UUID", 36, null, null, null);
      case BINARY:
        return new Description(Types.BINARY, "BINARY", precision, null, null, precision);
      case VARBINARY:
        {
          int size = precision > 0 ? precision : UNBOUNDED;
          return new Description(Types.VARBINARY, "VARBINARY", size, null, null, size);
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
    type(rows, "BIGINT", Types.BIGINT, 19, null, null, null, 0, 0, 10);
    type(rows, "VARBINARY", Types.VARBINARY, UNBOUNDED, "X'", "'", null, 0, 0, null);
    type(rows, "BINARY", Types.BINARY, UNBOUNDED, "X'", "'", "length", 0, 0, null);
    type(rows, "DECIMAL", Types.DECIMAL, 38, null, null, "precision,scale", 0, 38, 10);
    type(rows, "INTEGER", Types.INTEGER, 10, null, null, null, 0, 0, 10);
    type(rows, "REAL", Types.REAL, 7, null, null, null, 0, 0, 10);
    type(rows, "DOUBLE", Types.DOUBLE, 15, null, null, null, 0, 0, 10);
    type(rows, "VARCHAR", Types.VARCHAR, UNBOUNDED, "'", "'", null, 0, 0, null);
    type(rows, "BOOLEAN", Types.BOOLEAN, 1, null, null, null, 0, 0, null);
    type(rows, "DATE", Types.DATE, 10, "DATE '", "'", null, 0, 0, null);
    type(rows, "TIME", Types.TIME, 15, "TIME '", "'", null, 6, 6, null);
    type(rows, "TIMESTAMP", Types.TIMESTAMP, 29, "TIMESTAMP '", "'", "precision", 6, 9, null);
    type(
        rows,
        "TIMESTAMP WITH LOCAL TIME ZONE",
        Types.TIMESTAMP,
        29,
        "TIMESTAMP WITH LOCAL TIME ZONE '",
        "'",
        "precision",
        6,
        9,
        null);
    type(rows, "UUID", Types.OTHER, 36, null, null, null, 0, 0, null);
    type(rows, "MAP", Types.OTHER, null, null, null, null, 0, 0, null);
    type(rows, "STRUCT", Types.STRUCT, null, null, null, null, 0, 0, null);
    type(rows, "ARRAY", Types.ARRAY, null, null, null, null, 0, 0, null);
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
    boolean text = jdbcType == Types.VARCHAR;
    boolean complex =
        jdbcType == Types.ARRAY || jdbcType == Types.STRUCT || name.equals("MAP");
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
