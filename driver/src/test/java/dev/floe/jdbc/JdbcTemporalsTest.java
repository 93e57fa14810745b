package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Floe's quick {@code java.sql.Date}/{@code Timestamp} construction gives exactly what {@code
 * valueOf} gives, in fixed-offset zones (the quick path), zones with daylight saving time and
 * before the Gregorian switch (both through {@code valueOf}).
 */
class JdbcTemporalsTest {
  private final TimeZone original = TimeZone.getDefault();

  @AfterEach
  void restoreZone() {
    TimeZone.setDefault(original);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"UTC", "GMT+05:30", "GMT-11:00", "Europe/Paris", "America/Sao_Paulo"})
  void datesAndTimestampsEqualValueOf(String zone) {
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    JdbcTemporals temporals = JdbcTemporals.forDefaultZone();
    LocalDate[] dates = {
      LocalDate.of(1, 1, 1),
      LocalDate.of(1582, 10, 4),
      LocalDate.of(1582, 10, 15),
      LocalDate.of(1582, 12, 31),
      LocalDate.of(1583, 1, 1),
      LocalDate.of(1969, 12, 31),
      LocalDate.of(1970, 1, 1),
      LocalDate.of(2024, 2, 29),
      LocalDate.of(2024, 3, 31),
      LocalDate.of(2024, 10, 27),
      LocalDate.of(9999, 12, 31)
    };
    for (LocalDate date : dates) {
      Date quick = temporals.date(date);
      assertThat(quick.getTime()).as(date.toString()).isEqualTo(Date.valueOf(date).getTime());
      assertThat(quick.toLocalDate()).isEqualTo(date);
      assertThat(temporals.date(date.toEpochDay())).isEqualTo(quick);
      for (LocalDateTime time :
          new LocalDateTime[] {
            date.atStartOfDay(), date.atTime(2, 30, 0, 1_000), date.atTime(23, 59, 59, 999_999_999)
          }) {
        Timestamp expected = Timestamp.valueOf(time);
        Timestamp actual = temporals.timestamp(time);
        assertThat(actual).as(time.toString()).isEqualTo(expected);
        assertThat(temporals.timestamp(time.toEpochSecond(ZoneOffset.UTC), time.getNano()))
            .isEqualTo(expected);
        assertThat(actual.getTime()).isEqualTo(expected.getTime());
        assertThat(actual.getNanos()).isEqualTo(time.getNano());
      }
    }
  }
}
