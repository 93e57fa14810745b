package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.rel.TemporalValues;
import java.time.format.DateTimeParseException;
import org.apache.calcite.linq4j.function.Strict;

/**
 * Runtime helpers that generated code calls where Calcite's own functions would work in
 * milliseconds: floor division and modulo for rescaling timestamps and times, and exact parsing
 * and formatting of timestamps and times with sub-millisecond digits. NULL in, NULL out.
 */
@Strict
public final class TemporalFunctions {
  private TemporalFunctions() {}

  /** Floor division, so that timestamps before 1970 round towards the past. */
  public static long floorDiv(long value, long divisor) {
    return Math.floorDiv(value, divisor);
  }

  /** Floor modulo, so that a time of day stays within the day. */
  public static long floorMod(long value, long divisor) {
    return Math.floorMod(value, divisor);
  }

  /** Parses time text ({@code HH:mm[:ss[.f...]]}) into the unit of a precision. */
  public static long parseTime(String text, int precision) {
    try {
      return TemporalValues.fromLocalTime(TemporalValues.parseTime(text), precision);
    } catch (DateTimeParseException e) {
      throw FloeError.INVALID_DATETIME.error(e, "'" + text + "'", "not a TIME");
    }
  }

  /** Formats a time of day held in the unit of a precision. */
  public static String formatTime(long value, int precision) {
    return TemporalValues.formatTime(value, precision);
  }

  /** Parses timestamp text into the unit of a precision. */
  public static long parseTimestamp(String text, int precision) {
    String t = text.trim().replace('T', ' ');
    if (t.length() == 10) {
      t += " 00:00:00";
    }
    try {
      return TemporalValues.fromLocalDateTime(TemporalValues.parse(t), precision);
    } catch (DateTimeParseException | ArithmeticException e) {
      throw FloeError.INVALID_DATETIME.error(e, "'" + text + "'", "not a TIMESTAMP");
    }
  }

  /**
   * Assigns a binary value to {@code BINARY(length)}: a longer value does not fit (22001), a
   * shorter one is padded with zero bytes.
   */
  public static org.apache.calcite.avatica.util.ByteString fitBinary(
      org.apache.calcite.avatica.util.ByteString value, int length) {
    if (value.length() > length) {
      throw FloeError.STRING_TOO_LONG.error(
          "BINARY(" + length + ")", value.length() + " bytes do not fit");
    }
    if (value.length() == length) {
      return value;
    }
    return new org.apache.calcite.avatica.util.ByteString(
        java.util.Arrays.copyOf(value.getBytes(), length));
  }

  /** Formats a timestamp held in the unit of a precision. */
  public static String formatTimestamp(long value, int precision) {
    return TemporalValues.format(value, precision);
  }
}
