package dev.floe.planner.type;

import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Exact conversions between SQL datetime text and the numbers Floe's runtime holds: days since
 * 1970-01-01, microseconds (nanoseconds for precision above 6) since 1970-01-01T00:00, all in the
 * proleptic Gregorian calendar, and times of day in the unit of their precision (milliseconds up
 * to 3, microseconds up to 6, nanoseconds above), as Iceberg stores them.
 */
public final class TemporalValues {
  private static final DateTimeFormatter SQL_TIMESTAMP =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .toFormatter();
  private static final DateTimeFormatter SQL_TIME =
      new DateTimeFormatterBuilder()
          .appendPattern("HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .toFormatter();

  private TemporalValues() {}

  /** The unit a timestamp of this precision is held in, per second: 1000, 1e6 or 1e9. */
  public static long unitsPerSecond(int precision) {
    if (precision <= 3) {
      return 1_000L;
    }
    return precision <= 6 ? 1_000_000L : 1_000_000_000L;
  }

  /** Microseconds since the epoch of a timestamp literal. */
  public static long micros(TimestampString ts) {
    return micros(parse(ts.toString()));
  }

  /** Nanoseconds since the epoch of a timestamp literal. */
  public static long nanos(TimestampString ts) {
    return nanos(parse(ts.toString()));
  }

  /** A timestamp literal in the unit of a precision. */
  public static long inUnit(TimestampString ts, int precision) {
    LocalDateTime value = parse(ts.toString());
    long perSecond = unitsPerSecond(precision);
    return Math.addExact(
        Math.multiplyExact(value.toEpochSecond(ZoneOffset.UTC), perSecond),
        value.getNano() / (1_000_000_000L / perSecond));
  }

  /** Parses {@code yyyy-MM-dd HH:mm:ss[.fffffffff]}. */
  public static LocalDateTime parse(String text) {
    return LocalDateTime.parse(text.trim(), SQL_TIMESTAMP);
  }

  /** Microseconds since the epoch. */
  public static long micros(LocalDateTime value) {
    return Math.addExact(
        Math.multiplyExact(value.toEpochSecond(ZoneOffset.UTC), 1_000_000L),
        value.getNano() / 1_000L);
  }

  /** Nanoseconds since the epoch. */
  public static long nanos(LocalDateTime value) {
    return Math.addExact(
        Math.multiplyExact(value.toEpochSecond(ZoneOffset.UTC), 1_000_000_000L), value.getNano());
  }

  /** A timestamp held in the unit of a precision, as a LocalDateTime. */
  public static LocalDateTime toLocalDateTime(long value, int precision) {
    long perSecond = unitsPerSecond(precision);
    long seconds = Math.floorDiv(value, perSecond);
    long fraction = Math.floorMod(value, perSecond);
    return LocalDateTime.ofEpochSecond(
        seconds, (int) (fraction * (1_000_000_000L / perSecond)), ZoneOffset.UTC);
  }

  /** A LocalDateTime in the unit of a precision. */
  public static long fromLocalDateTime(LocalDateTime value, int precision) {
    long perSecond = unitsPerSecond(precision);
    return Math.addExact(
        Math.multiplyExact(value.toEpochSecond(ZoneOffset.UTC), perSecond),
        value.getNano() / (1_000_000_000L / perSecond));
  }

  /** Milliseconds of the day as a LocalTime. */
  public static LocalTime toLocalTime(int millisOfDay) {
    return LocalTime.ofNanoOfDay(millisOfDay * 1_000_000L);
  }

  /** A time of day held in the unit of a precision, as a LocalTime. */
  public static LocalTime toLocalTime(long value, int precision) {
    return LocalTime.ofNanoOfDay(
        Math.multiplyExact(value, 1_000_000_000L / unitsPerSecond(precision)));
  }

  /** A LocalTime in the unit of a precision (digits beyond it are cut, as in a cast). */
  public static long fromLocalTime(LocalTime value, int precision) {
    return value.toNanoOfDay() / (1_000_000_000L / unitsPerSecond(precision));
  }

  /** A time literal in the unit of a precision. */
  public static long timeInUnit(TimeString time, int precision) {
    return fromLocalTime(parseTime(time.toString()), precision);
  }

  /** Parses {@code HH:mm[:ss[.fffffffff]]}. */
  public static LocalTime parseTime(String text) {
    return LocalTime.parse(text.trim(), DateTimeFormatter.ISO_LOCAL_TIME);
  }

  /** Formats a time of day as SQL text: {@code HH:mm:ss}, then the fraction's digits, if any. */
  public static String formatTime(LocalTime value) {
    return SQL_TIME.format(value);
  }

  /** Formats a time of day held in the unit of a precision as SQL text. */
  public static String formatTime(long value, int precision) {
    return formatTime(toLocalTime(value, precision));
  }

  /** Formats a timestamp held in the unit of a precision as SQL text. */
  public static String format(long value, int precision) {
    return SQL_TIMESTAMP.format(toLocalDateTime(value, precision));
  }
}
