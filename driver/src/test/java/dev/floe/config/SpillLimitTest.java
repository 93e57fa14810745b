package dev.floe.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import dev.floe.planner.session.SpillLimit;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The connection property spillLimit: a share of the temp folder's free disk, a size, or 0. */
class SpillLimitTest {
  @Test
  void aShareASizeAndZeroSpellTheirLimits() {
    assertThat(FloeProperty.spillLimit("50%")).isEqualTo(SpillLimit.ofUsableSpace(0.5));
    assertThat(FloeProperty.spillLimit(" 10GB ")).isEqualTo(SpillLimit.ofBytes(10L << 30));
    assertThat(FloeProperty.spillLimit("0")).isEqualTo(SpillLimit.ofBytes(0));
    assertThat(FloeProperty.spillLimit("0MB")).isEqualTo(SpillLimit.ofBytes(0));
  }

  @Test
  void byDefaultAStatementMaySpill90PercentOfTheTempDisksUsableSpace() {
    assertThat(FloeProperty.spillLimit(new Properties())).isEqualTo(SpillLimit.ofUsableSpace(0.9));
  }

  @Test
  void aBadValueIs22023() {
    for (String bad : new String[] {"lots", "0%", "101%", "-5MB", "5 parsecs"}) {
      Properties properties = new Properties();
      properties.setProperty("spillLimit", bad);
      assertThatThrownBy(() -> FloeProperty.validate(properties))
          .as(bad)
          .isInstanceOf(FloeException.class)
          .hasMessageContaining("spillLimit='" + bad + "'")
          .extracting(e -> ((FloeException) e).sqlState())
          .isEqualTo("22023");
    }
  }
}
