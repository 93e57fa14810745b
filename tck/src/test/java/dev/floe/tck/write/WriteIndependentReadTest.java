package dev.floe.tck.write;

import static dev.floe.tck.write.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The independent check: every kind of table Floe writes is read back with
 * Iceberg's own generic reader, which must see exactly the rows Floe sees, and every commit's
 * snapshot carries the operation and counts another engine would rely on.
 */
class WriteIndependentReadTest {
  private static final String COLUMNS =
      "(id INT NOT NULL, name VARCHAR, amount DECIMAL(10, 2), d DATE, ts TIMESTAMP)";
  private static final String ALL = "SELECT id, name, amount, d, ts FROM t";
  private static final String[] NAMES = {"apple", "banana", "cherry", null, "apricot", "blueberry"};

  @TempDir Path lake;

  static Stream<Arguments> transformsAndVersions() {
    List<String> transforms =
        List.of(
            "id",
            "name",
            "d",
            "bucket(4, id)",
            "bucket(3, name)",
            "truncate(3, name)",
            "truncate(10, id)",
            "truncate(5, amount)",
            "year(d)",
            "month(ts)",
            "day(ts)",
            "hour(ts)",
            "days(d), bucket(2, id)");
    List<Arguments> cases = new ArrayList<>();
    for (String transform : transforms) {
      for (int version : new int[] {2, 3}) {
        cases.add(Arguments.of(transform, version));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "PARTITIONED BY ({0}), v{1}")
  @MethodSource("transformsAndVersions")
  void insertsIntoPartitionedTablesReadTheSameWithIcebergAndSitInTheirPartitions(
      String transform, int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t " + COLUMNS + " PARTITIONED BY (" + transform + ")"
              + " WITH ('format-version' = '" + version + "')");
      assertThat(Sql.update(c, "INSERT INTO t VALUES " + values(1, 24))).isEqualTo(24);
      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.table().spec().fields()).hasSize(topLevelCommas(transform) + 1);
      assertThat(view.rows()).isEqualTo(Sql.rows(c, ALL)).hasSize(24);

      Snapshot append = view.current();
      assertThat(append.operation()).isEqualTo("append");
      assertThat(append.summary())
          .containsEntry("added-records", "24")
          .containsEntry("total-records", "24")
          .containsEntry("added-data-files", Integer.toString(view.dataFiles().size()));
      assertEveryFileSitsInItsPartitionWithFullMetrics(view);
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void deletingWholePartitionsDropsTheirFilesWithoutWritingAny(int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, create("PARTITIONED BY (name)", version), "INSERT INTO t VALUES " + values(1, 24));
      SortedSet<String> dataBefore = FolderListing.files(lake.resolve("t/data"));

      assertThat(Sql.update(c, "DELETE FROM t WHERE name IN ('apple', 'cherry')")).isEqualTo(8);

      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.rows()).isEqualTo(Sql.rows(c, ALL)).hasSize(16);
      Snapshot delete = view.current();
      assertThat(delete.operation()).isEqualTo("delete");
      assertThat(delete.summary())
          .containsEntry("deleted-data-files", "2")
          .containsEntry("deleted-records", "8")
          .containsEntry("total-records", "16")
          .doesNotContainKeys("added-data-files", "added-delete-files");
      assertThat(FolderListing.files(lake.resolve("t/data"))).isEqualTo(dataBefore);
      assertThat(view.deleteFiles()).isEmpty();

      assertThat(Sql.update(c, "DELETE FROM t")).isEqualTo(16);
      view = IcebergView.of(lake.resolve("t"));
      assertThat(view.current().operation()).isEqualTo("delete");
      assertThat(view.current().summary())
          .containsEntry("deleted-records", "16")
          .containsEntry("total-records", "0")
          .containsEntry("total-data-files", "0");
      assertThat(view.rows()).isEmpty();
      assertThat(FolderListing.files(lake.resolve("t/data"))).isEqualTo(dataBefore);
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void rowLevelDeletesArePositionDeletesOnV2AndDeletionVectorsOnV3(int version)
      throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c, create("PARTITIONED BY (bucket(2, id))", version), "INSERT INTO t VALUES " + values(1, 24));
      List<DataFile> dataFiles = IcebergView.of(lake.resolve("t")).dataFiles();
      assertThat(dataFiles).hasSize(2);

      assertThat(Sql.update(c, "DELETE FROM t WHERE MOD(id, 3) = 0")).isEqualTo(8);

      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.rows()).isEqualTo(Sql.rows(c, ALL)).hasSize(16);
      assertThat(view.rows()).noneMatch(r -> (Integer) r.get(0) % 3 == 0);
      Snapshot delete = view.current();
      assertThat(delete.operation()).isEqualTo("delete");
      assertThat(delete.summary())
          .containsEntry("added-position-deletes", "8")
          .containsEntry("added-delete-files", "2")
          .containsEntry("total-records", "24")
          .doesNotContainKeys("added-data-files", "deleted-data-files");
      assertThat(view.dataFiles()).hasSize(2);
      List<DeleteFile> deletes = view.deleteFiles();
      assertThat(deletes).hasSize(2).allMatch(f -> f.content() == FileContent.POSITION_DELETES);
      if (version == 2) {
        assertThat(deletes)
            .allMatch(f -> f.format() == FileFormat.PARQUET)
            .allMatch(f -> f.location().endsWith(".parquet"));
        assertThat(delete.summary()).doesNotContainKey("added-dvs");
      } else {
        assertThat(deletes)
            .allMatch(f -> f.format() == FileFormat.PUFFIN)
            .allMatch(f -> f.location().endsWith(".puffin"))
            .allMatch(f -> f.referencedDataFile() != null && f.contentOffset() != null);
        assertThat(delete.summary()).containsEntry("added-dvs", "2");
      }
      assertDeleteFilesSitWithTheirDataFiles(view);

      // A second delete on the same files: on v3 each data file keeps exactly one vector.
      assertThat(Sql.update(c, "DELETE FROM t WHERE id IN (1, 2)")).isEqualTo(2);
      view = IcebergView.of(lake.resolve("t"));
      assertThat(view.rows()).isEqualTo(Sql.rows(c, ALL)).hasSize(14);
      if (version == 3) {
        List<DeleteFile> vectors = view.deleteFiles();
        assertThat(vectors).hasSize(2);
        assertThat(vectors.stream().mapToLong(DeleteFile::recordCount).sum()).isEqualTo(10);
        Map<String, String> summary = view.current().summary();
        assertThat(summary.get("removed-dvs")).isNotNull().isEqualTo(summary.get("added-dvs"));
      }
      assertDeleteFilesSitWithTheirDataFiles(view);
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void rowLevelDeletesOfOneTransactionAreOneSnapshotAndKeepEveryFileTheyNeed(int version)
      throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c, create("PARTITIONED BY (bucket(2, id))", version), "INSERT INTO t VALUES " + values(1, 24));
      // The second statement touches one of the two files, so on v3 it replaces one of the two
      // vectors the first statement wrote into one Puffin file, which must survive for the other.
      var bucket = Transforms.bucket(2).bind(Types.IntegerType.get());
      List<Integer> oneFile =
          IntStream.rangeClosed(1, 24)
              .filter(id -> id % 3 != 0 && bucket.apply(id) == 0)
              .limit(3)
              .boxed()
              .toList();
      c.setAutoCommit(false);
      assertThat(Sql.update(c, "DELETE FROM t WHERE MOD(id, 3) = 0")).isEqualTo(8);
      assertThat(Sql.update(c, "DELETE FROM t WHERE id IN " + oneFile.toString().replace('[', '(').replace(']', ')')))
          .isEqualTo(3);
      assertThat(Sql.rows(c, ALL)).hasSize(13);
      c.commit();

      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.snapshots()).hasSize(2);
      assertThat(view.current().summary()).containsEntry("added-position-deletes", "11");
      assertThat(view.rows()).isEqualTo(Sql.rows(c, ALL)).hasSize(13);
      assertThat(view.rows())
          .noneMatch(r -> (Integer) r.get(0) % 3 == 0 || oneFile.contains(r.get(0)));
      assertDeleteFilesSitWithTheirDataFiles(view);
      assertThat(FolderListing.files(lake.resolve("t")))
          .as("files nothing refers to")
          .isSubsetOf(view.referencedFiles());
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void copyOnWriteDeletesRewriteTheAffectedFilesAsAnOverwrite(int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t " + COLUMNS + " PARTITIONED BY (bucket(2, id)) WITH ('format-version' = '"
              + version + "', 'write.delete.mode' = 'copy-on-write')",
          "INSERT INTO t VALUES " + values(1, 24));
      int bucketOfSeven = bucketFileHolding(7);

      assertThat(Sql.update(c, "DELETE FROM t WHERE id = 7")).isEqualTo(1);

      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.rows()).isEqualTo(Sql.rows(c, ALL)).hasSize(23);
      Snapshot overwrite = view.current();
      assertThat(overwrite.operation()).isEqualTo("overwrite");
      assertThat(overwrite.summary())
          .containsEntry("deleted-data-files", "1")
          .containsEntry("added-data-files", "1")
          .containsEntry("deleted-records", Integer.toString(bucketOfSeven))
          .containsEntry("added-records", Integer.toString(bucketOfSeven - 1))
          .containsEntry("total-records", "23")
          .doesNotContainKey("added-delete-files");
      assertThat(view.deleteFiles()).isEmpty();
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void mergeOnReadUpdatesAddRowsAndDeletesInOneOverwrite(int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, create("PARTITIONED BY (bucket(2, id))", version), "INSERT INTO t VALUES " + values(1, 24));

      assertThat(Sql.update(c, "UPDATE t SET name = 'updated', amount = amount + 1 WHERE id <= 5"))
          .isEqualTo(5);

      IcebergView view = IcebergView.of(lake.resolve("t"));
      List<List<Object>> rows = view.rows();
      assertThat(rows).isEqualTo(Sql.rows(c, ALL)).hasSize(24);
      assertThat(rows.stream().filter(r -> "updated".equals(r.get(1)))).hasSize(5);
      assertThat(rows).contains(row(1, "updated", new BigDecimal("2.25"), date(1), timestamp(1)));
      Snapshot update = view.current();
      assertThat(update.operation()).isEqualTo("overwrite");
      assertThat(update.summary())
          .containsEntry("added-records", "5")
          .containsEntry("added-position-deletes", "5")
          .containsEntry("total-records", "29")
          .doesNotContainKey("deleted-data-files");
      assertThat(view.snapshots()).hasSize(2);
      assertDeleteFilesSitWithTheirDataFiles(view);
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void copyOnWriteUpdatesRewriteTheAffectedFilesAsAnOverwrite(int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t " + COLUMNS + " WITH ('format-version' = '" + version
              + "', 'write.update.mode' = 'copy-on-write')",
          "INSERT INTO t VALUES " + values(1, 12),
          "INSERT INTO t VALUES " + values(13, 24));

      assertThat(Sql.update(c, "UPDATE t SET name = 'updated' WHERE id IN (3, 4)")).isEqualTo(2);

      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.rows()).isEqualTo(Sql.rows(c, ALL)).hasSize(24);
      Snapshot update = view.current();
      assertThat(update.operation()).isEqualTo("overwrite");
      assertThat(update.summary())
          .containsEntry("deleted-data-files", "1")
          .containsEntry("deleted-records", "12")
          .containsEntry("added-records", "12")
          .containsEntry("total-records", "24")
          .doesNotContainKey("added-delete-files");
      assertThat(view.deleteFiles()).isEmpty();
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void tablesEvolvedByAlterReadTheSameWithIceberg(int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t (id INT NOT NULL, name VARCHAR, qty INT) WITH ('format-version' = '"
              + version + "')",
          "INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)",
          "ALTER TABLE t ADD COLUMN note VARCHAR",
          "INSERT INTO t (id, name, qty, note) VALUES (4, 'd', 40, 'new')",
          "ALTER TABLE t RENAME COLUMN name TO label",
          "ALTER TABLE t ALTER COLUMN qty SET DATA TYPE BIGINT",
          "INSERT INTO t (id, label, qty, note) VALUES (5, 'e', 5000000000, 'wide')",
          "UPDATE t SET label = 'A' WHERE id = 1",
          "DELETE FROM t WHERE id = 2",
          "ALTER TABLE t DROP COLUMN note",
          "INSERT INTO t (id, label, qty) VALUES (6, 'f', 60)");

      IcebergView view = IcebergView.of(lake.resolve("t"));
      Schema schema = view.table().schema();
      assertThat(schema.columns()).extracting(Types.NestedField::name).containsExactly("id", "label", "qty");
      assertThat(schema.findField("label").fieldId()).isEqualTo(2);
      assertThat(schema.findField("qty").type()).isEqualTo(Types.LongType.get());
      assertThat(view.rows())
          .isEqualTo(Sql.rows(c, "SELECT id, label, qty FROM t"))
          .containsExactly(
              row(1, "A", 10L), row(3, "c", 30L), row(4, "d", 40L), row(5, "e", 5000000000L),
              row(6, "f", 60L));
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void aTransactionThatDeletesEverythingAndInsertsIsOneOverwriteSnapshot(int version)
      throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, create("PARTITIONED BY (bucket(2, id))", version), "INSERT INTO t VALUES " + values(1, 10));
      int versionsBefore = IcebergView.versions(lake.resolve("t")).size();

      c.setAutoCommit(false);
      assertThat(Sql.update(c, "DELETE FROM t")).isEqualTo(10);
      assertThat(Sql.update(c, "INSERT INTO t VALUES " + values(11, 13))).isEqualTo(3);
      assertThat(Sql.update(c, "INSERT INTO t VALUES " + values(14, 14))).isEqualTo(1);
      assertThat(IcebergView.versions(lake.resolve("t"))).hasSize(versionsBefore);
      c.commit();

      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(IcebergView.versions(lake.resolve("t"))).hasSize(versionsBefore + 1);
      assertThat(view.snapshots()).hasSize(2);
      Snapshot overwrite = view.current();
      assertThat(overwrite.operation()).isEqualTo("overwrite");
      assertThat(overwrite.summary())
          .containsEntry("deleted-records", "10")
          .containsEntry("added-records", "4")
          .containsEntry("total-records", "4");
      assertThat(view.rows()).isEqualTo(Sql.rows(c, ALL)).hasSize(4);
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void severalInsertsInATransactionAndABatchAreEachOneAppend(int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, create("", version));
      c.setAutoCommit(false);
      Sql.run(c, "INSERT INTO t VALUES " + values(1, 2), "INSERT INTO t VALUES " + values(3, 5));
      c.commit();
      IcebergView view = IcebergView.of(lake.resolve("t"));
      assertThat(view.snapshots()).hasSize(1);
      assertThat(view.current().operation()).isEqualTo("append");
      assertThat(view.current().summary()).containsEntry("added-records", "5");

      c.setAutoCommit(true);
      try (PreparedStatement insert =
          c.prepareStatement("INSERT INTO t (id, name, amount, d, ts) VALUES (?, ?, ?, ?, ?)")) {
        for (int i = 6; i <= 105; i++) {
          insert.setInt(1, i);
          insert.setString(2, NAMES[i % NAMES.length]);
          insert.setBigDecimal(3, amount(i));
          insert.setObject(4, date(i));
          insert.setObject(5, timestamp(i));
          insert.addBatch();
        }
        int[] counts = insert.executeBatch();
        assertThat(counts).hasSize(100);
      }
      view = IcebergView.of(lake.resolve("t"));
      assertThat(view.snapshots()).hasSize(2);
      assertThat(view.current().operation()).isEqualTo("append");
      assertThat(view.current().summary())
          .containsEntry("added-records", "100")
          .containsEntry("total-records", "105");
      assertThat(view.rows()).isEqualTo(Sql.rows(c, ALL)).hasSize(105);
      // Rows of a batch are clustered like those of one statement: one file for this table.
      assertThat(view.current().summary()).containsEntry("added-data-files", "1");
    }
  }

  /** Every data file: its rows belong to its partition, and its metrics never prune its rows. */
  private static void assertEveryFileSitsInItsPartitionWithFullMetrics(IcebergView view) {
    Schema schema = view.table().schema();
    PartitionSpec spec = view.table().spec();
    InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
    long total = 0;
    for (DataFile file : view.dataFiles()) {
      List<Record> records = view.records(file);
      assertThat(file.recordCount()).as("record count of %s", file.location()).isEqualTo(records.size());
      total += records.size();
      assertThat(file.specId()).isEqualTo(spec.specId());
      for (Record record : records) {
        PartitionKey key = new PartitionKey(spec, schema);
        key.partition(wrapper.wrap(record));
        assertThat(partitionValues(key, spec))
            .as("partition of %s in %s", record, file.location())
            .isEqualTo(partitionValues(file.partition(), spec));
        for (Types.NestedField column : schema.columns()) {
          Object value = record.getField(column.name());
          if (value != null) {
            Object literal =
                value instanceof LocalDate || value instanceof LocalDateTime ? value.toString() : value;
            assertThat(
                    new InclusiveMetricsEvaluator(schema, Expressions.equal(column.name(), literal))
                        .eval(file))
                .as("metrics of %s admit %s = %s", file.location(), column.name(), value)
                .isTrue();
          }
        }
      }
      Map<Integer, Long> nulls = file.nullValueCounts();
      for (Types.NestedField column : schema.columns()) {
        long expectedNulls =
            records.stream().filter(r -> r.getField(column.name()) == null).count();
        assertThat(nulls).as("null counts of %s", file.location()).containsEntry(column.fieldId(), expectedNulls);
        assertThat(file.valueCounts()).containsEntry(column.fieldId(), (long) records.size());
        if (expectedNulls < records.size()) {
          assertThat(file.lowerBounds()).containsKey(column.fieldId());
          assertThat(file.upperBounds()).containsKey(column.fieldId());
        }
      }
    }
    assertThat(total).isEqualTo(Long.parseLong(view.current().summary().get("total-records")));
  }

  /** Every delete file is in the partition (and spec) of the data files its positions point at. */
  private static void assertDeleteFilesSitWithTheirDataFiles(IcebergView view) throws Exception {
    PartitionSpec spec = view.table().spec();
    List<DataFile> dataFiles = view.dataFiles();
    try (var tasks = view.table().newScan().planFiles()) {
      for (var task : tasks) {
        for (DeleteFile delete : task.deletes()) {
          assertThat(delete.specId()).isEqualTo(task.file().specId());
          assertThat(partitionValues(delete.partition(), spec))
              .isEqualTo(partitionValues(task.file().partition(), spec));
          assertThat(IcebergView.pathOf(delete)).isRegularFile();
        }
      }
    }
    assertThat(dataFiles).allSatisfy(f -> assertThat(IcebergView.pathOf(f)).isRegularFile());
  }

  private static List<Object> partitionValues(StructLike partition, PartitionSpec spec) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < spec.fields().size(); i++) {
      Object value = partition.get(i, Object.class);
      values.add(value instanceof CharSequence ? value.toString() : value);
    }
    return values;
  }

  /** How many of the 24 rows share the data file of a row (the bucket of its id). */
  private int bucketFileHolding(int id) {
    IcebergView view = IcebergView.of(lake.resolve("t"));
    for (DataFile file : view.dataFiles()) {
      if (view.records(file).stream().anyMatch(r -> r.getField("id").equals(id))) {
        return (int) file.recordCount();
      }
    }
    throw new AssertionError("No file holds id " + id);
  }

  private static int topLevelCommas(String text) {
    int depth = 0;
    int commas = 0;
    for (char ch : text.toCharArray()) {
      depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
      commas += ch == ',' && depth == 0 ? 1 : 0;
    }
    return commas;
  }

  private static String create(String partitioning, int version) {
    return "CREATE TABLE t " + COLUMNS + " " + partitioning + " WITH ('format-version' = '" + version + "')";
  }

  /** SQL VALUES rows {@code from..to}, spread over names, years, months, days and hours, with NULLs. */
  static String values(int from, int to) {
    List<String> rows = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      String name = NAMES[i % NAMES.length];
      rows.add(
          "("
              + i
              + ", "
              + (name == null ? "NULL" : "'" + name + "'")
              + ", "
              + amount(i)
              + ", "
              + (i % 11 == 0 ? "NULL" : "DATE '" + date(i) + "'")
              + ", "
              + (i % 13 == 0 ? "NULL" : "TIMESTAMP '" + timestamp(i).toString().replace('T', ' ') + "'")
              + ")");
    }
    return String.join(", ", rows);
  }

  static BigDecimal amount(int i) {
    return new BigDecimal(i * 125).movePointLeft(2);
  }

  static LocalDate date(int i) {
    return i % 11 == 0 ? null : LocalDate.of(2023, 12, 30).plusDays(i * 23L);
  }

  static LocalDateTime timestamp(int i) {
    return i % 13 == 0 ? null : LocalDateTime.of(2024, 2, 28, 22, 0, 0, 123456000).plusMinutes(i * 37L);
  }
}
