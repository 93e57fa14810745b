package dev.floe.examples.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class StackTraceFilterTest {
  @Test
  void keepsMessagesAndDropsFramesAndCauses() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream err =
        new PrintStream(new StackTraceFilter(bytes), true, StandardCharsets.UTF_8)) {
      err.println("Error: Cannot parse SQL: Encountered \"one\"");
      err.println("Was expecting one of: ... (state=42000,code=0)");
      new SQLException(
              "Cannot parse SQL\nWas expecting one of: ...",
              "42000",
              new IllegalStateException("inner\nmore"))
          .printStackTrace(err);
      err.println("1 row affected (0.1 seconds)");
      err.print("no newline yet");
    }

    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "Error: Cannot parse SQL: Encountered \"one\"\n"
                + "Was expecting one of: ... (state=42000,code=0)\n"
                + "1 row affected (0.1 seconds)\n"
                + "no newline yet");
  }
}
