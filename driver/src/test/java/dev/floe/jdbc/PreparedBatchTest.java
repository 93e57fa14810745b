package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreparedBatchTest {
  @TempDir Path lake;
  Connection connection;

  @BeforeEach
  void createTable() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR)");
    }
  }

  @Test
  void aBatchOfInsertsWritesOneDataFileAndOneSnapshot() throws Exception {
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
      addRows(insert, 0, 1_000);

      int[] counts = insert.executeBatch();

      assertThat(counts).hasSize(1_000).containsOnly(1);
    }
    assertThat(dataFiles()).hasSize(1);
    assertThat(lake.resolve("t/metadata/v2.metadata.json")).isRegularFile();
    assertThat(lake.resolve("t/metadata/v3.metadata.json")).doesNotExist();
    assertThat(count()).isEqualTo(1_000);
  }

  @Test
  void batchesInATransactionAreOneSnapshotAtCommit() throws Exception {
    connection.setAutoCommit(false);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
      addRows(insert, 0, 500);
      insert.executeBatch();
      addRows(insert, 500, 500);
      insert.executeBatch();
      assertThat(count()).isEqualTo(1_000); // the transaction reads its own writes
      assertThat(lake.resolve("t/metadata/v2.metadata.json")).doesNotExist();

      connection.commit();
    }
    assertThat(lake.resolve("t/metadata/v2.metadata.json")).isRegularFile();
    assertThat(lake.resolve("t/metadata/v3.metadata.json")).doesNotExist();
    assertThat(dataFiles()).hasSize(1); // the batches of a transaction share their files
  }

  @Test
  void aBatchWithABadRowWritesNothingAndKeepsNoFiles() throws Exception {
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
      addRows(insert, 0, 10);
      insert.setNull(1, java.sql.Types.BIGINT);
      insert.setString(2, "no id");
      insert.addBatch();

      assertThatThrownBy(insert::executeBatch)
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("23502");
    }
    assertThat(dataFiles()).isEmpty();
    assertThat(lake.resolve("t/metadata/v2.metadata.json")).doesNotExist();
    assertThat(count()).isZero();
  }

  private static void addRows(PreparedStatement insert, int from, int n) throws SQLException {
    for (int i = from; i < from + n; i++) {
      insert.setLong(1, i);
      insert.setString(2, "row " + i);
      insert.addBatch();
    }
  }

  private long count() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM t")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private java.util.List<Path> dataFiles() throws IOException {
    Path data = lake.resolve("t/data");
    if (!Files.isDirectory(data)) {
      return java.util.List.of();
    }
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }
}
