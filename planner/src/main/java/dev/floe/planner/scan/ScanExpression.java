package dev.floe.planner.scan;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.avatica.util.TimeUnitRange;

/**
 * An expression an aggregating scan computes from each live row's columns, for an aggregate's
 * argument ({@code SUM(price * (1 - discount))}): arithmetic on INTEGER, BIGINT, DOUBLE and DECIMAL
 * values, {@code CASE WHEN} over comparisons, and widening casts. Its value is the one Calcite's
 * generated code computes: INTEGER and BIGINT arithmetic is checked (an overflow is an {@link
 * ArithmeticException}, 22003), DECIMAL arithmetic is exact with BigDecimal's scales (the sum of
 * the scales for a product, the larger for a sum) and a result with more digits than its type's
 * precision is an error (22003, with the message of Calcite's check), and NULL in, NULL out.
 *
 * <p>{@link ExpressionColumn} evaluates it over a batch's column vectors, DECIMAL as unscaled longs
 * while they fit; {@link #evaluate} over one row's values, as the reference.
 *
 * @param op the operation
 * @param type the type of the value (BOOLEAN for conditions)
 * @param precision for a DECIMAL value, the precision of its SQL type; else 0
 * @param scale for a DECIMAL value, its scale; else 0
 * @param column for {@link Op#COLUMN}, the position of the scan's column
 * @param literal for {@link Op#LITERAL}, the value (Integer, Long, Double or BigDecimal of scale
 *     {@code scale})
 * @param operands the operands: two for arithmetic and comparisons, one for casts and NULL tests,
 *     two or more for AND and OR, and for CASE condition and value pairs then the ELSE value
 */
public record ScanExpression(
    Op op,
    Type type,
    int precision,
    int scale,
    int column,
    Object literal,
    List<ScanExpression> operands) {

  /** The operations. */
  public enum Op {
    COLUMN,
    LITERAL,
    PLUS,
    MINUS,
    TIMES,
    /**
     * Division: of DOUBLE values, or of INTEGER and BIGINT values as Calcite's checked division
     * ({@link #divide(long, long)}).
     */
    DIVIDE,
    /** {@code ABS} of a numeric value, of its type: Java's {@code Math.abs}, BigDecimal's abs. */
    ABS,
    CAST,
    CASE,
    LESS,
    LESS_EQUAL,
    GREATER,
    GREATER_EQUAL,
    EQUAL,
    NOT_EQUAL,
    AND,
    OR,
    IS_NULL,
    IS_NOT_NULL,
    /** A string column matching a {@link LikePattern} (the literal). */
    LIKE,
    /** {@code NOT (col LIKE pattern)}: NULL for NULL, as LIKE is. */
    NOT_LIKE,
    /**
     * A field of a DATE value (the literal, a {@link TimeUnitRange}: YEAR, QUARTER, MONTH or DAY),
     * a BIGINT, as Calcite's {@code EXTRACT} computes it ({@link DateTimeUtils#unixDateExtract}).
     */
    EXTRACT,
    /**
     * A column's value is among a hash join's build keys (the literal, a {@link
     * RuntimeFilter.KeyTest}): added while the statement runs, never planned.
     */
    IN_KEYS
  }

  /** The types of values. */
  public enum Type {
    BOOLEAN,
    INT,
    LONG,
    DOUBLE,
    DECIMAL,
    /** A DATE column's day number; only compared, with another DATE column. */
    DATE,
    /** A VARCHAR column's value; only matched by LIKE. */
    STRING
  }

  public ScanExpression {
    operands = List.copyOf(operands);
  }

  /** A scan column's value. */
  public static ScanExpression column(int position, Type type, int precision, int scale) {
    return new ScanExpression(Op.COLUMN, type, precision, scale, position, null, List.of());
  }

  /** A constant, not NULL. */
  public static ScanExpression literal(Object value, Type type, int precision, int scale) {
    return new ScanExpression(Op.LITERAL, type, precision, scale, -1, value, List.of());
  }

  /** A run-time filter's test of a column's values against a build side's keys. */
  static ScanExpression keyTest(int column, RuntimeFilter.KeyTest keys) {
    return new ScanExpression(
        Op.IN_KEYS,
        Type.BOOLEAN,
        0,
        0,
        -1,
        keys,
        List.of(new ScanExpression(Op.COLUMN, Type.LONG, 0, 0, column, null, List.of())));
  }

  /** An operation on operands. */
  public static ScanExpression call(
      Op op, Type type, int precision, int scale, List<ScanExpression> operands) {
    return new ScanExpression(op, type, precision, scale, -1, null, operands);
  }

  /** This expression with every column position {@code c} replaced by {@code map(c)}. */
  public ScanExpression mapColumns(java.util.function.IntUnaryOperator map) {
    if (op == Op.COLUMN) {
      return column(map.applyAsInt(column), type, precision, scale);
    }
    List<ScanExpression> mapped = new java.util.ArrayList<>();
    for (ScanExpression operand : operands) {
      mapped.add(operand.mapColumns(map));
    }
    return new ScanExpression(op, type, precision, scale, column, literal, mapped);
  }

  /** Adds the column positions this expression reads to {@code into}. */
  public void columns(java.util.Set<Integer> into) {
    if (op == Op.COLUMN) {
      into.add(column);
    }
    for (ScanExpression operand : operands) {
      operand.columns(into);
    }
  }

  /** Whether this is a condition (its values TRUE, FALSE or NULL). */
  boolean condition() {
    return type == Type.BOOLEAN;
  }

  /** The expression as text, naming columns by {@code names}, for EXPLAIN. */
  public String describe(List<String> names) {
    switch (op) {
      case COLUMN:
        return names.get(column);
      case LITERAL:
        return String.valueOf(literal);
      case CAST:
        return "CAST(" + operands.get(0).describe(names) + " AS " + typeName() + ")";
      case ABS:
        return "ABS(" + operands.get(0).describe(names) + ")";
      case IS_NULL:
        return operands.get(0).describe(names) + " IS NULL";
      case IS_NOT_NULL:
        return operands.get(0).describe(names) + " IS NOT NULL";
      case LIKE:
      case NOT_LIKE:
        return operands.get(0).describe(names)
            + (op == Op.LIKE ? " LIKE " : " NOT LIKE ")
            + literal;
      case IN_KEYS:
        return operands.get(0).describe(names) + " IN (" + literal + ")";
      case EXTRACT:
        return "EXTRACT(" + literal + " FROM " + operands.get(0).describe(names) + ")";
      case CASE:
        {
          StringBuilder text = new StringBuilder("CASE");
          int pairs = operands.size() / 2;
          for (int i = 0; i < pairs; i++) {
            text.append(" WHEN ")
                .append(operands.get(2 * i).describe(names))
                .append(" THEN ")
                .append(operands.get(2 * i + 1).describe(names));
          }
          if (operands.size() % 2 == 1) {
            text.append(" ELSE ").append(operands.get(operands.size() - 1).describe(names));
          }
          return text.append(" END").toString();
        }
      default:
        {
          StringBuilder text = new StringBuilder("(");
          for (int i = 0; i < operands.size(); i++) {
            if (i > 0) {
              text.append(' ').append(symbol()).append(' ');
            }
            text.append(operands.get(i).describe(names));
          }
          return text.append(')').toString();
        }
    }
  }

  private String typeName() {
    switch (type) {
      case INT:
        return "INTEGER";
      case LONG:
        return "BIGINT";
      case DECIMAL:
        return "DECIMAL(" + scale + ")";
      default:
        return type.name();
    }
  }

  private String symbol() {
    switch (op) {
      case PLUS:
        return "+";
      case MINUS:
        return "-";
      case TIMES:
        return "*";
      case DIVIDE:
        return "/";
      case LESS:
        return "<";
      case LESS_EQUAL:
        return "<=";
      case GREATER:
        return ">";
      case GREATER_EQUAL:
        return ">=";
      case EQUAL:
        return "=";
      case NOT_EQUAL:
        return "<>";
      default:
        return op.name();
    }
  }

  /** One row's values, by scan column position. */
  interface Row {
    Object get(int column);
  }

  /**
   * The value for one row (Integer, Long, Double, BigDecimal or Boolean, or null), as Calcite's
   * generated code computes it.
   */
  Object evaluate(Row row) {
    switch (op) {
      case COLUMN:
        return row.get(column);
      case LITERAL:
        return literal;
      case PLUS:
      case MINUS:
      case TIMES:
      case DIVIDE:
        {
          Object a = operands.get(0).evaluate(row);
          if (a == null) {
            return null;
          }
          Object b = operands.get(1).evaluate(row);
          return b == null ? null : arithmetic((Number) a, (Number) b);
        }
      case CAST:
        {
          Object a = operands.get(0).evaluate(row);
          return a == null ? null : cast((Number) a);
        }
      case ABS:
        {
          Object a = operands.get(0).evaluate(row);
          return a == null ? null : abs((Number) a);
        }
      case EXTRACT:
        {
          Object a = operands.get(0).evaluate(row);
          return a == null
              ? null
              : DateTimeUtils.unixDateExtract((TimeUnitRange) literal, ((Number) a).longValue());
        }
      case CASE:
        {
          int pairs = operands.size() / 2;
          for (int i = 0; i < pairs; i++) {
            if (Boolean.TRUE.equals(operands.get(2 * i).evaluate(row))) {
              return operands.get(2 * i + 1).evaluate(row);
            }
          }
          return operands.size() % 2 == 1 ? operands.get(operands.size() - 1).evaluate(row) : null;
        }
      case AND:
        {
          boolean unknown = false;
          for (ScanExpression operand : operands) {
            Object value = operand.evaluate(row);
            if (value == null) {
              unknown = true;
            } else if (!(Boolean) value) {
              return false;
            }
          }
          return unknown ? null : Boolean.TRUE;
        }
      case OR:
        {
          boolean unknown = false;
          for (ScanExpression operand : operands) {
            Object value = operand.evaluate(row);
            if (value == null) {
              unknown = true;
            } else if ((Boolean) value) {
              return true;
            }
          }
          return unknown ? null : Boolean.FALSE;
        }
      case IS_NULL:
        return operands.get(0).evaluate(row) == null;
      case IS_NOT_NULL:
        return operands.get(0).evaluate(row) != null;
      case LIKE:
      case NOT_LIKE:
        {
          Object a = operands.get(0).evaluate(row);
          return a == null
              ? null
              : ((LikePattern) literal).matches(a.toString()) == (op == Op.LIKE);
        }
      case IN_KEYS:
        {
          Object a = operands.get(0).evaluate(row);
          return a == null ? null : ((RuntimeFilter.KeyTest) literal).contains(a);
        }
      default:
        {
          Object a = operands.get(0).evaluate(row);
          Object b = operands.get(1).evaluate(row);
          if (a == null || b == null) {
            return null;
          }
          return compare(op, (Number) a, operands.get(0).type, (Number) b, operands.get(1).type);
        }
    }
  }

  private Object arithmetic(Number a, Number b) {
    switch (type) {
      case INT:
      case LONG:
        {
          // INTEGER operands never overflow a long: their result is checked against INTEGER after
          long x = a.longValue();
          long y = b.longValue();
          long result =
              switch (op) {
                case PLUS -> Math.addExact(x, y);
                case MINUS -> Math.subtractExact(x, y);
                case DIVIDE -> divide(x, y);
                default -> Math.multiplyExact(x, y);
              };
          return type == Type.INT ? (Object) Math.toIntExact(result) : (Object) result;
        }
      case DOUBLE:
        {
          double x = a.doubleValue();
          double y = b.doubleValue();
          switch (op) {
            case PLUS:
              return x + y;
            case MINUS:
              return x - y;
            case TIMES:
              return x * y;
            default:
              return x / y;
          }
        }
      default:
        {
          BigDecimal x = decimal(a);
          BigDecimal y = decimal(b);
          BigDecimal result;
          switch (op) {
            case PLUS:
              result = x.add(y);
              break;
            case MINUS:
              result = x.subtract(y);
              break;
            default:
              result = x.multiply(y);
              break;
          }
          return fit(result);
        }
    }
  }

  /**
   * Calcite's checked division of two integers ({@code SqlFunctions.checkedDivide}): Java's, which
   * fails for a zero divisor ("/ by zero"), and an overflow (the least value divided by -1) an
   * error. INTEGER operands divide in a long, their quotient checked against INTEGER after.
   */
  static long divide(long x, long y) {
    if (y == 0) {
      // explicit: the JIT may throw its own division's exception without its message, once hot
      throw new ArithmeticException("/ by zero");
    }
    long result = x / y;
    if ((x & y & result) < 0) {
      throw new ArithmeticException("long overflow");
    }
    return result;
  }

  /** As {@link #divide(long, long)} for INTEGER values. */
  static int divide(int x, int y) {
    if (y == 0) {
      throw new ArithmeticException("/ by zero");
    }
    int result = x / y;
    if ((x & y & result) < 0) {
      throw new ArithmeticException("integer overflow");
    }
    return result;
  }

  /** {@code ABS} as Calcite's {@code SqlFunctions.abs} computes it, of the value's own class. */
  private static Object abs(Number value) {
    if (value instanceof Integer i) {
      return Math.abs(i);
    }
    if (value instanceof Long l) {
      return Math.abs(l);
    }
    if (value instanceof Double d) {
      return Math.abs(d);
    }
    return ((BigDecimal) value).abs();
  }

  /**
   * A DECIMAL result as Calcite's generated code makes it of its type: of the type's scale, and an
   * error when it has more digits than the type's precision.
   */
  BigDecimal fit(BigDecimal value) {
    BigDecimal scaled = value.setScale(scale, java.math.RoundingMode.HALF_UP);
    if (scaled.precision() > precision) {
      throw tooManyDigits(value);
    }
    return scaled;
  }

  /** The error of a DECIMAL value with more digits than this expression's type allows. */
  ArithmeticException tooManyDigits(BigDecimal value) {
    return new ArithmeticException(
        "Value " + value + " cannot be represented as a DECIMAL(" + precision + ", " + scale + ")");
  }

  private static BigDecimal decimal(Number value) {
    return value instanceof BigDecimal d ? d : BigDecimal.valueOf(value.longValue());
  }

  private Object cast(Number value) {
    switch (type) {
      case LONG:
        return value.longValue();
      case DOUBLE:
        return value.doubleValue();
      default:
        return fit(decimal(value));
    }
  }

  /** A comparison of two numbers of the given types, neither NULL. */
  static boolean compare(Op op, Number a, Type aType, Number b, Type bType) {
    int sign;
    if (aType == Type.DOUBLE || bType == Type.DOUBLE) {
      double x = a.doubleValue();
      double y = b.doubleValue();
      switch (op) {
        case LESS:
          return x < y;
        case LESS_EQUAL:
          return x <= y;
        case GREATER:
          return x > y;
        case GREATER_EQUAL:
          return x >= y;
        case EQUAL:
          return x == y;
        default:
          return x != y;
      }
    } else if (aType == Type.DECIMAL || bType == Type.DECIMAL) {
      sign = decimal(a).compareTo(decimal(b));
    } else {
      sign = Long.compare(a.longValue(), b.longValue());
    }
    switch (op) {
      case LESS:
        return sign < 0;
      case LESS_EQUAL:
        return sign <= 0;
      case GREATER:
        return sign > 0;
      case GREATER_EQUAL:
        return sign >= 0;
      case EQUAL:
        return sign == 0;
      default:
        return sign != 0;
    }
  }
}
