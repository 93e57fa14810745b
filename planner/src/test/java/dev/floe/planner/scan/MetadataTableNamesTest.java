package dev.floe.planner.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.planner.name.TableNames;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The names reserved for metadata tables ({@link TableNames#METADATA_TABLES}, which the resolver
 * refuses for new tables) are exactly the metadata tables the scan serves.
 */
class MetadataTableNamesTest {
  @Test
  void theReservedNamesAreTheMetadataTablesTheScanServes() {
    assertThat(Arrays.stream(MetadataScan.Kind.values()).map(MetadataScan.Kind::tableName))
        .containsExactlyInAnyOrderElementsOf(TableNames.METADATA_TABLES);
  }

  @Test
  void aNameIsAMetadataTablesWhenItsPartAfterTheLastDollarIsOneInAnyCase() {
    assertThat(TableNames.metadataTableBase("orders$snapshots")).isEqualTo("orders");
    assertThat(TableNames.metadataTableBase("Orders$FILES")).isEqualTo("Orders");
    assertThat(TableNames.metadataTableBase("a$b$all_entries")).isEqualTo("a$b");
  }

  @Test
  void aDollarBeforeAnythingElseReservesNothing() {
    assertThat(TableNames.metadataTableBase("price$usd")).isNull();
    assertThat(TableNames.metadataTableBase("$files")).isNull();
    assertThat(TableNames.metadataTableBase("files$")).isNull();
    assertThat(TableNames.metadataTableBase("orders")).isNull();
  }
}
