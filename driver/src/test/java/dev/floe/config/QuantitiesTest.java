package dev.floe.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Durations and sizes are exact, and one that does not fit is refused, never wrapped. */
class QuantitiesTest {
  @Test
  void durationsAreExactToTheNanosecond() {
    assertThat(Quantities.duration("r", "7d")).isEqualTo(Duration.ofDays(7));
    assertThat(Quantities.duration("r", " 1.5s ")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Quantities.duration("r", "0s")).isEqualTo(Duration.ZERO);
    assertThat(Quantities.duration("r", "9223372036854775807ns"))
        .isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
  }

  @Test
  void aTextThatIsNoDurationIsNull() {
    assertThat(Quantities.duration("r", "abc")).isNull();
    assertThat(Quantities.duration("r", "-1d")).isNull();
    assertThat(Quantities.duration("r", "7 days")).isNull();
  }

  @Test
  void aDurationLongerThanALongOfNanosecondsIsRefusedNamingIt() {
    for (String text :
        new String[] {"9223372036854775808ns", "18446744075709551616ns", "213504d"}) {
      assertThatThrownBy(() -> Quantities.duration("retention_threshold", text))
          .isInstanceOfSatisfying(
              FloeException.class,
              e -> {
                assertThat(e.sqlState()).isEqualTo("22003");
                assertThat(e.getMessage()).contains("retention_threshold").contains(text);
              });
    }
  }

  @Test
  void sizesArePowersOf1024AndTheLargestIsALong() {
    assertThat(Quantities.size("s", "100MB")).isEqualTo(100L * 1024 * 1024);
    assertThat(Quantities.size("s", "1kb")).isEqualTo(1024L);
    assertThat(Quantities.size("s", "8388607TB")).isEqualTo(8388607L << 40);
    assertThat(Quantities.size("s", "100 parsecs")).isNull();
    for (String text : new String[] {"8388608TB", "16777216TB", "8192PB", "9223372036854775808B"}) {
      assertThatThrownBy(() -> Quantities.size("file_size_threshold", text))
          .isInstanceOfSatisfying(
              FloeException.class,
              e -> {
                assertThat(e.sqlState()).isEqualTo("22003");
                assertThat(e.getMessage()).contains("file_size_threshold");
              });
    }
  }
}
