package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.collect.Lists;
import org.junit.jupiter.api.Test;

/** TRUNCATE TABLE and INSERT OVERWRITE through JDBC, checked with Iceberg's own reader. */
class TruncateOverwriteTest extends LakeFixture {
  private Table table(String name) {
    return new FolderCatalog(LakeLocation.parse(root.toString())).loadTable(List.of(name));
  }

  /** The rows Iceberg's generic reader sees, as "v1|v2|..." strings, sorted. */
  private static List<String> icebergRows(Table table, Long snapshotId) throws Exception {
    List<String> rows = new ArrayList<>();
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
    if (snapshotId != null) {
      scan = scan.useSnapshot(snapshotId);
    }
    try (CloseableIterable<Record> records = scan.build()) {
      for (Record record : records) {
        List<String> values = new ArrayList<>();
        // only the table's columns: with deletes, the reader adds the row position
        for (int i = 0; i < record.struct().fields().size() && i < columnsOf(record); i++) {
          values.add(String.valueOf(record.get(i)));
        }
        rows.add(String.join("|", values));
      }
    }
    rows.sort(null);
    return rows;
  }

  private TreeSet<String> parquetFiles() throws Exception {
    TreeSet<String> parquet = new TreeSet<>();
    for (String f : files()) {
      if (f.endsWith(".parquet") && !f.contains("metadata")) {
        parquet.add(f);
      }
    }
    return parquet;
  }

  private static int columnsOf(Record record) {
    int n = 0;
    for (org.apache.iceberg.types.Types.NestedField f : record.struct().fields()) {
      if (!org.apache.iceberg.MetadataColumns.isMetadataColumn(f.fieldId())) {
        n++;
      }
    }
    return n;
  }

  private static String state(ThrowingRunnable r) {
    try {
      r.run();
    } catch (SQLException e) {
      return e.getSQLState();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return null;
  }

  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void truncateRemovesEveryRowInOneMetadataOnlySnapshotAndKeepsHistory() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, region VARCHAR) PARTITIONED BY (region)");
      update(c, "INSERT INTO t VALUES (1, 'eu'), (2, 'eu'), (3, 'us')");
      update(c, "INSERT INTO t VALUES (4, 'us')");
      update(c, "DELETE FROM t WHERE id = 1");
      long before = table("t").currentSnapshot().snapshotId();
      TreeSet<String> data = parquetFiles();

      assertThat(update(c, "TRUNCATE TABLE t")).isZero();

      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("0");
      Table t = table("t");
      assertThat(icebergRows(t, null)).isEmpty();
      Snapshot truncate = t.currentSnapshot();
      assertThat(truncate.parentId()).isEqualTo(before);
      assertThat(Lists.newArrayList(truncate.addedDataFiles(t.io()))).isEmpty();
      assertThat(Lists.newArrayList(truncate.addedDeleteFiles(t.io()))).isEmpty();
      assertThat(Lists.newArrayList(truncate.removedDataFiles(t.io()))).hasSize(3);
      // metadata-only: no data file written, the old ones kept for history
      assertThat(parquetFiles()).isEqualTo(data);
      assertThat(icebergRows(t, before)).containsExactly("2|eu", "3|us", "4|us");
      // the table still takes rows
      update(c, "INSERT INTO t VALUES (9, 'eu')");
      assertThat(icebergRows(table("t"), null)).containsExactly("9|eu");
    }
  }

  @Test
  void truncateOfAnEmptyTableAndOfAMissingOne() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      assertThat(update(c, "truncate table T")).isZero();
      assertThat(table("t").currentSnapshot()).isNull();
      assertThat(state(() -> update(c, "TRUNCATE TABLE nope"))).isEqualTo("42S02");
      assertThat(state(() -> update(c, "TRUNCATE t"))).isEqualTo("42000");
    }
  }

  @Test
  void truncateUnderReadOnlyIs25006() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1)");
    }
    try (Connection c = connect("readOnly=true")) {
      assertThat(state(() -> update(c, "TRUNCATE TABLE t"))).isEqualTo("25006");
      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("1");
    }
  }

  @Test
  void truncateInsideATransactionIsPartOfItsOneSnapshot() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1), (2)");
      int snapshots = Lists.newArrayList(table("t").snapshots()).size();
      c.setAutoCommit(false);
      update(c, "INSERT INTO t VALUES (3)");
      update(c, "TRUNCATE TABLE t");
      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("0");
      update(c, "INSERT INTO t VALUES (4)");
      c.commit();
      assertThat(Lists.newArrayList(table("t").snapshots())).hasSize(snapshots + 1);
      assertThat(icebergRows(table("t"), null)).containsExactly("4");
    }
  }

  @Test
  void truncateRacingAnotherWriterIs40001() throws Exception {
    try (Connection a = connect();
        Connection b = connect()) {
      execute(a, "CREATE TABLE t (id INT)");
      update(a, "INSERT INTO t VALUES (1)");
      a.setAutoCommit(false);
      update(a, "TRUNCATE TABLE t");
      update(b, "INSERT INTO t VALUES (2)");
      assertThat(state(a::commit)).isEqualTo("40001");
      assertThat(icebergRows(table("t"), null)).containsExactly("1", "2");
    }
  }

  @Test
  void staticOverwriteReplacesExactlyThatPartition() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, region VARCHAR) PARTITIONED BY (region)");
      update(c, "INSERT INTO t VALUES (1, 'eu'), (2, 'eu'), (3, 'us')");
      long count =
          update(c, "INSERT OVERWRITE t PARTITION (region = 'eu') SELECT * FROM (VALUES 10, 11)");
      assertThat(count).isEqualTo(2);
      assertThat(icebergRows(table("t"), null)).containsExactly("10|eu", "11|eu", "3|us");
      assertThat(table("t").currentSnapshot().operation()).isEqualTo(DataOperations.OVERWRITE);
      // an empty query empties the partition
      update(c, "INSERT OVERWRITE TABLE t PARTITION (region = 'eu') SELECT 1 FROM t WHERE false");
      assertThat(icebergRows(table("t"), null)).containsExactly("3|us");
    }
  }

  @Test
  void staticOverwriteWithAColumnList() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, name VARCHAR, region VARCHAR) PARTITIONED BY (region)");
      update(c, "INSERT INTO t VALUES (1, 'a', 'eu'), (3, 'c', 'us')");
      update(c, "INSERT OVERWRITE t PARTITION (region = 'eu') (name, id) VALUES ('z', 26)");
      assertThat(icebergRows(table("t"), null)).containsExactly("26|z|eu", "3|c|us");
    }
  }

  @Test
  void staticOverwriteBadInputWritesNothing() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, d DATE, region VARCHAR) PARTITIONED BY (d, region)");
      update(c, "INSERT INTO t VALUES (1, DATE '2024-06-03', 'eu')");
      TreeSet<String> before = files();
      assertThat(
              state(
                  () -> update(c, "INSERT OVERWRITE t PARTITION (d = 5, region = 'eu') SELECT 2")))
          .isEqualTo("42804");
      assertThat(
              state(
                  () ->
                      update(
                          c,
                          "INSERT OVERWRITE t PARTITION (d = DATE '2024-06-03', region = 7)"
                              + " SELECT 2")))
          .isEqualTo("42804");
      assertThat(state(() -> update(c, "INSERT OVERWRITE t PARTITION (id = 1) SELECT 2, 'x'")))
          .isEqualTo("42000");
      assertThat(state(() -> update(c, "INSERT OVERWRITE t PARTITION (nope = 1) SELECT 2")))
          .isEqualTo("42S22");
      // a value the column cannot take fails in the middle of writing: nothing is left
      assertThat(
              state(
                  () ->
                      update(
                          c,
                          "INSERT OVERWRITE t PARTITION (d = DATE '2024-06-03', region = 'eu')"
                              + " SELECT CAST(v AS INT) FROM (VALUES '1', 'x') AS x(v)")))
          .isEqualTo("22018");
      assertThat(files()).isEqualTo(before);
      update(c, "INSERT OVERWRITE t PARTITION (d = DATE '2024-06-03', region = 'eu') SELECT 2");
      assertThat(icebergRows(table("t"), null)).containsExactly("2|2024-06-03|eu");
    }
  }

  @Test
  void dynamicOverwriteReplacesThePartitionsTheQueryWrites() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, region VARCHAR) PARTITIONED BY (region)");
      update(c, "INSERT INTO t VALUES (1, 'eu'), (2, 'us'), (3, 'us'), (4, 'asia')");
      update(c, "DELETE FROM t WHERE id = 3");
      assertThat(update(c, "INSERT OVERWRITE t SELECT * FROM (VALUES (7, 'us'), (8, 'cn'))"))
          .isEqualTo(2);
      assertThat(icebergRows(table("t"), null)).containsExactly("1|eu", "4|asia", "7|us", "8|cn");
      // the source reads the target itself, as pinned at the start
      update(c, "INSERT OVERWRITE t SELECT id + 100, region FROM t WHERE region <> 'cn'");
      assertThat(icebergRows(table("t"), null))
          .containsExactly("101|eu", "104|asia", "107|us", "8|cn");
    }
  }

  @Test
  void dynamicOverwriteOnATransformPartition() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, ts TIMESTAMP) PARTITIONED BY (day(ts))");
      update(
          c,
          "INSERT INTO t VALUES (1, TIMESTAMP '2024-06-03 01:00:00'),"
              + " (2, TIMESTAMP '2024-06-03 23:00:00'), (3, TIMESTAMP '2024-06-04 10:00:00')");
      update(c, "INSERT OVERWRITE t VALUES (9, TIMESTAMP '2024-06-03 12:00:00')");
      assertThat(icebergRows(table("t"), null))
          .containsExactly("3|2024-06-04T10:00", "9|2024-06-03T12:00");
    }
  }

  @Test
  void overwriteOfAnUnpartitionedTableReplacesItWhole() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1), (2)");
      update(c, "INSERT OVERWRITE t SELECT id * 10 FROM t");
      assertThat(icebergRows(table("t"), null)).containsExactly("10", "20");
      update(c, "INSERT OVERWRITE t SELECT 1 FROM t WHERE false");
      assertThat(icebergRows(table("t"), null)).isEmpty();
      assertThat(Lists.newArrayList(table("t").snapshots())).hasSize(3);
    }
  }

  @Test
  void overwriteRacingAWriterOfTheSamePartitionIs40001AndOfAnotherCommits() throws Exception {
    try (Connection a = connect();
        Connection b = connect()) {
      execute(a, "CREATE TABLE t (id INT, region VARCHAR) PARTITIONED BY (region)");
      update(a, "INSERT INTO t VALUES (1, 'eu'), (2, 'us')");
      a.setAutoCommit(false);
      update(a, "INSERT OVERWRITE t PARTITION (region = 'eu') VALUES (10)");
      update(b, "INSERT INTO t VALUES (3, 'us')");
      a.commit();
      assertThat(icebergRows(table("t"), null)).containsExactly("10|eu", "2|us", "3|us");

      update(a, "INSERT OVERWRITE t SELECT * FROM (VALUES (20, 'eu'))");
      update(b, "INSERT INTO t VALUES (4, 'eu')");
      assertThat(state(a::commit)).isEqualTo("40001");
      assertThat(icebergRows(table("t"), null)).containsExactly("10|eu", "2|us", "3|us", "4|eu");
    }
  }

  @Test
  void overwriteUnderReadOnlyIs25006AndRunsPrepared() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      try (java.sql.PreparedStatement overwrite =
          c.prepareStatement("INSERT OVERWRITE t VALUES (1), (2)")) {
        assertThat(overwrite.executeUpdate()).isEqualTo(2);
        assertThat(overwrite.executeUpdate()).isEqualTo(2);
      }
      assertThat(state(() -> c.prepareStatement("INSERT OVERWRITE t VALUES (?)")))
          .isEqualTo("0A000");
    }
    try (Connection c = connect("readOnly=true")) {
      assertThat(state(() -> update(c, "INSERT OVERWRITE t VALUES (1)"))).isEqualTo("25006");
      assertThat(state(() -> c.prepareStatement("INSERT OVERWRITE t VALUES (1)").executeUpdate()))
          .isEqualTo("25006");
    }
    assertThat(icebergRows(table("t"), null)).containsExactly("1", "2");
  }
}
