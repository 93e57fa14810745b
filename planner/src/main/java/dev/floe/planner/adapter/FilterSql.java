package dev.floe.planner.adapter;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.expressions.Not;
import org.apache.iceberg.expressions.Or;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * An Iceberg filter written back as SQL, for EXPLAIN: {@code ts >= TIMESTAMP '2024-06-03
 * 00:00:00'}, {@code d = DATE '2024-01-02'}, each literal spelled for its column's SQL type (a
 * TIMESTAMP WITH LOCAL TIME ZONE in the session time zone).
 */
final class FilterSql {
  private final ZoneId zone;

  private FilterSql(ZoneId zone) {
    this.zone = zone;
  }

  /** The SQL text of a filter on a table schema. */
  static String of(Expression filter, Schema schema, ZoneId zone) {
    Expression bound;
    try {
      bound = Binder.bind(schema.asStruct(), filter, true);
    } catch (RuntimeException e) {
      return filter.toString(); // cannot bind: Iceberg's own text is better than nothing
    }
    return new FilterSql(zone).sql(bound, false);
  }

  private String sql(Expression e, boolean nested) {
    switch (e.op()) {
      case TRUE:
        return "TRUE";
      case FALSE:
        return "FALSE";
      case AND:
        {
          // A comparison implies its column is not null: the IS NOT NULL Floe pushes beside it
          // says nothing to a reader.
          List<Expression> terms = new ArrayList<>();
          flatten(e, terms);
          java.util.Set<String> compared = new java.util.HashSet<>();
          for (Expression term : terms) {
            if (term instanceof BoundPredicate && term.op() != Expression.Operation.NOT_NULL) {
              compared.add(((BoundPredicate<?>) term).ref().name());
            }
          }
          List<String> shown = new ArrayList<>();
          for (Expression term : terms) {
            if (term.op() == Expression.Operation.NOT_NULL
                && term instanceof BoundPredicate
                && compared.contains(((BoundPredicate<?>) term).ref().name())) {
              continue;
            }
            shown.add(sql(term, true));
          }
          String text = String.join(" AND ", shown);
          return nested && shown.size() > 1 ? "(" + text + ")" : text;
        }
      case OR:
        {
          Or or = (Or) e;
          String text = operand(or.left(), e) + " OR " + operand(or.right(), e);
          return nested ? "(" + text + ")" : text;
        }
      case NOT:
        return "NOT (" + sql(((Not) e).child(), false) + ")";
      default:
        if (e instanceof BoundPredicate) {
          return predicate((BoundPredicate<?>) e);
        }
        return e.toString();
    }
  }

  private static void flatten(Expression e, List<Expression> terms) {
    if (e.op() == Expression.Operation.AND) {
      flatten(((And) e).left(), terms);
      flatten(((And) e).right(), terms);
    } else {
      terms.add(e);
    }
  }

  /** An operand of AND or OR: bare when it is the same operator, else in parentheses. */
  private String operand(Expression child, Expression parent) {
    return sql(child, child.op() != parent.op());
  }

  private String predicate(BoundPredicate<?> p) {
    String column = p.ref().name();
    Type type = p.ref().type();
    switch (p.op()) {
      case IS_NULL:
        return column + " IS NULL";
      case NOT_NULL:
        return column + " IS NOT NULL";
      case IS_NAN:
        return column + " IS NAN";
      case NOT_NAN:
        return column + " IS NOT NAN";
      case IN:
      case NOT_IN:
        {
          List<String> values = new ArrayList<>();
          for (Object value : p.asSetPredicate().literalSet()) {
            values.add(literal(type, value));
          }
          values.sort(null);
          return column
              + (p.op() == Expression.Operation.IN ? " IN (" : " NOT IN (")
              + String.join(", ", values)
              + ")";
        }
      default:
        break;
    }
    if (!p.isLiteralPredicate()) {
      return p.toString();
    }
    Literal<?> literal = p.asLiteralPredicate().literal();
    String value = literal(type, literal.value());
    switch (p.op()) {
      case LT:
        return column + " < " + value;
      case LT_EQ:
        return column + " <= " + value;
      case GT:
        return column + " > " + value;
      case GT_EQ:
        return column + " >= " + value;
      case EQ:
        return column + " = " + value;
      case NOT_EQ:
        return column + " <> " + value;
      case STARTS_WITH:
        return column + " LIKE " + quote(literal.value() + "%");
      case NOT_STARTS_WITH:
        return column + " NOT LIKE " + quote(literal.value() + "%");
      default:
        return p.toString();
    }
  }

  /** A value in Iceberg's internal form as a SQL literal of its column's type. */
  private String literal(Type type, Object value) {
    switch (type.typeId()) {
      case DATE:
        return "DATE '" + LocalDate.ofEpochDay(((Number) value).longValue()) + "'";
      case TIME:
        return "TIME '" + time(LocalTime.ofNanoOfDay(((Number) value).longValue() * 1000L)) + "'";
      case TIMESTAMP:
        {
          long micros = ((Number) value).longValue();
          Instant instant =
              Instant.ofEpochSecond(
                  Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
          return timestamp(((Types.TimestampType) type).shouldAdjustToUTC(), instant);
        }
      case TIMESTAMP_NANO:
        {
          long nanos = ((Number) value).longValue();
          Instant instant =
              Instant.ofEpochSecond(
                  Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
          return timestamp(((Types.TimestampNanoType) type).shouldAdjustToUTC(), instant);
        }
      case STRING:
      case UUID:
        return quote(value.toString());
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case FIXED:
      case BINARY:
        {
          ByteBuffer buffer = ((ByteBuffer) value).duplicate();
          byte[] bytes = new byte[buffer.remaining()];
          buffer.get(bytes);
          return "X'" + HexFormat.of().formatHex(bytes).toUpperCase(java.util.Locale.ROOT) + "'";
        }
      case BOOLEAN:
        return ((Boolean) value) ? "TRUE" : "FALSE";
      default:
        return value.toString();
    }
  }

  private String timestamp(boolean withZone, Instant instant) {
    LocalDateTime local = LocalDateTime.ofInstant(instant, withZone ? zone : ZoneOffset.UTC);
    String text = local.toLocalDate() + " " + time(local.toLocalTime());
    return (withZone ? "TIMESTAMP WITH LOCAL TIME ZONE '" : "TIMESTAMP '") + text + "'";
  }

  /** {@code HH:mm:ss} and as many fractional digits as the value has. */
  private static String time(LocalTime time) {
    String text =
        String.format(
            java.util.Locale.ROOT,
            "%02d:%02d:%02d",
            time.getHour(),
            time.getMinute(),
            time.getSecond());
    int nanos = time.getNano();
    if (nanos == 0) {
      return text;
    }
    String fraction = String.format(java.util.Locale.ROOT, "%09d", nanos);
    return text + "." + fraction.replaceAll("0+$", "");
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
