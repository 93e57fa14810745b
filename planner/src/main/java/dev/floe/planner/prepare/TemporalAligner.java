package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.type.TemporalValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Keeps timestamps and times exact through Calcite's Enumerable runtime.
 *
 * <p>Calcite holds a TIMESTAMP as a {@code long} of milliseconds and a TIME as an {@code int} of
 * milliseconds of the day. Floe holds a TIMESTAMP(p) as a {@code long} in the unit its precision
 * needs: milliseconds for p &le; 3, microseconds for p &le; 6 (every Iceberg timestamp),
 * nanoseconds above; and a TIME(p) with p &gt; 3 likewise as a {@code long} of microseconds (every
 * Iceberg time) or nanoseconds of the day ({@link dev.floe.planner.type.LakeJavaTypeFactory}).
 * Scans emit those numbers as they are stored. Just before code generation this class rewrites the
 * optimized plan so that everything Calcite computes agrees with that: literals become numbers in
 * their unit, comparisons and conditional expressions between different precisions are rescaled
 * (with floor division, so values before 1970 stay right), casts to and from text parse and format
 * every digit, casts between TIME and TIMESTAMP and adding a day-time interval keep the
 * sub-millisecond digits, and any other operation on a timestamp gets its operand in milliseconds
 * and its result scaled back. An operation on a fine TIME whose result would depend on digits below
 * the millisecond and that is not made exact here is refused (0A000). Being the one rewrite of
 * expressions before code generation, it also gives UUIDs the ordering comparisons Calcite's
 * runtime lacks.
 */
final class TemporalAligner extends RexShuttle {
  private static final long SECONDS_PER_DAY = 86_400L;

  /**
   * Floe's exact runtime functions, created when a plan first needs one: creating them initializes
   * Calcite's table of operator implementations, which a plan without temporal arithmetic (a plain
   * scan) never needs before its first row.
   */
  private static final class Functions {
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

  private final RexBuilder rex;
  private final RelDataTypeFactory types;

  private TemporalAligner(RexBuilder rex) {
    this.rex = rex;
    this.types = rex.getTypeFactory();
  }

  private static SqlUserDefinedFunction function(
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

  /** Rewrites a whole optimized plan. */
  static RelNode align(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode aligned = align(input);
      inputs.add(aligned);
      changed |= aligned != input;
    }
    if (evaluatesCalls(rel)) {
      for (int i = 0; i < inputs.size(); i++) {
        RelNode input = inputs.get(i);
        if (i == 0 && passesLeftRowsThrough(rel) && !readsFineTime((Join) rel, input)) {
          // A semi- or anti-join's rows are its left input's, of that input's physical type,
          // which Calcite requires to be its own (EnumerableRelImplementor.result casts it).
          continue;
        }
        if (FineTimeRows.hasFineTime(input.getRowType())) {
          inputs.set(i, new FineTimeRows(input));
          changed = true;
        }
      }
    }
    RelNode node = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    TemporalAligner aligner = new TemporalAligner(node.getCluster().getRexBuilder());
    if (node instanceof Calc) {
      return aligner.alignCalc((Calc) node);
    }
    if (node instanceof Values) {
      return aligner.alignValues((Values) node);
    }
    if (node instanceof org.apache.calcite.rel.core.SetOp
        && node instanceof org.apache.calcite.adapter.enumerable.EnumerableRel) {
      return aligner.alignSetOp(node);
    }
    return node.accept(aligner);
  }

  /** Whether a join's result rows are its left input's rows as they are (SEMI and ANTI). */
  private static boolean passesLeftRowsThrough(RelNode rel) {
    return rel instanceof Join
        && (((Join) rel).getJoinType() == JoinRelType.SEMI
            || ((Join) rel).getJoinType() == JoinRelType.ANTI);
  }

  /**
   * Whether a join evaluates an expression over a TIME finer than milliseconds of its left input:
   * equality keys are not evaluated (the hash join compares the values as they are held), the rest
   * of the condition is.
   */
  private static boolean readsFineTime(Join join, RelNode left) {
    List<RelDataTypeField> fields = left.getRowType().getFieldList();
    for (RexNode remaining : join.analyzeCondition().nonEquiConditions) {
      for (int index : RelOptUtil.InputFinder.bits(remaining)) {
        if (index < fields.size() && isFineTime(fields.get(index).getType())) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean isUuid(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.UUID;
  }

  /** Whether a call orders two UUIDs ({@code <}, {@code <=}, {@code >}, {@code >=}). */
  private static boolean isUuidOrdering(RexCall call) {
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

  /** Whether Calcite generates code for expressions over the input rows of this node. */
  private static boolean evaluatesCalls(RelNode rel) {
    return rel instanceof org.apache.calcite.adapter.enumerable.EnumerableRel
        && (rel instanceof Calc
            || rel instanceof org.apache.calcite.rel.core.Filter
            || rel instanceof org.apache.calcite.rel.core.Join
            || rel instanceof org.apache.calcite.rel.core.Correlate
            || rel instanceof org.apache.calcite.rel.core.Window
            || rel instanceof org.apache.calcite.rel.core.Aggregate);
  }

  static boolean isTimestamp(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    return name == SqlTypeName.TIMESTAMP || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  }

  static boolean isTime(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.TIME;
  }

  private static boolean isTemporal(RelDataType type) {
    return isTimestamp(type) || isTime(type);
  }

  /** Whether Floe holds values of this type in a unit finer than Calcite's milliseconds. */
  static boolean isFine(RelDataType type) {
    return isTemporal(type) && type.getPrecision() > 3;
  }

  private static boolean isFineTime(RelDataType type) {
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

  private static long unit(RelDataType type) {
    return isTemporal(type) ? TemporalValues.unitsPerSecond(type.getPrecision()) : 0;
  }

  /** A fine literal as the number it is held as. */
  private static long units(RexLiteral literal, RelDataType type) {
    if (isTime(literal.getType())) {
      return TemporalValues.timeInUnit(literal.getValueAs(TimeString.class), type.getPrecision());
    }
    return TemporalValues.inUnit(literal.getValueAs(TimestampString.class), type.getPrecision());
  }

  private RelDataType withPrecision(RelDataType type, int precision) {
    return types.createTypeWithNullability(
        types.createSqlType(type.getSqlTypeName(), precision), type.isNullable());
  }

  private RelDataType bigint(boolean nullable) {
    return types.createTypeWithNullability(types.createSqlType(SqlTypeName.BIGINT), nullable);
  }

  private RexNode reinterpret(RelDataType type, RexNode e) {
    return rex.makeReinterpretCast(type, e, rex.makeLiteral(false));
  }

  private RexNode asBigint(RexNode e) {
    return reinterpret(bigint(e.getType().isNullable()), e);
  }

  /** A timestamp or time expression moved from one unit to another, typed as {@code target}. */
  private RexNode rescale(RexNode e, long from, long to, RelDataType target) {
    if (from == to) {
      return e.getType().equals(target) ? e : reinterpret(target, e);
    }
    return reinterpret(target, rescaleNumber(asBigint(e), from, to));
  }

  /** A BIGINT number moved from one unit to another. */
  private RexNode rescaleNumber(RexNode number, long from, long to) {
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

  private RexNode floorMod(RexNode number, long divisor) {
    return rex.makeCall(
        bigint(number.getType().isNullable()),
        Functions.FLOOR_MOD,
        List.of(number, rex.makeBigintLiteral(BigDecimal.valueOf(divisor))));
  }

  /** A fine timestamp or time expression as milliseconds, typed with precision 3. */
  private RexNode toMillis(RexNode e) {
    if (!isFine(e.getType())) {
      return e;
    }
    return rescale(e, unit(e.getType()), 1000, withPrecision(e.getType(), 3));
  }

  /** A millisecond timestamp or time expression in the unit of a fine type. */
  private RexNode fromMillis(RexNode e, RelDataType target) {
    return rescale(e, 1000, unit(target), target);
  }

  /** A fine TIME parameter is read as the BIGINT it is bound as (Calcite would read an int). */
  @Override
  public RexNode visitDynamicParam(org.apache.calcite.rex.RexDynamicParam param) {
    if (!isFineTime(param.getType())) {
      return param;
    }
    return reinterpret(
        param.getType(),
        new org.apache.calcite.rex.RexDynamicParam(
            bigint(param.getType().isNullable()), param.getIndex()));
  }

  @Override
  public RexNode visitLiteral(RexLiteral literal) {
    if (!isFine(literal.getType()) || literal.isNull()) {
      return literal;
    }
    long value = units(literal, literal.getType());
    return reinterpret(literal.getType(), rex.makeBigintLiteral(BigDecimal.valueOf(value)));
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
      return original.clone(original.getType(), List.of(difference(minus, sides)));
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
          return addInterval(call);
        }
        if (isFine(call.getType()) && isYearMonthIntervalArithmetic(call)) {
          return addMonths(call);
        }
        if (isFineDifference(call)) {
          if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(call.getType().getSqlTypeName())) {
            return difference(call, call.getOperands());
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
          return extract(call);
        }
        return generic(call);
      case FLOOR:
      case CEIL:
        if (call.getOperands().size() == 2
            && isFineTimestamp(call.getOperands().get(0).getType())) {
          return round(call);
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
  private @Nullable RexNode castFields(RexNode operand, RelDataType target) {
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
  private RexNode castTo(RexNode operand, RelDataType type) {
    if (operand.getType().equals(type)) {
      return operand;
    }
    RexNode cast = rex.makeCast(type, operand, true, false);
    if (cast instanceof RexLiteral) {
      return cast.accept(this); // a literal cast at once: aligned as any literal is
    }
    return cast instanceof RexCall && cast.getKind() == SqlKind.CAST ? cast((RexCall) cast) : cast;
  }

  /** Whether a type is or holds a TIME or TIMESTAMP, at any depth. */
  private static boolean holdsTemporal(RelDataType type) {
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

  /** Comparisons: both sides in the finer unit. */
  private RexNode compare(RexCall call) {
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
              : rescale(
                  operand,
                  u,
                  finest,
                  withPrecision(operand.getType(), finest == 1_000_000L ? 6 : 9)));
    }
    return call.clone(call.getType(), operands);
  }

  /** CASE, COALESCE and friends: every value in the unit of the result. */
  private RexNode choose(RexCall call) {
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
            rescale(
                operand,
                u,
                target,
                withPrecision(operand.getType(), call.getType().getPrecision())));
        changed = true;
      }
    }
    return changed ? call.clone(call.getType(), operands) : call;
  }

  private static boolean allInUnit(List<RexNode> operands, long unit) {
    for (RexNode operand : operands) {
      long u = unit(operand.getType());
      if (u != 0 && u != unit) {
        return false;
      }
    }
    return true;
  }

  private RexNode cast(RexCall call) {
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
      return toPrecision(rescale(operand, unit(source), unit(target), target), target);
    }
    boolean fromText = SqlTypeName.CHAR_TYPES.contains(source.getSqlTypeName());
    if (isFine(target)
        && (target.getSqlTypeName() == SqlTypeName.TIMESTAMP || isTime(target))
        && fromText) {
      return reinterpret(
          target,
          rex.makeCall(
              bigint(target.isNullable()),
              isTime(target) ? Functions.PARSE_TIME : Functions.PARSE,
              List.of(operand, rex.makeExactLiteral(BigDecimal.valueOf(target.getPrecision())))));
    }
    if (isTemporal(source) && isTemporal(target)) {
      RexNode moved =
          sameKind
              ? rescale(operand, unit(source), unit(target), target)
              : betweenKinds(operand, target);
      return toPrecision(moved, target);
    }
    if (isFine(target)) {
      return fromMillis(rex.makeCast(withPrecision(target, 3), operand, true, false), target);
    }
    if (isFineTime(source) && SqlTypeName.CHAR_TYPES.contains(target.getSqlTypeName())) {
      return rex.makeCast(
          target,
          rex.makeCall(
              types.createTypeWithNullability(
                  types.createSqlType(SqlTypeName.VARCHAR), source.isNullable()),
              Functions.FORMAT_TIME,
              List.of(
                  asBigint(operand),
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
                  asBigint(operand),
                  rex.makeExactLiteral(BigDecimal.valueOf(source.getPrecision())))),
          true,
          false);
    }
    return call.clone(target, List.of(toMillis(operand)));
  }

  /**
   * A cast between TIME, TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE: Calcite moves the whole
   * seconds (its casts to and from TIMESTAMP WITH LOCAL TIME ZONE drop the milliseconds), and the
   * fraction of the second, every digit of it, is added back (time zone offsets are whole seconds).
   */
  private RexNode betweenKinds(RexNode operand, RelDataType target) {
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
  private RexNode toPrecision(RexNode e, RelDataType target) {
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

  private static boolean isDayTimeIntervalArithmetic(RexCall call) {
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
  private RexNode addInterval(RexCall call) {
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

  private static boolean isFineTimestamp(RelDataType type) {
    return isTimestamp(type) && isFine(type);
  }

  private static int finestPrecision(List<RexNode> operands) {
    int precision = 0;
    for (RexNode operand : operands) {
      precision = Math.max(precision, operand.getType().getPrecision());
    }
    return precision;
  }

  /** A number divided by a positive divisor with the given rounding: floor, ceiling or to zero. */
  private RexNode divide(RexNode number, long divisor, SqlUserDefinedFunction rounding) {
    if (divisor == 1) {
      return number;
    }
    return rex.makeCall(
        bigint(number.getType().isNullable()),
        rounding,
        List.of(number, rex.makeBigintLiteral(BigDecimal.valueOf(divisor))));
  }

  private RexNode multiply(RexNode number, long factor) {
    if (factor == 1) {
      return number;
    }
    return rex.makeCall(
        SqlStdOperatorTable.MULTIPLY, number, rex.makeBigintLiteral(BigDecimal.valueOf(factor)));
  }

  private RexNode plus(RexNode a, RexNode b) {
    return rex.makeCall(SqlStdOperatorTable.PLUS, a, b);
  }

  /** A fine timestamp as milliseconds, rounded as given, typed with precision 3. */
  private RexNode toMillis(RexNode e, SqlUserDefinedFunction rounding) {
    return reinterpret(
        withPrecision(e.getType(), 3), divide(asBigint(e), unit(e.getType()) / 1000, rounding));
  }

  /** Whether a call is the difference of two timestamps (an interval), one of them fine. */
  private static boolean isFineDifference(RexCall call) {
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
  private RexNode difference(RexCall call, List<RexNode> sides) {
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
  private RexNode extract(RexCall call) {
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
  private RexNode round(RexCall call) {
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

  private static boolean isYearMonthIntervalArithmetic(RexCall call) {
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
  private RexNode addMonths(RexCall call) {
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

  /**
   * Anything else: fine operands as milliseconds, a fine result scaled back. A fine TIME operand is
   * accepted only where milliseconds give the exact answer.
   */
  private RexNode generic(RexCall call) {
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
      operands.add(toMillis(operand));
    }
    if (isFine(call.getType())) {
      RelDataType coarse = withPrecision(call.getType(), 3);
      return fromMillis(call.clone(coarse, operands), call.getType());
    }
    return call.clone(call.getType(), operands);
  }

  /**
   * Whether a call on a timestamp that is not made exact above gives the same answer on its
   * milliseconds as on all of its digits: one whose result is a date (it depends on the day only),
   * or the name of its day or month.
   */
  private static boolean timestampExactInMillis(RexCall call) {
    if (call.getType().getSqlTypeName() == SqlTypeName.DATE) {
      return true;
    }
    String name = call.getOperator().getName();
    return name.equals("DAYNAME") || name.equals("MONTHNAME");
  }

  private static boolean isConstructor(RexCall call) {
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
  private RexNode constructor(RexCall call) {
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
  private static boolean exactInMillis(RexCall call) {
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

  /** A Calc: its program expanded, aligned and rebuilt. */
  private RelNode alignCalc(Calc calc) {
    RexProgram program = calc.getProgram();
    List<RexNode> projects = new ArrayList<>();
    boolean changed = false;
    List<RelDataTypeField> outputs = program.getOutputRowType().getFieldList();
    for (RexLocalRef ref : program.getProjectList()) {
      RexNode expanded = program.expandLocalRef(ref);
      RexNode aligned = expanded.accept(this);
      // Calcite drops a cast that only changes a datetime's precision (TIME(0) into a TIME(6)
      // column of a UNION): the value must still be in the unit of the output.
      RelDataType output = outputs.get(projects.size()).getType();
      long from = unit(aligned.getType());
      long to = unit(output);
      if (from != 0 && to != 0 && from != to && (isFine(output) || isFine(aligned.getType()))) {
        aligned = rescale(aligned, from, to, output);
      }
      projects.add(aligned);
      changed |= aligned != expanded;
    }
    RexNode condition = null;
    if (program.getCondition() != null) {
      RexNode expanded = program.expandLocalRef(program.getCondition());
      condition = expanded.accept(this);
      changed |= condition != expanded;
    }
    if (!changed) {
      return calc;
    }
    RexProgram aligned =
        RexProgram.create(
            program.getInputRowType(), projects, condition, program.getOutputRowType(), rex);
    return calc.copy(calc.getTraitSet(), calc.getInput(), aligned);
  }

  /**
   * UNION and friends: Calcite lets an input with a coarser datetime (a TIME(0) literal) feed a
   * fine output column unchanged; such an input gets a Calc moving it to the output's unit.
   */
  private RelNode alignSetOp(RelNode setOp) {
    List<RelDataTypeField> outputs = setOp.getRowType().getFieldList();
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : setOp.getInputs()) {
      List<RelDataTypeField> fields = input.getRowType().getFieldList();
      List<RexNode> projects = new ArrayList<>();
      boolean rescaled = false;
      for (int i = 0; i < fields.size(); i++) {
        RelDataType type = fields.get(i).getType();
        RelDataType output = outputs.get(i).getType();
        RexNode ref = rex.makeInputRef(type, i);
        long from = unit(type);
        long to = unit(output);
        if (from != 0 && to != 0 && from != to && (isFine(type) || isFine(output))) {
          ref = rescale(ref, from, to, types.createTypeWithNullability(output, type.isNullable()));
          rescaled = true;
        }
        projects.add(ref);
      }
      if (rescaled) {
        RelDataTypeFactory.Builder rowType = types.builder();
        for (int i = 0; i < fields.size(); i++) {
          rowType.add(fields.get(i).getName(), projects.get(i).getType());
        }
        RexProgram program =
            RexProgram.create(input.getRowType(), projects, null, rowType.build(), rex);
        RelNode source =
            FineTimeRows.hasFineTime(input.getRowType()) ? new FineTimeRows(input) : input;
        inputs.add(EnumerableCalc.create(source, program));
        changed = true;
      } else {
        inputs.add(input);
      }
    }
    return changed ? setOp.copy(setOp.getTraitSet(), inputs) : setOp;
  }

  /**
   * VALUES with fine timestamp literals: those columns become BIGINT literals in their unit, and a
   * Calc above reinterprets them, so the row type seen above is unchanged.
   */
  private RelNode alignValues(Values values) {
    List<RelDataTypeField> fields = values.getRowType().getFieldList();
    boolean fine = false;
    for (RelDataTypeField field : fields) {
      fine |= isFine(field.getType());
    }
    if (!fine || !(values instanceof EnumerableValues)) {
      return values;
    }
    RelDataTypeFactory.Builder rowType = types.builder();
    for (RelDataTypeField field : fields) {
      rowType.add(
          field.getName(),
          isFine(field.getType()) ? bigint(field.getType().isNullable()) : field.getType());
    }
    List<List<RexLiteral>> tuples = new ArrayList<>();
    for (List<RexLiteral> tuple : values.getTuples()) {
      List<RexLiteral> row = new ArrayList<>();
      for (int i = 0; i < tuple.size(); i++) {
        RexLiteral literal = tuple.get(i);
        RelDataType type = fields.get(i).getType();
        if (isFine(type)) {
          if (literal.isNull()) {
            row.add(rex.makeNullLiteral(bigint(true)));
          } else {
            long v = units(literal, type);
            row.add(
                (RexLiteral)
                    rex.makeLiteral(BigDecimal.valueOf(v), bigint(type.isNullable()), false));
          }
        } else {
          row.add(literal);
        }
      }
      tuples.add(row);
    }
    RelDataType numbers = rowType.build();
    EnumerableValues raw =
        EnumerableValues.create(
            values.getCluster(),
            numbers,
            com.google.common.collect.ImmutableList.copyOf(
                tuples.stream().map(com.google.common.collect.ImmutableList::copyOf).toList()));
    List<RexNode> projects = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      RexNode ref = rex.makeInputRef(numbers.getFieldList().get(i).getType(), i);
      projects.add(
          isFine(fields.get(i).getType()) ? reinterpret(fields.get(i).getType(), ref) : ref);
    }
    RexProgram program = RexProgram.create(numbers, projects, null, values.getRowType(), rex);
    return EnumerableCalc.create(raw, program);
  }
}
