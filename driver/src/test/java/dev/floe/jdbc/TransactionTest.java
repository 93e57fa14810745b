package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.TreeSet;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.collect.Lists;
import org.junit.jupiter.api.Test;

class TransactionTest extends LakeFixture {
  private Table table(String name) {
    return new FolderCatalog(LakeLocation.parse(root.toString())).loadTable(List.of(name));
  }

  @Test
  void autoCommitPublishesEachStatementBeforeItReturns() throws Exception {
    try (Connection writer = connect();
        Connection reader = connect()) {
      execute(writer, "CREATE TABLE t (id INT)");
      assertThat(update(writer, "INSERT INTO t VALUES (1), (2)")).isEqualTo(2);
      assertThat(single(reader, "SELECT count(*) FROM t")).isEqualTo("2");
      assertThat(Lists.newArrayList(table("t").snapshots())).hasSize(1);
    }
  }

  @Test
  void rollbackDiscardsTheChangesAndDeletesTheirFiles() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1)");
      TreeSet<String> before = files();
      c.setAutoCommit(false);
      update(c, "INSERT INTO t VALUES (2), (3)");
      update(c, "DELETE FROM t WHERE id = 1");
      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("2");
      c.rollback();
      assertThat(files()).isEqualTo(before);
      assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of("1"));
    }
  }

  @Test
  void closeWithPendingWorkRollsBack() throws Exception {
    TreeSet<String> before;
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      before = files();
      c.setAutoCommit(false);
      update(c, "INSERT INTO t VALUES (1)");
    }
    assertThat(files()).isEqualTo(before);
    try (Connection c = connect()) {
      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("0");
    }
  }

  @Test
  void readsInsideATransactionSeeItsOwnWritesAndOthersSeeThemOnlyAfterCommit() throws Exception {
    try (Connection writer = connect();
        Connection reader = connect()) {
      execute(writer, "CREATE TABLE t (id INT)");
      writer.setAutoCommit(false);
      update(writer, "INSERT INTO t VALUES (1), (2), (3)");
      update(writer, "UPDATE t SET id = 20 WHERE id = 2");
      assertThat(rows(writer, "SELECT id FROM t ORDER BY id"))
          .containsExactly(List.of("1"), List.of("3"), List.of("20"));
      assertThat(single(reader, "SELECT count(*) FROM t")).isEqualTo("0");
      writer.commit();
      assertThat(rows(reader, "SELECT id FROM t ORDER BY id"))
          .containsExactly(List.of("1"), List.of("3"), List.of("20"));
    }
  }

  @Test
  void deleteThenInsertInOneTransactionIsOneOverwriteSnapshot() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1), (2)");
      c.setAutoCommit(false);
      update(c, "DELETE FROM t");
      update(c, "INSERT INTO t VALUES (7)");
      c.commit();
      List<Snapshot> snapshots = Lists.newArrayList(table("t").snapshots());
      assertThat(snapshots).hasSize(2);
      assertThat(snapshots.get(1).operation()).isEqualTo("overwrite");
      assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of("7"));
    }
  }

  @Test
  void aTransactionKeepsReadingTheSnapshotItFirstSaw() throws Exception {
    try (Connection a = connect();
        Connection b = connect()) {
      execute(a, "CREATE TABLE t (id INT)");
      update(a, "INSERT INTO t VALUES (1)");
      a.setAutoCommit(false);
      assertThat(single(a, "SELECT count(*) FROM t")).isEqualTo("1");
      update(b, "INSERT INTO t VALUES (2)");
      assertThat(single(a, "SELECT count(*) FROM t")).isEqualTo("1");
      a.commit();
      assertThat(single(a, "SELECT count(*) FROM t")).isEqualTo("2");
    }
  }

  @Test
  void anOverwriteOfAnEmptyTableConflictsWithAConcurrentAppend() throws Exception {
    try (Connection a = connect();
        Connection b = connect()) {
      execute(a, "CREATE TABLE t (id INT)");
      a.setAutoCommit(false);
      update(a, "DELETE FROM t");
      update(b, "INSERT INTO t VALUES (2)");
      TreeSet<String> afterConcurrent = files();
      update(a, "INSERT INTO t VALUES (1)");
      assertThatThrownBy(a::commit)
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("40001");
      assertThat(files()).isEqualTo(afterConcurrent);
      assertThat(rows(b, "SELECT id FROM t")).containsExactly(List.of("2"));
    }
  }

  @Test
  void concurrentDeletesOfTheSameRowConflict() throws Exception {
    try (Connection a = connect();
        Connection b = connect()) {
      execute(a, "CREATE TABLE t (id INT, v INT)");
      update(a, "INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)");
      a.setAutoCommit(false);
      b.setAutoCommit(false);
      assertThat(update(a, "DELETE FROM t WHERE id = 2")).isEqualTo(1);
      assertThat(update(b, "DELETE FROM t WHERE id = 2")).isEqualTo(1);
      a.commit();
      assertThatThrownBy(b::commit)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("40001");
      assertThat(single(b, "SELECT count(*) FROM t")).isEqualTo("2");
    }
  }

  @Test
  void serializableRefusesAConcurrentAppendToWhatWasRead() throws Exception {
    try (Connection a = connect();
        Connection b = connect()) {
      execute(a, "CREATE TABLE t (id INT)");
      update(a, "INSERT INTO t VALUES (1)");
      a.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
      a.setAutoCommit(false);
      update(a, "INSERT INTO t SELECT id + 10 FROM t");
      update(b, "INSERT INTO t VALUES (2)");
      assertThatThrownBy(a::commit)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("40001");
    }
  }

  @Test
  void ddlOnATableWithPendingChangesIsRefused() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      c.setAutoCommit(false);
      update(c, "INSERT INTO t VALUES (1)");
      assertThatThrownBy(() -> execute(c, "ALTER TABLE t ADD COLUMN x INT"))
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("25000");
      assertThatThrownBy(() -> execute(c, "DROP TABLE t"))
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("25000");
      c.commit();
      execute(c, "ALTER TABLE t ADD COLUMN x INT");
      assertThat(rows(c, "SELECT id, x FROM t"))
          .containsExactly(java.util.Arrays.asList("1", null));
    }
  }

  @Test
  void aBatchIsOneCommit() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, name VARCHAR)");
      try (java.sql.PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
        for (int i = 0; i < 50; i++) {
          p.setInt(1, i);
          p.setString(2, "n" + i);
          p.addBatch();
        }
        int[] counts = p.executeBatch();
        assertThat(counts).hasSize(50).containsOnly(1);
      }
      assertThat(Lists.newArrayList(table("t").snapshots())).hasSize(1);
      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("50");
    }
  }
}
