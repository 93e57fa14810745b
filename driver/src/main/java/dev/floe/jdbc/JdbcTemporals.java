package dev.floe.jdbc;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.TimeZone;

/**
 * Builds {@code java.sql.Date} and {@code Timestamp} values exactly as {@link
 * Date#valueOf(LocalDate)} and {@link Timestamp#valueOf(LocalDateTime)} do (a wall-clock value in
 * the JVM's default time zone, proleptic Gregorian), but without their calendar arithmetic when
 * that zone has a fixed offset, which is most of the time a full scan spends in {@code
 * getDate}/{@code getTimestamp}. Dates before 1583, where {@code java.util.Date} switches to the
 * Julian calendar, and zones with daylight saving time go through {@code valueOf}.
 *
 * <p>The default zone is read once, when the result set is opened.
 */
final class JdbcTemporals {
  private static final long FIRST_GREGORIAN_DAY = LocalDate.of(1583, 1, 1).toEpochDay();
  private static final long SECONDS_PER_DAY = 86_400L;

  /** Dates kept by epoch day, a power of two: eleven years of consecutive days. */
  private static final int DATES = 4096;

  private final boolean fixedOffset;
  private final long offsetSeconds;
  private LocalDate[] dates;
  private long[] dateDays;

  private JdbcTemporals(boolean fixedOffset, long offsetSeconds) {
    this.fixedOffset = fixedOffset;
    this.offsetSeconds = offsetSeconds;
  }

  /** For the JVM's default time zone as it is now. */
  static JdbcTemporals forDefaultZone() {
    ZoneRules rules = TimeZone.getDefault().toZoneId().getRules();
    boolean fixed = rules.isFixedOffset();
    return new JdbcTemporals(fixed, fixed ? rules.getOffset(Instant.EPOCH).getTotalSeconds() : 0);
  }

  /** As {@code Date.valueOf(date)}. */
  Date date(LocalDate date) {
    return date(date.toEpochDay());
  }

  /** As {@code Date.valueOf(LocalDate.ofEpochDay(day))}. */
  Date date(long day) {
    if (!fixedOffset || day < FIRST_GREGORIAN_DAY) {
      return Date.valueOf(LocalDate.ofEpochDay(day));
    }
    return new Date((day * SECONDS_PER_DAY - offsetSeconds) * 1000L);
  }

  /**
   * As {@code LocalDate.ofEpochDay(day)}; the last date built for each of {@value #DATES} slots is
   * kept and given again (a LocalDate is an immutable value), since computing the calendar date of
   * a day is most of the time a full scan spends in {@code getObject(i, LocalDate.class)}.
   */
  LocalDate localDate(long day) {
    if (dates == null) {
      dates = new LocalDate[DATES];
      dateDays = new long[DATES];
    }
    int slot = (int) (day & (DATES - 1));
    LocalDate date = dates[slot];
    if (date == null || dateDays[slot] != day) {
      date = LocalDate.ofEpochDay(day);
      dates[slot] = date;
      dateDays[slot] = day;
    }
    return date;
  }

  /**
   * As {@link dev.floe.planner.type.TemporalValues#toLocalDateTime}: a timestamp held in the unit
   * of {@code precision} as a wall-clock time, its date through {@link #localDate}.
   */
  LocalDateTime localDateTime(long value, int precision) {
    long perSecond = dev.floe.planner.type.TemporalValues.unitsPerSecond(precision);
    long seconds = Math.floorDiv(value, perSecond);
    long nanos = Math.floorMod(value, perSecond) * (1_000_000_000L / perSecond);
    long secondOfDay = Math.floorMod(seconds, SECONDS_PER_DAY);
    return LocalDateTime.of(
        localDate(Math.floorDiv(seconds, SECONDS_PER_DAY)),
        java.time.LocalTime.ofNanoOfDay(secondOfDay * 1_000_000_000L + nanos));
  }

  /** As {@code Timestamp.valueOf(value)}. */
  Timestamp timestamp(LocalDateTime value) {
    return timestamp(value.toEpochSecond(ZoneOffset.UTC), value.getNano());
  }

  /**
   * As {@code Timestamp.valueOf} of the wall-clock time {@code seconds} (as if the epoch were local
   * midnight) plus {@code nanos}.
   */
  Timestamp timestamp(long seconds, int nanos) {
    if (!fixedOffset || Math.floorDiv(seconds, SECONDS_PER_DAY) < FIRST_GREGORIAN_DAY) {
      return Timestamp.valueOf(LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC));
    }
    Timestamp timestamp = new Timestamp((seconds - offsetSeconds) * 1000L);
    timestamp.setNanos(nanos);
    return timestamp;
  }
}
