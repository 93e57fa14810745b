package dev.floe.planner.type;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import org.apache.calcite.util.TimestampString;
import org.junit.jupiter.api.Test;

class TemporalValuesTest {
  @Test
  void literalsBecomeNumbersInTheUnitOfTheirPrecision() {
    TimestampString ts = new TimestampString("2024-02-29 23:59:59.123456789");
    assertThat(TemporalValues.inUnit(ts, 3)).isEqualTo(1_709_251_199_123L);
    assertThat(TemporalValues.inUnit(ts, 6)).isEqualTo(1_709_251_199_123_456L);
    assertThat(TemporalValues.inUnit(ts, 9)).isEqualTo(1_709_251_199_123_456_789L);
  }

  @Test
  void valuesBefore1970RoundTowardsThePast() {
    long micros = TemporalValues.micros(LocalDateTime.parse("1969-12-31T23:59:59.999999"));
    assertThat(micros).isEqualTo(-1L);
    assertThat(TemporalValues.toLocalDateTime(-1L, 6))
        .isEqualTo(LocalDateTime.parse("1969-12-31T23:59:59.999999"));
    assertThat(TemporalValues.format(-1L, 6)).isEqualTo("1969-12-31 23:59:59.999999");
  }

  @Test
  void theEdgesOfTheCalendarAreProlepticGregorian() {
    LocalDateTime first = LocalDateTime.parse("0001-01-01T00:00:00");
    LocalDateTime last = LocalDateTime.parse("9999-12-31T23:59:59.999999");
    assertThat(TemporalValues.toLocalDateTime(TemporalValues.micros(first), 6)).isEqualTo(first);
    assertThat(TemporalValues.toLocalDateTime(TemporalValues.micros(last), 6)).isEqualTo(last);
    assertThat(TemporalValues.format(TemporalValues.micros(first), 6)).isEqualTo("0001-01-01 00:00:00");
  }
}
