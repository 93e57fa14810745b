package dev.floe.command.procedure;

import dev.floe.error.FloeError;
import dev.floe.planner.adapter.RexToIceberg;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.type.DatetimeLiterals;
import dev.floe.planner.type.LakeJavaTypeFactory;
import dev.floe.planner.type.TemporalValues;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlAbstractDateTimeLiteral;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.BitString;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The {@code WHERE} clause of {@code optimize} (docs/maintenance.md, "Maintenance"): a predicate on
 * partition source columns, compared with literals, that selects whole partitions. It is translated
 * into an Iceberg expression and decided per partition through the partition transforms: a
 * partition is selected when the strict projection holds, skipped when the inclusive one fails, and
 * a partition that holds both matching and other rows refuses the statement, since compaction
 * rewrites whole partitions.
 */
final class PartitionPredicate {
  private static final String FORMS =
      "optimize's WHERE compares partition columns with literals, through =, <>, <, <=, >, >=,"
          + " IN, BETWEEN, IS [NOT] NULL, AND, OR and NOT";

  private final Table table;
  private final String name;
  private final ZoneId zone;
  private final Set<String> columns = new LinkedHashSet<>();
  private final Expression expression;
  private final Map<Integer, Evaluator[]> evaluators = new HashMap<>();

  /** Builds the literals handed to the one conversion; holds no state of a statement. */
  private static final RexBuilder REX = new RexBuilder(new LakeJavaTypeFactory());

  /**
   * @param where the parsed predicate
   * @param zone the session time zone, in which TIMESTAMP literals compared with a TIMESTAMP WITH
   *     LOCAL TIME ZONE column are read
   */
  PartitionPredicate(Table table, String name, SqlNode where, ZoneId zone) {
    this.table = table;
    this.name = name;
    this.zone = zone;
    this.expression = translate(where);
    checkPartitionColumns();
  }

  /**
   * Whether the predicate selects a data file's partition; refuses a partition it only partly
   * selects.
   */
  boolean selects(DataFile file) {
    Evaluator[] pair =
        evaluators.computeIfAbsent(
            file.specId(),
            id -> {
              PartitionSpec spec = table.specs().get(id);
              Types.StructType type = spec.partitionType();
              return new Evaluator[] {
                new Evaluator(type, Projections.inclusive(spec, true).project(expression), true),
                new Evaluator(type, Projections.strict(spec, true).project(expression), true)
              };
            });
    if (!pair[0].eval(file.partition())) {
      return false;
    }
    if (pair[1].eval(file.partition())) {
      return true;
    }
    PartitionSpec spec = table.specs().get(file.specId());
    throw FloeError.PROCEDURE.error(
        "optimize on " + name,
        "the WHERE clause does not select whole partitions: partition "
            + spec.partitionToPath(file.partition())
            + " holds rows it may match and rows it does not; compaction rewrites whole"
            + " partitions, so write the predicate on the partition boundaries (for a day"
            + " partition of ts: ts >= TIMESTAMP '2024-01-02 00:00:00')");
  }

  private void checkPartitionColumns() {
    PartitionSpec spec = table.spec();
    Schema schema = table.schema();
    Set<String> sources = new LinkedHashSet<>();
    for (PartitionField field : spec.fields()) {
      if (!field.transform().isVoid()) {
        sources.add(schema.findColumnName(field.sourceId()));
      }
    }
    if (sources.isEmpty()) {
      throw FloeError.PROCEDURE.error(
          "optimize on " + name,
          "the table is not partitioned, so a WHERE clause cannot select partitions; run optimize"
              + " without WHERE");
    }
    for (String column : columns) {
      if (!sources.contains(column)) {
        throw FloeError.PROCEDURE.error(
            "optimize on " + name,
            "column "
                + column
                + " is not a partition column; optimize's WHERE may only name the columns the"
                + " table is partitioned by: "
                + String.join(", ", sources));
      }
    }
  }

  private Expression translate(SqlNode node) {
    if (node instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.BOOLEAN) {
      return literal.booleanValue() ? Expressions.alwaysTrue() : Expressions.alwaysFalse();
    }
    if (!(node instanceof SqlCall call)) {
      throw unsupported(node);
    }
    List<SqlNode> operands = call.getOperandList();
    SqlKind kind = call.getKind();
    switch (kind) {
      case AND:
        {
          Expression result = Expressions.alwaysTrue();
          for (SqlNode operand : operands) {
            result = Expressions.and(result, translate(operand));
          }
          return result;
        }
      case OR:
        {
          Expression result = Expressions.alwaysFalse();
          for (SqlNode operand : operands) {
            result = Expressions.or(result, translate(operand));
          }
          return result;
        }
      case NOT:
        return Expressions.not(translate(operands.get(0)));
      case IS_NULL:
        return Expressions.isNull(column(operands.get(0)).name());
      case IS_NOT_NULL:
        return Expressions.notNull(column(operands.get(0)).name());
      case EQUALS:
      case NOT_EQUALS:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        return comparison(kind, operands.get(0), operands.get(1), call);
      case IN:
      case NOT_IN:
        {
          Types.NestedField column = column(operands.get(0));
          if (!(operands.get(1) instanceof SqlNodeList list)) {
            throw unsupported(call);
          }
          List<Object> values = new ArrayList<>();
          for (SqlNode item : list) {
            values.add(value(column, item));
          }
          Expression in = Expressions.in(column.name(), values);
          return kind == SqlKind.IN ? in : Expressions.not(in);
        }
      case BETWEEN:
        {
          if (((SqlBetweenOperator) call.getOperator()).flag == SqlBetweenOperator.Flag.SYMMETRIC) {
            throw unsupported(call);
          }
          Types.NestedField column = column(operands.get(0));
          Expression between =
              Expressions.and(
                  Expressions.greaterThanOrEqual(column.name(), value(column, operands.get(1))),
                  Expressions.lessThanOrEqual(column.name(), value(column, operands.get(2))));
          return ((SqlBetweenOperator) call.getOperator()).isNegated()
              ? Expressions.not(between)
              : between;
        }
      default:
        throw unsupported(call);
    }
  }

  private Expression comparison(SqlKind kind, SqlNode left, SqlNode right, SqlCall call) {
    if (!(left instanceof SqlIdentifier)) {
      if (!(right instanceof SqlIdentifier)) {
        throw unsupported(call);
      }
      return comparison(kind.reverse(), right, left, call);
    }
    Types.NestedField column = column(left);
    Object value = value(column, right);
    String c = column.name();
    return switch (kind) {
      case EQUALS -> Expressions.equal(c, value);
      case NOT_EQUALS -> Expressions.notEqual(c, value);
      case LESS_THAN -> Expressions.lessThan(c, value);
      case LESS_THAN_OR_EQUAL -> Expressions.lessThanOrEqual(c, value);
      case GREATER_THAN -> Expressions.greaterThan(c, value);
      default -> Expressions.greaterThanOrEqual(c, value);
    };
  }

  /** A top-level column: quoted names exactly, unquoted ones case-insensitively. */
  private Types.NestedField column(SqlNode node) {
    if (!(node instanceof SqlIdentifier identifier)) {
      throw unsupported(node);
    }
    String given = identifier.names.get(identifier.names.size() - 1);
    if (identifier.names.size() > 1 || identifier.isStar()) {
      throw FloeError.PROCEDURE.error(
          "optimize on " + name, "name the partition column " + given + " without a qualifier");
    }
    Types.NestedField field =
        ColumnNames.field(table.schema().columns(), SqlNames.part(identifier), "table " + name);
    columns.add(field.name());
    return field;
  }

  /** A literal as the Iceberg value of the column's type; 42804 when the types differ. */
  private Object value(Types.NestedField column, SqlNode node) {
    boolean negative = false;
    if (node instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS_PREFIX) {
      negative = true;
      node = call.operand(0);
    }
    if (node instanceof SqlUnknownLiteral unknown
        && unknown.tag.equalsIgnoreCase("UUID")
        && column.type().typeId() == Type.TypeID.UUID
        && !negative) {
      try {
        return java.util.UUID.fromString(unknown.getValue().trim());
      } catch (IllegalArgumentException e) {
        throw FloeError.INVALID_CAST.error(unknown.toString(), "it is not a valid UUID");
      }
    }
    if (node instanceof SqlUnknownLiteral unknown) {
      node = resolve(column, unknown);
    }
    if (!(node instanceof SqlLiteral literal)) {
      throw unsupported(node);
    }
    if (literal.getTypeName() == SqlTypeName.NULL) {
      throw FloeError.PROCEDURE.error(
          "optimize on " + name, "compare with IS NULL, not with NULL: " + column.name());
    }
    Type type = column.type();
    Object value =
        type.typeId() == Type.TypeID.BINARY || type.typeId() == Type.TypeID.FIXED
            ? (negative ? null : binary(type, literal))
            : RexToIceberg.value(rex(literal, negative, type), type, zone);
    if (value == null) {
      throw FloeError.COMPARISON_TYPE.error(
          column.name() + " of type " + type + " in table " + name,
          "the value " + (negative ? "-" : "") + node + " is not of that type");
    }
    return value;
  }

  /**
   * A literal as the scan's filters hold it, for the one conversion to Iceberg values ({@link
   * RexToIceberg#value}); a DATE compared with a timestamp column is its midnight, and a TIMESTAMP
   * WITH LOCAL TIME ZONE literal a wall-clock time in the session zone.
   */
  private RexNode rex(SqlLiteral literal, boolean negative, Type type) {
    if (literal instanceof SqlNumericLiteral number) {
      BigDecimal value = number.getValueAs(BigDecimal.class);
      value = negative ? value.negate() : value;
      return number.isExact() ? REX.makeExactLiteral(value) : REX.makeApproxLiteral(value);
    }
    if (negative) {
      return REX.makeNullLiteral(REX.getTypeFactory().createSqlType(SqlTypeName.NULL));
    }
    switch (literal.getTypeName()) {
      case BOOLEAN:
        return REX.makeLiteral(literal.booleanValue());
      case DATE:
        {
          DateString date = literal.getValueAs(DateString.class);
          boolean timestamp =
              type.typeId() == Type.TypeID.TIMESTAMP || type.typeId() == Type.TypeID.TIMESTAMP_NANO;
          return timestamp
              ? REX.makeTimestampLiteral(
                  TimestampString.fromMillisSinceEpoch(date.getMillisSinceEpoch()), 0)
              : REX.makeDateLiteral(date);
        }
      case TIME:
        return REX.makeTimeLiteral(
            literal.getValueAs(TimeString.class), ((SqlAbstractDateTimeLiteral) literal).getPrec());
      case TIMESTAMP:
        return REX.makeTimestampLiteral(
            literal.getValueAs(TimestampString.class),
            ((SqlAbstractDateTimeLiteral) literal).getPrec());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        {
          Instant instant =
              TemporalValues.parse(literal.getValueAs(TimestampString.class).toString())
                  .atZone(zone)
                  .toInstant();
          return REX.makeTimestampWithLocalTimeZoneLiteral(
              TimestampString.fromMillisSinceEpoch(instant.toEpochMilli())
                  .withNanos(instant.getNano()),
              ((SqlAbstractDateTimeLiteral) literal).getPrec());
        }
      default:
        return literal instanceof SqlCharStringLiteral
            ? REX.makeLiteral(literal.getValueAs(String.class))
            : REX.makeNullLiteral(REX.getTypeFactory().createSqlType(SqlTypeName.NULL));
    }
  }

  /** A binary literal for a BINARY or FIXED column (scans do not push binary comparisons). */
  private static Object binary(Type type, SqlLiteral literal) {
    if (literal.getTypeName() != SqlTypeName.BINARY) {
      return null;
    }
    byte[] bytes = literal.getValueAs(BitString.class).getAsByteArray();
    return type.typeId() == Type.TypeID.FIXED && bytes.length != ((Types.FixedType) type).length()
        ? null
        : ByteBuffer.wrap(bytes);
  }

  /** Resolves {@code DATE '...'} and {@code TIMESTAMP '...'} as the parser leaves them. */
  private SqlNode resolve(Types.NestedField column, SqlUnknownLiteral unknown) {
    String tag = unknown.tag.toUpperCase(Locale.ROOT);
    SqlTypeName type =
        tag.equals("TIMESTAMP WITH LOCAL TIME ZONE")
            ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
            : SqlTypeName.get(tag);
    if (type == null) {
      throw unsupported(unknown);
    }
    DatetimeLiterals.checkRange(unknown);
    try {
      return unknown.resolve(type);
    } catch (RuntimeException e) {
      throw FloeError.INVALID_DATETIME.error(unknown.toString(), "it is not a valid " + type);
    }
  }

  private RuntimeException unsupported(SqlNode node) {
    return FloeError.PROCEDURE.error("optimize on " + name, FORMS + "; not " + node);
  }
}
