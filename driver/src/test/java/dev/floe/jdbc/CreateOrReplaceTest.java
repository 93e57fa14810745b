package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.collect.Lists;
import org.junit.jupiter.api.Test;

/** CREATE OR REPLACE TABLE through JDBC, checked with Iceberg's own reader. */
class CreateOrReplaceTest extends LakeFixture {
  private Table table(String name) {
    return new FolderCatalog(LakeLocation.parse(root.toString())).loadTable(List.of(name));
  }

  private static List<String> icebergRows(Table table) throws Exception {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < table.schema().columns().size(); i++) {
          values.add(String.valueOf(record.get(i)));
        }
        rows.add(String.join("|", values));
      }
    }
    rows.sort(null);
    return rows;
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

  private TreeSet<String> metadataVersions() throws Exception {
    TreeSet<String> versions = new TreeSet<>();
    for (String f : files()) {
      if (f.matches("t/metadata/v\\d+\\.metadata\\.json")) {
        versions.add(f);
      }
    }
    return versions;
  }

  @Test
  void replaceAsSelectIsOneCommitWithNewSchemaSpecAndRowsKeepingHistory() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, name VARCHAR)");
      update(c, "INSERT INTO t VALUES (1, 'a'), (2, 'b')");
      long old = table("t").currentSnapshot().snapshotId();
      int versions = metadataVersions().size();

      long written =
          update(
              c,
              "CREATE OR REPLACE TABLE t PARTITIONED BY (region) WITH ('write.merge.mode' ="
                  + " 'copy-on-write') AS SELECT * FROM (VALUES (10, 'eu', 1.5), (11, 'us', 2.5))"
                  + " AS v (id, region, amount)");

      assertThat(written).isEqualTo(2);
      Table t = table("t");
      assertThat(metadataVersions()).hasSize(versions + 1); // one commit
      assertThat(t.schema().columns())
          .extracting(f -> f.name())
          .containsExactly("id", "region", "amount");
      assertThat(t.spec().fields()).hasSize(1);
      assertThat(t.properties()).containsEntry("write.merge.mode", "copy-on-write");
      assertThat(icebergRows(t)).containsExactly("10|eu|1.5", "11|us|2.5");
      assertThat(rows(c, "SELECT id, region FROM t ORDER BY id"))
          .containsExactly(List.of("10", "eu"), List.of("11", "us"));
      // history kept: the old snapshot is still readable by time travel, with its own columns
      assertThat(Lists.newArrayList(t.snapshots())).extracting(s -> s.snapshotId()).contains(old);
      assertThat(rows(c, "SELECT * FROM t FOR VERSION AS OF " + old + " ORDER BY id"))
          .containsExactly(List.of("1", "a"), List.of("2", "b"));
      assertThat(t.currentSnapshot().parentId()).isNull();
    }
  }

  @Test
  void replaceWithColumnsOnlyEmptiesTheTable() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1)");
      long old = table("t").currentSnapshot().snapshotId();
      execute(c, "CREATE OR REPLACE TABLE t (id BIGINT NOT NULL, note VARCHAR)");
      Table t = table("t");
      assertThat(t.currentSnapshot()).isNull();
      assertThat(t.schema().findField("id").isRequired()).isTrue();
      assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("0");
      assertThat(single(c, "SELECT count(*) FROM t FOR VERSION AS OF " + old)).isEqualTo("1");
      update(c, "INSERT INTO t VALUES (5, 'x')");
      assertThat(icebergRows(table("t"))).containsExactly("5|x");
    }
  }

  @Test
  void replaceOfAMissingTableCreatesItByTheSameNamingRules() throws Exception {
    try (Connection c = connect()) {
      assertThat(update(c, "CREATE OR REPLACE TABLE Fresh AS SELECT 1 AS id")).isEqualTo(1);
      assertThat(icebergRows(table("fresh"))).containsExactly("1");
      // unquoted: the existing folder is found ignoring case, and replaced
      update(c, "CREATE OR REPLACE TABLE FRESH AS SELECT 2 AS id");
      assertThat(icebergRows(table("fresh"))).containsExactly("2");
      // quoted: an exact new name that is a case twin of an existing table is refused
      assertThat(state(() -> execute(c, "CREATE OR REPLACE TABLE \"FRESH\" (id INT)")))
          .isEqualTo("42S01");
      assertThat(state(() -> execute(c, "CREATE OR REPLACE TABLE IF NOT EXISTS x (id INT)")))
          .isEqualTo("42000");
      assertThat(state(() -> execute(c, "CREATE OR REPLACE TABLE \"a/b\" (id INT)")))
          .isEqualTo("42602");
    }
  }

  @Test
  void theQueryMayReadTheTableItReplaces() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1), (2), (3)");
      update(
          c, "CREATE OR REPLACE TABLE t AS SELECT id * 10 AS id, 'x' AS tag FROM t WHERE id > 1");
      assertThat(icebergRows(table("t"))).containsExactly("20|x", "30|x");
    }
  }

  @Test
  void aFailedReplaceChangesNothingAndLeavesNoFile() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1), (2), (3)");
      TreeSet<String> before = files();
      // fails at run time, after rows were written: division by zero on the third row (22012)
      assertThat(
              state(
                  () ->
                      update(
                          c,
                          "CREATE OR REPLACE TABLE t AS SELECT 6 / (3 - id) AS q FROM t ORDER BY"
                              + " id")))
          .isEqualTo("22012");
      assertThat(files()).isEqualTo(before);
      // a partition column that is not there
      assertThat(
              state(
                  () ->
                      update(
                          c, "CREATE OR REPLACE TABLE t PARTITIONED BY (nope) AS SELECT 1 AS id")))
          .isEqualTo("42S22");
      // a format version Iceberg cannot downgrade to
      execute(c, "CREATE TABLE v3 (id INT) WITH ('format-version' = '3')");
      assertThat(
              state(
                  () ->
                      execute(
                          c, "CREATE OR REPLACE TABLE v3 (id INT) WITH ('format-version' = '2')")))
          .isEqualTo("22023");
      assertThat(files()).containsAll(before);
      assertThat(icebergRows(table("t"))).containsExactly("1", "2", "3");
    }
  }

  @Test
  void readOnlyAndTransactionRules() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1)");
      c.setAutoCommit(false);
      update(c, "INSERT INTO t VALUES (2)");
      assertThat(state(() -> execute(c, "CREATE OR REPLACE TABLE t (id INT)"))).isEqualTo("25000");
      c.rollback();
      // no pending change to t: it commits at once, as other DDL does
      execute(c, "CREATE OR REPLACE TABLE t (x VARCHAR)");
      c.setAutoCommit(true);
      assertThat(table("t").schema().columns()).hasSize(1);
    }
    try (Connection c = connect("readOnly=true")) {
      assertThat(state(() -> execute(c, "CREATE OR REPLACE TABLE t (id INT)"))).isEqualTo("25006");
      assertThat(state(() -> execute(c, "CREATE OR REPLACE TABLE u (id INT)"))).isEqualTo("25006");
    }
  }
}
