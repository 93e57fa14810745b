package dev.floe.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The connection property spillLimit: a share of the temp folder's free disk, a size, or 0. */
class SpillLimitTest {
  @Test
  void aShareASizeAndZeroSpellTheirBytes() {
    assertThat(FloeProperty.spillBytes("90%", 1000)).isEqualTo(900);
    assertThat(FloeProperty.spillBytes(" 10GB ", 1000)).isEqualTo(10L << 30);
    assertThat(FloeProperty.spillBytes("0", 1000)).isZero();
    assertThat(FloeProperty.spillBytes("0MB", 1000)).isZero();
  }

  @Test
  void byDefaultAStatementMaySpill90PercentOfTheTempDisksUsableSpace() throws Exception {
    long usable =
        Files.getFileStore(Path.of(System.getProperty("java.io.tmpdir"))).getUsableSpace();
    long limit = FloeProperty.spillLimit(new Properties()).getAsLong();
    // other programs write meanwhile: within a percent of the disk
    assertThat((double) limit)
        .isCloseTo(usable * 0.9, org.assertj.core.data.Offset.offset(usable * 0.01));
    Properties sized = new Properties();
    sized.setProperty("spillLimit", "2GB");
    assertThat(FloeProperty.spillLimit(sized).getAsLong()).isEqualTo(2L << 30);
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
