package dev.floe.planner.type;

import dev.floe.error.FloeError;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;

/**
 * The range of DATE and TIMESTAMP literals as SQL writes them ({@code DATE '2024-06-03'}): a year
 * of more than four digits is refused before Calcite reads the literal, which fails without a
 * SQLState on a date and keeps only the last four digits of a timestamp's year ({@code TIMESTAMP
 * '12345-01-01 00:00:00'} would be 2345).
 */
public final class DatetimeLiterals {
  private static final Pattern LONG_YEAR = Pattern.compile("\\s*[+-]?\\d{5,}-.*", Pattern.DOTALL);

  private DatetimeLiterals() {}

  /**
   * Refuses a typed literal whose year lies beyond 9999.
   *
   * @throws dev.floe.error.FloeException DATETIME_OVERFLOW (22008) naming the literal
   */
  public static void checkRange(SqlLiteral literal) {
    if (literal instanceof SqlUnknownLiteral unknown
        && (unknown.tag.equalsIgnoreCase("DATE") || unknown.tag.startsWith("TIMESTAMP"))
        && LONG_YEAR.matcher(unknown.getValue()).matches()) {
      throw FloeError.DATETIME_OVERFLOW.error(
          unknown.tag + " '" + unknown.getValue() + "'",
          "its year is beyond 9999, the last year a DATE or TIMESTAMP holds");
    }
  }
}
