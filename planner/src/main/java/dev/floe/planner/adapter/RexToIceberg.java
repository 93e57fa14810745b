package dev.floe.planner.adapter;

import dev.floe.planner.type.TemporalValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Translates a Calcite filter into an Iceberg expression, conjunct by conjunct: the one translator
 * of SQL conditions to Iceberg, for scan pushdown and for optimize's WHERE ({@link #onPartitions}).
 * What translates exactly is <em>pushed</em> (Iceberg then prunes partitions, manifests, files and
 * row groups, and the scan evaluates the rest row by row); what does not stays <em>remaining</em>
 * as a filter above the scan. Comparisons carry {@code notNull} so SQL's three-valued logic is
 * kept.
 */
public final class RexToIceberg {
  /** The result: the pushed Iceberg expression and the conjuncts left for Calcite. */
  public record Split(Expression pushed, List<RexNode> remaining) {
    /** Whether anything was pushed. */
    public boolean pushedAny() {
      return pushed.op() != Expression.Operation.TRUE;
    }
  }

  private static final java.util.Set<SqlKind> BINARY_COMPARISONS =
      java.util.EnumSet.of(
          SqlKind.EQUALS,
          SqlKind.NOT_EQUALS,
          SqlKind.LESS_THAN,
          SqlKind.LESS_THAN_OR_EQUAL,
          SqlKind.GREATER_THAN,
          SqlKind.GREATER_THAN_OR_EQUAL);

  private final RexBuilder rexBuilder;
  private final Schema schema;
  private final List<Integer> columns;
  private final java.time.ZoneId sessionZone;
  private final boolean partitions;

  /**
   * A translator for a scan's filter, whose pushed expression Iceberg evaluates on rows too.
   *
   * @param schema the table schema
   * @param columns for each scan output field, the index of its top-level table column (-1 for
   *     fields that are not table columns)
   */
  public RexToIceberg(
      RexBuilder rexBuilder, Schema schema, List<Integer> columns, java.time.ZoneId sessionZone) {
    this(rexBuilder, schema, columns, sessionZone, false);
  }

  private RexToIceberg(
      RexBuilder rexBuilder,
      Schema schema,
      List<Integer> columns,
      java.time.ZoneId sessionZone,
      boolean partitions) {
    this.rexBuilder = rexBuilder;
    this.schema = schema;
    this.columns = columns;
    this.sessionZone = sessionZone;
    this.partitions = partitions;
  }

  /**
   * A translator for a condition decided on partition values alone (optimize's WHERE): equality of
   * binary and UUID columns translates too, since Iceberg compares the partition values as it
   * stores them, while a scan leaves those comparisons to Calcite.
   */
  public static RexToIceberg onPartitions(
      RexBuilder rexBuilder, Schema schema, List<Integer> columns, java.time.ZoneId sessionZone) {
    return new RexToIceberg(rexBuilder, schema, columns, sessionZone, true);
  }

  /** Splits a condition into what can be pushed and what remains. */
  public Split split(RexNode condition) {
    RexNode expanded = RexUtil.expandSearch(rexBuilder, null, condition);
    Expression pushed = Expressions.alwaysTrue();
    List<RexNode> remaining = new ArrayList<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(expanded)) {
      Expression translated = translate(conjunct);
      if (translated == null) {
        remaining.add(conjunct);
      } else {
        pushed = Expressions.and(pushed, translated);
      }
    }
    return new Split(pushed, remaining);
  }

  private @Nullable Expression translate(RexNode node) {
    if (!(node instanceof RexCall)) {
      if (node.isAlwaysTrue()) {
        return Expressions.alwaysTrue();
      }
      if (node instanceof RexInputRef && isBoolean(node)) {
        String name = column(node);
        return name == null ? null : Expressions.equal(name, true);
      }
      return null;
    }
    RexCall call = (RexCall) node;
    switch (call.getKind()) {
      case AND:
        {
          Expression result = Expressions.alwaysTrue();
          for (RexNode operand : call.getOperands()) {
            Expression e = translate(operand);
            if (e == null) {
              return null;
            }
            result = Expressions.and(result, e);
          }
          return result;
        }
      case OR:
        {
          Expression result = Expressions.alwaysFalse();
          for (RexNode operand : call.getOperands()) {
            Expression e = translate(operand);
            if (e == null) {
              return null;
            }
            result = Expressions.or(result, e);
          }
          return result;
        }
      case NOT:
        return translateNot(call.getOperands().get(0));
      case IS_NULL:
        {
          String name = column(call.getOperands().get(0));
          return name == null ? null : Expressions.isNull(name);
        }
      case IS_NOT_NULL:
        {
          String name = column(call.getOperands().get(0));
          return name == null ? null : Expressions.notNull(name);
        }
      case EQUALS:
      case NOT_EQUALS:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        return comparison(call, call.getKind());
      case LIKE:
        return prefixRange(call, false);
      default:
        return null;
    }
  }

  private @Nullable Expression translateNot(RexNode operand) {
    if (operand.getKind() == SqlKind.IS_NULL) {
      String name = column(((RexCall) operand).getOperands().get(0));
      return name == null ? null : Expressions.notNull(name);
    }
    if (operand.getKind() == SqlKind.IS_NOT_NULL) {
      String name = column(((RexCall) operand).getOperands().get(0));
      return name == null ? null : Expressions.isNull(name);
    }
    if (operand.getKind() == SqlKind.LIKE) {
      return prefixRange((RexCall) operand, true);
    }
    if (operand instanceof RexCall call && BINARY_COMPARISONS.contains(call.getKind())) {
      // NOT (a = b) is a <> b, NULL when either is: negated, the comparison keeps its notNull.
      return comparison(call, call.getKind().negateNullSafe());
    }
    if (operand instanceof RexInputRef && isBoolean(operand)) {
      String name = column(operand);
      return name == null ? null : Expressions.equal(name, false);
    }
    return null;
  }

  private @Nullable Expression comparison(RexCall call, SqlKind kind) {
    RexNode left = call.getOperands().get(0);
    RexNode right = call.getOperands().get(1);
    if (column(left) == null && column(right) != null) {
      RexNode swap = left;
      left = right;
      right = swap;
      kind = kind.reverse();
    }
    String name = column(left);
    if (name == null) {
      return null;
    }
    Type type = schema.findField(name).type();
    if (type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE) {
      // Iceberg compares floating-point values in a total order (-0.0 < 0.0, NaN above all), SQL
      // numerically (-0.0 = 0.0, NaN matches no comparison): pushed, `f = 0` would miss -0.0.
      return null;
    }
    boolean bytes =
        type.typeId() == Type.TypeID.BINARY
            || type.typeId() == Type.TypeID.FIXED
            || type.typeId() == Type.TypeID.UUID;
    if (bytes && !(partitions && (kind == SqlKind.EQUALS || kind == SqlKind.NOT_EQUALS))) {
      // Only equality: the order of bytes and UUIDs is Iceberg's own, not necessarily SQL's.
      return null;
    }
    Object value = value(right, type, sessionZone);
    if (value == null) {
      return null;
    }
    Expression cmp;
    switch (kind) {
      case EQUALS:
        cmp = Expressions.equal(name, value);
        break;
      case NOT_EQUALS:
        cmp = Expressions.notEqual(name, value);
        break;
      case LESS_THAN:
        cmp = Expressions.lessThan(name, value);
        break;
      case LESS_THAN_OR_EQUAL:
        cmp = Expressions.lessThanOrEqual(name, value);
        break;
      case GREATER_THAN:
        cmp = Expressions.greaterThan(name, value);
        break;
      case GREATER_THAN_OR_EQUAL:
        cmp = Expressions.greaterThanOrEqual(name, value);
        break;
      default:
        return null;
    }
    return Expressions.and(Expressions.notNull(name), cmp);
  }

  /**
   * {@code s LIKE 'p%'} (or its negation) as the range of strings that start with {@code p}: {@code
   * s >= 'p' AND s < 'q'}, where {@code q} is {@code p} with its last character's code point one
   * higher. Not Iceberg's startsWith: Iceberg's residual of a file's partition (1.12) dereferences
   * a NULL partition value under startsWith and notStartsWith, so a prefix filter failed on any
   * file of a NULL partition that the rest of the filter kept; comparisons take NULL partition
   * values, and prune files, row groups and partitions (identity and truncate) alike. Pushed only
   * when that character is below the surrogates, where Iceberg's string order (by code points) and
   * Java's (by UTF-16 units) agree on every string.
   */
  private @Nullable Expression prefixRange(RexCall like, boolean negated) {
    String prefix = likePrefix(like);
    String name = column(like.getOperands().get(0));
    if (prefix == null
        || name == null
        || schema.findField(name).type().typeId() != Type.TypeID.STRING) {
      return null;
    }
    int last = prefix.codePointBefore(prefix.length());
    if (last + 1 >= Character.MIN_SURROGATE) {
      return null;
    }
    String above =
        prefix.substring(0, prefix.length() - Character.charCount(last))
            + new String(Character.toChars(last + 1));
    Expression range =
        negated
            ? Expressions.or(
                Expressions.lessThan(name, prefix), Expressions.greaterThanOrEqual(name, above))
            : Expressions.and(
                Expressions.greaterThanOrEqual(name, prefix), Expressions.lessThan(name, above));
    return Expressions.and(Expressions.notNull(name), range);
  }

  private static @Nullable String likePrefix(RexCall like) {
    if (like.getOperator() != org.apache.calcite.sql.fun.SqlStdOperatorTable.LIKE) {
      // ILIKE (of kind LIKE too) ignores case; a prefix pushed to Iceberg would not.
      return null;
    }
    if (like.getOperands().size() != 2 || !(like.getOperands().get(1) instanceof RexLiteral)) {
      return null;
    }
    NlsString pattern = ((RexLiteral) like.getOperands().get(1)).getValueAs(NlsString.class);
    if (pattern == null) {
      return null;
    }
    String text = pattern.getValue();
    if (!text.endsWith("%") || text.length() < 2) {
      return null;
    }
    String prefix = text.substring(0, text.length() - 1);
    if (prefix.contains("%") || prefix.contains("_") || prefix.contains("\\")) {
      return null;
    }
    return prefix;
  }

  private static boolean isBoolean(RexNode node) {
    return node.getType().getSqlTypeName() == SqlTypeName.BOOLEAN;
  }

  /** The table column a scan field refers to, when the node is a plain field reference. */
  private @Nullable String column(RexNode node) {
    if (!(node instanceof RexInputRef)) {
      return null;
    }
    int index = ((RexInputRef) node).getIndex();
    if (index >= columns.size() || columns.get(index) < 0) {
      return null;
    }
    Types.NestedField field = schema.columns().get(columns.get(index));
    return field.type().isPrimitiveType() ? field.name() : null;
  }

  /**
   * A literal's value in Iceberg's representation for a column's type, or null when it is not a
   * literal of that type or Iceberg could not compare it exactly: the one conversion of SQL
   * literals for Iceberg expressions, used by scan pushdown and by optimize's WHERE. A TIMESTAMP
   * literal compared with a TIMESTAMP WITH LOCAL TIME ZONE column is a wall-clock time in the
   * session zone; a timestamp_ns value is ISO-8601 text, which Iceberg binds to nanoseconds (a long
   * would be bound as microseconds).
   *
   * @param node a literal, possibly under CASTs
   */
  public static @Nullable Object value(RexNode node, Type type, java.time.ZoneId sessionZone) {
    while (node.getKind() == SqlKind.CAST && node instanceof RexCall) {
      node = ((RexCall) node).getOperands().get(0);
    }
    if (!(node instanceof RexLiteral)) {
      return null;
    }
    RexLiteral literal = (RexLiteral) node;
    if (literal.isNull()) {
      return null;
    }
    SqlTypeName sqlType = literal.getType().getSqlTypeName();
    switch (type.typeId()) {
      case BOOLEAN:
        return sqlType == SqlTypeName.BOOLEAN ? literal.getValueAs(Boolean.class) : null;
      case INTEGER:
      case LONG:
      case DECIMAL:
        {
          if (!SqlTypeName.NUMERIC_TYPES.contains(sqlType)
              || sqlType == SqlTypeName.DOUBLE
              || sqlType == SqlTypeName.FLOAT
              || sqlType == SqlTypeName.REAL) {
            return null;
          }
          BigDecimal value = literal.getValueAs(BigDecimal.class);
          if (value == null) {
            return null;
          }
          if (type.typeId() == Type.TypeID.DECIMAL) {
            int scale = ((Types.DecimalType) type).scale();
            try {
              return value.setScale(scale, java.math.RoundingMode.UNNECESSARY);
            } catch (ArithmeticException notExact) {
              return null;
            }
          }
          if (value.stripTrailingZeros().scale() > 0) {
            return null;
          }
          try {
            long v = value.longValueExact();
            if (type.typeId() == Type.TypeID.INTEGER) {
              return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? (Object) (int) v : null;
            }
            return v;
          } catch (ArithmeticException tooLarge) {
            return null;
          }
        }
      case FLOAT:
      case DOUBLE:
        {
          if (!SqlTypeName.NUMERIC_TYPES.contains(sqlType)) {
            return null;
          }
          Double d = literal.getValueAs(Double.class);
          if (d == null || d.isNaN()) {
            return null;
          }
          return type.typeId() == Type.TypeID.FLOAT ? (Object) d.floatValue() : d;
        }
      case STRING:
        return SqlTypeName.CHAR_TYPES.contains(sqlType) ? literal.getValueAs(String.class) : null;
      case BINARY:
      case FIXED:
        {
          if (!SqlTypeName.BINARY_TYPES.contains(sqlType)) {
            return null;
          }
          org.apache.calcite.avatica.util.ByteString bytes =
              literal.getValueAs(org.apache.calcite.avatica.util.ByteString.class);
          if (bytes == null
              || (type.typeId() == Type.TypeID.FIXED
                  && bytes.length() != ((Types.FixedType) type).length())) {
            return null;
          }
          return java.nio.ByteBuffer.wrap(bytes.getBytes());
        }
      case UUID:
        return sqlType == SqlTypeName.UUID ? literal.getValueAs(java.util.UUID.class) : null;
      case DATE:
        {
          if (sqlType != SqlTypeName.DATE) {
            return null;
          }
          DateString date = literal.getValueAs(DateString.class);
          return date == null ? null : date.getDaysSinceEpoch();
        }
      case TIME:
        {
          if (sqlType != SqlTypeName.TIME) {
            return null;
          }
          TimeString time = literal.getValueAs(TimeString.class);
          if (time == null) {
            return null;
          }
          long nanos = TemporalValues.fromLocalTime(TemporalValues.parseTime(time.toString()), 9);
          // Iceberg's time is microseconds of the day; a finer literal is compared above the scan.
          return nanos % 1_000L == 0 ? (Object) (nanos / 1_000L) : null;
        }
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        {
          boolean utc =
              type instanceof Types.TimestampType
                  ? ((Types.TimestampType) type).shouldAdjustToUTC()
                  : ((Types.TimestampNanoType) type).shouldAdjustToUTC();
          TimestampString ts;
          if (sqlType == SqlTypeName.DATE) {
            // a DATE compared with a timestamp is its midnight (Calcite casts it so)
            DateString date = literal.getValueAs(DateString.class);
            if (date == null) {
              return null;
            }
            ts = TimestampString.fromMillisSinceEpoch(date.getMillisSinceEpoch());
            sqlType = SqlTypeName.TIMESTAMP;
          } else if (sqlType == SqlTypeName.TIMESTAMP
              || sqlType == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            ts = literal.getValueAs(TimestampString.class);
          } else {
            return null;
          }
          if (ts == null) {
            return null;
          }
          if (utc && sqlType == SqlTypeName.TIMESTAMP) {
            // A plain timestamp compared with an instant is a wall-clock time in the session zone.
            java.time.Instant instant =
                TemporalValues.parse(ts.toString()).atZone(sessionZone).toInstant();
            long seconds = instant.getEpochSecond();
            return type.typeId() == Type.TypeID.TIMESTAMP
                ? (Object) (seconds * 1_000_000L + instant.getNano() / 1_000)
                : instant.atOffset(java.time.ZoneOffset.UTC).toString();
          }
          SqlTypeName expected =
              utc ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE : SqlTypeName.TIMESTAMP;
          if (sqlType != expected) {
            return null;
          }
          if (type.typeId() == Type.TypeID.TIMESTAMP) {
            return TemporalValues.micros(ts);
          }
          // timestamp_ns literals go to Iceberg as ISO-8601 text, which it binds to nanoseconds:
          // a long is bound as microseconds and multiplied by 1,000 (wrong rows, or overflow).
          java.time.LocalDateTime local = TemporalValues.parse(ts.toString());
          return utc ? local.atOffset(java.time.ZoneOffset.UTC).toString() : local.toString();
        }
      default:
        return null;
    }
  }
}
