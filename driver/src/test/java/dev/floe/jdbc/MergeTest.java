package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.collect.Lists;
import org.junit.jupiter.api.Test;

/** MERGE INTO through JDBC, every clause form, checked with Iceberg's own reader. */
class MergeTest extends LakeFixture {
  private Table table(String name) {
    return new FolderCatalog(LakeLocation.parse(root.toString())).loadTable(List.of(name));
  }

  private List<String> icebergRows(String name) throws Exception {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table(name)).build()) {
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

  private static int columnsOf(Record record) {
    int n = 0;
    for (org.apache.iceberg.types.Types.NestedField f : record.struct().fields()) {
      if (!org.apache.iceberg.MetadataColumns.isMetadataColumn(f.fieldId())) {
        n++;
      }
    }
    return n;
  }

  private static String state(TruncateOverwriteTest.ThrowingRunnable r) {
    try {
      r.run();
    } catch (SQLException e) {
      return e.getSQLState() + " " + e.getMessage();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return null;
  }

  private void setUp(Connection c, String with) throws SQLException {
    execute(c, "CREATE TABLE t (id INT, v VARCHAR, region VARCHAR) PARTITIONED BY (region)" + with);
    update(
        c, "INSERT INTO t VALUES (1, 'a', 'eu'), (2, 'b', 'eu'), (3, 'c', 'us'), (4, 'd', 'us')");
    execute(c, "CREATE TABLE s (id INT, v VARCHAR, region VARCHAR)");
    update(c, "INSERT INTO s VALUES (2, 'B', 'eu'), (3, 'C', 'us'), (5, 'E', 'us')");
  }

  @Test
  void upsertWithCalcitesOwnForm() throws Exception {
    try (Connection c = connect()) {
      setUp(c, "");
      long count =
          update(
              c,
              "MERGE INTO t USING s ON t.id = s.id"
                  + " WHEN MATCHED THEN UPDATE SET v = s.v"
                  + " WHEN NOT MATCHED THEN INSERT (id, v, region) VALUES (s.id, s.v, s.region)");
      assertThat(count).isEqualTo(3);
      assertThat(icebergRows("t"))
          .containsExactly("1|a|eu", "2|B|eu", "3|C|us", "4|d|us", "5|E|us");
      assertThat(rows(c, "SELECT id, v FROM t ORDER BY id"))
          .containsExactly(
              List.of("1", "a"),
              List.of("2", "B"),
              List.of("3", "C"),
              List.of("4", "d"),
              List.of("5", "E"));
      Snapshot snapshot = table("t").currentSnapshot();
      assertThat(snapshot.operation()).isEqualTo("overwrite");
      assertThat(Lists.newArrayList(snapshot.addedDeleteFiles(table("t").io())))
          .allMatch(f -> f.content() == FileContent.POSITION_DELETES)
          .hasSize(2);
    }
  }

  @Test
  void everyClauseFormFirstMatchingClauseWins() throws Exception {
    try (Connection c = connect()) {
      setUp(c, "");
      update(c, "INSERT INTO s VALUES (6, 'F', 'eu'), (7, 'G', 'eu')");
      update(
          c,
          "MERGE INTO t AS tt USING (SELECT * FROM s) AS src ON tt.id = src.id"
              + " WHEN MATCHED AND src.v = 'B' THEN DELETE"
              + " WHEN MATCHED AND tt.id > 0 THEN UPDATE SET v = tt.v || src.v"
              + " WHEN MATCHED THEN UPDATE SET v = 'never'"
              + " WHEN NOT MATCHED BY TARGET AND src.id = 5 THEN INSERT *"
              + " WHEN NOT MATCHED AND src.id = 6 THEN INSERT (region, id) VALUES ('xx', 60)"
              + " WHEN NOT MATCHED BY SOURCE AND tt.id = 1 THEN UPDATE SET v = 'gone?'"
              + " WHEN NOT MATCHED BY SOURCE THEN DELETE");
      assertThat(icebergRows("t")).containsExactly("1|gone?|eu", "3|cC|us", "5|E|us", "60|null|xx");
    }
  }

  @Test
  void updateSetStarAndInsertStar() throws Exception {
    try (Connection c = connect()) {
      setUp(c, "");
      update(
          c,
          "MERGE INTO t USING s ON t.id = s.id"
              + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
      assertThat(icebergRows("t"))
          .containsExactly("1|a|eu", "2|B|eu", "3|C|us", "4|d|us", "5|E|us");
    }
  }

  @Test
  void aValuesSourceWithRenamedColumns() throws Exception {
    try (Connection c = connect()) {
      setUp(c, "");
      update(
          c,
          "MERGE INTO t USING (VALUES (2, 'V2'), (9, 'V9')) AS src(k, w) ON t.id = src.k"
              + " WHEN MATCHED THEN UPDATE SET v = src.w"
              + " WHEN NOT MATCHED THEN INSERT (id, v, region) VALUES (src.k, src.w, 'eu')");
      assertThat(icebergRows("t"))
          .containsExactly("1|a|eu", "2|V2|eu", "3|c|us", "4|d|us", "9|V9|eu");
    }
  }

  @Test
  void aTargetRowMatchedTwiceIs21000AndNothingIsWritten() throws Exception {
    try (Connection c = connect()) {
      setUp(c, "");
      update(c, "INSERT INTO s VALUES (2, 'BB', 'eu')");
      long snapshot = table("t").currentSnapshot().snapshotId();
      TreeSet<String> before = files();
      String failure =
          state(
              () ->
                  update(
                      c,
                      "MERGE INTO t USING s ON t.id = s.id"
                          + " WHEN MATCHED THEN UPDATE SET v = s.v"
                          + " WHEN NOT MATCHED THEN INSERT *"));
      assertThat(failure).startsWith("21000").contains("position 1 of data file");
      assertThat(files()).isEqualTo(before);
      assertThat(table("t").currentSnapshot().snapshotId()).isEqualTo(snapshot);
    }
  }

  @Test
  void theSourceMayReadTheTargetItself() throws Exception {
    try (Connection c = connect()) {
      setUp(c, "");
      update(
          c,
          "MERGE INTO t USING (SELECT id + 2 AS id, v FROM t) AS x ON t.id = x.id"
              + " WHEN MATCHED THEN UPDATE SET v = x.v"
              + " WHEN NOT MATCHED THEN INSERT (id, v, region) VALUES (x.id, x.v, 'new')");
      assertThat(icebergRows("t"))
          .containsExactly("1|a|eu", "2|b|eu", "3|a|us", "4|b|us", "5|c|new", "6|d|new");
    }
  }

  @Test
  void copyOnWriteRewritesFilesAndV3WritesDeletionVectors() throws Exception {
    try (Connection c = connect()) {
      setUp(c, " WITH ('write.merge.mode' = 'copy-on-write')");
      update(
          c,
          "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v"
              + " WHEN NOT MATCHED THEN INSERT *");
      assertThat(icebergRows("t"))
          .containsExactly("1|a|eu", "2|B|eu", "3|C|us", "4|d|us", "5|E|us");
      Snapshot snapshot = table("t").currentSnapshot();
      assertThat(Lists.newArrayList(snapshot.addedDeleteFiles(table("t").io()))).isEmpty();
      assertThat(Lists.newArrayList(snapshot.removedDataFiles(table("t").io()))).hasSize(2);
    }
    try (Connection c = connect()) {
      execute(c, "DROP TABLE t");
      execute(c, "DROP TABLE s");
      setUp(c, " WITH ('format-version' = '3')");
      update(c, "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE");
      assertThat(icebergRows("t")).containsExactly("1|a|eu", "4|d|us");
      Snapshot snapshot = table("t").currentSnapshot();
      assertThat(Lists.newArrayList(snapshot.addedDeleteFiles(table("t").io())))
          .allMatch(f -> f.format().name().equals("PUFFIN"))
          .isNotEmpty();
    }
  }

  @Test
  void mergeRacingAWriterOnTheSameRowsIs40001AndOnOtherPartitionsBothCommit() throws Exception {
    try (Connection a = connect();
        Connection b = connect()) {
      setUp(a, "");
      a.setAutoCommit(false);
      update(
          a,
          "MERGE INTO t USING s ON t.id = s.id AND s.region = 'eu' WHEN MATCHED THEN UPDATE SET v = 'A'");
      update(b, "UPDATE t SET v = 'other' WHERE id = 1");
      assertThat(state(a::commit)).startsWith("40001");
      assertThat(icebergRows("t")).containsExactly("1|other|eu", "2|b|eu", "3|c|us", "4|d|us");

      update(
          a,
          "MERGE INTO t USING s ON t.id = s.id AND s.region = 'eu' WHEN MATCHED THEN UPDATE SET v = 'A'");
      update(b, "UPDATE t SET v = 'other' WHERE id = 4");
      a.commit();
      assertThat(icebergRows("t")).containsExactly("1|other|eu", "2|A|eu", "3|c|us", "4|other|us");
    }
  }

  @Test
  void badInput() throws Exception {
    try (Connection c = connect()) {
      setUp(c, "");
      assertThat(
              state(() -> update(c, "MERGE INTO nope USING s ON 1 = 1 WHEN MATCHED THEN DELETE")))
          .startsWith("42S02");
      assertThat(
              state(
                  () ->
                      update(
                          c,
                          "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (1)")))
          .startsWith("21S01");
      assertThat(
              state(
                  () ->
                      update(
                          c,
                          "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET nope = 1")))
          .startsWith("42S22");
      assertThat(
              state(
                  () ->
                      update(
                          c,
                          "MERGE INTO t USING s ON t.id = s.id"
                              + " WHEN MATCHED THEN UPDATE SET id = 99999999999")))
          .startsWith("22003");
      assertThat(icebergRows("t")).containsExactly("1|a|eu", "2|b|eu", "3|c|us", "4|d|us");
    }
    try (Connection c = connect("readOnly=true")) {
      assertThat(
              state(
                  () -> update(c, "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE")))
          .startsWith("25006");
    }
  }
}
