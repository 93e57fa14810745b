package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Sketch;
import org.apache.datasketches.theta.Sketches;
import org.apache.datasketches.theta.Union;
import org.apache.datasketches.theta.UpdateSketch;
import org.apache.iceberg.BlobMetadata;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinReader;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.Pair;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ANALYZE writes each column's distinct-value sketch as Trino and Spark write it (Puffin {@code
 * apache-datasketches-theta-v1} blobs with an {@code ndv} property, registered as the snapshot's
 * statistics file), read back here through Iceberg's own StatisticsFile and Puffin API and
 * DataSketches, never through Floe.
 */
class AnalyzeTest {
  private static final int ROWS = 2000;

  @TempDir Path lake;

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + lake);
  }

  @BeforeEach
  void fill() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE t (id BIGINT PRIMARY KEY, k INT, name VARCHAR, d DATE,"
              + " amount DECIMAL(10, 2))");
      c.setAutoCommit(false);
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?)")) {
        for (int i = 0; i < ROWS; i++) {
          insert.setLong(1, i);
          insert.setInt(2, i % 37);
          insert.setString(3, i % 10 == 0 ? null : "name" + (i % 500));
          insert.setObject(4, LocalDate.of(2024, 1, 1).plusDays(i % 100));
          insert.setBigDecimal(5, java.math.BigDecimal.valueOf(i % 250, 2));
          insert.addBatch();
        }
        insert.executeBatch();
      }
      c.commit();
    }
  }

  /** The blobs of the current snapshot's statistics file: field id to (ndv property, sketch). */
  private Map<Integer, Pair<Long, Sketch>> statistics() throws Exception {
    Table table = ReferenceWriter.load(lake.resolve("t"));
    long snapshotId = table.currentSnapshot().snapshotId();
    List<StatisticsFile> files =
        table.statisticsFiles().stream().filter(f -> f.snapshotId() == snapshotId).toList();
    assertThat(files).hasSize(1);
    StatisticsFile file = files.get(0);
    Map<Integer, Pair<Long, Sketch>> found = new HashMap<>();
    try (PuffinReader reader =
        Puffin.read(table.io().newInputFile(file.path()))
            .withFileSize(file.fileSizeInBytes())
            .withFooterSize(file.fileFooterSizeInBytes())
            .build()) {
      List<org.apache.iceberg.puffin.BlobMetadata> blobs = reader.fileMetadata().blobs();
      for (Pair<org.apache.iceberg.puffin.BlobMetadata, ByteBuffer> blob : reader.readAll(blobs)) {
        org.apache.iceberg.puffin.BlobMetadata meta = blob.first();
        assertThat(meta.type()).isEqualTo("apache-datasketches-theta-v1");
        assertThat(meta.snapshotId()).isEqualTo(snapshotId);
        assertThat(meta.inputFields()).hasSize(1);
        ByteBuffer bytes = blob.second();
        byte[] array = new byte[bytes.remaining()];
        bytes.duplicate().get(array);
        found.put(
            meta.inputFields().get(0),
            Pair.of(
                Long.parseLong(meta.properties().get("ndv")),
                Sketches.wrapSketch(Memory.wrap(array))));
      }
    }
    for (BlobMetadata listed : file.blobMetadata()) {
      assertThat(found).containsKey(listed.fields().get(0));
    }
    return found;
  }

  @Test
  void analyzeWritesEachColumnsThetaSketchThatIcebergsPuffinReaderReadsBack() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("ANALYZE t")).isEqualTo(ROWS);
    }
    Map<Integer, Pair<Long, Sketch>> stats = statistics();
    // Fields 1..5: id, k, name (NULL not counted), d, amount; exact below 4,096 values.
    Map<Integer, Long> expected = Map.of(1, 2000L, 2, 37L, 3, 450L, 4, 100L, 5, 250L);
    assertThat(stats).hasSize(5);
    expected.forEach(
        (field, ndv) -> {
          assertThat(stats.get(field).first()).as("ndv of field %d", field).isEqualTo(ndv);
          assertThat(stats.get(field).second().getEstimate()).isEqualTo(ndv.doubleValue());
        });
  }

  @Test
  void valuesAreHashedInIcebergsSingleValueFormAsTrinoAndSparkHashThem() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.executeUpdate("ANALYZE t (k, d)");
    }
    Map<Integer, Pair<Long, Sketch>> stats = statistics();
    assertThat(stats).containsOnlyKeys(2, 4);
    // The same values hashed by another writer the same way: the union has no new value.
    UpdateSketch k = UpdateSketch.builder().build();
    for (int i = 0; i < 37; i++) {
      k.update(bytes(Conversions.toByteBuffer(Types.IntegerType.get(), i)));
    }
    UpdateSketch d = UpdateSketch.builder().build();
    for (int i = 0; i < 100; i++) {
      int day = (int) LocalDate.of(2024, 1, 1).plusDays(i).toEpochDay();
      d.update(bytes(Conversions.toByteBuffer(Types.DateType.get(), day)));
    }
    assertThat(union(k, stats.get(2).second())).isEqualTo(37);
    assertThat(union(d, stats.get(4).second())).isEqualTo(100);
  }

  private static List<List<Object>> rows(Statement s, String sql) throws SQLException {
    List<List<Object>> rows = new java.util.ArrayList<>();
    try (java.sql.ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(List.of(rs.getObject(1), rs.getObject(2)));
      }
    }
    return rows;
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] array = new byte[buffer.remaining()];
    buffer.duplicate().get(array);
    return array;
  }

  private static double union(Sketch a, Sketch b) {
    Union union = SetOperation.builder().buildUnion();
    union.union(a);
    union.union(b);
    return union.getResult().getEstimate();
  }

  @Test
  void columnNamesFollowTheUsualRulesAndUnknownOnesAreRefused() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.executeUpdate("analyze T (K, \"name\")");
      assertThat(statistics()).containsOnlyKeys(2, 3);
      assertThatThrownBy(() -> s.executeUpdate("ANALYZE t (nope)"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("nope")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42S22");
      assertThatThrownBy(() -> s.executeUpdate("ANALYZE t (\"K\")"))
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42S22");
      assertThatThrownBy(() -> s.executeUpdate("ANALYZE missing"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("missing")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42S02");
      assertThatThrownBy(() -> s.executeUpdate("ANALYZE t (k"))
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42000");
    }
  }

  @Test
  void analyzeIsRefusedOverUncommittedChangesAndRunsPrepared() throws Exception {
    try (Connection c = connect()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO t VALUES (5000, 1, 'x', DATE '2024-01-01', 1.00)");
        assertThatThrownBy(() -> s.executeUpdate("ANALYZE t"))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("uncommitted")
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("25000");
      }
      c.rollback();
    }
    assertThat(ReferenceWriter.load(lake.resolve("t")).statisticsFiles()).isEmpty();
    try (Connection c = connect();
        PreparedStatement analyze = c.prepareStatement("ANALYZE t")) {
      assertThat(analyze.executeUpdate()).isPositive();
    }
    assertThat(ReferenceWriter.load(lake.resolve("t")).statisticsFiles()).hasSize(1);
  }

  @Test
  void anEmptyTableHasNothingToDescribe() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE e (id INT)");
      assertThat(s.executeUpdate("ANALYZE e")).isZero();
    }
    assertThat(ReferenceWriter.load(lake.resolve("e")).statisticsFiles()).isEmpty();
  }

  @Test
  void queriesStillAnswerTheSameAfterAnalyze() throws Exception {
    String join =
        "SELECT a.k, COUNT(*) FROM t a JOIN t b ON a.k = b.k AND a.id = b.id GROUP BY a.k"
            + " ORDER BY a.k";
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      List<List<Object>> before = rows(s, join);
      s.executeUpdate("ANALYZE t");
      assertThat(rows(s, join)).isEqualTo(before).hasSize(37);
    }
  }
}
