package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.collect.Lists;
import org.junit.jupiter.api.Test;

class MaintenanceTest extends LakeFixture {
  private Table table(String name) {
    return new FolderCatalog(LakeLocation.parse(root.toString())).loadTable(List.of(name));
  }

  /** The one row a procedure answers, by column label. */
  private static Map<String, Long> call(Connection c, String sql) throws SQLException {
    Map<String, Long> row = new LinkedHashMap<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData meta = rs.getMetaData();
      assertThat(rs.next()).isTrue();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        assertThat(meta.getColumnType(i)).isEqualTo(java.sql.Types.BIGINT);
        long value = rs.getLong(i);
        row.put(meta.getColumnLabel(i), rs.wasNull() ? null : value);
      }
      assertThat(rs.next()).isFalse();
    }
    return row;
  }

  private static List<Long> snapshotIds(Table table) {
    return Lists.newArrayList(table.snapshots()).stream().map(Snapshot::snapshotId).toList();
  }

  @Test
  void unknownProcedureIsRefusedListingTheProcedures() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      assertThatThrownBy(() -> execute(c, "ALTER TABLE t EXECUTE vacuum()"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("optimize, optimize_manifests, expire_snapshots")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42000");
      assertThatThrownBy(
              () -> execute(c, "ALTER TABLE t EXECUTE expire_snapshots(retention => '7d')"))
          .hasMessageContaining("retention_threshold, retain_last, dry_run")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42000");
      assertThatThrownBy(
              () -> execute(c, "ALTER TABLE t EXECUTE expire_snapshots(retention_threshold => 7)"))
          .hasMessageContaining("a duration such as '7d'")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42000");
    }
  }

  @Test
  void aMalformedProcedureCallIsASyntaxError() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      assertThatThrownBy(() -> execute(c, "ALTER TABLE t EXECUTE optimize(file_size_threshold =>)"))
          .hasMessageContaining("Cannot parse SQL")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42000");
    }
  }

  @Test
  void retentionBelowTheMinimumNamesTheProperty() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      assertThatThrownBy(
              () ->
                  execute(c, "ALTER TABLE t EXECUTE expire_snapshots(retention_threshold => '1d')"))
          .hasMessageContaining("maintenance.min-retention")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("22023");
      assertThatThrownBy(
              () ->
                  execute(
                      c, "ALTER TABLE t EXECUTE remove_orphan_files(retention_threshold => '6d')"))
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("22023");
    }
    try (Connection c = connect("maintenance.min-retention=1d")) {
      assertThat(call(c, "ALTER TABLE t EXECUTE expire_snapshots(retention_threshold => '1d')"))
          .containsEntry("deleted_data_files_count", 0L);
    }
  }

  @Test
  void readOnlyConnectionsAndPendingChangesAreRefused() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1)");
    }
    try (Connection c = connect("readOnly=true")) {
      assertThatThrownBy(() -> execute(c, "ALTER TABLE t EXECUTE expire_snapshots()"))
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("25006");
      assertThatThrownBy(() -> execute(c, "ALTER TABLE t CREATE TAG v1"))
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("25006");
      assertThat(call(c, "ALTER TABLE t EXECUTE expire_snapshots(dry_run => true)"))
          .containsEntry("deleted_manifest_lists_count", 0L);
    }
    try (Connection c = connect()) {
      c.setAutoCommit(false);
      update(c, "INSERT INTO t VALUES (2)");
      assertThatThrownBy(() -> execute(c, "ALTER TABLE t EXECUTE optimize_manifests"))
          .hasMessageContaining("uncommitted changes")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("25000");
      c.rollback();
      assertThat(call(c, "ALTER TABLE t EXECUTE optimize_manifests"))
          .containsEntry("rewritten_manifests_count", 0L);
    }
  }

  @Test
  void expiryKeepsWhatBranchesAndTagsReferenceAndDryRunDeletesNothing() throws Exception {
    try (Connection c = connect("maintenance.min-retention=0s")) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1)");
      execute(c, "ALTER TABLE t CREATE TAG first");
      update(c, "INSERT INTO t VALUES (2)");
      execute(c, "ALTER TABLE t CREATE BRANCH audit");
      update(c, "INSERT INTO t VALUES (3)");
      update(c, "DELETE FROM t WHERE id = 3");
      update(c, "INSERT INTO t VALUES (4)");
      Table before = table("t");
      long tagged = before.refs().get("first").snapshotId();
      long branched = before.refs().get("audit").snapshotId();
      TreeSet<String> files = files();

      String expire = "ALTER TABLE t EXECUTE expire_snapshots(retention_threshold => '0s'";
      Map<String, Long> dry = call(c, expire + ", retain_last => 1, dry_run => true)");
      assertThat(files()).isEqualTo(files);
      assertThat(dry.get("deleted_manifest_lists_count")).isEqualTo(2L);
      assertThat(dry.get("deleted_bytes")).isPositive();

      Map<String, Long> real = call(c, expire + ", retain_last => 1)");
      assertThat(real).isEqualTo(dry);
      Table after = table("t");
      assertThat(snapshotIds(after))
          .containsExactlyInAnyOrder(tagged, branched, after.currentSnapshot().snapshotId());
      TreeSet<String> gone = new TreeSet<>(files);
      gone.removeAll(files());
      long removed =
          dry.values().stream().mapToLong(Long::longValue).sum() - dry.get("deleted_bytes");
      assertThat(gone).hasSize((int) removed);
      assertThat(rows(c, "SELECT id FROM t ORDER BY id"))
          .containsExactly(List.of("1"), List.of("2"), List.of("4"));
      assertThat(call(c, expire + ")").get("deleted_bytes")).isZero();
    }
  }

  @Test
  void orphanRemovalDeletesOnlyOldUnreferencedFilesInsideTheTable() throws Exception {
    try (Connection c = connect("maintenance.min-retention=1h")) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1), (2)");
      update(c, "DELETE FROM t WHERE id = 2");
      Path folder = root.resolve("t");
      Path oldData = Files.writeString(folder.resolve("data/crashed.parquet"), "x");
      Path oldManifest = Files.writeString(folder.resolve("metadata/crashed-m0.avro"), "xy");
      Path young = Files.writeString(folder.resolve("data/in-flight.parquet"), "z");
      Path outside = Files.writeString(root.resolve("not-a-table.txt"), "keep");
      FileTime old = FileTime.from(Instant.now().minus(Duration.ofDays(2)));
      for (Path p : List.of(oldData, oldManifest, outside)) {
        Files.setLastModifiedTime(p, old);
      }
      // Referenced files as old as the orphans stay.
      try (var walk = Files.walk(folder)) {
        for (Path p : walk.filter(Files::isRegularFile).toList()) {
          if (!p.equals(young)) {
            Files.setLastModifiedTime(p, old);
          }
        }
      }
      TreeSet<String> files = files();
      String remove = "ALTER TABLE t EXECUTE remove_orphan_files(retention_threshold => '1h'";
      Map<String, Long> dry = call(c, remove + ", dry_run => true)");
      assertThat(dry).containsEntry("deleted_files_count", 2L).containsEntry("deleted_bytes", 3L);
      assertThat(files()).isEqualTo(files);
      assertThat(call(c, remove + ")")).isEqualTo(dry);
      assertThat(oldData).doesNotExist();
      assertThat(oldManifest).doesNotExist();
      assertThat(young).exists();
      assertThat(outside).exists();
      assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of("1"));
      assertThat(call(c, remove + ")")).containsEntry("deleted_files_count", 0L);
    }
  }

  @Test
  void rollbackAndSetCurrentSnapshotFollowIcebergsRules() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1)");
      long first = table("t").currentSnapshot().snapshotId();
      update(c, "INSERT INTO t VALUES (2)");
      long second = table("t").currentSnapshot().snapshotId();

      Map<String, Long> row =
          call(c, "ALTER TABLE t EXECUTE rollback_to_snapshot(snapshot_id => " + first + ")");
      assertThat(row)
          .containsEntry("previous_snapshot_id", second)
          .containsEntry("current_snapshot_id", first);
      assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of("1"));

      assertThatThrownBy(
              () -> execute(c, "ALTER TABLE t EXECUTE rollback_to_snapshot(" + second + ")"))
          .hasMessageContaining("not an ancestor")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42000");

      call(c, "ALTER TABLE t EXECUTE set_current_snapshot(snapshot_id => " + second + ")");
      assertThat(rows(c, "SELECT id FROM t ORDER BY id"))
          .containsExactly(List.of("1"), List.of("2"));

      execute(c, "ALTER TABLE t CREATE TAG v1 AS OF VERSION " + first);
      call(c, "ALTER TABLE t EXECUTE set_current_snapshot(\"ref\" => 'v1')");
      assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of("1"));

      assertThatThrownBy(
              () ->
                  execute(
                      c,
                      "ALTER TABLE t EXECUTE rollback_to_timestamp(ts => TIMESTAMP '2000-01-01"
                          + " 00:00:00')"))
          .hasMessageContaining("no ancestor")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42000");
    }
  }

  @Test
  void branchAndTagDdlManagesRefs() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1)");
      long first = table("t").currentSnapshot().snapshotId();
      update(c, "INSERT INTO t VALUES (2)");
      execute(c, "ALTER TABLE t CREATE BRANCH audit WITH SNAPSHOT RETENTION 3 SNAPSHOTS 2 DAYS");
      execute(c, "ALTER TABLE t CREATE TAG v1 AS OF VERSION " + first + " RETAIN 7 DAYS");
      execute(c, "ALTER TABLE t CREATE BRANCH IF NOT EXISTS audit");
      Table t = table("t");
      assertThat(t.refs().get("audit").minSnapshotsToKeep()).isEqualTo(3);
      assertThat(t.refs().get("audit").maxSnapshotAgeMs()).isEqualTo(Duration.ofDays(2).toMillis());
      assertThat(t.refs().get("v1").snapshotId()).isEqualTo(first);
      assertThat(t.refs().get("v1").maxRefAgeMs()).isEqualTo(Duration.ofDays(7).toMillis());
      assertThatThrownBy(() -> execute(c, "ALTER TABLE t CREATE TAG v1"))
          .hasMessageContaining("already exists")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42000");

      execute(c, "ALTER TABLE t REPLACE TAG v1");
      assertThat(table("t").refs().get("v1").snapshotId())
          .isEqualTo(table("t").currentSnapshot().snapshotId());
      execute(c, "ALTER TABLE t DROP TAG v1");
      execute(c, "ALTER TABLE t DROP BRANCH audit");
      execute(c, "ALTER TABLE t DROP BRANCH IF EXISTS audit");
      assertThat(table("t").refs().keySet()).containsExactly("main");
      assertThatThrownBy(() -> execute(c, "ALTER TABLE t DROP TAG v1"))
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("42000");
    }
  }

  @Test
  void tablesKeepABoundedNumberOfOldMetadataFiles() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE d (id INT)");
      assertThat(table("d").properties())
          .containsEntry("write.metadata.delete-after-commit.enabled", "true")
          .containsEntry("write.metadata.previous-versions-max", "25");
      execute(c, "CREATE TABLE t (id INT) WITH ('write.metadata.previous-versions-max' = '3')");
      for (int i = 0; i < 8; i++) {
        update(c, "INSERT INTO t VALUES (" + i + ")");
      }
      Path metadata = root.resolve("t/metadata");
      try (var list = Files.list(metadata)) {
        assertThat(list.filter(p -> p.toString().endsWith(".metadata.json")).count()).isEqualTo(4);
      }
      Files.delete(metadata.resolve("version-hint.text"));
    }
    try (Connection c = connect()) {
      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("8");
      update(c, "INSERT INTO t VALUES (8)");
      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("9");
    }
  }

  @Test
  void optimizeManifestsMergesTheManifestsOfManyAppends() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      for (int i = 0; i < 3; i++) {
        update(c, "INSERT INTO t VALUES (" + i + ")");
      }
      Map<String, Long> row = call(c, "ALTER TABLE t EXECUTE optimize_manifests");
      assertThat(row)
          .containsEntry("rewritten_manifests_count", 3L)
          .containsEntry("added_manifests_count", 1L);
      assertThat(rows(c, "SELECT count(*) FROM t")).containsExactly(List.of("3"));
    }
  }
}
