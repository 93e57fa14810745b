package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.type.TemporalValues;
import java.time.format.DateTimeParseException;
import org.apache.calcite.linq4j.function.Strict;

/**
 * Runtime helpers that generated code calls where Calcite's own functions would work in
 * milliseconds: floor division and modulo for rescaling timestamps and times, and exact parsing and
 * formatting of timestamps and times with sub-millisecond digits. NULL in, NULL out.
 */
@Strict
public final class TemporalFunctions {
  private TemporalFunctions() {}

  /** Floor division, so that timestamps before 1970 round towards the past. */
  public static long floorDiv(long value, long divisor) {
    return Math.floorDiv(value, divisor);
  }

  /** Ceiling division, for rounding a timestamp up to a coarser unit. */
  public static long ceilDiv(long value, long divisor) {
    return -Math.floorDiv(-value, divisor);
  }

  /** Division cut towards zero, as Calcite computes intervals and epochs. */
  public static long truncDiv(long value, long divisor) {
    return value / divisor;
  }

  /**
   * Whole months from {@code t1} to {@code t0}, timestamps held in a unit of {@code perSecond}, as
   * Calcite's {@code DateTimeUtils.subtractMonths(long, long)} counts them on milliseconds: months
   * between the days, one fewer if the last lands on the same day at a later time of day. Unlike
   * Calcite's, a negative difference is the opposite of the positive one (Calcite says -1 month
   * from 23:00 back to 21:00 of the same day).
   */
  public static int subtractMonths(long t0, long t1, long perSecond) {
    if (t0 < t1) {
      return -subtractMonths(t1, t0, perSecond);
    }
    long perDay = 86_400L * perSecond;
    long time0 = Math.floorMod(t0, perDay);
    int d0 = Math.toIntExact(Math.floorDiv(t0, perDay));
    long time1 = Math.floorMod(t1, perDay);
    int d1 = Math.toIntExact(Math.floorDiv(t1, perDay));
    int months = org.apache.calcite.avatica.util.DateTimeUtils.subtractMonths(d0, d1);
    if (org.apache.calcite.avatica.util.DateTimeUtils.addMonths(d1, months) == d0
        && time0 < time1) {
      --months;
    }
    return months;
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

  /**
   * Orders two UUIDs as {@link java.util.UUID#compareTo} does (and ORDER BY, and Iceberg's
   * statistics): the sign of the comparison; null when either is null.
   */
  public static Integer compareUuid(Object left, Object right) {
    if (left == null || right == null) {
      return null;
    }
    return Integer.signum(((java.util.UUID) left).compareTo((java.util.UUID) right));
  }
}
