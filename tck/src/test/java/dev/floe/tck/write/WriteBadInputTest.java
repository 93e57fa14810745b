package dev.floe.tck.write;

import static dev.floe.tck.write.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.SortedSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input (docs/sql.md, "Types"; ARCHITECTURE.md, "Errors"): every refused write reports the
 * SQLState the contract names and leaves every table exactly as it was, with no file added or
 * removed.
 */
class WriteBadInputTest {
  private static final List<List<Object>> SEED =
      List.of(
          row(1, "one", null, null, null),
          row(2, "two", null, null, null),
          row(3, "three", null, null, null));

  @TempDir Path lake;

  @BeforeEach
  void createTable() throws SQLException {
    Sql.run(
        lake,
        "CREATE TABLE t (id INT NOT NULL, name VARCHAR, amount DECIMAL(5, 2), d DATE, code BINARY(4))",
        "INSERT INTO t (id, name) VALUES (1, 'one'), (2, 'two'), (3, 'three')");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "INSERT INTO t (id) VALUES ('abc')                               | 22018 | id",
        "INSERT INTO t (id) VALUES (3000000000)                          | 22003 | id",
        "INSERT INTO t (id, amount) VALUES (4, 1234.5)                   | 22003 | amount",
        "INSERT INTO t (id) SELECT id * 1000000000 FROM t                | 22003 | ",
        "INSERT INTO t (id) VALUES (2147483647 + 1)                      | 22003 | ",
        "INSERT INTO t (id) SELECT CAST(id AS BIGINT) * 1000000000 FROM t | 22003 | id",
        "UPDATE t SET amount = 1000 WHERE id = 3                         | 22003 | amount",
        "INSERT INTO t (id, d) VALUES (4, DATE '2024-02-30')             | 22007 | 2024-02-30",
        "INSERT INTO t (id, code) VALUES (4, X'0102030405')              | 22001 | code",
        "INSERT INTO t (id, name) VALUES (NULL, 'x')                     | 23502 | id",
        "INSERT INTO t (name) VALUES ('x')                               | 23502 | id",
        "INSERT INTO t (id) SELECT CASE WHEN id = 3 THEN NULL ELSE id END FROM t | 23502 | id",
        "UPDATE t SET id = NULL WHERE id = 2                             | 23502 | id",
        "INSERT INTO t (nope) VALUES (1)                                 | 42S22 | nope",
        "UPDATE t SET nope = 1                                           | 42S22 | nope",
        "DELETE FROM t WHERE nope = 1                                    | 42S22 | nope",
        "ALTER TABLE t DROP COLUMN nope                                  | 42S22 | nope",
        "ALTER TABLE t RENAME COLUMN nope TO other                       | 42S22 | nope",
        "CREATE TABLE t (x INT)                                          | 42S01 | t",
        "CREATE TABLE T (x INT)                                          | 42S01 | t",
        "CREATE TABLE t AS SELECT 1 AS x                                 | 42S01 | t",
        "INSERT INTO nope VALUES (1)                                     | 42S02 | nope",
        "DROP TABLE nope                                                 | 42S02 | nope",
      })
  void aRefusedWriteReportsItsStateAndChangesNothing(String sql, String state, String named)
      throws Exception {
    assertRefusedWithoutChange(c -> Sql.update(c, sql), state, "", false);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "INSERT INTO t (id) VALUES ('abc')                               | 22018 | id",
        "INSERT INTO t (id) VALUES (3000000000)                          | 22003 | id",
        "INSERT INTO t (id) SELECT CAST(id AS BIGINT) * 1000000000 FROM t | 22003 | id",
        "INSERT INTO t (id, code) VALUES (4, X'0102030405')              | 22001 | code",
        "INSERT INTO t (id, name) VALUES (NULL, 'x')                     | 23502 | id",
        "INSERT INTO t (nope) VALUES (1)                                 | 42S22 | nope",
      })
  void aDataErrorNamesTheColumnItConcerns(String sql, String state, String named) throws Exception {
    assertRefusedWithoutChange(c -> Sql.update(c, sql), state, named, false);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "INSERT INTO t (id) VALUES (9)",
        "INSERT INTO t (id) SELECT id + 10 FROM t",
        "UPDATE t SET name = 'x'",
        "DELETE FROM t WHERE id = 1",
        "DELETE FROM t",
        "CREATE TABLE u (x INT)",
        "CREATE TABLE u AS SELECT id FROM t",
        "DROP TABLE t",
        "DROP TABLE IF EXISTS t PURGE",
        "ALTER TABLE t ADD COLUMN x INT",
        "ALTER TABLE t RENAME COLUMN name TO label",
      })
  void everyWriteOnAReadOnlyConnectionIsRefused(String sql) throws Exception {
    assertRefusedWithoutChange(c -> Sql.update(c, sql), "25006", "read-only", true);
    assertRefusedWithoutChange(
        c -> {
          c.setReadOnly(true);
          Sql.update(c, sql);
        },
        "25006",
        "read-only",
        false);
  }

  @Test
  void aBatchOnAReadOnlyConnectionIsRefused() throws Exception {
    assertRefusedWithoutChange(
        c -> {
          try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (id) VALUES (?)")) {
            insert.setInt(1, 10);
            insert.addBatch();
            insert.setInt(1, 11);
            insert.addBatch();
            insert.executeBatch();
          }
        },
        "25006",
        "read-only",
        true);
  }

  @Test
  void aBatchWithOneBadRowWritesNothing() throws Exception {
    assertRefusedWithoutChange(
        c -> {
          try (PreparedStatement insert =
              c.prepareStatement("INSERT INTO t (id, amount) VALUES (?, ?)")) {
            for (int i = 10; i < 20; i++) {
              insert.setInt(1, i);
              insert.setBigDecimal(2, new java.math.BigDecimal(i == 18 ? "123456" : "1.5"));
              insert.addBatch();
            }
            insert.executeBatch();
          }
        },
        "22003",
        "amount",
        false);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "ALTER TABLE t ADD COLUMN x INT",
        "ALTER TABLE t DROP COLUMN name",
        "ALTER TABLE t RENAME COLUMN name TO label",
        "ALTER TABLE t ALTER COLUMN id SET DATA TYPE BIGINT",
        "DROP TABLE t",
        "DROP TABLE t PURGE",
      })
  void ddlOnATableWithPendingChangesInTheTransactionIsRefused(String ddl) throws Exception {
    SortedSet<String> before = FolderListing.files(lake);
    try (Connection c = Sql.connect(lake)) {
      c.setAutoCommit(false);
      Sql.run(c, "DELETE FROM t WHERE id = 1", "INSERT INTO t (id) VALUES (7)");
      assertThatThrownBy(() -> Sql.update(c, ddl))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("table t")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25000"));
      assertThat(Sql.count(c, "SELECT count(*) FROM t WHERE id = 7")).isEqualTo(1);
      c.rollback();
    }
    assertThat(FolderListing.files(lake)).isEqualTo(before);
    assertThat(IcebergView.of(lake.resolve("t")).rows()).isEqualTo(Rows.sorted(SEED));
  }

  @Test
  void ddlOnAnotherTableIsAllowedWhileATransactionHasPendingChanges() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      c.setAutoCommit(false);
      Sql.run(c, "INSERT INTO t (id) VALUES (8)");
      Sql.run(c, "CREATE TABLE other (x INT)", "DROP TABLE other");
      c.rollback();
    }
    assertThat(lake.resolve("other")).doesNotExist();
    assertThat(IcebergView.of(lake.resolve("t")).rows()).isEqualTo(Rows.sorted(SEED));
  }

  /**
   * Runs an action that must fail with a SQLState whose message names something, and checks that
   * the lake has the same files and table t the same rows and versions afterwards.
   */
  private void assertRefusedWithoutChange(
      ThrowingConsumer<Connection> action, String state, String named, boolean readOnlyUrl)
      throws Exception {
    SortedSet<String> before = FolderListing.files(lake);
    List<Integer> versions = IcebergView.versions(lake.resolve("t"));
    try (Connection c = Sql.connect(lake + (readOnlyUrl ? "?readOnly=true" : ""))) {
      assertThatThrownBy(() -> action.accept(c))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining(named)
          .satisfies(
              e ->
                  assertThat(((SQLException) e).getSQLState())
                      .as("SQLState of %s", e)
                      .isEqualTo(state));
      assertThat(Sql.rows(c, "SELECT id, name, amount, d, code FROM t"))
          .isEqualTo(Rows.sorted(SEED));
    }
    assertThat(FolderListing.files(lake)).isEqualTo(before);
    assertThat(IcebergView.versions(lake.resolve("t"))).isEqualTo(versions);
    assertThat(IcebergView.of(lake.resolve("t")).rows()).isEqualTo(Rows.sorted(SEED));
  }
}
