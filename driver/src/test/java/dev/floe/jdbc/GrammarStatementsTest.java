package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Floe's own statements through JDBC, parsed by Floe's grammar: PRIMARY KEY, indexes refused, SHOW
 * and DESCRIBE, the statements parsed but not run yet, and parse errors with positions.
 */
class GrammarStatementsTest {
  @TempDir Path lake;

  private Connection connection;
  private Statement statement;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    statement = connection.createStatement();
    statement.execute(
        "CREATE TABLE sales.orders ("
            + " id BIGINT NOT NULL COMMENT 'Order number',"
            + " \"Customer\" VARCHAR,"
            + " amount DECIMAL(12, 2),"
            + " placed TIMESTAMP WITH LOCAL TIME ZONE,"
            + " tags ARRAY<VARCHAR>,"
            + " address STRUCT<city: VARCHAR NOT NULL, zip: VARCHAR COMMENT 'postal'>,"
            + " PRIMARY KEY (id) NOT ENFORCED)"
            + " PARTITIONED BY (days(placed), bucket(8, id))"
            + " WITH ('write.parquet.compression-codec' = 'snappy', 'comment' = 'it''s orders')");
    statement.execute("CREATE TABLE sales.returns (id INT)");
    statement.execute("CREATE TABLE visits (id INT)");
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private static List<List<String>> rows(ResultSet rs) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      List<String> row = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        row.add(rs.getString(i));
      }
      rows.add(row);
    }
    return rows;
  }

  private static List<String> labels(ResultSet rs) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    List<String> labels = new ArrayList<>();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      labels.add(meta.getColumnLabel(i));
    }
    return labels;
  }

  private List<List<String>> query(String sql) throws SQLException {
    try (ResultSet rs = statement.executeQuery(sql)) {
      return rows(rs);
    }
  }

  private void assertFails(String sql, String state, String... parts) {
    assertThatThrownBy(() -> statement.execute(sql))
        .isInstanceOfSatisfying(
            SQLException.class,
            e -> assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo(state))
        .satisfies(
            e -> {
              for (String part : parts) {
                assertThat(e.getMessage()).contains(part);
              }
            });
  }

  private Table load(String... path) {
    return new FolderCatalog(LakeLocation.parse(lake.toString())).loadTable(List.of(path));
  }

  @Test
  void primaryKeyColumnsAreIdentifierFieldsAndRequired() throws SQLException {
    Table orders = load("sales", "orders");
    assertThat(orders.schema().identifierFieldNames()).containsExactly("id");
    statement.execute("CREATE TABLE pairs (a INT PRIMARY KEY, b VARCHAR, c INT, PRIMARY KEY (c))");
    Table pairs = load("pairs");
    assertThat(pairs.schema().identifierFieldNames()).containsExactlyInAnyOrder("a", "c");
    assertThat(pairs.schema().findField("c").isRequired()).isTrue();
    assertThat(pairs.schema().findField("b").isRequired()).isFalse();
    try (ResultSet rs = connection.getMetaData().getPrimaryKeys(null, "main", "pairs")) {
      List<String> key = new ArrayList<>();
      while (rs.next()) {
        key.add(rs.getString("COLUMN_NAME"));
      }
      assertThat(key).containsExactlyInAnyOrder("a", "c");
    }
    assertFails("CREATE TABLE bad (a INT, PRIMARY KEY (nope))", "42S22", "nope");
  }

  @Test
  void indexesAreRefusedBecauseIcebergHasNone() {
    assertFails(
        "CREATE INDEX i ON visits (id)",
        "0A000",
        "Iceberg tables have no indexes; pruning comes from partitions and statistics");
    assertFails("DROP INDEX IF EXISTS i", "0A000", "no indexes");
  }

  @Test
  void createOrReplaceParsesAndRuns() throws SQLException {
    statement.execute("CREATE OR REPLACE TABLE visits (id INT, note VARCHAR)");
    assertThat(query("SELECT count(*), min(note) FROM visits"))
        .containsExactly(java.util.Arrays.asList("0", null));
  }

  @Test
  void parseErrorsGiveLineColumnAndExpectedTokens() {
    assertFails("SELEC 1", "42000", "line 1, column 1", "SELECT");
    assertFails("SELECT * FROM visits WHERE", "42000", "line 1, column 26", "expected one of");
    assertFails("CREATE TABLE x (a NOSUCHTYPE)", "42000", "unknown type NOSUCHTYPE", "column 19");
    assertFails("SHOW TABLES FROM", "42000", "line 1, column 16");
    assertFails("DESCRIBE", "42000", "line 1");
  }

  @Test
  void showSchemasAndTables() throws SQLException {
    try (ResultSet rs = statement.executeQuery("SHOW SCHEMAS")) {
      assertThat(labels(rs)).containsExactly("Schema");
      assertThat(rows(rs)).containsExactly(List.of("main"), List.of("sales"));
    }
    try (ResultSet rs = statement.executeQuery("SHOW TABLES")) {
      assertThat(labels(rs)).containsExactly("Table");
      assertThat(rows(rs)).containsExactly(List.of("visits"));
    }
    assertThat(query("SHOW TABLES FROM sales"))
        .containsExactly(List.of("orders"), List.of("returns"));
    assertThat(query("show tables in SALES like 'r%'")).containsExactly(List.of("returns"));
    assertThat(query("SHOW TABLES FROM sales LIKE 'x%'")).isEmpty();
    assertFails("SHOW TABLES FROM nowhere", "3F000", "nowhere");
    connection.setSchema("sales");
    assertThat(query("SHOW TABLES")).containsExactly(List.of("orders"), List.of("returns"));
  }

  @Test
  void showColumnsAndDescribeGiveTheSameRows() throws SQLException {
    List<List<String>> expected =
        List.of(
            List.of(
                "id", "BIGINT", "not null, primary key, partition key bucket(8)", "Order number"),
            listOf("Customer", "VARCHAR", "", null),
            listOf("amount", "DECIMAL(12, 2)", "", null),
            listOf("placed", "TIMESTAMP(6) WITH LOCAL TIME ZONE", "partition key day", null),
            listOf("tags", "ARRAY<VARCHAR>", "", null),
            listOf(
                "address",
                "ROW(\"city\" VARCHAR NOT NULL, \"zip\" VARCHAR COMMENT 'postal')",
                "",
                null));
    try (ResultSet rs = statement.executeQuery("SHOW COLUMNS FROM sales.orders")) {
      assertThat(labels(rs)).containsExactly("Column", "Type", "Extra", "Comment");
      assertThat(rows(rs)).isEqualTo(expected);
    }
    assertThat(query("DESCRIBE sales.orders")).isEqualTo(expected);
    assertThat(query("DESCRIBE TABLE sales.ORDERS")).isEqualTo(expected);
    assertThat(statement.execute("describe sales.orders")).isTrue();
    try (ResultSet rs = statement.getResultSet()) {
      assertThat(rs.getStatement()).isSameAs(statement);
      assertThat(rows(rs)).isEqualTo(expected);
    }
    assertThat(statement.getUpdateCount()).isEqualTo(-1);
    assertFails("DESCRIBE nope", "42S02", "nope");
    assertFails("SHOW COLUMNS FROM sales.nope", "42S02", "sales.nope");
    assertFails("SHOW CREATE TABLE nope", "42S02", "nope");
  }

  private static List<String> listOf(String... values) {
    return java.util.Arrays.asList(values);
  }

  @Test
  void showCreateTableRecreatesTheTable() throws SQLException {
    List<List<String>> shown = query("SHOW CREATE TABLE sales.orders");
    assertThat(shown).hasSize(1);
    String ddl = shown.get(0).get(0);
    assertThat(ddl)
        .startsWith("CREATE TABLE \"sales\".\"orders\" (")
        .contains("\"id\" BIGINT NOT NULL COMMENT 'Order number'")
        .contains("PRIMARY KEY (\"id\")")
        .contains("PARTITIONED BY (day(\"placed\"), bucket(8, \"id\"))")
        .contains("'comment' = 'it''s orders'");
    statement.execute(ddl.replace("\"sales\".\"orders\"", "\"sales\".\"copy\""));
    Table original = load("sales", "orders");
    Table copy = load("sales", "copy");
    assertThat(copy.schema().asStruct()).isEqualTo(original.schema().asStruct());
    assertThat(copy.schema().identifierFieldIds())
        .isEqualTo(original.schema().identifierFieldIds());
    assertThat(copy.spec().fields().toString()).isEqualTo(original.spec().fields().toString());
    assertThat(copy.properties()).isEqualTo(original.properties());
    assertThat(formatVersion(copy)).isEqualTo(formatVersion(original));

    statement.execute(
        "CREATE TABLE v3 (ts TIMESTAMP(9), m MAP<VARCHAR, BIGINT>) WITH ('format-version' = '3')");
    String v3 = query("SHOW CREATE TABLE v3").get(0).get(0);
    assertThat(v3).contains("'format-version' = '3'").contains("\"ts\" TIMESTAMP(9)");
    statement.execute(v3.replace("\"v3\"", "\"v3_copy\""));
    assertThat(load("v3_copy").schema().asStruct()).isEqualTo(load("v3").schema().asStruct());
    assertThat(formatVersion(load("v3_copy"))).isEqualTo(3);
  }

  private static int formatVersion(Table table) {
    return ((HasTableOperations) table).operations().current().formatVersion();
  }

  @Test
  void showAndDescribeAreRefusedInBatchesAndRunPrepared() throws SQLException {
    statement.addBatch("SHOW TABLES");
    assertThatThrownBy(() -> statement.executeBatch()).isInstanceOf(SQLException.class);
    try (java.sql.PreparedStatement show = connection.prepareStatement("SHOW TABLES")) {
      assertThat(show.execute()).isTrue();
      assertThat(show.getResultSet()).isNotNull();
    }
  }

  @Test
  void ddlKeepsItsNamingRules() throws SQLException {
    statement.execute("CREATE TABLE Mixed (Name VARCHAR, \"Quoted\" INT, dec DECIMAL(5, 1))");
    assertThat(Files.isDirectory(lake.resolve("mixed"))).isTrue();
    assertThat(load("mixed").schema().columns())
        .extracting(f -> f.name())
        .containsExactly("name", "Quoted", "dec");
    statement.execute("ALTER TABLE MIXED RENAME COLUMN NAME TO label");
    statement.execute("ALTER TABLE mixed ALTER COLUMN \"Quoted\" SET DATA TYPE BIGINT");
    Map<String, String> types = new TreeMap<>();
    load("mixed").schema().columns().forEach(f -> types.put(f.name(), f.type().toString()));
    assertThat(types).containsEntry("label", "string").containsEntry("Quoted", "long");
  }
}
