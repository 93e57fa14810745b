package dev.floe.planner.prepare;

import dev.floe.planner.rel.TemporalValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
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
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.TimestampString;

/**
 * Keeps timestamps exact through Calcite's Enumerable runtime.
 *
 * <p>Calcite holds a TIMESTAMP as a {@code long} of milliseconds. Floe holds a TIMESTAMP(p) as a
 * {@code long} in the unit its precision needs: milliseconds for p &le; 3, microseconds for p
 * &le; 6 (every Iceberg timestamp), nanoseconds above. Scans emit those numbers as they are
 * stored. Just before code generation this class rewrites the optimized plan so that everything
 * Calcite computes agrees with that: literals become numbers in their unit, comparisons and
 * conditional expressions between different precisions are rescaled (with floor division, so
 * values before 1970 stay right), casts to and from text parse and format every digit, adding a
 * day-time interval keeps the sub-millisecond digits, and any other operation gets its operand in
 * milliseconds and its result scaled back.
 */
final class TemporalAligner extends RexShuttle {
  private static final SqlUserDefinedFunction FLOOR_DIV =
      function("FLOE_FLOOR_DIV", "floorDiv", ReturnTypes.BIGINT_NULLABLE);
  private static final SqlUserDefinedFunction PARSE =
      function("FLOE_PARSE_TIMESTAMP", "parseTimestamp", ReturnTypes.BIGINT_NULLABLE);
  private static final SqlUserDefinedFunction FIT_BINARY =
      function("FLOE_FIT_BINARY", "fitBinary", ReturnTypes.ARG0);
  private static final SqlUserDefinedFunction FORMAT =
      function("FLOE_FORMAT_TIMESTAMP", "formatTimestamp", ReturnTypes.VARCHAR_2000_NULLABLE);

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
    RelNode node = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    TemporalAligner aligner = new TemporalAligner(node.getCluster().getRexBuilder());
    if (node instanceof Calc) {
      return aligner.alignCalc((Calc) node);
    }
    if (node instanceof Values) {
      return aligner.alignValues((Values) node);
    }
    return node.accept(aligner);
  }

  static boolean isTimestamp(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    return name == SqlTypeName.TIMESTAMP || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  }

  /** Whether Floe holds values of this type in a unit finer than Calcite's milliseconds. */
  static boolean isFine(RelDataType type) {
    return isTimestamp(type) && type.getPrecision() > 3;
  }

  /**
   * Whether an expression must not be folded by Calcite at planning time: it involves a fine
   * timestamp, or a cast to a fixed-length binary (which Calcite would cut instead of refusing).
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
    return isTimestamp(type) ? TemporalValues.unitsPerSecond(type.getPrecision()) : 0;
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

  /** A timestamp expression moved from one unit to another, typed as {@code target}. */
  private RexNode rescale(RexNode e, long from, long to, RelDataType target) {
    if (from == to) {
      return e.getType().equals(target) ? e : reinterpret(target, e);
    }
    RexNode number = asBigint(e);
    RexNode scaled;
    if (to > from) {
      scaled =
          rex.makeCall(
              SqlStdOperatorTable.MULTIPLY, number, rex.makeBigintLiteral(BigDecimal.valueOf(to / from)));
    } else {
      scaled =
          rex.makeCall(
              bigint(number.getType().isNullable()),
              FLOOR_DIV,
              List.of(number, rex.makeBigintLiteral(BigDecimal.valueOf(from / to))));
    }
    return reinterpret(target, scaled);
  }

  /** A fine timestamp expression as milliseconds, typed with precision 3. */
  private RexNode toMillis(RexNode e) {
    if (!isFine(e.getType())) {
      return e;
    }
    return rescale(e, unit(e.getType()), 1000, withPrecision(e.getType(), 3));
  }

  /** A millisecond timestamp expression in the unit of a fine type. */
  private RexNode fromMillis(RexNode e, RelDataType target) {
    return rescale(e, 1000, unit(target), target);
  }

  @Override
  public RexNode visitLiteral(RexLiteral literal) {
    if (!isFine(literal.getType()) || literal.isNull()) {
      return literal;
    }
    TimestampString ts = literal.getValueAs(TimestampString.class);
    long value = TemporalValues.inUnit(ts, literal.getType().getPrecision());
    return reinterpret(literal.getType(), rex.makeBigintLiteral(BigDecimal.valueOf(value)));
  }

  @Override
  public RexNode visitCall(RexCall original) {
    if (original.getKind() == SqlKind.SEARCH && isTimestamp(original.getOperands().get(0).getType())) {
      return RexUtil.expandSearch(rex, null, original).accept(this);
    }
    List<RexNode> operands = new ArrayList<>();
    boolean changed = false;
    for (RexNode operand : original.getOperands()) {
      RexNode visited = operand.accept(this);
      operands.add(visited);
      changed |= visited != operand;
    }
    RexCall call = changed ? (RexCall) original.clone(original.getType(), operands) : original;
    if (call.getOperator() == SqlStdOperatorTable.REINTERPRET
        || call.getOperator() == FLOOR_DIV
        || call.getOperator() == PARSE
        || call.getOperator() == FIT_BINARY
        || call.getOperator() == FORMAT) {
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
      case PLUS:
      case MINUS:
        if (isFine(call.getType()) && isDayTimeIntervalArithmetic(call)) {
          return addInterval(call);
        }
        return generic(call);
      default:
        return generic(call);
    }
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
      operands.add(u == 0 || u == finest ? operand : rescale(operand, u, finest, withPrecision(operand.getType(), finest == 1_000_000L ? 6 : 9)));
    }
    return call.clone(call.getType(), operands);
  }

  /** CASE, COALESCE and friends: every value in the unit of the result. */
  private RexNode choose(RexCall call) {
    if (!isTimestamp(call.getType())) {
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
        operands.set(i, rescale(operand, u, target, withPrecision(operand.getType(), call.getType().getPrecision())));
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
    if (target.getSqlTypeName() == SqlTypeName.BINARY
        && SqlTypeName.BINARY_TYPES.contains(source.getSqlTypeName())) {
      // Calcite would cut a longer value to the length; a fixed-length column refuses it.
      return rex.makeCall(
          target,
          FIT_BINARY,
          List.of(operand, rex.makeExactLiteral(BigDecimal.valueOf(target.getPrecision()))));
    }
    if (!isFine(source) && !isFine(target)) {
      return call;
    }
    boolean sameKind = source.getSqlTypeName() == target.getSqlTypeName();
    if (sameKind && isFine(source) && isFine(target)) {
      return rescale(operand, unit(source), unit(target), target);
    }
    if (isFine(target)) {
      if (target.getSqlTypeName() == SqlTypeName.TIMESTAMP
          && SqlTypeName.CHAR_TYPES.contains(source.getSqlTypeName())) {
        return reinterpret(
            target,
            rex.makeCall(
                bigint(target.isNullable()),
                PARSE,
                List.of(operand, rex.makeExactLiteral(BigDecimal.valueOf(target.getPrecision())))));
      }
      RelDataType coarse = withPrecision(target, 3);
      RexNode millis = isFine(source) ? toMillis(operand) : operand;
      return fromMillis(rex.makeCast(coarse, millis, true, false), target);
    }
    // fine source, coarse target
    if (source.getSqlTypeName() == SqlTypeName.TIMESTAMP
        && SqlTypeName.CHAR_TYPES.contains(target.getSqlTypeName())) {
      return rex.makeCast(
          target,
          rex.makeCall(
              types.createTypeWithNullability(
                  types.createSqlType(SqlTypeName.VARCHAR), source.isNullable()),
              FORMAT,
              List.of(asBigint(operand), rex.makeExactLiteral(BigDecimal.valueOf(source.getPrecision())))),
          true,
          false);
    }
    return call.clone(target, List.of(toMillis(operand)));
  }

  private static boolean isDayTimeIntervalArithmetic(RexCall call) {
    if (call.getOperands().size() != 2) {
      return false;
    }
    boolean hasTimestamp = false;
    boolean hasDayTime = false;
    for (RexNode operand : call.getOperands()) {
      SqlTypeName name = operand.getType().getSqlTypeName();
      hasTimestamp |= isTimestamp(operand.getType());
      hasDayTime |= SqlTypeName.DAY_INTERVAL_TYPES.contains(name);
    }
    return hasTimestamp && hasDayTime;
  }

  /** Timestamp plus or minus a day-time interval (held in milliseconds), every digit kept. */
  private RexNode addInterval(RexCall call) {
    RelDataType target = call.getType();
    long unit = unit(target);
    RexNode timestamp = null;
    RexNode interval = null;
    for (RexNode operand : call.getOperands()) {
      if (isTimestamp(operand.getType())) {
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
    return reinterpret(target, sum);
  }

  /** Anything else: fine operands as milliseconds, a fine result scaled back. */
  private RexNode generic(RexCall call) {
    boolean fineOperand = false;
    for (RexNode operand : call.getOperands()) {
      fineOperand |= isFine(operand.getType());
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

  /** A Calc: its program expanded, aligned and rebuilt. */
  private RelNode alignCalc(Calc calc) {
    RexProgram program = calc.getProgram();
    List<RexNode> projects = new ArrayList<>();
    boolean changed = false;
    for (RexLocalRef ref : program.getProjectList()) {
      RexNode expanded = program.expandLocalRef(ref);
      RexNode aligned = expanded.accept(this);
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
      rowType.add(field.getName(), isFine(field.getType()) ? bigint(field.getType().isNullable()) : field.getType());
    }
    List<List<RexLiteral>> tuples = new ArrayList<>();
    for (List<RexLiteral> tuple : values.getTuples()) {
      List<RexLiteral> row = new ArrayList<>();
      for (int i = 0; i < tuple.size(); i++) {
        RexLiteral literal = tuple.get(i);
        RelDataType type = fields.get(i).getType();
        if (isFine(type)) {
          if (literal.isNull()) {
            row.add((RexLiteral) rex.makeNullLiteral(bigint(true)));
          } else {
            long v = TemporalValues.inUnit(literal.getValueAs(TimestampString.class), type.getPrecision());
            row.add((RexLiteral) rex.makeLiteral(BigDecimal.valueOf(v), bigint(type.isNullable()), false));
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
            values.getCluster(), numbers, com.google.common.collect.ImmutableList.copyOf(tuples.stream().map(com.google.common.collect.ImmutableList::copyOf).toList()));
    List<RexNode> projects = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      RexNode ref = rex.makeInputRef(numbers.getFieldList().get(i).getType(), i);
      projects.add(isFine(fields.get(i).getType()) ? reinterpret(fields.get(i).getType(), ref) : ref);
    }
    RexProgram program = RexProgram.create(numbers, projects, null, values.getRowType(), rex);
    return EnumerableCalc.create(raw, program);
  }
}
