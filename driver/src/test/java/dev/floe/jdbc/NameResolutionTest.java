package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every path that names a table (queries, DML, PreparedStatement batches, DDL, setSchema) finds the
 * same folder through the one resolver, and never creates a name it could not find again.
 */
class NameResolutionTest extends LakeFixture {
  private Connection c;

  @BeforeEach
  void open() throws SQLException {
    c = connect();
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  /** Creates a table the way another tool would, bypassing Floe's SQL and its naming rules. */
  private void createOutsideFloe(String... path) {
    new FolderCatalog(LakeLocation.parse(root.toString()))
        .newCreateTableTransaction(
            List.of(path),
            new Schema(Types.NestedField.optional(1, "id", Types.IntegerType.get())),
            PartitionSpec.unpartitioned(),
            Map.of("format-version", "2"))
        .commitTransaction();
  }

  private void assertFails(ThrowingCallable call, String state, String... messageParts)
      throws Exception {
    TreeSet<String> before = files();
    assertThatThrownBy(call)
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
        .satisfies(
            e -> {
              for (String part : messageParts) {
                assertThat(e.getMessage()).contains(part);
              }
            });
    assertThat(files()).as("files after a refused statement").isEqualTo(before);
  }

  @Test
  void aBatchWritesTheTableOfTheCurrentSchemaAsExecuteUpdateDoes() throws Exception {
    execute(c, "CREATE TABLE orders (id INT)");
    execute(c, "CREATE TABLE sales.orders (id INT)");
    c.setSchema("sales");
    update(c, "INSERT INTO orders VALUES (1)");
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO orders VALUES (?)")) {
      for (int i = 2; i <= 4; i++) {
        insert.setInt(1, i);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO orders VALUES (?)")) {
      insert.setInt(1, 5);
      insert.executeUpdate();
    }
    assertThat(single(c, "SELECT count(*) FROM sales.orders")).isEqualTo("5");
    assertThat(single(c, "SELECT count(*) FROM main.orders")).isEqualTo("0");
    assertThat(Files.isDirectory(root.resolve("sales/orders/data"))).isTrue();
    assertThat(Files.exists(root.resolve("orders/data"))).isFalse();
  }

  @Test
  void aDdlStatementNamesTheTableOfTheCurrentSchemaAsQueriesDo() throws Exception {
    execute(c, "CREATE TABLE sales.orders (id INT)");
    c.setSchema("sales");
    execute(c, "CREATE TABLE items (id INT)");
    assertThat(Files.isDirectory(root.resolve("sales/items/metadata"))).isTrue();
    update(c, "INSERT INTO items VALUES (7)");
    execute(c, "ALTER TABLE items ADD COLUMN note VARCHAR");
    assertThat(rows(c, "SELECT * FROM sales.items")).containsExactly(Arrays.asList("7", null));
    execute(c, "DROP TABLE items");
    assertThat(Files.exists(root.resolve("sales/items"))).isFalse();
    assertThat(single(c, "SELECT count(*) FROM orders")).isEqualTo("0");
  }

  @Test
  void caseTwinsAreReachedByQuotingAndAnUnquotedNameIsAmbiguous() throws Exception {
    execute(c, "CREATE TABLE orders (id INT)");
    update(c, "INSERT INTO orders VALUES (1), (2), (3)");
    createOutsideFloe("Orders");

    assertFails(() -> rows(c, "SELECT count(*) FROM orders"), "42000", "orders", "Orders", "quote");
    assertFails(() -> update(c, "INSERT INTO ORDERS VALUES (9)"), "42000", "quote");
    assertFails(() -> update(c, "DELETE FROM orders"), "42000", "quote");
    assertFails(() -> execute(c, "DROP TABLE orders"), "42000", "quote");
    assertFails(() -> c.prepareStatement("INSERT INTO orders VALUES (?)"), "42000", "quote");

    assertThat(single(c, "SELECT count(*) FROM \"orders\"")).isEqualTo("3");
    assertThat(single(c, "SELECT count(*) FROM \"Orders\"")).isEqualTo("0");
    update(c, "INSERT INTO \"Orders\" VALUES (10)");
    update(c, "DELETE FROM \"orders\" WHERE id = 1");
    assertThat(single(c, "SELECT count(*) FROM \"Orders\"")).isEqualTo("1");
    assertThat(single(c, "SELECT count(*) FROM \"orders\"")).isEqualTo("2");

    execute(c, "DROP TABLE \"Orders\"");
    assertThat(Files.exists(root.resolve("Orders"))).isFalse();
    assertThat(single(c, "SELECT count(*) FROM orders")).isEqualTo("2");
  }

  @Test
  void aQuotedNameMatchesExactly() throws Exception {
    execute(c, "CREATE TABLE orders (id INT)");
    assertFails(() -> rows(c, "SELECT * FROM \"ORDERS\""), "42S02", "ORDERS");
    assertThat(single(c, "SELECT count(*) FROM ORDERS")).isEqualTo("0");
    assertThat(single(c, "SELECT count(*) FROM Main.Orders")).isEqualTo("0");
  }

  @Test
  void floeNeverCreatesACaseTwin() throws Exception {
    execute(c, "CREATE TABLE orders (id INT)");
    assertFails(() -> execute(c, "CREATE TABLE \"Orders\" (id INT)"), "42S01", "Orders", "case");
    assertFails(() -> execute(c, "CREATE TABLE orders (id INT)"), "42S01", "orders");
    execute(c, "CREATE TABLE IF NOT EXISTS ORDERS (id INT)");
    assertThat(root.toFile().list()).containsExactly("orders");
  }

  @Test
  void aTableIsNeverCreatedInsideAnotherTablesFolder() throws Exception {
    execute(c, "CREATE TABLE t (a INT)");
    update(c, "INSERT INTO t VALUES (1)");
    assertFails(() -> execute(c, "CREATE TABLE t.data (a INT)"), "42602", "is a table");
    assertFails(() -> execute(c, "CREATE TABLE t.metadata (a INT)"), "42602", "is a table");
    assertFails(() -> execute(c, "CREATE TABLE T.x.y (a INT)"), "42602", "is a table");
    assertThat(single(c, "SELECT count(*) FROM t")).isEqualTo("1");
  }

  @Test
  void aSchemaFolderCannotBecomeATable() throws Exception {
    execute(c, "CREATE TABLE sales.orders (id INT)");
    assertFails(() -> execute(c, "CREATE TABLE sales (id INT)"), "42602", "schema");
    assertThat(single(c, "SELECT count(*) FROM sales.orders")).isEqualTo("0");
  }

  @Test
  void namesFloeCouldNotFindAgainAreRefused() throws Exception {
    assertFails(() -> execute(c, "CREATE TABLE \".hidden\" (a INT)"), "42602", ".hidden");
    assertFails(() -> execute(c, "CREATE TABLE \"a\nb\" (a INT)"), "42602", "control");
    assertFails(() -> execute(c, "CREATE TABLE \"tab\tname\" (a INT)"), "42602", "control");
    assertFails(() -> execute(c, "CREATE TABLE \"a/b\" (a INT)"), "42602", "'/'");
    assertFails(() -> execute(c, "CREATE TABLE \"..\".x (a INT)"), "42602", "..");
    String tooLong = "t".repeat(129);
    assertFails(() -> execute(c, "CREATE TABLE \"" + tooLong + "\" (a INT)"), "42602", "128");
    assertThat(root.toFile().list()).isEmpty();
  }

  @Test
  void theLongestNameRoundTrips() throws Exception {
    String longest = "n".repeat(128);
    execute(c, "CREATE TABLE " + longest + " (a INT)");
    update(c, "INSERT INTO " + longest + " VALUES (5)");
    try (PreparedStatement batch = c.prepareStatement("INSERT INTO " + longest + " VALUES (?)")) {
      batch.setInt(1, 6);
      batch.addBatch();
      batch.executeBatch();
    }
    assertThat(single(c, "SELECT sum(a) FROM " + longest)).isEqualTo("11");
    assertThat(Files.isDirectory(root.resolve(longest).resolve("metadata"))).isTrue();
  }

  @Test
  void aNameWithSpacesAndUnicodeRoundTripsQuoted() throws Exception {
    execute(c, "CREATE TABLE \"my lake\".\"Bestellungen ü\" (a INT)");
    update(c, "INSERT INTO \"my lake\".\"Bestellungen ü\" VALUES (1)");
    assertThat(Files.isDirectory(root.resolve("my lake/Bestellungen ü/data"))).isTrue();
    assertThat(single(c, "SELECT count(*) FROM \"my lake\".\"Bestellungen ü\"")).isEqualTo("1");
  }

  @Test
  void withQueriesShadowTables() throws Exception {
    execute(c, "CREATE TABLE orders (id INT)");
    update(c, "INSERT INTO orders VALUES (1), (2)");
    assertThat(single(c, "WITH orders AS (SELECT 42 AS id) SELECT sum(id) FROM orders"))
        .isEqualTo("42");
    assertThat(
            single(
                c,
                "SELECT count(*) FROM orders o JOIN (SELECT id FROM ORDERS) p ON o.id = p.id"
                    + " WHERE o.id IN (SELECT id FROM Orders)"))
        .isEqualTo("2");
  }

  @Test
  void functionNamesAreCalcitesWhileColumnNamesAreTheTables() throws Exception {
    execute(c, "CREATE TABLE sales.eu.orders (id INT, \"USER\" VARCHAR(8))");
    update(c, "INSERT INTO sales.eu.orders VALUES (1, 'ann')");
    c.setSchema("sales.eu");
    // a name that is a column is the column; a niladic function without parentheses still works
    assertThat(rows(c, "SELECT id, \"USER\", CURRENT_DATE = CURRENT_DATE FROM orders"))
        .containsExactly(List.of("1", "ann", "true"));
    assertThat(single(c, "SELECT upper(\"USER\") FROM orders")).isEqualTo("ANN");
    assertThatThrownBy(() -> rows(c, "SELECT nosuch(id) FROM orders"))
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"))
        .hasMessageContaining("nosuch");
  }
}
