package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Read-path promises that the reference tables alone do not show: unquoted names match
 * folders whatever their case, a statement sees a commit another writer made a moment ago, LIMIT
 * stops reading before later files, and files Floe writes use the table's compression codec.
 */
class ReadScopeTest {
  private static final Schema SCHEMA = ReferenceWriter.ID_NAME;

  @TempDir Path lake;

  private Connection connect(String properties) throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + lake + properties);
  }

  private List<DataFile> appendRows(Table table, long from, long to) {
    return ReferenceWriter.append(table, ReferenceWriter.idNameRows(from, to));
  }

  private static long count(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  @Test
  void unquotedNamesMatchTheFolderWhateverTheirCase() throws Exception {
    appendRows(
        ReferenceWriter.create(lake.resolve("orders"), SCHEMA, PartitionSpec.unpartitioned(), 2),
        0,
        3);
    try (Connection c = connect("");
        Statement s = c.createStatement()) {
      assertThat(count(s, "SELECT count(*) FROM ORDERS")).isEqualTo(3);
      assertThat(count(s, "SELECT count(*) FROM Orders")).isEqualTo(3);
      assertThat(count(s, "SELECT COUNT(ID) FROM \"orders\"")).isEqualTo(3);
    }
  }

  @Test
  void aStatementOnAnOpenConnectionSeesACommitAnotherWriterMadeAMomentAgo() throws Exception {
    Table table =
        ReferenceWriter.create(lake.resolve("events"), SCHEMA, PartitionSpec.unpartitioned(), 2);
    appendRows(table, 0, 2);
    try (Connection c = connect("");
        Statement s = c.createStatement()) {
      assertThat(count(s, "SELECT count(*) FROM events")).isEqualTo(2);
      appendRows(ReferenceWriter.load(lake.resolve("events")), 2, 5);
      assertThat(count(s, "SELECT count(*) FROM events")).isEqualTo(5);
      try (ResultSet rs = s.executeQuery("SELECT max(id) FROM events")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(4);
      }
    }
  }

  @ParameterizedTest(name = "scanThreads={0}")
  @ValueSource(strings = {"default", "1"})
  void aLimitStopsReadingBeforeTheLaterFiles(String scanThreads) throws Exception {
    Table table =
        ReferenceWriter.create(lake.resolve("logs"), SCHEMA, PartitionSpec.unpartitioned(), 2);
    List<String> files = new ArrayList<>();
    for (int f = 0; f < 4; f++) {
      appendRows(table, f * 1000L, (f + 1) * 1000L).forEach(file -> files.add(file.location()));
    }
    // Floe reads tasks in the order of their file names: break the last one.
    files.sort(Comparator.naturalOrder());
    Path last = Path.of(java.net.URI.create(files.get(files.size() - 1)));
    Files.write(last, new byte[] {1, 2, 3});
    String properties = scanThreads.equals("default") ? "" : "?scanThreads=" + scanThreads;
    try (Connection c = connect(properties);
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT id, name FROM logs LIMIT 10")) {
        int rows = 0;
        while (rs.next()) {
          rows++;
        }
        assertThat(rows).isEqualTo(10);
      }
      assertThatThrownBy(
              () -> {
                try (ResultSet rs = s.executeQuery("SELECT id, name FROM logs")) {
                  while (rs.next()) {
                    rs.getString(2);
                  }
                }
              })
          .hasFieldOrPropertyWithValue("SQLState", "58030");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"gzip", "snappy", "zstd"})
  void filesFloeWritesUseTheCompressionCodecOfTheTable(String codec) throws Exception {
    try (Connection c = connect("");
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE t (id BIGINT, name VARCHAR) WITH ('write.parquet.compression-codec' = '"
              + codec
              + "')");
      s.executeUpdate("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
    }
    List<Path> parquet;
    try (Stream<Path> walk = Files.walk(lake.resolve("t").resolve("data"))) {
      parquet = walk.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
    assertThat(parquet).isNotEmpty();
    for (Path file : parquet) {
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
        for (BlockMetaData block : reader.getFooter().getBlocks()) {
          for (ColumnChunkMetaData column : block.getColumns()) {
            assertThat(column.getCodec().name()).isEqualToIgnoringCase(codec);
          }
        }
      }
    }
  }
}
