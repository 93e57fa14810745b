package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File and Parquet row-group skipping really happen, shown without hooks: the files and row groups
 * a selective filter excludes by their statistics are corrupted on disk, so reading them would fail
 * with 58030; the selective query still returns exactly its rows, and the unfiltered query fails.
 */
class SkippingTest {
  private static final Schema SCHEMA = ReferenceWriter.ID_NAME;

  @TempDir Path lake;

  private static List<Record> rows(long from, long to) {
    return ReferenceWriter.idNameRows(from, to);
  }

  private static Path pathOf(DataFile file) {
    return Path.of(java.net.URI.create(file.location()));
  }

  /** Overwrites a byte range of a file in place with bytes no Parquet page header starts with. */
  private static void corrupt(Path file, long from, long length) throws Exception {
    byte[] garbage = new byte[(int) length];
    Arrays.fill(garbage, (byte) 0xEE);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(garbage), from);
    }
  }

  private List<Long> ids(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<Long> ids = new ArrayList<>();
      while (rs.next()) {
        ids.add(rs.getLong(1));
        rs.getString(2);
      }
      return ids;
    }
  }

  private static List<Long> range(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id < to; id++) {
      ids.add(id);
    }
    return ids;
  }

  @Test
  void filesAFilterExcludesByTheirStatisticsAreNeverOpened() throws Exception {
    Table table =
        ReferenceWriter.create(lake.resolve("ranges"), SCHEMA, PartitionSpec.unpartitioned(), 2);
    List<DataFile> files = new ArrayList<>();
    for (long f = 0; f < 6; f++) {
      files.addAll(ReferenceWriter.append(table, rows(f * 1000, f * 1000 + 1000)));
    }
    for (int f = 0; f < files.size(); f++) {
      if (f != 2) {
        Path file = pathOf(files.get(f));
        corrupt(file, 0, Files.size(file));
      }
    }

    assertThat(ids("SELECT id, name FROM ranges WHERE id BETWEEN 2100 AND 2199"))
        .containsExactlyInAnyOrderElementsOf(range(2100, 2200));
    assertThat(ids("SELECT id, name FROM ranges WHERE id >= 2000 AND id < 3000 AND name <> 'x'"))
        .containsExactlyInAnyOrderElementsOf(range(2000, 3000));
    SQLException unfiltered =
        catchThrowableOfType(SQLException.class, () -> ids("SELECT id, name FROM ranges"));
    assertThat((Throwable) unfiltered).isNotNull();
    assertThat(unfiltered.getSQLState()).isEqualTo("58030");
  }

  @Test
  void rowGroupsAFilterExcludesByTheirStatisticsAreNeverRead() throws Exception {
    // A row group every 100 rows: the size check runs every 100 rows and any size is too big.
    Table table =
        ReferenceWriter.create(
            lake.resolve("batches"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(
                TableProperties.FORMAT_VERSION, "2",
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "1",
                TableProperties.PARQUET_ROW_GROUP_CHECK_MIN_RECORD_COUNT, "100",
                TableProperties.PARQUET_ROW_GROUP_CHECK_MAX_RECORD_COUNT, "100"));
    DataFile data = ReferenceWriter.append(table, rows(0, 1000)).get(0);
    Path file = pathOf(data);
    List<BlockMetaData> blocks;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      blocks = reader.getFooter().getBlocks();
    }
    assertThat(blocks).hasSize(10);
    // Corrupt every column chunk of every row group but the fourth (ids 300 to 399).
    for (int g = 0; g < blocks.size(); g++) {
      assertThat(blocks.get(g).getRowCount()).isEqualTo(100);
      if (g != 3) {
        for (ColumnChunkMetaData column : blocks.get(g).getColumns()) {
          corrupt(file, column.getStartingPos(), column.getTotalSize());
        }
      }
    }

    assertThat(ids("SELECT id, name FROM batches WHERE id BETWEEN 310 AND 389"))
        .containsExactlyInAnyOrderElementsOf(range(310, 390));
    assertThat(ids("SELECT id, name FROM batches WHERE id >= 300 AND id < 400"))
        .containsExactlyInAnyOrderElementsOf(range(300, 400));
    SQLException unfiltered =
        catchThrowableOfType(SQLException.class, () -> ids("SELECT id, name FROM batches"));
    assertThat((Throwable) unfiltered).isNotNull();
    assertThat(unfiltered.getSQLState()).isEqualTo("58030");
  }
}
