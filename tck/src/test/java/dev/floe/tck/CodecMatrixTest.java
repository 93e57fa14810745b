package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every Parquet codec, both ways, with the driver jar alone: Floe writes each codec Iceberg's table
 * property names and Iceberg's own reader reads the files back; Iceberg's own writer writes each
 * codec with data pages v1 and v2, with and without dictionaries, in several row groups with page
 * indexes, and Floe reads them. A codec Floe cannot write is refused when the table is created, and
 * a file in a codec Floe cannot read is refused naming the file and its codec.
 */
class CodecMatrixTest {
  private static final List<String> CODECS =
      List.of("uncompressed", "snappy", "gzip", "zstd", "lz4", "lz4_raw");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "d", Types.DateType.get()),
          Types.NestedField.optional(4, "v", Types.DoubleType.get()));
  private static final int ROWS = 6000;

  @TempDir Path lake;

  /**
   * Row {@code i}: a repeated name (dictionary-friendly), a date, a double; every 7th name NULL.
   */
  private static Object[] row(int i) {
    return new Object[] {
      (long) i,
      i % 7 == 0 ? null : "name " + (i % 50),
      LocalDate.of(2024, 1, 1).plusDays(i % 400),
      i * 0.5
    };
  }

  private static String expectedLine(int i) {
    Object[] r = row(i);
    return r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3];
  }

  private static List<String> expectedLines() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      lines.add(expectedLine(i));
    }
    return lines;
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + lake);
  }

  private static List<String> floeRows(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(
            rs.getLong(1)
                + "|"
                + rs.getString(2)
                + "|"
                + rs.getObject(3, LocalDate.class)
                + "|"
                + rs.getDouble(4));
      }
    }
    return rows;
  }

  private static List<String> icebergRows(Table table) throws IOException {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record r : records) {
        rows.add(r.get(0) + "|" + r.get(1) + "|" + r.get(2) + "|" + r.get(3));
      }
    }
    rows.sort(null);
    return rows;
  }

  private static ParquetMetadata footer(String location) throws IOException {
    Path file = Path.of(location.startsWith("file:") ? location.substring(5) : location);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      return reader.getFooter();
    }
  }

  private static Set<CompressionCodecName> codecs(ParquetMetadata footer) {
    Set<CompressionCodecName> codecs = EnumSet.noneOf(CompressionCodecName.class);
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData column : block.getColumns()) {
        codecs.add(column.getCodec());
      }
    }
    return codecs;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("codecs")
  void floeWritesEveryCodecInSeveralRowGroupsAndIcebergsReaderReadsItBack(String codec)
      throws Exception {
    String table = "w_" + codec;
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE "
              + table
              + " (id BIGINT NOT NULL, name VARCHAR, d DATE, v DOUBLE) WITH ("
              + "'write.parquet.compression-codec' = '"
              + codec.toUpperCase(Locale.ROOT)
              + "', 'write.parquet.row-group-size-bytes' = '16384',"
              + " 'write.parquet.page-row-limit' = '500')");
      c.setAutoCommit(false);
      try (PreparedStatement insert =
          c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?)")) {
        for (int i = 0; i < ROWS; i++) {
          Object[] r = row(i);
          for (int k = 0; k < r.length; k++) {
            insert.setObject(k + 1, r[k]);
          }
          insert.addBatch();
        }
        insert.executeBatch();
      }
      c.commit();
      c.setAutoCommit(true);
      assertThat(floeRows(c, "SELECT id, name, d, v FROM " + table + " ORDER BY id"))
          .containsExactlyElementsOf(expectedLines());
    }

    Table written = ReferenceWriter.load(lake.resolve(table));
    List<String> expected = new ArrayList<>(expectedLines());
    expected.sort(null);
    assertThat(icebergRows(written)).isEqualTo(expected);
    int rowGroups = 0;
    for (var task : written.newScan().planFiles()) {
      ParquetMetadata footer = footer(task.file().location());
      assertThat(codecs(footer))
          .containsExactly(CompressionCodecName.valueOf(codec.toUpperCase(Locale.ROOT)));
      rowGroups += footer.getBlocks().size();
    }
    assertThat(rowGroups).as("row groups written").isGreaterThan(1);
  }

  static Stream<String> codecs() {
    return CODECS.stream();
  }

  static Stream<Arguments> icebergWrittenFiles() {
    List<Arguments> cases = new ArrayList<>();
    for (String codec : CODECS) {
      for (ParquetProperties.WriterVersion pages : ParquetProperties.WriterVersion.values()) {
        for (boolean dictionary : new boolean[] {true, false}) {
          cases.add(Arguments.of(codec, pages, dictionary));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, {1}, dictionary {2}")
  @MethodSource("icebergWrittenFiles")
  void floeReadsWhatIcebergsWriterWritesInEveryCodecPageVersionAndEncoding(
      String codec, ParquetProperties.WriterVersion pages, boolean dictionary) throws Exception {
    String name = "r_" + codec + "_" + pages.name().toLowerCase(Locale.ROOT) + "_" + dictionary;
    Table table =
        ReferenceWriter.create(
            lake.resolve(name),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    DataFile file = write(table, codec, pages, dictionary, ROWS);
    table.newAppend().appendFile(file).commit();

    ParquetMetadata footer = footer(file.location());
    assertThat(codecs(footer))
        .containsExactly(CompressionCodecName.valueOf(codec.toUpperCase(Locale.ROOT)));
    assertThat(footer.getBlocks()).as("row groups").hasSizeGreaterThan(1);
    boolean dictionaryPages =
        footer.getBlocks().stream()
            .flatMap(b -> b.getColumns().stream())
            .anyMatch(
                col ->
                    col.getEncodings().contains(Encoding.PLAIN_DICTIONARY)
                        || col.getEncodings().contains(Encoding.RLE_DICTIONARY));
    assertThat(dictionaryPages).isEqualTo(dictionary);

    try (Connection c = connect()) {
      assertThat(floeRows(c, "SELECT id, name, d, v FROM " + name + " ORDER BY id"))
          .containsExactlyElementsOf(expectedLines());
      // A selective filter: row groups and pages skipped by their statistics and page index.
      assertThat(
              floeRows(c, "SELECT id, name, d, v FROM " + name + " WHERE id BETWEEN 4321 AND 4330"))
          .containsExactlyInAnyOrderElementsOf(expectedLines().subList(4321, 4331));
      try (Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT COUNT(name), SUM(id), MAX(d) FROM " + name + " WHERE v > 10")) {
        assertThat(rs.next()).isTrue();
        long count = 0;
        long sum = 0;
        for (int i = 21; i < ROWS; i++) {
          count += i % 7 == 0 ? 0 : 1;
          sum += i;
        }
        assertThat(rs.getLong(1)).isEqualTo(count);
        assertThat(rs.getLong(2)).isEqualTo(sum);
        assertThat(rs.getObject(3, LocalDate.class))
            .isEqualTo(LocalDate.of(2024, 1, 1).plusDays(399));
      }
    }
  }

  /** Writes rows {@code 0..rows-1} with Iceberg's own Parquet writer, as another engine would. */
  private static DataFile write(
      Table table,
      String codec,
      ParquetProperties.WriterVersion pages,
      boolean dictionary,
      int rows)
      throws IOException {
    String location =
        table.location() + "/data/" + codec + "-" + pages + "-" + dictionary + ".parquet";
    Parquet.WriteBuilder builder =
        Parquet.write(table.io().newOutputFile(location))
            .schema(SCHEMA)
            .createWriterFunc(GenericParquetWriter::create)
            .set(TableProperties.PARQUET_COMPRESSION, codec)
            .set(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "4096")
            .set(TableProperties.PARQUET_PAGE_ROW_LIMIT, "500")
            .writerVersion(pages)
            .overwrite();
    if (!dictionary) {
      for (Types.NestedField field : SCHEMA.columns()) {
        builder.withDictionaryEncoding(field.name(), false);
      }
    }
    FileAppender<Record> appender = builder.build();
    try (appender) {
      for (int i = 0; i < rows; i++) {
        GenericRecord record = GenericRecord.create(SCHEMA);
        Object[] r = row(i);
        for (int k = 0; k < r.length; k++) {
          record.set(k, r[k]);
        }
        appender.add(record);
      }
    }
    Metrics metrics = appender.metrics();
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(location)
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(appender.length())
        .withMetrics(metrics)
        .withSplitOffsets(appender.splitOffsets())
        .build();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"lzo", "brotli", "LZO"})
  void aCodecFloeCannotWriteIsRefusedAtCreateNamingTheCodecsItCan(String codec)
      throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertThatThrownBy(
              () ->
                  s.execute(
                      "CREATE TABLE t (a INT) WITH ('write.parquet.compression-codec' = '"
                          + codec
                          + "')"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining(codec.toUpperCase(Locale.ROOT))
          .hasMessageContaining("zstd")
          .hasMessageContaining("snappy");
      assertThat(Files.exists(lake.resolve("t"))).isFalse();
      assertThatThrownBy(
              () ->
                  s.execute(
                      "CREATE TABLE t (a INT) WITH ('write.delete.parquet.compression-codec' = '"
                          + codec
                          + "')"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
      assertThatThrownBy(
              () ->
                  s.execute(
                      "CREATE TABLE t (a INT) WITH ('write.parquet.compression-codec' = 'lz5')"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"))
          .hasMessageContaining("lz4_raw");
      assertThat(Files.exists(lake.resolve("t"))).isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"BROTLI", "LZO"})
  void aFileInACodecFloeCannotReadIsRefusedNamingTheFileAndTheCodec(String codec) throws Exception {
    Table table =
        ReferenceWriter.create(
            lake.resolve("relabelled"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    DataFile plain =
        write(table, "uncompressed", ParquetProperties.WriterVersion.PARQUET_1_0, true, 100);
    Path path = Path.of(plain.location().replaceFirst("^file:", ""));
    long size = relabelCodec(path, CompressionCodec.valueOf(codec));
    table
        .newAppend()
        .appendFile(
            DataFiles.builder(PartitionSpec.unpartitioned())
                .copy(plain)
                .withFileSizeInBytes(size)
                .build())
        .commit();
    assertThat(codecs(footer(path.toString())))
        .containsExactly(CompressionCodecName.valueOf(codec));

    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> floeRows(c, "SELECT id, name, d, v FROM relabelled"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining(path.getFileName().toString())
          .hasMessageContaining(codec)
          .hasMessageContaining("zstd");
      // the connection goes on
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM relabelled")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(100);
      }
    }
  }

  @Test
  void aCodecFloeCannotReadIsRefusedByReadParquet() throws Exception {
    Table table =
        ReferenceWriter.create(
            lake.resolve("source"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    DataFile plain =
        write(table, "uncompressed", ParquetProperties.WriterVersion.PARQUET_1_0, true, 10);
    Path path = Path.of(plain.location().replaceFirst("^file:", ""));
    Path copy = lake.resolve("brotli.parquet");
    Files.copy(path, copy);
    relabelCodec(copy, CompressionCodec.BROTLI);
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery("SELECT * FROM read_parquet('" + copy + "')"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("brotli.parquet")
          .hasMessageContaining("BROTLI");
    }
  }

  /**
   * Rewrites a Parquet file's footer so its column chunks claim another codec (the pages stay as
   * they are): a file as a writer with that codec would leave it, as far as a reader can tell
   * before decompressing. Returns the new file size.
   */
  private static long relabelCodec(Path file, CompressionCodec codec) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int footerLength =
        ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    int footerStart = bytes.length - 8 - footerLength;
    FileMetaData metadata =
        Util.readFileMetaData(new ByteArrayInputStream(bytes, footerStart, footerLength));
    for (RowGroup group : metadata.getRow_groups()) {
      for (ColumnChunk chunk : group.getColumns()) {
        chunk.getMeta_data().setCodec(codec);
      }
    }
    ByteArrayOutputStream footer = new ByteArrayOutputStream();
    Util.writeFileMetaData(metadata, footer);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bytes, 0, footerStart);
    footer.writeTo(out);
    out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.size()).array());
    out.write("PAR1".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    Files.write(file, out.toByteArray());
    return out.size();
  }
}
