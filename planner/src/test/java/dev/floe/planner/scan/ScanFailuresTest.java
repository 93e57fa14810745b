package dev.floe.planner.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/**
 * A scan's failures say whose fault they are: a defect of Floe's own code is INTERNAL (HY000)
 * naming it, never damage to the lake (58030), which a file that cannot be read is.
 */
class ScanFailuresTest {
  private static final String FILE = "file:/lake/t/data/00001.parquet";

  @Test
  void aNullDereferenceInFloesOwnCodeIsAnInternalErrorNamingTheFileAndTheDefect() {
    RuntimeException failure = LakeScan.Failures.translate(nullDereference(), FILE);
    assertThat(failure).isInstanceOf(FloeException.class);
    assertThat(((FloeException) failure).sqlState()).isEqualTo(FloeError.INTERNAL.sqlState());
    assertThat(failure.getMessage())
        .contains(FILE)
        .contains("NullPointerException")
        .contains("ScanFailuresTest")
        .contains("not known to be damaged");
  }

  @Test
  void aFileThatCannotBeReadIsDamageNamingTheFile() {
    RuntimeException failure =
        LakeScan.Failures.translate(
            new UncheckedIOException(new IOException("Not a Parquet file")), FILE);
    assertThat(((FloeException) failure).sqlState()).isEqualTo(FloeError.IO.sqlState());
    assertThat(failure.getMessage()).contains(FILE).contains("Not a Parquet file");
  }

  @Test
  void aNullDereferenceInsideALibraryReadingTheFileIsStillReportedAsTheFilesDamage() {
    NullPointerException inLibrary = new NullPointerException("page header");
    inLibrary.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("org.apache.parquet.format.Util", "readPageHeader", null, 1)
        });
    RuntimeException failure =
        LakeScan.Failures.translate(new RuntimeException("decoding", inLibrary), FILE);
    assertThat(((FloeException) failure).sqlState()).isEqualTo(FloeError.IO.sqlState());
  }

  private static RuntimeException nullDereference() {
    try {
      Object nothing = null;
      nothing.hashCode();
      return new IllegalStateException("unreachable");
    } catch (NullPointerException e) {
      return new RuntimeException("wrapped as a worker wraps it", e);
    }
  }
}
