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
    try (PrintStream err = new PrintStream(new StackTraceFilter(bytes), true, StandardCharsets.UTF_8)) {
      err.println("Error: Cannot find table missing (state=42S02,code=0)");
      new SQLException("outer", "42S02", new IllegalStateException("inner")).printStackTrace(err);
      err.println("1 row affected (0.1 seconds)");
      err.print("no newline yet");
    }

    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "Error: Cannot find table missing (state=42S02,code=0)\n"
                + "java.sql.SQLException: outer\n"
                + "1 row affected (0.1 seconds)\n"
                + "no newline yet");
  }
}
