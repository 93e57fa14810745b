package dev.floe.tck.fuzz;

import java.util.List;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The type of a column or of a query's output, with its spelling in Floe's DDL, in DuckDB's DDL and
 * as the Iceberg type Floe stores it as. Outputs of aggregates that the two engines type
 * differently (a SUM of INTEGER is INTEGER in Floe, HUGEINT in DuckDB) are {@link Kind#EXACT} or
 * {@link Kind#APPROX}: compared by value, not by type.
 */
record ColumnType(Kind kind, int precision, int scale, int length) {
  /** The kinds of value the fuzzer knows. */
  enum Kind {
    BOOLEAN,
    INT,
    BIGINT,
    REAL,
    DOUBLE,
    DECIMAL,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMPTZ,
    TIMESTAMP_NS,
    TIMESTAMPTZ_NS,
    VARCHAR,
    UUID,
    FIXED,
    BINARY,
    /** A number compared exactly, whatever its type (counts, sums of integers and decimals). */
    EXACT,
    /** A number compared within a relative tolerance (averages, sums of floating point). */
    APPROX
  }

  static final ColumnType BOOLEAN = of(Kind.BOOLEAN);
  static final ColumnType INT = of(Kind.INT);
  static final ColumnType BIGINT = of(Kind.BIGINT);
  static final ColumnType REAL = of(Kind.REAL);
  static final ColumnType DOUBLE = of(Kind.DOUBLE);
  static final ColumnType DATE = of(Kind.DATE);
  static final ColumnType TIME = of(Kind.TIME);
  static final ColumnType TIMESTAMP = of(Kind.TIMESTAMP);
  static final ColumnType TIMESTAMPTZ = of(Kind.TIMESTAMPTZ);
  static final ColumnType TIMESTAMP_NS = of(Kind.TIMESTAMP_NS);
  static final ColumnType TIMESTAMPTZ_NS = of(Kind.TIMESTAMPTZ_NS);
  static final ColumnType VARCHAR = of(Kind.VARCHAR);
  static final ColumnType UUID = of(Kind.UUID);
  static final ColumnType BINARY = of(Kind.BINARY);
  static final ColumnType EXACT = of(Kind.EXACT);
  static final ColumnType APPROX = of(Kind.APPROX);

  /** Kinds a generated column may have in a table of format version 2. */
  static final List<Kind> V2_KINDS =
      List.of(
          Kind.BOOLEAN,
          Kind.INT,
          Kind.BIGINT,
          Kind.REAL,
          Kind.DOUBLE,
          Kind.DECIMAL,
          Kind.DATE,
          Kind.TIME,
          Kind.TIMESTAMP,
          Kind.TIMESTAMPTZ,
          Kind.VARCHAR,
          Kind.UUID,
          Kind.FIXED,
          Kind.BINARY);

  static ColumnType of(Kind kind) {
    return new ColumnType(kind, 0, 0, 0);
  }

  static ColumnType decimal(int precision, int scale) {
    return new ColumnType(Kind.DECIMAL, precision, scale, 0);
  }

  static ColumnType fixed(int length) {
    return new ColumnType(Kind.FIXED, 0, 0, length);
  }

  /** The type as Floe's CREATE TABLE and ALTER TABLE spell it. */
  String floeDdl() {
    switch (kind) {
      case BOOLEAN:
        return "BOOLEAN";
      case INT:
        return "INT";
      case BIGINT:
        return "BIGINT";
      case REAL:
        return "REAL";
      case DOUBLE:
        return "DOUBLE";
      case DECIMAL:
        return "DECIMAL(" + precision + ", " + scale + ")";
      case DATE:
        return "DATE";
      case TIME:
        return "TIME";
      case TIMESTAMP:
        return "TIMESTAMP";
      case TIMESTAMPTZ:
        return "TIMESTAMP WITH LOCAL TIME ZONE";
      case TIMESTAMP_NS:
        return "TIMESTAMP(9)";
      case TIMESTAMPTZ_NS:
        return "TIMESTAMP(9) WITH LOCAL TIME ZONE";
      case VARCHAR:
        return "VARCHAR";
      case UUID:
        return "UUID";
      case FIXED:
        return "BINARY(" + length + ")";
      case BINARY:
        return "VARBINARY";
      default:
        throw new IllegalStateException("No DDL for " + kind);
    }
  }

  /**
   * The type as DuckDB spells it. DuckDB has no nanosecond timestamp with time zone; the fuzzer's
   * DuckDB session runs in UTC, where TIMESTAMP_NS orders and compares the same instants alike.
   */
  String duckDdl() {
    switch (kind) {
      case INT:
        return "INTEGER";
      case TIMESTAMPTZ:
        return "TIMESTAMPTZ";
      case TIMESTAMP_NS:
      case TIMESTAMPTZ_NS:
        return "TIMESTAMP_NS";
      case FIXED:
      case BINARY:
        return "BLOB";
      default:
        return floeDdl();
    }
  }

  /** The Iceberg type Floe stores a column of this type as. */
  Type iceberg() {
    switch (kind) {
      case BOOLEAN:
        return Types.BooleanType.get();
      case INT:
        return Types.IntegerType.get();
      case BIGINT:
        return Types.LongType.get();
      case REAL:
        return Types.FloatType.get();
      case DOUBLE:
        return Types.DoubleType.get();
      case DECIMAL:
        return Types.DecimalType.of(precision, scale);
      case DATE:
        return Types.DateType.get();
      case TIME:
        return Types.TimeType.get();
      case TIMESTAMP:
        return Types.TimestampType.withoutZone();
      case TIMESTAMPTZ:
        return Types.TimestampType.withZone();
      case TIMESTAMP_NS:
        return Types.TimestampNanoType.withoutZone();
      case TIMESTAMPTZ_NS:
        return Types.TimestampNanoType.withZone();
      case VARCHAR:
        return Types.StringType.get();
      case UUID:
        return Types.UUIDType.get();
      case FIXED:
        return Types.FixedType.ofLength(length);
      case BINARY:
        return Types.BinaryType.get();
      default:
        throw new IllegalStateException("No Iceberg type for " + kind);
    }
  }

  /** The type of a column Iceberg reports. */
  static ColumnType ofIceberg(Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return BOOLEAN;
      case INTEGER:
        return INT;
      case LONG:
        return BIGINT;
      case FLOAT:
        return REAL;
      case DOUBLE:
        return DOUBLE;
      case DECIMAL:
        return decimal(((Types.DecimalType) type).precision(), ((Types.DecimalType) type).scale());
      case DATE:
        return DATE;
      case TIME:
        return TIME;
      case TIMESTAMP:
        return ((Types.TimestampType) type).shouldAdjustToUTC() ? TIMESTAMPTZ : TIMESTAMP;
      case TIMESTAMP_NANO:
        return ((Types.TimestampNanoType) type).shouldAdjustToUTC() ? TIMESTAMPTZ_NS : TIMESTAMP_NS;
      case STRING:
        return VARCHAR;
      case UUID:
        return UUID;
      case FIXED:
        return fixed(((Types.FixedType) type).length());
      case BINARY:
        return BINARY;
      default:
        throw new IllegalArgumentException("The fuzzer has no column type for " + type);
    }
  }

  boolean isNumeric() {
    switch (kind) {
      case INT:
      case BIGINT:
      case REAL:
      case DOUBLE:
      case DECIMAL:
      case EXACT:
      case APPROX:
        return true;
      default:
        return false;
    }
  }

  boolean isInteger() {
    return kind == Kind.INT || kind == Kind.BIGINT;
  }

  boolean isFloatingPoint() {
    return kind == Kind.REAL || kind == Kind.DOUBLE || kind == Kind.APPROX;
  }

  boolean isTemporal() {
    switch (kind) {
      case DATE:
      case TIME:
      case TIMESTAMP:
      case TIMESTAMPTZ:
      case TIMESTAMP_NS:
      case TIMESTAMPTZ_NS:
        return true;
      default:
        return false;
    }
  }

  boolean isBinary() {
    return kind == Kind.FIXED || kind == Kind.BINARY;
  }

  /**
   * Whether both engines order values of this type alike. UUIDs are not: Floe compares them as Java
   * does (two signed longs), DuckDB as unsigned bytes; so ordering and range comparisons on UUIDs
   * are checked by the metamorphic oracles only.
   */
  boolean orderedAlike() {
    return kind != Kind.UUID;
  }

  /** The type a SUM of this type is compared as. */
  ColumnType sumType() {
    return isFloatingPoint() ? APPROX : EXACT;
  }

  /** The type this type becomes when compared by value (results of aggregates and arithmetic). */
  ColumnType byValue() {
    if (isFloatingPoint()) {
      return APPROX;
    }
    return isNumeric() ? EXACT : this;
  }

  /** Whether a column of type {@code from} may be widened to this type (Iceberg's promotions). */
  boolean widens(ColumnType from) {
    if (from.kind == Kind.INT && kind == Kind.BIGINT) {
      return true;
    }
    if (from.kind == Kind.REAL && kind == Kind.DOUBLE) {
      return true;
    }
    return from.kind == Kind.DECIMAL
        && kind == Kind.DECIMAL
        && scale == from.scale
        && precision > from.precision;
  }

  @Override
  public String toString() {
    return kind == Kind.EXACT || kind == Kind.APPROX ? kind.name() : floeDdl();
  }
}
