package dev.floe.planner.name;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableVersionTest {
  @Test
  void aVersionWrittenAfterANameSplitsOffAgain() {
    List<TableVersion> versions =
        List.of(
            TableVersion.snapshot(5953729321830112162L),
            TableVersion.snapshot(-42),
            TableVersion.ref("audit"),
            TableVersion.ref("it's FOR VERSION AS OF 'x'"),
            TableVersion.at(LocalDateTime.of(2024, 6, 3, 0, 0)),
            TableVersion.at(LocalDateTime.of(2024, 6, 3, 10, 15, 30, 123_456_000)),
            TableVersion.at(Instant.parse("2024-06-03T10:15:30.000001Z")));
    for (TableVersion version : versions) {
      TableVersion.Versioned split = TableVersion.split(version.appendTo("orders$files"));
      assertThat(split.name()).as(version.toString()).isEqualTo("orders$files");
      assertThat(split.version()).isEqualTo(version);
    }
  }

  @Test
  void theClauseReadsAsSql() {
    assertThat(TableVersion.snapshot(42).toString()).isEqualTo("FOR VERSION AS OF 42");
    assertThat(TableVersion.ref("a'b").toString()).isEqualTo("FOR VERSION AS OF 'a''b'");
    assertThat(TableVersion.at(LocalDateTime.of(2024, 6, 3, 0, 0)).toString())
        .isEqualTo("FOR TIMESTAMP AS OF TIMESTAMP '2024-06-03 00:00:00'");
  }

  @Test
  void aPlainNameHasNoVersion() {
    assertThat(TableVersion.split("orders").version()).isNull();
    assertThat(TableVersion.split("orders FOR VERSION AS OF x").version()).isNull();
    assertThat(TableVersion.split("orders FOR VERSION AS OF x").name())
        .isEqualTo("orders FOR VERSION AS OF x");
  }
}
