package dev.floe.tck.write;

import static dev.floe.tck.write.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.SortedSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Failure atomicity (docs/transactions.md, "Transactions"; ARCHITECTURE.md, "Commit protocol"): a
 * statement that fails halfway, a rollback and a close with pending work leave every table folder
 * with exactly the files it had; a statement or commit that returns has published a version every
 * fresh connection sees.
 */
class WriteAtomicityTest {
  /** Rows in the source table; the last one does not fit an INTEGER column. */
  private static final int SOURCE_ROWS = 3000;

  private static final long TOO_BIG_FOR_INT = 3_000_000_000L;

  @TempDir Path lake;

  @BeforeEach
  void createSourceWithOneOverflowingRowAtTheEnd() throws SQLException {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, "CREATE TABLE src (id BIGINT NOT NULL, p INT NOT NULL)");
      for (int from = 1; from <= SOURCE_ROWS; from += 1000) {
        StringBuilder values = new StringBuilder();
        for (int i = from; i < from + 1000; i++) {
          long id = i == SOURCE_ROWS ? TOO_BIG_FOR_INT : i;
          values
              .append(i == from ? "" : ", ")
              .append('(')
              .append(id)
              .append(", ")
              .append(i % 8)
              .append(')');
        }
        Sql.run(c, "INSERT INTO src VALUES " + values); // one data file per statement
      }
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void anInsertSelectFailingOnALateRowLeavesTheTableFolderAsItWas(int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE ok (id INT, p INT) PARTITIONED BY (p)",
          "INSERT INTO ok SELECT id, p FROM src WHERE id < " + TOO_BIG_FOR_INT,
          "CREATE TABLE t (id INT, p INT) PARTITIONED BY (p) WITH ('format-version' = '"
              + version
              + "')",
          "INSERT INTO t VALUES (-1, 0), (-2, 1), (-3, 2)");
      // The same statement without the bad row writes a file for each of 8 partitions.
      assertThat(IcebergView.of(lake.resolve("ok")).dataFiles()).hasSizeGreaterThanOrEqualTo(8);
      SortedSet<String> before = FolderListing.files(lake);
      long snapshotBefore = IcebergView.of(lake.resolve("t")).current().snapshotId();

      assertThatThrownBy(() -> Sql.update(c, "INSERT INTO t SELECT id, p FROM src"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));

      assertThat(FolderListing.files(lake)).isEqualTo(before);
      assertThat(IcebergView.of(lake.resolve("t")).current().snapshotId())
          .isEqualTo(snapshotBefore);
      assertThat(Sql.rows(c, "SELECT id, p FROM t"))
          .containsExactly(row(-1, 0), row(-2, 1), row(-3, 2));
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void anUpdateFailingHalfwayLeavesTheTableFolderAsItWas(int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t (id INT, p INT) PARTITIONED BY (p) WITH ('format-version' = '"
              + version
              + "')",
          "INSERT INTO t SELECT id, p FROM src WHERE id < " + TOO_BIG_FOR_INT);
      SortedSet<String> before = FolderListing.files(lake);

      // New ids above 2^31 do not fit the column; smaller ones are updated (and written) first.
      assertThatThrownBy(
              () ->
                  Sql.update(
                      c, "UPDATE t SET id = CAST(id AS BIGINT) * 1000000 WHERE MOD(id, 2) = 0"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));

      assertThat(FolderListing.files(lake)).isEqualTo(before);
      assertThat(Sql.count(c, "SELECT count(*) FROM t WHERE id > 3000")).isZero();
    }
  }

  @Test
  void aCreateTableAsSelectFailingHalfwayLeavesNoTableAndNoFolder() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      SortedSet<String> before = FolderListing.files(lake);

      assertThatThrownBy(
              () ->
                  Sql.update(
                      c,
                      "CREATE TABLE copy PARTITIONED BY (p) AS SELECT CAST(id AS INTEGER) AS id, p FROM src"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));

      assertThat(FolderListing.files(lake)).isEqualTo(before);
      assertThat(lake.resolve("copy")).doesNotExist();
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void rollbackDeletesEveryFileTheTransactionWrote(int version) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE t (id INT, p INT) PARTITIONED BY (p) WITH ('format-version' = '"
              + version
              + "')",
          "INSERT INTO t SELECT id, p FROM src WHERE id <= 100");
      SortedSet<String> before = FolderListing.files(lake);

      c.setAutoCommit(false);
      Sql.run(
          c,
          "INSERT INTO t SELECT id, p FROM src WHERE id > 100 AND id <= 200",
          "DELETE FROM t WHERE MOD(id, 3) = 0",
          "UPDATE t SET id = id + 1000 WHERE MOD(id, 5) = 0",
          "INSERT INTO src VALUES (5000, 1)");
      assertThat(FolderListing.files(lake)).as("the transaction wrote files").isNotEqualTo(before);
      c.rollback();

      assertThat(FolderListing.files(lake)).isEqualTo(before);
      assertThat(Sql.count(c, "SELECT count(*) FROM t")).isEqualTo(100);
    }
    assertThat(Sql.rows(lake, "SELECT count(*) FROM t")).containsExactly(row(100L));
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void closingAConnectionWithPendingWorkRollsItBack(int version) throws Exception {
    Sql.run(
        lake,
        "CREATE TABLE t (id INT, p INT) PARTITIONED BY (p) WITH ('format-version' = '"
            + version
            + "')",
        "INSERT INTO t SELECT id, p FROM src WHERE id <= 100");
    SortedSet<String> before = FolderListing.files(lake);

    try (Connection c = Sql.connect(lake)) {
      c.setAutoCommit(false);
      Sql.run(
          c,
          "INSERT INTO t SELECT id, p FROM src WHERE id > 100 AND id <= 200",
          "DELETE FROM t WHERE MOD(id, 3) = 0",
          "UPDATE t SET id = id + 1000 WHERE MOD(id, 5) = 0");
      assertThat(FolderListing.files(lake)).isNotEqualTo(before);
    }

    assertThat(FolderListing.files(lake)).isEqualTo(before);
    assertThat(Sql.rows(lake, "SELECT count(*) FROM t")).containsExactly(row(100L));
  }

  @Test
  void aFailingStatementInsideATransactionKeepsTheEarlierWorkAndLeavesNoFilesOfItsOwn()
      throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, "CREATE TABLE t (id INT, p INT) PARTITIONED BY (p)");
      SortedSet<String> before = FolderListing.files(lake);
      c.setAutoCommit(false);
      assertThat(Sql.update(c, "INSERT INTO t SELECT id, p FROM src WHERE id <= 10")).isEqualTo(10);
      SortedSet<String> afterFirst = FolderListing.files(lake);

      assertThatThrownBy(() -> Sql.update(c, "INSERT INTO t SELECT id, p FROM src"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));

      assertThat(FolderListing.files(lake)).isEqualTo(afterFirst);
      assertThat(Sql.count(c, "SELECT count(*) FROM t")).isEqualTo(10);
      c.commit();
      assertThat(Sql.rows(lake, "SELECT count(*) FROM t")).containsExactly(row(10L));
      c.setAutoCommit(true);
      Sql.run(c, "DELETE FROM t");
      assertThat(IcebergView.of(lake.resolve("t")).rows()).isEmpty();
      assertThat(FolderListing.files(lake)).containsAll(before);
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void executeUpdateAndCommitReturnOnlyOnceEveryFreshConnectionSeesTheChange(int version)
      throws Exception {
    Path table = lake.resolve("t");
    try (Connection writer = Sql.connect(lake);
        Connection observer = Sql.connect(lake)) {
      Sql.run(writer, "CREATE TABLE t (id INT) WITH ('format-version' = '" + version + "')");
      for (int i = 1; i <= 8; i++) {
        assertThat(Sql.update(writer, "INSERT INTO t VALUES (" + i + ")")).isEqualTo(1);
        assertPublished(table, 1 + i, i);
        assertThat(Sql.count(observer, "SELECT count(*) FROM t")).isEqualTo(i);
      }

      writer.setAutoCommit(false);
      Sql.run(writer, "DELETE FROM t WHERE id <= 4", "INSERT INTO t VALUES (100), (101)");
      assertThat(Sql.count(observer, "SELECT count(*) FROM t")).isEqualTo(8);
      writer.commit();
      assertPublished(table, 10, 6);
      assertThat(Sql.count(observer, "SELECT count(*) FROM t")).isEqualTo(6);

      assertThat(Sql.update(writer, "UPDATE t SET id = id + 1 WHERE id >= 100")).isEqualTo(2);
      writer.commit();
      assertPublished(table, 11, 6);
      assertThat(Sql.rows(observer, "SELECT id FROM t WHERE id > 99"))
          .containsExactly(row(101), row(102));
    }
  }

  /** Version N is published, the hint names it, and both readers see the rows at once. */
  private void assertPublished(Path table, int version, long rows) throws Exception {
    assertThat(IcebergView.versions(table)).last().isEqualTo(version);
    assertThat(
            Files.readString(table.resolve("metadata/version-hint.text"), StandardCharsets.UTF_8)
                .trim())
        .isEqualTo(Integer.toString(version));
    assertThat(IcebergView.of(table).rows()).hasSize((int) rows);
    try (Connection fresh = Sql.connect(lake)) {
      assertThat(Sql.count(fresh, "SELECT count(*) FROM t")).isEqualTo(rows);
    }
    assertThat(FolderListing.files(table.resolve("metadata")))
        .noneMatch(name -> name.endsWith(".tmp"));
  }

  @Test
  void aFailedStatementDoesNotDisturbOtherTables() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(c, "CREATE TABLE t (id INT)", "INSERT INTO t VALUES (1)");
      SortedSet<String> before = FolderListing.files(lake);
      assertThatThrownBy(() -> Sql.update(c, "INSERT INTO t SELECT id FROM src"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
      assertThat(FolderListing.files(lake)).isEqualTo(before);
      assertThat(IcebergView.of(lake.resolve("src")).rows()).hasSize(SOURCE_ROWS);
      assertThat(IcebergView.of(lake.resolve("t")).rows()).containsExactly(row(1));
    }
  }
}
