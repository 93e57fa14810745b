package dev.floe.examples;

import static dev.floe.examples.LakeFiles.assertTableLaidOut;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EtlLoadTest {
  @TempDir Path temp;

  @Test
  void loadsEveryRowInBatchesAsOneSnapshot() throws Exception {
    Path lake = temp.resolve("etl lake");

    EtlLoad.Result result = EtlLoad.load(lake.toString(), 25_000, 5_000);

    assertThat(result.loaded()).isEqualTo(25_000);
    assertThat(result.firstId()).isEqualTo(1);
    assertThat(result.tableRows()).isEqualTo(25_000);
    assertTableLaidOut(lake, "events", temp);
    Path metadata = lake.resolve("events").resolve("metadata");
    assertThat(metadata.resolve("v2.metadata.json")).isRegularFile(); // CREATE, then one commit
    assertThat(metadata.resolve("v3.metadata.json")).doesNotExist();
    TableMetadata table = LakeFiles.currentMetadata(lake, "events");
    assertThat(table.snapshots()).hasSize(1);
    Snapshot load = table.currentSnapshot();
    assertThat(load.operation()).isEqualTo("append");
    assertThat(load.summary()).containsEntry("added-records", "25000");
    // Five batches over 2024 in time order: a few files per month, not one per row or per batch
    // entry.
    assertThat(LakeFiles.parquetFiles(lake.resolve("events").resolve("data")))
        .hasSizeBetween(12, 20);
  }

  @Test
  void aSecondLoadAppendsAfterTheFirstWithNewIds() throws Exception {
    Path lake = temp.resolve("lake");
    EtlLoad.load(lake.toString(), 3_000, 1_000);

    EtlLoad.Result again = EtlLoad.load(lake.toString(), 2_000, 1_000);

    assertThat(again.firstId()).isEqualTo(3_001);
    assertThat(again.tableRows()).isEqualTo(5_000);
    assertTableLaidOut(lake, "events", temp);
    assertThat(LakeFiles.currentMetadata(lake, "events").snapshots()).hasSize(2);
    try (Connection connection = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement statement = connection.createStatement();
        ResultSet ids =
            statement.executeQuery(
                "SELECT COUNT(DISTINCT id), MIN(id), MAX(id), MIN(event_date), MAX(event_date) FROM"
                    + " events")) {
      ids.next();
      assertThat(ids.getLong(1)).isEqualTo(5_000);
      assertThat(ids.getLong(2)).isEqualTo(1);
      assertThat(ids.getLong(3)).isEqualTo(5_000);
      assertThat(ids.getString(4)).isEqualTo("2024-01-01");
      assertThat(ids.getString(5)).isEqualTo("2024-12-31");
    }
  }

  @Test
  void aLoadThatFailsIsRolledBackAndLeavesNoFiles() throws Exception {
    Path lake = temp.resolve("lake");
    Files.createDirectories(lake);
    try (Connection connection = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement statement = connection.createStatement()) {
      // The same table, but amounts above 99.99 do not fit: the load's later rows fail.
      statement.execute(
          "CREATE TABLE events (id BIGINT NOT NULL, event_date DATE NOT NULL,"
              + " customer_id BIGINT NOT NULL, kind VARCHAR NOT NULL, amount DECIMAL(4, 2))");
    }

    assertThatThrownBy(() -> EtlLoad.load(lake.toString(), 5_000, 1_000))
        .isInstanceOf(SQLException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");

    assertThat(LakeFiles.currentMetadata(lake, "events").snapshots()).isEmpty();
    assertThat(LakeFiles.parquetFiles(lake.resolve("events"))).isEmpty();
    LakeFiles.assertNoStrayFolders(temp);
  }
}
