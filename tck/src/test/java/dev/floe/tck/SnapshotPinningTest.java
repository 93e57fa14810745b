package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scan splits its work deterministically and reads one snapshot pinned for the statement: every
 * thread count returns the same rows in the same order, a statement streaming rows is not affected
 * by another writer's commit, and a transaction sees the same snapshot on every read.
 */
class SnapshotPinningTest {
  private static final Schema SCHEMA = ReferenceWriter.ID_NAME;

  @TempDir Path lake;

  /** Appends one data file per range, each range in its own commit. */
  private List<DataFile> appendFiles(String name, int files, int rowsPerFile) {
    Table table =
        ReferenceWriter.create(lake.resolve(name), SCHEMA, PartitionSpec.unpartitioned(), 2);
    List<DataFile> written = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      written.addAll(ReferenceWriter.append(table, rows((long) f * rowsPerFile, rowsPerFile)));
    }
    return written;
  }

  private static List<Record> rows(long from, int count) {
    return ReferenceWriter.idNameRows(from, from + count);
  }

  private static List<Long> range(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id < to; id++) {
      ids.add(id);
    }
    return ids;
  }

  private static List<Long> ids(Statement s, String sql) throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  /** Another writer: appends new rows, drops the last data file, position-deletes two rows. */
  private void commitFromAnotherWriter(String name, List<DataFile> files) {
    Table table = ReferenceWriter.load(lake.resolve(name));
    ReferenceWriter.append(table, rows(1_000_000, 5));
    table = ReferenceWriter.load(lake.resolve(name));
    table.newDelete().deleteFile(files.get(files.size() - 1)).commit();
    ReferenceWriter.positionDelete(ReferenceWriter.load(lake.resolve(name)), files.get(0), 0, 1);
  }

  @Test
  void everyThreadCountReturnsTheSameRowsInTheSameOrderEveryTime() throws Exception {
    appendFiles("many", 8, 250);
    List<Long> first = null;
    for (int threads = 1; threads <= 4; threads++) {
      try (Connection c =
              DriverManager.getConnection("jdbc:floe:" + lake + "?scanThreads=" + threads);
          Statement s = c.createStatement()) {
        for (int run = 0; run < 2; run++) {
          List<Long> ids = ids(s, "SELECT id, name FROM many");
          if (first == null) {
            first = ids;
            List<Long> sorted = new ArrayList<>(ids);
            Collections.sort(sorted);
            assertThat(sorted).isEqualTo(range(0, 8 * 250));
          }
          assertThat(ids).as("scanThreads=%d, run %d", threads, run).isEqualTo(first);
        }
      }
    }
  }

  @Test
  void aStreamingStatementKeepsReadingItsSnapshotWhenAnotherWriterCommits() throws Exception {
    List<DataFile> files = appendFiles("feed", 8, 5_000);
    List<Long> ids = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake + "?scanThreads=1");
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT id FROM feed")) {
        assertThat(rs.next()).isTrue();
        ids.add(rs.getLong(1));
        commitFromAnotherWriter("feed", files);
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
      Collections.sort(ids);
      assertThat(ids).isEqualTo(range(0, 40_000));

      // The next statement sees the commits: the new rows, the dropped file and the deletes.
      List<Long> now = ids(s, "SELECT id FROM feed");
      List<Long> expected = range(2, 35_000);
      expected.addAll(range(1_000_000, 1_000_005));
      assertThat(now).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void aRepeatableReadTransactionSeesOneSnapshotAfterAnotherWriterCommits() throws Exception {
    List<DataFile> files = appendFiles("txn", 3, 100);
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      List<Long> before = ids(s, "SELECT id FROM txn");
      assertThat(before).containsExactlyInAnyOrderElementsOf(range(0, 300));
      commitFromAnotherWriter("txn", files);
      assertThat(ids(s, "SELECT id FROM txn")).isEqualTo(before);
      try (ResultSet rs = s.executeQuery("SELECT count(*), max(id) FROM txn")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(300);
        assertThat(rs.getLong(2)).isEqualTo(299);
      }
      c.commit();

      List<Long> expected = range(2, 200);
      expected.addAll(range(1_000_000, 1_000_005));
      assertThat(ids(s, "SELECT id FROM txn")).containsExactlyInAnyOrderElementsOf(expected);
    }
  }
}
