package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OptimizeTest extends LakeFixture {
  private Table table(String name) {
    return new FolderCatalog(LakeLocation.parse(root.toString())).loadTable(List.of(name));
  }

  /** The table's rows as Iceberg's own reader reads them, sorted. */
  private TreeSet<String> icebergRows(String name) throws Exception {
    TreeSet<String> rows = new TreeSet<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table(name)).build()) {
      for (Record r : records) {
        rows.add(r.getField("id") + ":" + r.getField("p"));
      }
    }
    return rows;
  }

  private long dataFiles(String name) throws Exception {
    Table t = table(name);
    try (CloseableIterable<FileScanTask> tasks = t.newScan().planFiles()) {
      long n = 0;
      for (FileScanTask ignored : tasks) {
        n++;
      }
      return n;
    }
  }

  private long deleteFiles(String name) throws Exception {
    Table t = table(name);
    TreeSet<String> deletes = new TreeSet<>();
    try (CloseableIterable<FileScanTask> tasks = t.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        task.deletes().forEach(d -> deletes.add(d.location() + "#" + d.contentOffset()));
      }
    }
    return deletes.size();
  }

  private static Map<String, Long> call(Connection c, String sql) throws Exception {
    Map<String, Long> row = new LinkedHashMap<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.put(rs.getMetaData().getColumnLabel(i), rs.getLong(i));
      }
    }
    return row;
  }

  /**
   * Deletes rows with an equality delete on id, written with Iceberg's API: scoped to the partition
   * p = 1 on a partitioned table, global on an unpartitioned one.
   */
  private void equalityDelete(String name, int... ids) throws Exception {
    Table t = table(name);
    Schema deleteSchema = t.schema().select("id");
    org.apache.iceberg.PartitionKey partition = null;
    if (!t.spec().isUnpartitioned()) {
      partition = new org.apache.iceberg.PartitionKey(t.spec(), t.schema());
      GenericRecord row = GenericRecord.create(t.schema());
      row.setField("p", 1);
      partition.partition(row);
    }
    EqualityDeleteWriter<Record> writer =
        Parquet.writeDeletes(
                t.io().newOutputFile(t.location() + "/data/eq-" + UUID.randomUUID() + ".parquet"))
            .forTable(t)
            .withSpec(t.spec())
            .withPartition(partition)
            .rowSchema(deleteSchema)
            .createWriterFunc(GenericParquetWriter::create)
            .equalityFieldIds(t.schema().findField("id").fieldId())
            .overwrite()
            .buildEqualityWriter();
    try (writer) {
      for (int id : ids) {
        GenericRecord r = GenericRecord.create(deleteSchema);
        r.setField("id", id);
        writer.write(r);
      }
    }
    t.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
  }

  @ParameterizedTest
  @CsvSource({"2, true", "2, false", "3, true", "3, false"})
  void optimizeKeepsTheRowsWithFewerFilesAndNoDeletes(int formatVersion, boolean partitioned)
      throws Exception {
    try (Connection c = connect()) {
      execute(
          c,
          "CREATE TABLE t (id INT, p INT)"
              + (partitioned ? " PARTITIONED BY (p)" : "")
              + " WITH ('format-version' = '"
              + formatVersion
              + "')");
      for (int i = 0; i < 12; i++) {
        int p = i % 3;
        update(c, "INSERT INTO t VALUES (" + i + ", " + p + "), (" + (i + 100) + ", " + p + ")");
      }
      update(c, "DELETE FROM t WHERE id IN (1, 5, 104)");
      if (formatVersion == 2) {
        equalityDelete("t", 7, 110);
        assertThat(icebergRows("t")).doesNotContain("7:1", "110:1");
      }
      TreeSet<String> before = icebergRows("t");
      long filesBefore = dataFiles("t");
      assertThat(deleteFiles("t")).isPositive();

      Map<String, Long> dry = call(c, "ALTER TABLE t EXECUTE optimize(dry_run => true)");
      assertThat(dataFiles("t")).isEqualTo(filesBefore);
      Map<String, Long> row = call(c, "ALTER TABLE t EXECUTE optimize");
      assertThat(row.get("rewritten_data_files_count"))
          .isEqualTo(filesBefore)
          .isEqualTo(dry.get("rewritten_data_files_count"));
      assertThat(row.get("removed_delete_files_count"))
          .isEqualTo(dry.get("removed_delete_files_count"))
          .isPositive();
      assertThat(icebergRows("t")).isEqualTo(before);
      assertThat(dataFiles("t")).isEqualTo(partitioned ? 3 : 1);
      assertThat(deleteFiles("t")).isZero();
      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo(String.valueOf(before.size()));

      Map<String, Long> again = call(c, "ALTER TABLE t EXECUTE optimize");
      assertThat(again.values()).containsOnly(0L);
    }
  }

  /** Runs a write, again when it lost a commit race (40001), as an application would. */
  private static void retrying(Connection c, String sql) throws java.sql.SQLException {
    for (int attempt = 1; ; attempt++) {
      try {
        update(c, sql);
        return;
      } catch (java.sql.SQLException e) {
        if (!"40001".equals(e.getSQLState()) || attempt == 20) {
          throw e;
        }
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"2", "3"})
  void optimizeRacingFourWritersLosesNothing(int formatVersion) throws Exception {
    try (Connection c = connect()) {
      execute(
          c, "CREATE TABLE t (id INT, p INT) WITH ('format-version' = '" + formatVersion + "')");
      for (int i = 0; i < 10; i++) {
        update(c, "INSERT INTO t VALUES (" + i + ", 0)");
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(5);
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      int writer = w;
      futures.add(
          pool.submit(
              () -> {
                try (Connection c = connect()) {
                  for (int i = 0; i < 6; i++) {
                    retrying(c, "INSERT INTO t VALUES (" + (1000 * (writer + 1) + i) + ", 1)");
                    if (i == 3) {
                      retrying(c, "DELETE FROM t WHERE id = " + writer);
                    }
                  }
                }
                return null;
              }));
    }
    futures.add(
        pool.submit(
            () -> {
              try (Connection c = connect()) {
                for (int i = 0; i < 3; i++) {
                  call(c, "ALTER TABLE t EXECUTE optimize");
                }
              }
              return null;
            }));
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    TreeSet<String> expected = new TreeSet<>();
    for (int i = 4; i < 10; i++) {
      expected.add(i + ":0");
    }
    for (int w = 0; w < 4; w++) {
      for (int i = 0; i < 6; i++) {
        expected.add((1000 * (w + 1) + i) + ":1");
      }
    }
    assertThat(icebergRows("t")).isEqualTo(expected);
  }
}
