package dev.floe.planner.prepare;

import static dev.floe.planner.prepare.TemporalArithmetic.finestPrecision;
import static dev.floe.planner.prepare.TemporalArithmetic.holdsTemporal;
import static dev.floe.planner.prepare.TemporalArithmetic.isDayTimeIntervalArithmetic;
import static dev.floe.planner.prepare.TemporalArithmetic.isFine;
import static dev.floe.planner.prepare.TemporalArithmetic.isFineDifference;
import static dev.floe.planner.prepare.TemporalArithmetic.isFineTime;
import static dev.floe.planner.prepare.TemporalArithmetic.isFineTimestamp;
import static dev.floe.planner.prepare.TemporalArithmetic.isTemporal;
import static dev.floe.planner.prepare.TemporalArithmetic.isTime;
import static dev.floe.planner.prepare.TemporalArithmetic.isUuid;
import static dev.floe.planner.prepare.TemporalArithmetic.isYearMonthIntervalArithmetic;
import static dev.floe.planner.prepare.TemporalArithmetic.unit;
import static dev.floe.planner.prepare.TemporalArithmetic.units;

import dev.floe.error.FloeError;
import dev.floe.planner.prepare.TemporalArithmetic.Functions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The expression rewrites of {@link TemporalAligner}: a fine literal becomes the number it is held
 * as, a fine TIME parameter is read as the BIGINT it is bound as, comparisons and conditional
 * expressions (CASE, COALESCE, GREATEST, ...) between different precisions are rescaled to one
 * unit, casts to and from text parse and format every digit, and any other operation on a timestamp
 * gets its operand in milliseconds and its result scaled back ({@link TemporalArithmetic} builds
 * the arithmetic). An operation on a fine TIME whose result would depend on digits below the
 * millisecond and that is not made exact is refused (0A000). Being the one rewrite of expressions
 * before code generation, it also gives UUIDs the ordering comparisons Calcite's runtime lacks.
 */
final class TemporalRewrites extends RexShuttle {
  private final RexBuilder rex;
  private final RelDataTypeFactory types;
  private final TemporalArithmetic math;

  TemporalRewrites(RexBuilder rex, TemporalArithmetic math) {
    this.rex = rex;
    this.types = rex.getTypeFactory();
    this.math = math;
  }

  /** Whether a call orders two UUIDs ({@code <}, {@code <=}, {@code >}, {@code >=}). */
  static boolean isUuidOrdering(RexCall call) {
    switch (call.getKind()) {
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        return call.getOperands().size() == 2
            && isUuid(call.getOperands().get(0).getType())
            && isUuid(call.getOperands().get(1).getType());
      default:
        return false;
    }
  }

  /** A fine TIME parameter is read as the BIGINT it is bound as (Calcite would read an int). */
  @Override
  public RexNode visitDynamicParam(org.apache.calcite.rex.RexDynamicParam param) {
    if (!isFineTime(param.getType())) {
      return param;
    }
    return math.reinterpret(
        param.getType(),
        new org.apache.calcite.rex.RexDynamicParam(
            math.bigint(param.getType().isNullable()), param.getIndex()));
  }

  @Override
  public RexNode visitLiteral(RexLiteral literal) {
    if (!isFine(literal.getType()) || literal.isNull()) {
      return literal;
    }
    long value = units(literal, literal.getType());
    return math.reinterpret(literal.getType(), rex.makeBigintLiteral(BigDecimal.valueOf(value)));
  }

  @Override
  public RexNode visitCall(RexCall original) {
    if (original.getKind() == SqlKind.SEARCH
        && (isTemporal(original.getOperands().get(0).getType())
            || isUuid(original.getOperands().get(0).getType()))) {
      return RexUtil.expandSearch(rex, null, original).accept(this);
    }
    if (original.getOperator() == SqlStdOperatorTable.REINTERPRET
        && original.getOperands().get(0) instanceof RexCall
        && isFineDifference((RexCall) original.getOperands().get(0))) {
      // TIMESTAMPDIFF: the difference read as a number, then divided down to its unit.
      RexCall minus = (RexCall) original.getOperands().get(0);
      List<RexNode> sides = new ArrayList<>();
      for (RexNode operand : minus.getOperands()) {
        sides.add(operand.accept(this));
      }
      return original.clone(original.getType(), List.of(math.difference(minus, sides)));
    }
    List<RexNode> operands = new ArrayList<>();
    boolean changed = false;
    for (RexNode operand : original.getOperands()) {
      RexNode visited = operand.accept(this);
      operands.add(visited);
      changed |= visited != operand;
    }
    RexCall call = changed ? original.clone(original.getType(), operands) : original;
    if (isUuidOrdering(call)) {
      // Calcite's runtime has no ordering comparison of UUIDs; Floe orders them as ORDER BY and
      // Iceberg 1.12's statistics do, by java.util.UUID's compareTo.
      return rex.makeCall(
          call.getOperator(),
          rex.makeCall(Functions.COMPARE_UUID, call.getOperands()),
          rex.makeExactLiteral(BigDecimal.ZERO));
    }
    if (call.getOperator() == SqlStdOperatorTable.REINTERPRET
        || call.getOperator() == Functions.FLOOR_DIV
        || call.getOperator() == Functions.PARSE
        || call.getOperator() == Functions.FIT_BINARY
        || call.getOperator() == Functions.FORMAT
        || call.getOperator() == Functions.FLOOR_MOD
        || call.getOperator() == Functions.PARSE_TIME
        || call.getOperator() == Functions.FORMAT_TIME
        || call.getOperator() == Functions.CEIL_DIV
        || call.getOperator() == Functions.TRUNC_DIV
        || call.getOperator() == Functions.SUBTRACT_MONTHS
        || call.getOperator() == Functions.COMPARE_UUID) {
      return call;
    }
    switch (call.getKind()) {
      case CAST:
        return cast(call);
      case EQUALS:
      case NOT_EQUALS:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
      case IS_DISTINCT_FROM:
      case IS_NOT_DISTINCT_FROM:
        return compare(call);
      case CASE:
      case COALESCE:
      case NULLIF:
      case GREATEST:
      case LEAST:
        return choose(call);
      case IS_NULL:
      case IS_NOT_NULL:
        return call;
      case ITEM:
        // arr[i] and m['k'] hand on the element as it is held, already in its type's unit.
        return call;
      case PLUS:
      case MINUS:
        if (isFine(call.getType()) && isDayTimeIntervalArithmetic(call)) {
          return math.addInterval(call);
        }
        if (isFine(call.getType()) && isYearMonthIntervalArithmetic(call)) {
          return math.addMonths(call);
        }
        if (isFineDifference(call)) {
          if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(call.getType().getSqlTypeName())) {
            return math.difference(call, call.getOperands());
          }
          throw FloeError.NOT_SUPPORTED.error(
              "the difference of two TIMESTAMP("
                  + finestPrecision(call.getOperands())
                  + ") values as a day-time interval (an interval holds milliseconds);"
                  + " TIMESTAMPDIFF is exact");
        }
        return generic(call);
      case EXTRACT:
        if (isFineTimestamp(call.getOperands().get(1).getType())) {
          return math.extract(call);
        }
        return generic(call);
      case FLOOR:
      case CEIL:
        if (call.getOperands().size() == 2
            && isFineTimestamp(call.getOperands().get(0).getType())) {
          return math.round(call);
        }
        return generic(call);
      default:
        return generic(call);
    }
  }

  /**
   * A cast of a ROW, ARRAY or MAP constructor to a nested type whose times or timestamps differ
   * from the constructor's, as the constructor of the cast fields: Calcite's cast of a nested value
   * keeps the values inside as they are, so a TIMESTAMP(0) held in milliseconds would be read as a
   * TIMESTAMP(6) in microseconds. Null when the cast is not such a one.
   */
  @Nullable RexNode castFields(RexNode operand, RelDataType target) {
    if (!(operand instanceof RexCall)
        || SqlTypeUtil.equalSansNullability(rex.getTypeFactory(), operand.getType(), target)
        || !holdsTemporal(target)) {
      return null;
    }
    RexCall constructor = (RexCall) operand;
    List<RexNode> fields = new ArrayList<>();
    switch (constructor.getKind()) {
      case ROW:
        if (!target.isStruct() || target.getFieldCount() != constructor.getOperands().size()) {
          return null;
        }
        for (int i = 0; i < target.getFieldCount(); i++) {
          fields.add(
              castTo(constructor.getOperands().get(i), target.getFieldList().get(i).getType()));
        }
        break;
      case ARRAY_VALUE_CONSTRUCTOR:
        if (target.getComponentType() == null) {
          return null;
        }
        for (RexNode element : constructor.getOperands()) {
          fields.add(castTo(element, target.getComponentType()));
        }
        break;
      case MAP_VALUE_CONSTRUCTOR:
        if (target.getKeyType() == null || target.getValueType() == null) {
          return null;
        }
        for (int i = 0; i < constructor.getOperands().size(); i++) {
          fields.add(
              castTo(
                  constructor.getOperands().get(i),
                  i % 2 == 0 ? target.getKeyType() : target.getValueType()));
        }
        break;
      default:
        return null;
    }
    return rex.makeCall(target, constructor.getOperator(), fields);
  }

  /** An operand cast to a type (aligned as any cast is), or the operand when it has that type. */
  RexNode castTo(RexNode operand, RelDataType type) {
    if (operand.getType().equals(type)) {
      return operand;
    }
    RexNode cast = rex.makeCast(type, operand, true, false);
    if (cast instanceof RexLiteral) {
      return cast.accept(this); // a literal cast at once: aligned as any literal is
    }
    return cast instanceof RexCall && cast.getKind() == SqlKind.CAST ? cast((RexCall) cast) : cast;
  }

  /** Comparisons: both sides in the finer unit. */
  RexNode compare(RexCall call) {
    long finest = 0;
    for (RexNode operand : call.getOperands()) {
      finest = Math.max(finest, unit(operand.getType()));
    }
    if (finest <= 1000 || allInUnit(call.getOperands(), finest)) {
      return call;
    }
    List<RexNode> operands = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      long u = unit(operand.getType());
      operands.add(
          u == 0 || u == finest
              ? operand
              : math.rescale(
                  operand,
                  u,
                  finest,
                  math.withPrecision(operand.getType(), finest == 1_000_000L ? 6 : 9)));
    }
    return call.clone(call.getType(), operands);
  }

  /** CASE, COALESCE and friends: every value in the unit of the result. */
  RexNode choose(RexCall call) {
    if (!isTemporal(call.getType())) {
      return call;
    }
    long target = unit(call.getType());
    List<RexNode> operands = new ArrayList<>(call.getOperands());
    boolean changed = false;
    for (int i = 0; i < operands.size(); i++) {
      boolean isValue = call.getKind() != SqlKind.CASE || i % 2 == 1 || i == operands.size() - 1;
      RexNode operand = operands.get(i);
      long u = unit(operand.getType());
      if (isValue && u != 0 && u != target) {
        operands.set(
            i,
            math.rescale(
                operand,
                u,
                target,
                math.withPrecision(operand.getType(), call.getType().getPrecision())));
        changed = true;
      }
    }
    return changed ? call.clone(call.getType(), operands) : call;
  }

  static boolean allInUnit(List<RexNode> operands, long unit) {
    for (RexNode operand : operands) {
      long u = unit(operand.getType());
      if (u != 0 && u != unit) {
        return false;
      }
    }
    return true;
  }

  RexNode cast(RexCall call) {
    RexNode operand = call.getOperands().get(0);
    RelDataType source = operand.getType();
    RelDataType target = call.getType();
    RexNode nested = castFields(operand, target);
    if (nested != null) {
      return nested;
    }
    if (target.getSqlTypeName() == SqlTypeName.BINARY
        && SqlTypeName.BINARY_TYPES.contains(source.getSqlTypeName())) {
      // Calcite would cut a longer value to the length; a fixed-length column refuses it.
      return rex.makeCall(
          target,
          Functions.FIT_BINARY,
          List.of(operand, rex.makeExactLiteral(BigDecimal.valueOf(target.getPrecision()))));
    }
    if (!isFine(source) && !isFine(target)) {
      return call;
    }
    boolean sameKind = source.getSqlTypeName() == target.getSqlTypeName();
    if (sameKind && isFine(source) && isFine(target)) {
      return math.toPrecision(math.rescale(operand, unit(source), unit(target), target), target);
    }
    boolean fromText = SqlTypeName.CHAR_TYPES.contains(source.getSqlTypeName());
    if (isFine(target)
        && (target.getSqlTypeName() == SqlTypeName.TIMESTAMP || isTime(target))
        && fromText) {
      return math.reinterpret(
          target,
          rex.makeCall(
              math.bigint(target.isNullable()),
              isTime(target) ? Functions.PARSE_TIME : Functions.PARSE,
              List.of(operand, rex.makeExactLiteral(BigDecimal.valueOf(target.getPrecision())))));
    }
    if (isTemporal(source) && isTemporal(target)) {
      RexNode moved =
          sameKind
              ? math.rescale(operand, unit(source), unit(target), target)
              : math.betweenKinds(operand, target);
      return math.toPrecision(moved, target);
    }
    if (isFine(target)) {
      return math.fromMillis(
          rex.makeCast(math.withPrecision(target, 3), operand, true, false), target);
    }
    if (isFineTime(source) && SqlTypeName.CHAR_TYPES.contains(target.getSqlTypeName())) {
      return rex.makeCast(
          target,
          rex.makeCall(
              types.createTypeWithNullability(
                  types.createSqlType(SqlTypeName.VARCHAR), source.isNullable()),
              Functions.FORMAT_TIME,
              List.of(
                  math.asBigint(operand),
                  rex.makeExactLiteral(BigDecimal.valueOf(source.getPrecision())))),
          true,
          false);
    }
    // fine source, coarse target
    if (source.getSqlTypeName() == SqlTypeName.TIMESTAMP
        && SqlTypeName.CHAR_TYPES.contains(target.getSqlTypeName())) {
      return rex.makeCast(
          target,
          rex.makeCall(
              types.createTypeWithNullability(
                  types.createSqlType(SqlTypeName.VARCHAR), source.isNullable()),
              Functions.FORMAT,
              List.of(
                  math.asBigint(operand),
                  rex.makeExactLiteral(BigDecimal.valueOf(source.getPrecision())))),
          true,
          false);
    }
    return call.clone(target, List.of(math.toMillis(operand)));
  }

  /**
   * Anything else: fine operands as milliseconds, a fine result scaled back. A fine TIME operand is
   * accepted only where milliseconds give the exact answer.
   */
  RexNode generic(RexCall call) {
    if (isConstructor(call)) {
      return constructor(call);
    }
    boolean fineOperand = false;
    for (RexNode operand : call.getOperands()) {
      fineOperand |= isFine(operand.getType());
      if (isFineTimestamp(operand.getType()) && !timestampExactInMillis(call)) {
        throw FloeError.NOT_SUPPORTED.error(
            call.getOperator().getName()
                + " on a TIMESTAMP("
                + operand.getType().getPrecision()
                + ") value (it would drop the digits below the millisecond)");
      }
      if (isFineTime(operand.getType()) && !exactInMillis(call)) {
        throw FloeError.NOT_SUPPORTED.error(
            call.getOperator().getName()
                + " on a TIME("
                + operand.getType().getPrecision()
                + ") value (it would drop the digits below the millisecond)");
      }
    }
    if (!fineOperand && !isFine(call.getType())) {
      return call;
    }
    List<RexNode> operands = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      operands.add(math.toMillis(operand));
    }
    if (isFine(call.getType())) {
      RelDataType coarse = math.withPrecision(call.getType(), 3);
      return math.fromMillis(call.clone(coarse, operands), call.getType());
    }
    return call.clone(call.getType(), operands);
  }

  /**
   * Whether a call on a timestamp that is not made exact above gives the same answer on its
   * milliseconds as on all of its digits: one whose result is a date (it depends on the day only),
   * or the name of its day or month.
   */
  static boolean timestampExactInMillis(RexCall call) {
    if (call.getType().getSqlTypeName() == SqlTypeName.DATE) {
      return true;
    }
    String name = call.getOperator().getName();
    return name.equals("DAYNAME") || name.equals("MONTHNAME");
  }

  static boolean isConstructor(RexCall call) {
    switch (call.getKind()) {
      case ROW:
      case ARRAY_VALUE_CONSTRUCTOR:
      case MAP_VALUE_CONSTRUCTOR:
        return true;
      default:
        return false;
    }
  }

  /**
   * ROW, ARRAY and MAP constructors hold their values as they are: a fine value must already be in
   * the unit of the field or element it becomes, or it is refused.
   */
  RexNode constructor(RexCall call) {
    List<RexNode> operands = call.getOperands();
    RelDataType type = call.getType();
    for (int i = 0; i < operands.size(); i++) {
      RelDataType target;
      if (call.getKind() == SqlKind.ROW) {
        target = type.getFieldList().get(i).getType();
      } else if (call.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
        target = type.getComponentType();
      } else {
        target = i % 2 == 0 ? type.getKeyType() : type.getValueType();
      }
      RelDataType source = operands.get(i).getType();
      if ((isFine(source) || isFine(target)) && unit(source) != unit(target)) {
        throw FloeError.NOT_SUPPORTED.error(
            call.getOperator().getName()
                + " of a "
                + source
                + " value as a "
                + target
                + " (it would change the value's unit)");
      }
    }
    return call;
  }

  /**
   * Whether a call on a time of day gives the same answer on its milliseconds as on all of its
   * digits: extracting a field no finer than a millisecond, or rounding down to one.
   */
  static boolean exactInMillis(RexCall call) {
    switch (call.getKind()) {
      case EXTRACT:
        {
          Object unit = ((RexLiteral) call.getOperands().get(0)).getValue();
          return unit != TimeUnitRange.MICROSECOND && unit != TimeUnitRange.NANOSECOND;
        }
      case FLOOR:
        return call.getOperands().size() == 2;
      default:
        return false;
    }
  }
}
