package dev.floe.planner.type;

import dev.floe.error.FloeError;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * DATE, TIME and TIMESTAMP literals as SQL writes them ({@code DATE '2024-06-03'}), checked before
 * Calcite reads them: a year of more than four digits is refused (Calcite fails without a SQLState
 * on a date and keeps only the last four digits of a timestamp's year: {@code TIMESTAMP
 * '12345-01-01 00:00:00'} would be 2345), and so is a value that is no date or time ({@code DATE
 * '2024-02-30'}), which Calcite would refuse later with a message but no SQLState.
 */
public final class DatetimeLiterals {
  private static final Pattern LONG_YEAR = Pattern.compile("\\s*[+-]?\\d{5,}-.*", Pattern.DOTALL);

  private DatetimeLiterals() {}

  /**
   * Refuses a typed literal whose year lies beyond 9999, or that is no valid value of its type.
   *
   * @throws dev.floe.error.FloeException DATETIME_OVERFLOW (22008) or INVALID_DATETIME (22007)
   *     naming the literal
   */
  public static void check(SqlLiteral literal) {
    SqlTypeName type = checkYear(literal);
    if (type == null) {
      return;
    }
    SqlUnknownLiteral unknown = (SqlUnknownLiteral) literal;
    String shown = unknown.tag + " '" + unknown.getValue() + "'";
    try {
      unknown.resolve(type);
    } catch (RuntimeException e) {
      throw FloeError.INVALID_DATETIME.error(e, shown, "it is not a valid " + unknown.tag);
    }
  }

  /**
   * Refuses a typed literal whose year lies beyond 9999, and nothing else: for a literal read by
   * code of Floe's own that accepts more spellings than Calcite (a time travel's {@code TIMESTAMP
   * '2024-06-03 10:00 Europe/Vienna'}, an instant as Trino writes it).
   *
   * @return the literal's date or time type, or null when it is no typed date or time literal
   * @throws dev.floe.error.FloeException DATETIME_OVERFLOW (22008) naming the literal
   */
  public static SqlTypeName checkYear(SqlLiteral literal) {
    if (!(literal instanceof SqlUnknownLiteral unknown)) {
      return null;
    }
    SqlTypeName type = type(unknown.tag);
    if (type != null
        && type != SqlTypeName.TIME
        && LONG_YEAR.matcher(unknown.getValue()).matches()) {
      throw FloeError.DATETIME_OVERFLOW.error(
          unknown.tag + " '" + unknown.getValue() + "'",
          "its year is beyond 9999, the last year a DATE or TIMESTAMP holds");
    }
    return type;
  }

  /** The type a literal's tag names, when it is a date, time or timestamp; else null. */
  public static SqlTypeName type(String tag) {
    return switch (tag.toUpperCase(Locale.ROOT)) {
      case "DATE" -> SqlTypeName.DATE;
      case "TIME" -> SqlTypeName.TIME;
      case "TIMESTAMP" -> SqlTypeName.TIMESTAMP;
      case "TIMESTAMP WITH LOCAL TIME ZONE" -> SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
      default -> null;
    };
  }
}
