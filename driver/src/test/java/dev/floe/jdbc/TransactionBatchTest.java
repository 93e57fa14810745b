package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * PreparedStatement batches of a plain INSERT inside a transaction go into data files kept open
 * across the batches: one file per partition for the whole transaction, flushed before anything
 * else on the connection sees the table, given up by a rollback.
 */
class TransactionBatchTest extends LakeFixture {
  private static final String INSERT = "INSERT INTO t VALUES (?, ?, ?)";

  private Connection open(String partitioning) throws SQLException {
    Connection c = connect();
    execute(c, "CREATE TABLE t (id BIGINT NOT NULL, k INT, name VARCHAR) " + partitioning);
    c.setAutoCommit(false);
    return c;
  }

  /** Adds rows {@code from .. from+n-1} to the batch, {@code k = id mod 3}, and runs it. */
  private static void batch(PreparedStatement insert, int from, int n) throws SQLException {
    for (int i = from; i < from + n; i++) {
      insert.setLong(1, i);
      insert.setInt(2, i % 3);
      insert.setString(3, "row " + i);
      insert.addBatch();
    }
    assertThat(insert.executeBatch()).hasSize(n).containsOnly(1);
  }

  private List<Path> dataFiles() throws Exception {
    Path data = root.resolve("t/data");
    if (!Files.isDirectory(data)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }

  private static String sqlState(ThrowingCall call) {
    SQLException e = catchThrowableOfType(SQLException.class, call::run);
    assertThat((Object) e).as("expected a SQLException").isNotNull();
    return e.getSQLState();
  }

  @FunctionalInterface
  private interface ThrowingCall {
    void run() throws Exception;
  }

  @Test
  void batchesOfOneTransactionWriteOneFilePerPartition() throws Exception {
    try (Connection c = open("PARTITIONED BY (k)");
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      batch(insert, 0, 300);
      batch(insert, 300, 300);
      batch(insert, 600, 300);
      c.commit();
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("900");
      assertThat(single(c, "SELECT COUNT(DISTINCT id) FROM t")).isEqualTo("900");
    }
    assertThat(dataFiles()).hasSize(3);
    assertThat(root.resolve("t/metadata/v2.metadata.json")).isRegularFile();
    assertThat(root.resolve("t/metadata/v3.metadata.json")).doesNotExist();
  }

  @Test
  void batchesOfOneTransactionIntoAnUnpartitionedTableWriteOneFile() throws Exception {
    try (Connection c = open("");
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      for (int b = 0; b < 5; b++) {
        batch(insert, b * 100, 100);
      }
      c.commit();
    }
    assertThat(dataFiles()).hasSize(1);
    try (Connection c = connect()) {
      assertThat(single(c, "SELECT SUM(id) FROM t")).isEqualTo(String.valueOf(499 * 500 / 2));
    }
  }

  @Test
  void aBadValueInTheThirdBatchLeavesTheFirstTwo() throws Exception {
    try (Connection c = open("");
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      batch(insert, 0, 100);
      batch(insert, 100, 100);
      for (int i = 200; i < 210; i++) {
        insert.setLong(1, i);
        insert.setInt(2, 0);
        insert.setString(3, "ok");
        insert.addBatch();
      }
      insert.setNull(1, java.sql.Types.BIGINT);
      insert.setInt(2, 0);
      insert.setString(3, "no id");
      insert.addBatch();
      assertThat(sqlState(insert::executeBatch)).isEqualTo("23502");
      insert.setString(1, "not a number");
      insert.setInt(2, 0);
      insert.setString(3, "bad id");
      insert.addBatch();
      assertThat(sqlState(insert::executeBatch)).isNotEqualTo("HY000").startsWith("22");

      c.commit();
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("200");
      assertThat(single(c, "SELECT MAX(id) FROM t")).isEqualTo("199");
    }
    assertThat(dataFiles()).hasSize(1);
  }

  @Test
  void singleRowInsertsOfOneTransactionShareTheirFile() throws Exception {
    try (Connection c = open("");
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      for (int i = 0; i < 50; i++) {
        insert.setLong(1, i);
        insert.setInt(2, i % 3);
        insert.setString(3, "row " + i);
        assertThat(insert.executeUpdate()).isEqualTo(1);
      }
      insert.setNull(1, java.sql.Types.BIGINT);
      assertThat(sqlState(insert::executeUpdate)).isEqualTo("23502");
      c.commit();
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("50");
    }
    assertThat(dataFiles()).hasSize(1);
  }

  @Test
  void aQueryBetweenBatchesSeesTheEarlierBatches() throws Exception {
    try (Connection c = open("PARTITIONED BY (k)");
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      batch(insert, 0, 30);
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("30");
      batch(insert, 30, 30);
      try (PreparedStatement query = c.prepareStatement("SELECT COUNT(*) FROM t WHERE id >= ?")) {
        batch(insert, 60, 30);
        query.setLong(1, 0);
        try (java.sql.ResultSet rs = query.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(90);
        }
      }
      assertThat(single(c, "SELECT COUNT(*) FROM t WHERE k = 1")).isEqualTo("30");
      assertThat(sqlState(() -> execute(c, "ALTER TABLE t ADD COLUMN extra INT")))
          .isEqualTo("25000");
      // A one-row INSERT and a DELETE of the same table see and keep every batch's rows.
      try (PreparedStatement one = c.prepareStatement(INSERT)) {
        one.setLong(1, 1000);
        one.setInt(2, 0);
        one.setString(3, "single");
        assertThat(one.executeUpdate()).isEqualTo(1);
      }
      batch(insert, 90, 10);
      assertThat(sqlState(() -> execute(c, "ALTER TABLE t ADD COLUMN extra INT")))
          .isEqualTo("25000");
      assertThat(update(c, "DELETE FROM t WHERE id < 10")).isEqualTo(10);
      c.commit();
    }
    try (Connection c = connect()) {
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("91");
      assertThat(single(c, "SELECT MIN(id) FROM t")).isEqualTo("10");
    }
  }

  @Test
  void anotherConnectionNeverSeesTheOpenRows() throws Exception {
    try (Connection c = open("");
        Connection other = connect();
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      batch(insert, 0, 50);
      batch(insert, 50, 50);
      assertThat(single(other, "SELECT COUNT(*) FROM t")).isEqualTo("0");
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("100");
      assertThat(single(other, "SELECT COUNT(*) FROM t")).isEqualTo("0");
      c.commit();
      assertThat(single(other, "SELECT COUNT(*) FROM t")).isEqualTo("100");
    }
  }

  @Test
  void rollbackDeletesTheOpenFiles() throws Exception {
    try (Connection c = open("PARTITIONED BY (k)");
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      batch(insert, 0, 100);
      batch(insert, 100, 100);
      c.rollback();
      assertThat(dataFiles()).isEmpty();
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("0");
      batch(insert, 0, 10);
      c.commit();
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("10");
    }
    assertThat(dataFiles()).hasSize(3);
  }

  @Test
  void closingTheConnectionDeletesTheOpenFiles() throws Exception {
    Connection c = open("PARTITIONED BY (k)");
    PreparedStatement insert = c.prepareStatement(INSERT);
    batch(insert, 0, 100);
    c.close();
    assertThat(dataFiles()).isEmpty();
    assertThat(root.resolve("t/metadata/v2.metadata.json")).doesNotExist();
  }

  /** What a pool does with a connection handed back: roll back, then auto-commit on again. */
  @Test
  void aPooledConnectionHandedBackKeepsNothingPending() throws Exception {
    try (Connection c = open("")) {
      try (PreparedStatement insert = c.prepareStatement(INSERT)) {
        batch(insert, 0, 100);
      }
      c.rollback();
      c.setAutoCommit(true);
      assertThat(dataFiles()).isEmpty();
      // The next borrower works in auto-commit mode: each batch is committed at once.
      try (PreparedStatement insert = c.prepareStatement(INSERT)) {
        batch(insert, 0, 10);
      }
      try (Connection other = connect()) {
        assertThat(single(other, "SELECT COUNT(*) FROM t")).isEqualTo("10");
      }
    }
  }

  @Test
  void turningAutoCommitOnCommitsTheOpenRows() throws Exception {
    try (Connection c = open("");
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      batch(insert, 0, 100);
      c.setAutoCommit(true);
      try (Connection other = connect()) {
        assertThat(single(other, "SELECT COUNT(*) FROM t")).isEqualTo("100");
      }
    }
    assertThat(dataFiles()).hasSize(1);
  }

  @Test
  void batchesIntoTwoTablesKeepBothOpen() throws Exception {
    try (Connection c = open("")) {
      execute(c, "CREATE TABLE u (id BIGINT NOT NULL, k INT, name VARCHAR)");
      try (PreparedStatement t = c.prepareStatement(INSERT);
          PreparedStatement u = c.prepareStatement("INSERT INTO u VALUES (?, ?, ?)")) {
        for (int b = 0; b < 4; b++) {
          batch(t, b * 10, 10);
          batch(u, b * 10, 10);
        }
      }
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("40");
      assertThat(single(c, "SELECT COUNT(*) FROM u")).isEqualTo("40");
      c.commit();
    }
    assertThat(dataFiles()).hasSize(1);
    try (Stream<Path> files = Files.walk(root.resolve("u/data"))) {
      assertThat(files.filter(p -> p.toString().endsWith(".parquet")).count()).isEqualTo(1);
    }
  }

  /** Adds {@code n} rows of partition {@code k}, ids from {@code from}, to the batch. */
  private static void addRows(PreparedStatement insert, int from, int n, int k)
      throws SQLException {
    for (int i = from; i < from + n; i++) {
      insert.setLong(1, i);
      insert.setInt(2, k);
      insert.setString(3, "row " + i);
      insert.addBatch();
    }
  }

  /** Asserts that everything but a rollback now fails naming the table, then rolls back. */
  private static void assertAbortedUntilRollback(Connection c, PreparedStatement insert)
      throws Exception {
    SQLException query =
        catchThrowableOfType(SQLException.class, () -> single(c, "SELECT COUNT(*) FROM t"));
    assertThat((Object) query).isNotNull();
    assertThat(query.getSQLState()).isEqualTo("25000");
    assertThat(query.getMessage()).contains("aborted").contains("writing to t (");
    assertThat(sqlState(() -> single(c, "SELECT 1"))).isEqualTo("25000");
    assertThat(sqlState(c::commit)).isEqualTo("25000");
    assertThat(sqlState(() -> c.setAutoCommit(true))).isEqualTo("25000");
    addRows(insert, 5000, 10, 1);
    assertThat(sqlState(insert::executeBatch)).isEqualTo("25000");
    c.rollback();
  }

  /**
   * A write into the open files that fails (here: the table's data folder is replaced by a file
   * while row groups of small size are flushed, so the file of a new partition cannot be created)
   * loses the earlier batches' rows: the transaction is aborted, and every later statement and
   * commit fails naming the table, until a rollback.
   */
  @Test
  void aFailedWriteAbortsTheTransactionUntilRollback() throws Exception {
    try (Connection c = connect()) {
      execute(
          c,
          "CREATE TABLE t (id BIGINT NOT NULL, k INT, name VARCHAR) PARTITIONED BY (k)"
              + " WITH ('write.parquet.row-group-size-bytes' = '1024')");
      c.setAutoCommit(false);
      try (PreparedStatement insert = c.prepareStatement(INSERT)) {
        addRows(insert, 0, 2000, 1);
        insert.executeBatch();
        Path data = root.resolve("t/data");
        assertThat(data).isDirectory(); // the first row groups are on disk
        Path moved = root.resolve("t/data-moved");
        Files.move(data, moved);
        Files.writeString(data, "not a folder");
        try {
          addRows(insert, 2000, 2000, 2);
          SQLException failed = catchThrowableOfType(SQLException.class, insert::executeBatch);
          assertThat((Object) failed).isNotNull();
          assertThat(failed.getSQLState()).isEqualTo("58030");
          assertThat(failed.getMessage()).startsWith("Cannot read or write t:").contains("roll");
          assertAbortedUntilRollback(c, insert);
        } finally {
          Files.delete(data);
          // Giving up the open files deleted those already written, found by their names.
          if (Files.exists(moved)) {
            Files.move(moved, data);
          }
        }
        assertThat(dataFiles()).isEmpty();
        assertThat(root.resolve("t/metadata/v2.metadata.json")).doesNotExist();
        assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("0");
        batch(insert, 0, 10);
        c.commit();
        assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("10");
      }
    }
  }

  /**
   * Closing the open files fails when the transaction next needs the table (here: the table's data
   * folder is a file by then): the rows of every batch are lost and the transaction is aborted.
   */
  @Test
  void aFailedCloseAbortsTheTransactionUntilRollback() throws Exception {
    try (Connection c = open("");
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      batch(insert, 0, 100);
      batch(insert, 100, 100);
      Path data = root.resolve("t/data");
      Files.writeString(data, "not a folder");
      try {
        SQLException failed =
            catchThrowableOfType(SQLException.class, () -> single(c, "SELECT COUNT(*) FROM t"));
        assertThat((Object) failed).isNotNull();
        assertThat(failed.getSQLState()).isEqualTo("58030");
        assertThat(failed.getMessage()).startsWith("Cannot read or write t:").contains("roll");
        assertAbortedUntilRollback(c, insert);
      } finally {
        Files.delete(data);
      }
      assertThat(root.resolve("t/metadata/v2.metadata.json")).doesNotExist();
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("0");
      batch(insert, 0, 10);
      c.commit();
    }
    assertThat(dataFiles()).hasSize(1);
  }

  /**
   * Staging the open files when the transaction next needs the table fails (here: the table's
   * metadata folder cannot take the preview's manifest): the files are deleted and the transaction
   * is aborted.
   */
  @Test
  void aFailedFlushAbortsTheTransactionAndDeletesTheFiles() throws Exception {
    try (Connection c = open("");
        PreparedStatement insert = c.prepareStatement(INSERT)) {
      batch(insert, 0, 100);
      batch(insert, 100, 100);
      Path metadata = root.resolve("t/metadata");
      Path moved = root.resolve("t/metadata-moved");
      Files.move(metadata, moved);
      Files.writeString(metadata, "not a folder");
      try {
        SQLException failed =
            catchThrowableOfType(SQLException.class, () -> single(c, "SELECT COUNT(*) FROM t"));
        assertThat((Object) failed).isNotNull();
        assertThat(failed.getSQLState()).isEqualTo("58030");
        assertThat(failed.getMessage()).contains("roll it back");
        assertThat(dataFiles()).isEmpty();
        assertThat(sqlState(c::commit)).isEqualTo("25000");
        c.rollback();
      } finally {
        Files.delete(metadata);
        Files.move(moved, metadata);
      }
      assertThat(single(c, "SELECT COUNT(*) FROM t")).isEqualTo("0");
    }
  }
}
