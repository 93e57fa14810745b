package dev.floe.planner.prepare;

import dev.floe.planner.type.TemporalValues;
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
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * The arithmetic of timestamps and times held in Floe's units (part of the rewrite {@link
 * TemporalAligner} makes): a value moved from one unit to another with floor division, so values
 * before 1970 stay right; casts between TIME, TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE keeping
 * the fraction of the second; a day-time or year-month interval added to a fine timestamp or time;
 * the exact difference of two timestamps; EXTRACT, FLOOR and CEIL of a fine timestamp. Each builds
 * the expression Calcite's generated code then evaluates, with Floe's exact runtime functions
 * ({@link TemporalFunctions}) where Calcite's operators would lose digits. Also the tests on types
 * the rewrite shares: which types are temporal, and which are held finer than milliseconds.
 */
final class TemporalArithmetic {
  private final RexBuilder rex;
  private final RelDataTypeFactory types;

  TemporalArithmetic(RexBuilder rex) {
    this.rex = rex;
    this.types = rex.getTypeFactory();
  }

  static final long SECONDS_PER_DAY = 86_400L;

  /**
   * Floe's exact runtime functions, created when a plan first needs one: creating them initializes
   * Calcite's table of operator implementations, which a plan without temporal arithmetic (a plain
   * scan) never needs before its first row.
   */
  static final class Functions {
    static final SqlUserDefinedFunction FLOOR_DIV =
        function("FLOE_FLOOR_DIV", "floorDiv", ReturnTypes.BIGINT_NULLABLE);
    static final SqlUserDefinedFunction PARSE =
        function("FLOE_PARSE_TIMESTAMP", "parseTimestamp", ReturnTypes.BIGINT_NULLABLE);
    static final SqlUserDefinedFunction FIT_BINARY =
        function("FLOE_FIT_BINARY", "fitBinary", ReturnTypes.ARG0);
    static final SqlUserDefinedFunction FORMAT =
        function("FLOE_FORMAT_TIMESTAMP", "formatTimestamp", ReturnTypes.VARCHAR_2000_NULLABLE);
    static final SqlUserDefinedFunction FLOOR_MOD =
        function("FLOE_FLOOR_MOD", "floorMod", ReturnTypes.BIGINT_NULLABLE);
    static final SqlUserDefinedFunction PARSE_TIME =
        function("FLOE_PARSE_TIME", "parseTime", ReturnTypes.BIGINT_NULLABLE);
    static final SqlUserDefinedFunction FORMAT_TIME =
        function("FLOE_FORMAT_TIME", "formatTime", ReturnTypes.VARCHAR_2000_NULLABLE);
    static final SqlUserDefinedFunction CEIL_DIV =
        function("FLOE_CEIL_DIV", "ceilDiv", ReturnTypes.BIGINT_NULLABLE);
    static final SqlUserDefinedFunction TRUNC_DIV =
        function("FLOE_TRUNC_DIV", "truncDiv", ReturnTypes.BIGINT_NULLABLE);
    static final SqlUserDefinedFunction SUBTRACT_MONTHS =
        function("FLOE_SUBTRACT_MONTHS", "subtractMonths", ReturnTypes.INTEGER_NULLABLE);
    static final SqlUserDefinedFunction COMPARE_UUID =
        function("FLOE_COMPARE_UUID", "compareUuid", ReturnTypes.INTEGER_NULLABLE);

    private Functions() {}
  }

  static SqlUserDefinedFunction function(
      String name, String method, org.apache.calcite.sql.type.SqlReturnTypeInference returns) {
    for (java.lang.reflect.Method m : TemporalFunctions.class.getMethods()) {
      if (m.getName().equals(method)) {
        return new SqlUserDefinedFunction(
            new SqlIdentifier(name, SqlParserPos.ZERO),
            SqlKind.OTHER_FUNCTION,
            returns,
            InferTypes.FIRST_KNOWN,
            (org.apache.calcite.sql.type.SqlOperandMetadata) null,
            ScalarFunctionImpl.create(m));
      }
    }
    throw new IllegalStateException("No method " + method);
  }

  static boolean isUuid(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.UUID;
  }

  static boolean isTimestamp(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    return name == SqlTypeName.TIMESTAMP || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  }

  static boolean isTime(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.TIME;
  }

  static boolean isTemporal(RelDataType type) {
    return isTimestamp(type) || isTime(type);
  }

  /** Whether Floe holds values of this type in a unit finer than Calcite's milliseconds. */
  static boolean isFine(RelDataType type) {
    return isTemporal(type) && type.getPrecision() > 3;
  }

  static boolean isFineTime(RelDataType type) {
    return isTime(type) && isFine(type);
  }

  /**
   * Whether an expression must not be folded by Calcite at planning time: it involves a fine
   * timestamp or time, or a cast to a fixed-length binary (which Calcite would cut instead of
   * refusing).
   */
  static boolean mentionsFine(RexNode node) {
    if (isFine(node.getType())) {
      return true;
    }
    if (node.getKind() == SqlKind.CAST && node.getType().getSqlTypeName() == SqlTypeName.BINARY) {
      return true;
    }
    if (node instanceof RexCall) {
      for (RexNode operand : ((RexCall) node).getOperands()) {
        if (mentionsFine(operand)) {
          return true;
        }
      }
    }
    return false;
  }

  static long unit(RelDataType type) {
    return isTemporal(type) ? TemporalValues.unitsPerSecond(type.getPrecision()) : 0;
  }

  /** A fine literal as the number it is held as. */
  static long units(RexLiteral literal, RelDataType type) {
    if (isTime(literal.getType())) {
      return TemporalValues.timeInUnit(literal.getValueAs(TimeString.class), type.getPrecision());
    }
    return TemporalValues.inUnit(literal.getValueAs(TimestampString.class), type.getPrecision());
  }

  RelDataType withPrecision(RelDataType type, int precision) {
    return types.createTypeWithNullability(
        types.createSqlType(type.getSqlTypeName(), precision), type.isNullable());
  }

  RelDataType bigint(boolean nullable) {
    return types.createTypeWithNullability(types.createSqlType(SqlTypeName.BIGINT), nullable);
  }

  RexNode reinterpret(RelDataType type, RexNode e) {
    return rex.makeReinterpretCast(type, e, rex.makeLiteral(false));
  }

  RexNode asBigint(RexNode e) {
    return reinterpret(bigint(e.getType().isNullable()), e);
  }

  /** A timestamp or time expression moved from one unit to another, typed as {@code target}. */
  RexNode rescale(RexNode e, long from, long to, RelDataType target) {
    if (from == to) {
      return e.getType().equals(target) ? e : reinterpret(target, e);
    }
    return reinterpret(target, rescaleNumber(asBigint(e), from, to));
  }

  /** A BIGINT number moved from one unit to another. */
  RexNode rescaleNumber(RexNode number, long from, long to) {
    if (from == to) {
      return number;
    }
    RexNode scaled;
    if (to > from) {
      scaled =
          rex.makeCall(
              SqlStdOperatorTable.MULTIPLY,
              number,
              rex.makeBigintLiteral(BigDecimal.valueOf(to / from)));
    } else {
      scaled =
          rex.makeCall(
              bigint(number.getType().isNullable()),
              Functions.FLOOR_DIV,
              List.of(number, rex.makeBigintLiteral(BigDecimal.valueOf(from / to))));
    }
    return scaled;
  }

  RexNode floorMod(RexNode number, long divisor) {
    return rex.makeCall(
        bigint(number.getType().isNullable()),
        Functions.FLOOR_MOD,
        List.of(number, rex.makeBigintLiteral(BigDecimal.valueOf(divisor))));
  }

  /** A fine timestamp or time expression as milliseconds, typed with precision 3. */
  RexNode toMillis(RexNode e) {
    if (!isFine(e.getType())) {
      return e;
    }
    return rescale(e, unit(e.getType()), 1000, withPrecision(e.getType(), 3));
  }

  /** A millisecond timestamp or time expression in the unit of a fine type. */
  RexNode fromMillis(RexNode e, RelDataType target) {
    return rescale(e, 1000, unit(target), target);
  }

  /** Whether a type is or holds a TIME or TIMESTAMP, at any depth. */
  static boolean holdsTemporal(RelDataType type) {
    if (isTemporal(type)) {
      return true;
    }
    if (type.isStruct()) {
      return type.getFieldList().stream().anyMatch(f -> holdsTemporal(f.getType()));
    }
    if (type.getComponentType() != null && holdsTemporal(type.getComponentType())) {
      return true;
    }
    return type.getKeyType() != null
        && (holdsTemporal(type.getKeyType())
            || (type.getValueType() != null && holdsTemporal(type.getValueType())));
  }

  /**
   * A cast between TIME, TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE: Calcite moves the whole
   * seconds (its casts to and from TIMESTAMP WITH LOCAL TIME ZONE drop the milliseconds), and the
   * fraction of the second, every digit of it, is added back (time zone offsets are whole seconds).
   */
  RexNode betweenKinds(RexNode operand, RelDataType target) {
    RelDataType source = operand.getType();
    RexNode seconds = divide(asBigint(operand), unit(source), Functions.FLOOR_DIV);
    RexNode wholeMillis = reinterpret(withPrecision(source, 3), multiply(seconds, 1000));
    RexNode cast = rex.makeCast(withPrecision(target, 3), wholeMillis, true, false);
    RexNode fraction = floorMod(asBigint(operand), unit(source));
    return reinterpret(
        target,
        plus(
            rescaleNumber(asBigint(cast), 1000, unit(target)),
            rescaleNumber(fraction, unit(source), unit(target))));
  }

  /** A timestamp or time cut down to the digits of its precision, where its unit holds more. */
  RexNode toPrecision(RexNode e, RelDataType target) {
    int precision = target.getPrecision();
    long digits = unit(target);
    long perSecond = 1;
    for (int i = 0; i < precision; i++) {
      perSecond *= 10;
    }
    if (perSecond >= digits) {
      return e;
    }
    long step = digits / perSecond;
    return reinterpret(target, multiply(divide(asBigint(e), step, Functions.FLOOR_DIV), step));
  }

  static boolean isDayTimeIntervalArithmetic(RexCall call) {
    if (call.getOperands().size() != 2) {
      return false;
    }
    boolean hasTimestamp = false;
    boolean hasDayTime = false;
    for (RexNode operand : call.getOperands()) {
      SqlTypeName name = operand.getType().getSqlTypeName();
      hasTimestamp |= isTemporal(operand.getType());
      hasDayTime |= SqlTypeName.DAY_INTERVAL_TYPES.contains(name);
    }
    return hasTimestamp && hasDayTime;
  }

  /**
   * Timestamp or time plus or minus a day-time interval (held in milliseconds), every digit kept; a
   * time wraps around midnight.
   */
  RexNode addInterval(RexCall call) {
    RelDataType target = call.getType();
    long unit = unit(target);
    RexNode timestamp = null;
    RexNode interval = null;
    for (RexNode operand : call.getOperands()) {
      if (isTemporal(operand.getType())) {
        timestamp = operand;
      } else {
        interval = operand;
      }
    }
    RexNode ts = rescale(timestamp, unit(timestamp.getType()), unit, target);
    RexNode delta =
        rex.makeCall(
            SqlStdOperatorTable.MULTIPLY,
            asBigint(interval),
            rex.makeBigintLiteral(BigDecimal.valueOf(unit / 1000)));
    RexNode sum =
        rex.makeCall(
            call.getKind() == SqlKind.MINUS ? SqlStdOperatorTable.MINUS : SqlStdOperatorTable.PLUS,
            asBigint(ts),
            delta);
    return reinterpret(target, isTime(target) ? floorMod(sum, SECONDS_PER_DAY * unit) : sum);
  }

  static boolean isFineTimestamp(RelDataType type) {
    return isTimestamp(type) && isFine(type);
  }

  static int finestPrecision(List<RexNode> operands) {
    int precision = 0;
    for (RexNode operand : operands) {
      precision = Math.max(precision, operand.getType().getPrecision());
    }
    return precision;
  }

  /** A number divided by a positive divisor with the given rounding: floor, ceiling or to zero. */
  RexNode divide(RexNode number, long divisor, SqlUserDefinedFunction rounding) {
    if (divisor == 1) {
      return number;
    }
    return rex.makeCall(
        bigint(number.getType().isNullable()),
        rounding,
        List.of(number, rex.makeBigintLiteral(BigDecimal.valueOf(divisor))));
  }

  RexNode multiply(RexNode number, long factor) {
    if (factor == 1) {
      return number;
    }
    return rex.makeCall(
        SqlStdOperatorTable.MULTIPLY, number, rex.makeBigintLiteral(BigDecimal.valueOf(factor)));
  }

  RexNode plus(RexNode a, RexNode b) {
    return rex.makeCall(SqlStdOperatorTable.PLUS, a, b);
  }

  /** A fine timestamp as milliseconds, rounded as given, typed with precision 3. */
  RexNode toMillis(RexNode e, SqlUserDefinedFunction rounding) {
    return reinterpret(
        withPrecision(e.getType(), 3), divide(asBigint(e), unit(e.getType()) / 1000, rounding));
  }

  /** Whether a call is the difference of two timestamps (an interval), one of them fine. */
  static boolean isFineDifference(RexCall call) {
    if (call.getKind() != SqlKind.MINUS
        || call.getOperands().size() != 2
        || !SqlTypeName.INTERVAL_TYPES.contains(call.getType().getSqlTypeName())) {
      return false;
    }
    RelDataType a = call.getOperands().get(0).getType();
    RelDataType b = call.getOperands().get(1).getType();
    return isTimestamp(a) && isTimestamp(b) && (isFine(a) || isFine(b));
  }

  /**
   * The exact difference of two timestamps: whole months (as Calcite counts them, the time of day
   * compared to the last digit) for a year-month interval, else the difference cut towards zero to
   * milliseconds, which is exact once divided down to a second or coarser, as TIMESTAMPDIFF does.
   */
  RexNode difference(RexCall call, List<RexNode> sides) {
    long finest = Math.max(unit(sides.get(0).getType()), unit(sides.get(1).getType()));
    List<RexNode> numbers = new ArrayList<>();
    for (RexNode side : sides) {
      numbers.add(rescaleNumber(asBigint(side), unit(side.getType()), finest));
    }
    boolean nullable = call.getType().isNullable();
    if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(call.getType().getSqlTypeName())) {
      RexNode months =
          rex.makeCall(
              types.createTypeWithNullability(types.createSqlType(SqlTypeName.INTEGER), nullable),
              Functions.SUBTRACT_MONTHS,
              List.of(
                  numbers.get(0),
                  numbers.get(1),
                  rex.makeBigintLiteral(BigDecimal.valueOf(finest))));
      return reinterpret(call.getType(), months);
    }
    RexNode units = rex.makeCall(SqlStdOperatorTable.MINUS, numbers.get(0), numbers.get(1));
    return reinterpret(call.getType(), divide(units, finest / 1000, Functions.TRUNC_DIV));
  }

  /**
   * EXTRACT from a fine timestamp: MICROSECOND and NANOSECOND (the second of the minute with its
   * fraction) from every digit, EPOCH cut towards zero as Calcite does, every other field from the
   * milliseconds, which decide it.
   */
  RexNode extract(RexCall call) {
    TimeUnitRange field = (TimeUnitRange) ((RexLiteral) call.getOperands().get(0)).getValue();
    RexNode operand = call.getOperands().get(1);
    long unit = unit(operand.getType());
    RexNode result;
    switch (field) {
      case MICROSECOND:
      case NANOSECOND:
        {
          long perSecond = field == TimeUnitRange.MICROSECOND ? 1_000_000L : 1_000_000_000L;
          RexNode seconds =
              rex.makeCall(
                  SqlStdOperatorTable.EXTRACT,
                  rex.makeFlag(TimeUnitRange.SECOND),
                  toMillis(operand));
          RexNode fraction = floorMod(asBigint(operand), unit);
          fraction =
              perSecond >= unit
                  ? multiply(fraction, perSecond / unit)
                  : divide(fraction, unit / perSecond, Functions.FLOOR_DIV);
          result =
              plus(
                  multiply(
                      rex.makeCast(bigint(seconds.getType().isNullable()), seconds), perSecond),
                  fraction);
          break;
        }
      case EPOCH:
        result =
            call.clone(
                call.getType(),
                List.of(call.getOperands().get(0), toMillis(operand, Functions.TRUNC_DIV)));
        break;
      default:
        result = call.clone(call.getType(), List.of(call.getOperands().get(0), toMillis(operand)));
    }
    return result.getType().equals(call.getType())
        ? result
        : rex.makeCast(call.getType(), result, true, false);
  }

  /**
   * FLOOR and CEIL of a fine timestamp: to a millisecond or coarser, from the milliseconds rounded
   * the same way (which give the same answer); to a microsecond or nanosecond, exactly.
   */
  RexNode round(RexCall call) {
    RexNode operand = call.getOperands().get(0);
    TimeUnitRange field = (TimeUnitRange) ((RexLiteral) call.getOperands().get(1)).getValue();
    SqlUserDefinedFunction rounding =
        call.getKind() == SqlKind.CEIL ? Functions.CEIL_DIV : Functions.FLOOR_DIV;
    long unit = unit(operand.getType());
    if (field == TimeUnitRange.MICROSECOND || field == TimeUnitRange.NANOSECOND) {
      long step = field == TimeUnitRange.MICROSECOND ? Math.max(1, unit / 1_000_000L) : 1;
      RexNode rounded = multiply(divide(asBigint(operand), step, rounding), step);
      return rescale(
          reinterpret(operand.getType(), rounded), unit, unit(call.getType()), call.getType());
    }
    RexNode coarse =
        call.clone(
            withPrecision(call.getType(), 3),
            List.of(toMillis(operand, rounding), call.getOperands().get(1)));
    return fromMillis(coarse, call.getType());
  }

  static boolean isYearMonthIntervalArithmetic(RexCall call) {
    if (call.getOperands().size() != 2) {
      return false;
    }
    boolean hasTimestamp = false;
    boolean hasYearMonth = false;
    for (RexNode operand : call.getOperands()) {
      hasTimestamp |= isTimestamp(operand.getType());
      hasYearMonth |= SqlTypeName.YEAR_INTERVAL_TYPES.contains(operand.getType().getSqlTypeName());
    }
    return hasTimestamp && hasYearMonth;
  }

  /**
   * A fine timestamp plus or minus a year-month interval: Calcite moves the milliseconds (keeping
   * the time of day), the digits below are added back.
   */
  RexNode addMonths(RexCall call) {
    RexNode timestamp = null;
    List<RexNode> operands = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      if (isTimestamp(operand.getType())) {
        timestamp = operand;
        operands.add(toMillis(operand));
      } else {
        operands.add(operand);
      }
    }
    RelDataType target = call.getType();
    RexNode moved = fromMillis(call.clone(withPrecision(target, 3), operands), target);
    if (!isFine(timestamp.getType())) {
      return moved;
    }
    RexNode below = floorMod(asBigint(timestamp), unit(timestamp.getType()) / 1000);
    return reinterpret(
        target,
        plus(asBigint(moved), rescaleNumber(below, unit(timestamp.getType()), unit(target))));
  }
}
