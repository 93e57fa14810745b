package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables other engines wrote read through Floe exactly as the writing engine read them: every row
 * of every corpus table ({@code src/test/resources/foreign}, see its README), at its current state,
 * at earlier snapshots and under a filter, compared value by value in canonical form with the rows
 * the writing engine returned when it wrote them. The corpus covers Spark 3.4 with Iceberg 1.3
 * (format 1, gzip), Spark 3.5 with Iceberg 1.10 (format 2 position deletes, snappy) and Spark 4.1
 * with Iceberg 1.12 (format 3 deletion vectors, equality deletes, zstd), partition and schema
 * evolution, and Parquet files of Spark's own writer registered with {@code add_files}.
 */
class ForeignTablesTest {
  private static final long MAX_CORPUS_BYTES = 10L << 20;

  @TempDir static Path sandbox;
  private static List<ForeignCorpus.CorpusSet> corpus;

  @BeforeAll
  static void relocate() throws IOException {
    corpus = ForeignCorpus.relocateAll(sandbox);
  }

  private static Stream<ForeignCorpus.Table> tables() {
    return corpus.stream().flatMap(set -> set.tables().stream());
  }

  @TestFactory
  Stream<DynamicTest> everyForeignTableReadsAsTheWritingEngineReadIt() {
    return corpus.stream()
        .flatMap(
            set ->
                set.tables().stream()
                    .flatMap(
                        table ->
                            table.reads().stream()
                                .map(
                                    read ->
                                        DynamicTest.dynamicTest(
                                            set.set() + " " + read.floeSql(table.name()),
                                            () ->
                                                assertFloeReads(
                                                    set, table.name(), read, set.engine())))));
  }

  @TestFactory
  Stream<DynamicTest> icebergItselfReadsTheRelocatedTablesAsTheWritingEngineDid() {
    // The relocation is the kit's own doing: Iceberg's reader checks it, so that a difference in
    // the test above is Floe's.
    return tables()
        .flatMap(
            table ->
                table.reads().stream()
                    .filter(read -> read.where() == null)
                    .map(
                        read ->
                            DynamicTest.dynamicTest(
                                table.set() + " " + table.name() + " at " + read.snapshot(),
                                () -> assertIcebergReads(table, read))));
  }

  @TestFactory
  Stream<DynamicTest> parquetFilesOfAnotherWriterReadAsThatWriterReadThemOnceAdded() {
    return corpus.stream()
        .flatMap(
            set ->
                set.files().stream()
                    .map(
                        files ->
                            DynamicTest.dynamicTest(
                                set.set() + " " + files.name() + " through add_files",
                                () -> assertAddedFilesRead(set, files))));
  }

  /**
   * Rewrites read a table's files through the scan runtime, as queries do: {@code optimize} of
   * every corpus table (position deletes, deletion vectors, equality deletes, nested types, evolved
   * schemas and specs) keeps exactly its rows, and so does a copy-on-write DELETE of the rows of
   * one key, which writes every other row of the files it touches again. On a copy of the corpus of
   * its own.
   */
  @Test
  void optimizeAndCopyOnWriteOfEveryForeignTableKeepItsRows(@TempDir Path own)
      throws IOException, SQLException {
    int tables = 0;
    for (ForeignCorpus.CorpusSet set : ForeignCorpus.relocateAll(own)) {
      try (Connection c = connect(set);
          Statement s = c.createStatement()) {
        for (ForeignCorpus.Table table : set.tables()) {
          String t = table.name();
          List<String> before = sortedRows(s, "SELECT * FROM " + t);
          s.execute("ALTER TABLE " + t + " EXECUTE optimize");
          assertThat(sortedRows(s, "SELECT * FROM " + t))
              .as("%s after optimize", t)
              .isEqualTo(before);
          String key;
          try (ResultSet rs = s.executeQuery("SELECT * FROM " + t + " LIMIT 0")) {
            key = '"' + rs.getMetaData().getColumnLabel(1) + '"';
          }
          String min = "(SELECT MIN(" + key + ") FROM " + t + ")";
          List<String> kept =
              sortedRows(
                  s, "SELECT * FROM " + t + " WHERE " + key + " IS NULL OR " + key + " <> " + min);
          assertThat(kept)
              .as("%s has rows of more than one key", t)
              .isNotEmpty()
              .hasSizeLessThan(before.size());
          s.execute("ALTER TABLE " + t + " SET PROPERTIES ('write.delete.mode' = 'copy-on-write')");
          s.execute("DELETE FROM " + t + " WHERE " + key + " = " + min);
          assertThat(sortedRows(s, "SELECT * FROM " + t))
              .as("%s after the DELETE", t)
              .isEqualTo(kept);
          tables++;
        }
      }
    }
    assertThat(tables).isGreaterThanOrEqualTo(7);
  }

  private static List<String> sortedRows(Statement s, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(rs.getString(i)).append('|');
        }
        rows.add(row.toString());
      }
    }
    rows.sort(null);
    return rows;
  }

  @Test
  void theCorpusHoldsTheFormatsCodecsDeletesAndEvolutionItClaims() throws IOException {
    assertThat(size(ForeignCorpus.source())).as("bytes in the corpus").isLessThan(MAX_CORPUS_BYTES);
    assertThat(corpus)
        .extracting(ForeignCorpus.CorpusSet::set)
        .containsExactly("spark34-iceberg13", "spark35-iceberg110", "spark41-iceberg112");

    Set<Integer> formats = new TreeSet<>();
    Set<String> codecs = new TreeSet<>();
    Set<String> deletes = new TreeSet<>();
    Set<String> evolved = new TreeSet<>();
    Set<String> travelled = new TreeSet<>();
    Set<String> features = new TreeSet<>();
    for (ForeignCorpus.Table t : tables().toList()) {
      Table table = load(t);
      String what = t.set() + " " + t.name();
      formats.add(
          ((org.apache.iceberg.HasTableOperations) table).operations().current().formatVersion());
      for (Path file : dataFiles(table)) {
        assertThat(codecsOf(file)).as(what + ": the codec of " + file).containsOnly(t.codec());
      }
      codecs.add(t.codec());
      deletes.addAll(deleteKinds(table));
      if (table.specs().size() > 1) {
        evolved.add("partitions of " + what);
      }
      if (renamedOrDropped(table)) {
        evolved.add("columns of " + what);
      }
      try (Stream<Path> metadata = Files.list(t.folder().resolve("metadata"))) {
        if (metadata.anyMatch(p -> p.getFileName().toString().endsWith(".gz.metadata.json"))) {
          features.add("gzip-compressed metadata in " + what);
        }
      }
      if (promoted(table)) {
        features.add("promoted types in " + what);
      }
      if (table.schema().columns().stream().anyMatch(f -> f.initialDefault() != null)) {
        features.add("a column default in " + what);
      }
      assertThat(t.reads())
          .as(what + ": reads at an earlier snapshot and with a filter")
          .anyMatch(r -> r.snapshot() != null)
          .anyMatch(r -> r.where() != null);
      if (t.reads().stream().anyMatch(r -> r.snapshot() != null)) {
        travelled.add(what);
      }
    }
    assertThat(formats).containsExactly(1, 2, 3);
    assertThat(codecs).containsExactly("GZIP", "SNAPPY", "ZSTD");
    assertThat(deletes)
        .containsExactlyInAnyOrder("position deletes", "equality deletes", "deletion vectors");
    assertThat(features)
        .containsExactlyInAnyOrder(
            "gzip-compressed metadata in spark34-iceberg13 db.merge_on_read",
            "a column default in spark41-iceberg112 db.vectors",
            "promoted types in spark34-iceberg13 db.typed",
            "promoted types in spark35-iceberg110 db.orders",
            "promoted types in spark41-iceberg112 db.vectors");
    assertThat(evolved)
        .contains(
            "partitions of spark34-iceberg13 db.evolved",
            "columns of spark34-iceberg13 db.evolved",
            "partitions of spark35-iceberg110 db.respecified",
            "columns of spark35-iceberg110 db.orders",
            "partitions of spark41-iceberg112 db.vectors",
            "columns of spark41-iceberg112 db.vectors");
    assertThat(travelled).hasSize((int) tables().count());

    List<ForeignCorpus.AddedFiles> added =
        corpus.stream().flatMap(set -> set.files().stream()).toList();
    assertThat(added).isNotEmpty();
    for (ForeignCorpus.AddedFiles files : added) {
      List<Path> parquet = parquetFiles(files.folder());
      assertThat(parquet).as(files.name()).isNotEmpty();
      for (Path file : parquet) {
        assertThat(codecsOf(file)).as("the codec of " + file).containsOnly(files.codec());
      }
    }
  }

  // ---------------------------------------------------------------------------------------------

  private static Connection connect(ForeignCorpus.CorpusSet set) throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + set.lake());
  }

  private static void assertFloeReads(
      ForeignCorpus.CorpusSet set, String table, ForeignCorpus.Read read, String engine)
      throws SQLException {
    String sql = read.floeSql(table);
    try (Connection c = connect(set);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(columnNames(rs.getMetaData()))
          .as("the columns of %s (%s answered %s)", sql, engine, read.spark())
          .isEqualTo(read.columnNames());
      List<List<String>> floe = Canonical.rows(rs, read.columnTypes());
      assertThat(floe)
          .as("the rows of %s; %s answered %s", sql, engine, read.spark())
          .containsExactlyInAnyOrderElementsOf(read.rows());
    }
  }

  private static List<String> columnNames(ResultSetMetaData metadata) throws SQLException {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= metadata.getColumnCount(); i++) {
      names.add(metadata.getColumnLabel(i));
    }
    return names;
  }

  private static void assertIcebergReads(ForeignCorpus.Table t, ForeignCorpus.Read read)
      throws IOException {
    Table table = load(t);
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
    if (read.snapshot() != null) {
      scan = scan.useSnapshot(read.snapshot());
    }
    List<List<String>> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = scan.build()) {
      for (Record record : records) {
        List<String> row = new ArrayList<>();
        for (Types.NestedField field : read.schema().fields()) {
          row.add(Canonical.ofReference(field.type(), record.getField(field.name())));
        }
        rows.add(row);
      }
    }
    assertThat(rows)
        .as("Iceberg's generic reader on the relocated %s %s", t.name(), read.spark())
        .containsExactlyInAnyOrderElementsOf(read.rows());
  }

  private static void assertAddedFilesRead(
      ForeignCorpus.CorpusSet set, ForeignCorpus.AddedFiles files) throws SQLException {
    List<Path> parquet = parquetFiles(files.folder());
    try (Connection c = connect(set);
        Statement s = c.createStatement()) {
      s.execute(files.create());
      try (ResultSet rs =
          s.executeQuery(
              "ALTER TABLE "
                  + files.table()
                  + " EXECUTE add_files(location => '"
                  + files.folder()
                  + "', format => 'PARQUET')")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong("added_files_count")).as("files added").isEqualTo(parquet.size());
        assertThat(rs.getLong("added_rows_count"))
            .as("rows added")
            .isEqualTo(files.reads().get(0).rows().size());
      }
    }
    for (ForeignCorpus.Read read : files.reads()) {
      assertFloeReads(set, files.table(), read, set.engine());
    }
  }

  private static Table load(ForeignCorpus.Table t) {
    return new HadoopTables(new Configuration()).load(t.location());
  }

  /** Every data file any snapshot of the table holds. */
  private static Set<Path> dataFiles(Table table) throws IOException {
    Set<Path> files = new TreeSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      try (CloseableIterable<FileScanTask> tasks =
          table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
        for (FileScanTask task : tasks) {
          DataFile file = task.file();
          assertThat(file.format()).isEqualTo(FileFormat.PARQUET);
          files.add(Path.of(file.location().substring("file:".length())));
        }
      }
    }
    return files;
  }

  /** The kinds of delete files any snapshot of the table applies. */
  private static Set<String> deleteKinds(Table table) throws IOException {
    Set<String> kinds = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      try (CloseableIterable<FileScanTask> tasks =
          table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
        for (FileScanTask task : tasks) {
          for (DeleteFile delete : task.deletes()) {
            if (delete.content() == FileContent.EQUALITY_DELETES) {
              kinds.add("equality deletes");
            } else if (delete.format() == FileFormat.PUFFIN) {
              kinds.add("deletion vectors");
            } else {
              kinds.add("position deletes");
            }
          }
        }
      }
    }
    return kinds;
  }

  /** Whether a column of an earlier schema is gone or has another name now. */
  private static boolean renamedOrDropped(Table table) {
    Schema current = table.schema();
    for (Schema schema : table.schemas().values()) {
      for (Types.NestedField field : schema.columns()) {
        Types.NestedField now = current.findField(field.fieldId());
        if (now == null || !now.name().equals(field.name())) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a field, at any depth, has a wider type now than in an earlier schema. */
  private static boolean promoted(Table table) {
    Map<Integer, Types.NestedField> now = TypeUtil.indexById(table.schema().asStruct());
    for (Schema schema : table.schemas().values()) {
      for (Types.NestedField field : TypeUtil.indexById(schema.asStruct()).values()) {
        Types.NestedField current = now.get(field.fieldId());
        if (current != null
            && field.type().isPrimitiveType()
            && !field.type().equals(current.type())) {
          return true;
        }
      }
    }
    return false;
  }

  /** The compression codecs of a Parquet file's column chunks, by Parquet's names. */
  private static Set<String> codecsOf(Path file) throws IOException {
    Set<String> codecs = new TreeSet<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData column : block.getColumns()) {
          codecs.add(column.getCodec().name());
        }
      }
    }
    return codecs;
  }

  private static List<Path> parquetFiles(Path folder) {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static long size(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      long total = 0;
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        total += Files.size(p);
      }
      return total;
    }
  }
}
