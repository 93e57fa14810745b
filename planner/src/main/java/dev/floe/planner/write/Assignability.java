package dev.floe.planner.write;

import dev.floe.error.FloeError;
import java.util.Locale;
import java.util.Set;

/**
 * Which SQL types a value may be assigned from, by standard SQL's rules for storing a value into a
 * column: numbers never become dates, times, timestamps or booleans, booleans never become numbers
 * or datetimes, datetimes never become numbers or booleans, and binary, UUID and nested values
 * become none of those, however the value arrives (literal, expression, parameter, batch). The same
 * rule is applied when a statement is planned and again when each value is written. Types are named
 * as Calcite's {@code SqlTypeName} names them.
 */
public final class Assignability {
  private static final Set<String> NUMERIC =
      Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DECIMAL", "FLOAT", "REAL", "DOUBLE");
  private static final Set<String> DATETIME =
      Set.of(
          "DATE",
          "TIME",
          "TIME_WITH_LOCAL_TIME_ZONE",
          "TIME_TZ",
          "TIMESTAMP",
          "TIMESTAMP_WITH_LOCAL_TIME_ZONE",
          "TIMESTAMP_TZ");

  /** Values that are neither numbers, text, datetimes nor booleans, and never become those. */
  private static final Set<String> OPAQUE =
      Set.of("BINARY", "VARBINARY", "UUID", "ROW", "ARRAY", "MAP", "MULTISET");

  private Assignability() {}

  /**
   * Refuses assigning a value of one SQL type to a column of another when standard SQL never
   * converts between them implicitly.
   *
   * @param column the column's name, for the message
   * @param source the value's SQL type name (null when unknown: nothing is refused)
   * @param target the column's SQL type name
   * @throws dev.floe.error.FloeException DATATYPE_MISMATCH (42804) naming the column and both types
   */
  public static void check(String column, String source, String target) {
    if (source == null || target == null) {
      return;
    }
    String from = source.toUpperCase(Locale.ROOT);
    String to = target.toUpperCase(Locale.ROOT);
    boolean scalar = NUMERIC.contains(to) || DATETIME.contains(to) || to.equals("BOOLEAN");
    boolean refused =
        (NUMERIC.contains(from) && (DATETIME.contains(to) || to.equals("BOOLEAN")))
            || (from.equals("BOOLEAN") && (NUMERIC.contains(to) || DATETIME.contains(to)))
            || (DATETIME.contains(from) && (NUMERIC.contains(to) || to.equals("BOOLEAN")))
            || (OPAQUE.contains(from) && scalar);
    if (refused) {
      throw FloeError.DATATYPE_MISMATCH.error(
          column,
          "a value of type "
              + shown(from)
              + " is never stored into a "
              + shown(to)
              + " column (write a "
              + shown(to)
              + " literal, a string or a CAST)");
    }
  }

  /** Whether a SQL type name is one of the numeric types. */
  public static boolean isNumeric(String typeName) {
    return typeName != null && NUMERIC.contains(typeName.toUpperCase(Locale.ROOT));
  }

  private static String shown(String typeName) {
    return switch (typeName) {
      case "TIMESTAMP_WITH_LOCAL_TIME_ZONE" -> "TIMESTAMP WITH LOCAL TIME ZONE";
      case "TIME_WITH_LOCAL_TIME_ZONE" -> "TIME WITH LOCAL TIME ZONE";
      case "TIMESTAMP_TZ" -> "TIMESTAMP WITH TIME ZONE";
      case "TIME_TZ" -> "TIME WITH TIME ZONE";
      default -> typeName;
    };
  }
}
