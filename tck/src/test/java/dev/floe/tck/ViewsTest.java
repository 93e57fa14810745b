package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Views (docs/sql.md, "Views"): CREATE [OR REPLACE] VIEW, DROP VIEW, SHOW CREATE VIEW, queries over
 * views, and views in JDBC metadata; stored as Iceberg view metadata, read back with Iceberg's own
 * {@link ViewMetadataParser}. Hostile cases first: case twins, names leaving the lake, views
 * reaching themselves, damaged metadata, two writers at once.
 */
class ViewsTest {
  @TempDir Path root;
  private Connection c;
  private Statement s;

  @BeforeEach
  void createTables() throws SQLException {
    c = DriverManager.getConnection("jdbc:floe:" + root);
    s = c.createStatement();
    s.execute("CREATE TABLE orders (id INT, customer INT, total DECIMAL(10, 2))");
    s.execute("INSERT INTO orders VALUES (1, 10, 5.00), (2, 20, 7.50), (3, 10, 2.25)");
    s.execute("CREATE TABLE customers (id INT, name VARCHAR)");
    s.execute("INSERT INTO customers VALUES (10, 'ann'), (20, 'bob')");
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  private static void assertState(ThrowingCallable call, String state, String... words) {
    assertThatThrownBy(call)
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
        .satisfies(
            e -> {
              for (String word : words) {
                assertThat(e.getMessage()).contains(word);
              }
            });
  }

  private ViewMetadata view(Path folder) throws IOException {
    Path metadata = folder.resolve("metadata");
    Path latest;
    try (Stream<Path> files = Files.list(metadata)) {
      latest =
          files
              .filter(f -> f.getFileName().toString().matches("v\\d+\\.metadata\\.json"))
              .max(
                  (a, b) ->
                      Integer.compare(
                          Integer.parseInt(a.getFileName().toString().replaceAll("\\D", "")),
                          Integer.parseInt(b.getFileName().toString().replaceAll("\\D", ""))))
              .orElseThrow();
    }
    return ViewMetadataParser.read(org.apache.iceberg.Files.localInput(latest.toFile()));
  }

  // Hostile cases first.

  @Test
  void aViewNamedAsATableOrItsCaseTwinIsRefusedAndCreatesNothing() throws Exception {
    assertState(() -> s.execute("CREATE VIEW orders AS SELECT 1 AS x"), "42S01", "orders");
    assertState(() -> s.execute("CREATE VIEW \"ORDERS\" AS SELECT 1 AS x"), "42S01", "case");
    s.execute("CREATE VIEW big AS SELECT id FROM orders WHERE total > 5");
    assertState(() -> s.execute("CREATE VIEW \"BIG\" AS SELECT 1 AS x"), "42S01", "case");
    assertState(() -> s.execute("CREATE TABLE big (x INT)"), "42S01", "view");
    assertState(() -> s.execute("CREATE TABLE \"Big\" (x INT)"), "42S01", "case");
    try (Stream<Path> folders = Files.list(root)) {
      assertThat(folders.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("orders", "customers", "big");
    }
    assertThat(Sql.lines(c, "SELECT id FROM big")).containsExactly("2");
  }

  @Test
  void aViewNameThatWouldLeaveTheLakeIsRefused() throws Exception {
    Path outside = root.resolveSibling(root.getFileName() + "-outside");
    assertState(() -> s.execute("CREATE VIEW \"../escape\" AS SELECT 1 AS x"), "42602");
    assertState(() -> s.execute("CREATE VIEW \"" + outside + "\" AS SELECT 1 AS x"), "42602");
    assertState(() -> s.execute("CREATE VIEW \".hidden\" AS SELECT 1 AS x"), "42602");
    assertState(() -> s.execute("CREATE VIEW orders.v AS SELECT 1 AS x"), "42602", "orders");
    assertThat(Files.exists(root.resolveSibling("escape"))).isFalse();
    assertThat(Files.exists(outside)).isFalse();
    assertThat(Files.exists(root.resolve("orders").resolve("v"))).isFalse();
  }

  @Test
  void aViewCannotBeMadeToReadItselfDirectlyOrThroughAnother() throws Exception {
    s.execute("CREATE VIEW a AS SELECT id FROM orders");
    s.execute("CREATE VIEW b AS SELECT id FROM a");
    assertState(() -> s.execute("CREATE OR REPLACE VIEW a AS SELECT id FROM a"), "42000", "itself");
    assertState(() -> s.execute("CREATE OR REPLACE VIEW a AS SELECT id FROM b"), "42000", "itself");
    assertThat(Sql.lines(c, "SELECT id FROM b ORDER BY id")).containsExactly("1", "2", "3");
    assertThat(view(root.resolve("a")).versions()).hasSize(1);
  }

  @Test
  void aLoopWrittenByAnotherToolFailsTheQueryInsteadOfRecursing() throws Exception {
    s.execute("CREATE VIEW a AS SELECT id FROM orders");
    s.execute("CREATE VIEW b AS SELECT id FROM a");
    // Another writer edits a's metadata so that it reads b: a -> b -> a.
    Path file = root.resolve("a").resolve("metadata").resolve("v1.metadata.json");
    String json = Files.readString(file, StandardCharsets.UTF_8);
    Files.writeString(
        file, json.replace("SELECT id FROM orders", "SELECT id FROM b"), StandardCharsets.UTF_8);
    assertState(() -> Sql.lines(c, "SELECT * FROM a"), "42000", "itself", "a", "b");
    assertState(() -> Sql.lines(c, "SELECT * FROM b"), "42000", "itself");
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM orders")).containsExactly("3");
  }

  @Test
  void damagedViewMetadataIs58030NamingTheFile() throws Exception {
    s.execute("CREATE VIEW v AS SELECT id FROM orders");
    Path file = root.resolve("v").resolve("metadata").resolve("v1.metadata.json");
    Files.writeString(file, "{ not json", StandardCharsets.UTF_8);
    assertState(() -> Sql.lines(c, "SELECT * FROM v"), "58030", "v1.metadata.json");
    assertState(() -> Sql.lines(c, "SHOW CREATE VIEW v"), "58030", "v1.metadata.json");
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM orders")).containsExactly("3");
  }

  @Test
  void twoConnectionsReplacingOneViewAtOnceEachPublishCleanly() throws Exception {
    s.execute("CREATE VIEW v AS SELECT id FROM orders");
    int writers = 4;
    int rounds = 5;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<List<String>>> results = new ArrayList<>();
    try {
      for (int w = 0; w < writers; w++) {
        int writer = w;
        results.add(
            pool.submit(
                () -> {
                  List<String> failures = new ArrayList<>();
                  try (Connection own = DriverManager.getConnection("jdbc:floe:" + root);
                      Statement st = own.createStatement()) {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                      try {
                        st.execute(
                            "CREATE OR REPLACE VIEW v AS SELECT id, "
                                + writer
                                + " AS w FROM orders");
                      } catch (SQLException e) {
                        failures.add(e.getSQLState());
                      }
                    }
                  }
                  return failures;
                }));
      }
      start.countDown();
      int published = 0;
      for (Future<List<String>> result : results) {
        List<String> failures = result.get();
        assertThat(failures).allMatch("40001"::equals);
        published += rounds - failures.size();
      }
      try (Stream<Path> files = Files.list(root.resolve("v").resolve("metadata"))) {
        assertThat(files.filter(f -> f.getFileName().toString().matches("v\\d+\\.metadata\\.json")))
            .hasSize(published + 1);
      }
    } finally {
      pool.shutdownNow();
    }
    List<String> rows = Sql.lines(c, "SELECT id, w FROM v ORDER BY id");
    assertThat(rows).hasSize(3);
    assertThat(rows.stream().map(r -> r.split(" ")[1]).distinct()).hasSize(1);
  }

  @Test
  void twoConnectionsCreatingOneViewAtOnceLeaveOneWinnerAnd42S01() throws Exception {
    int writers = 4;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<String>> results = new ArrayList<>();
    try {
      for (int w = 0; w < writers; w++) {
        int writer = w;
        results.add(
            pool.submit(
                () -> {
                  try (Connection own = DriverManager.getConnection("jdbc:floe:" + root);
                      Statement st = own.createStatement()) {
                    start.await();
                    st.execute("CREATE VIEW v AS SELECT " + writer + " AS w");
                    return "ok";
                  } catch (SQLException e) {
                    return e.getSQLState();
                  }
                }));
      }
      start.countDown();
      List<String> outcomes = new ArrayList<>();
      for (Future<String> result : results) {
        outcomes.add(result.get());
      }
      assertThat(outcomes).containsOnly("ok", "42S01");
      assertThat(outcomes.stream().filter("ok"::equals)).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(view(root.resolve("v")).versions()).hasSize(1);
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM v")).containsExactly("1");
  }

  @Test
  void writesToAViewAre42809() throws Exception {
    s.execute("CREATE VIEW v AS SELECT id, total FROM orders");
    assertState(() -> s.executeUpdate("INSERT INTO v VALUES (9, 1.00)"), "42809", "view");
    assertState(() -> s.executeUpdate("UPDATE v SET total = 0"), "42809", "view");
    assertState(() -> s.executeUpdate("DELETE FROM v"), "42809", "view");
    assertState(
        () ->
            s.executeUpdate(
                "MERGE INTO v USING orders o ON v.id = o.id WHEN MATCHED THEN UPDATE SET total = 0"),
        "42809",
        "view");
    assertState(() -> s.execute("TRUNCATE TABLE v"), "42809", "view");
    assertState(() -> s.execute("ALTER TABLE v ADD COLUMN x INT"), "42809", "view");
    assertState(() -> s.execute("ALTER TABLE v SET PROPERTIES ('owner' = 'x')"), "42809", "view");
    assertState(() -> s.execute("DROP TABLE v"), "42809", "view", "DROP VIEW");
    assertState(() -> s.execute("DROP TABLE IF EXISTS v"), "42809", "view");
    assertState(() -> s.execute("DROP VIEW orders"), "42809", "table", "DROP TABLE");
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM v")).containsExactly("3");
  }

  @Test
  void aBatchIntoAViewIs42809AndViewsFeedWritesToTables() throws Exception {
    s.execute("CREATE VIEW v AS SELECT id, total FROM orders WHERE customer = 10");
    // Refused when prepared, before any batch is built.
    assertState(() -> c.prepareStatement("INSERT INTO v VALUES (?, ?)"), "42809", "view");
    s.execute("CREATE TABLE totals (id INT, total DECIMAL(10, 2))");
    assertThat(s.executeUpdate("INSERT INTO totals SELECT id, total FROM v")).isEqualTo(2);
    s.executeUpdate(
        "MERGE INTO totals t USING v ON t.id = v.id"
            + " WHEN MATCHED THEN UPDATE SET total = v.total * 2"
            + " WHEN NOT MATCHED THEN INSERT VALUES (v.id, v.total)");
    assertThat(Sql.lines(c, "SELECT id, total FROM totals ORDER BY id"))
        .containsExactly("1 10.00", "3 4.50");
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM orders")).containsExactly("3");
  }

  @Test
  void aViewOverADroppedTableFails42S02NamingBoth() throws Exception {
    s.execute("CREATE TABLE gone (x INT)");
    s.execute("CREATE VIEW over_gone AS SELECT x FROM gone");
    s.execute("CREATE VIEW over_over AS SELECT x FROM over_gone");
    s.execute("DROP TABLE gone");
    assertState(() -> Sql.lines(c, "SELECT * FROM over_gone"), "42S02", "over_gone", "gone");
    assertState(
        () -> Sql.lines(c, "SELECT * FROM over_over"), "42S02", "over_over", "over_gone", "gone");
    s.execute("DROP VIEW over_gone");
    assertState(() -> Sql.lines(c, "SELECT * FROM over_over"), "42S02", "over_over", "over_gone");
  }

  @Test
  void aColumnDroppedOrRenamedUnderASelectStarViewIs42S22NamingTheViewAndTheColumn()
      throws Exception {
    s.execute("CREATE TABLE people (id INT, name VARCHAR, city VARCHAR)");
    s.execute("INSERT INTO people VALUES (1, 'ann', 'oslo')");
    s.execute("CREATE VIEW everyone AS SELECT * FROM people");
    s.execute("CREATE VIEW named (who, label, town) AS SELECT * FROM people WHERE id > 0");
    s.execute("ALTER TABLE people RENAME COLUMN name TO full_name");
    assertState(() -> Sql.lines(c, "SELECT * FROM everyone"), "42S22", "everyone", "'name'");
    assertState(() -> Sql.lines(c, "SELECT id FROM named"), "42S22", "named", "'name'");
    s.execute("ALTER TABLE people RENAME COLUMN full_name TO name");
    assertThat(Sql.lines(c, "SELECT * FROM everyone")).containsExactly("1 ann oslo");
    s.execute("ALTER TABLE people DROP COLUMN city");
    assertState(() -> Sql.lines(c, "SELECT id FROM everyone"), "42S22", "everyone", "'city'");
    s.execute("CREATE OR REPLACE VIEW everyone AS SELECT * FROM people");
    assertThat(Sql.lines(c, "SELECT * FROM everyone")).containsExactly("1 ann");
  }

  @Test
  void aSelectStarViewKeepsItsColumnsWhenItsTableGainsOneAsInPostgresql() throws Exception {
    s.execute("CREATE VIEW all_customers AS SELECT * FROM customers");
    s.execute("CREATE VIEW labelled (customer_id, customer_name) AS SELECT * FROM customers");
    s.execute("ALTER TABLE customers ADD COLUMN city VARCHAR");
    s.execute("INSERT INTO customers VALUES (30, 'cy', 'rome')");
    try (ResultSet rows = s.executeQuery("SELECT * FROM all_customers ORDER BY id")) {
      assertThat(rows.getMetaData().getColumnCount()).isEqualTo(2);
      assertThat(rows.getMetaData().getColumnLabel(2)).isEqualTo("name");
    }
    assertThat(Sql.lines(c, "SELECT * FROM all_customers ORDER BY id"))
        .containsExactly("10 ann", "20 bob", "30 cy");
    assertThat(Sql.lines(c, "SELECT * FROM labelled ORDER BY customer_id"))
        .containsExactly("10 ann", "20 bob", "30 cy");
    assertThat(view(root.resolve("all_customers")).properties())
        .containsEntry("floe.query-column-names", "id,name");
    s.execute("CREATE OR REPLACE VIEW all_customers AS SELECT * FROM customers");
    assertThat(Sql.lines(c, "SELECT * FROM all_customers WHERE id = 30"))
        .containsExactly("30 cy rome");
  }

  @Test
  void anInvalidQueryCreatesNothing() throws Exception {
    assertState(() -> s.execute("CREATE VIEW v AS SELECT nope FROM orders"), "42S22");
    assertState(() -> s.execute("CREATE VIEW v AS SELECT id FROM nowhere"), "42S02");
    assertState(() -> s.execute("CREATE VIEW v (a, b) AS SELECT id FROM orders"), "42000");
    assertState(() -> s.execute("CREATE VIEW v AS SELECT id FROM"), "42000");
    assertThat(Files.exists(root.resolve("v"))).isFalse();
    s.execute("CREATE VIEW v AS SELECT id FROM orders");
    assertState(() -> s.execute("CREATE OR REPLACE VIEW v AS SELECT nope FROM orders"), "42S22");
    assertState(() -> s.execute("CREATE VIEW v AS SELECT id FROM orders"), "42S01", "v");
    s.execute("CREATE VIEW IF NOT EXISTS v AS SELECT id, total FROM orders");
    assertState(
        () -> s.execute("CREATE OR REPLACE VIEW IF NOT EXISTS v AS SELECT 1 AS x"), "42000");
    assertThat(view(root.resolve("v")).versions()).hasSize(1);
  }

  // What a view is and does.

  @Test
  void aViewIsStoredAsIcebergViewMetadataInFloesDialect() throws Exception {
    s.execute(
        "CREATE VIEW sales.big_orders (order_id, amount) AS\n"
            + "SELECT id, total FROM orders WHERE total > 3");
    ViewMetadata metadata = view(root.resolve("sales").resolve("big_orders"));
    assertThat(metadata.formatVersion()).isEqualTo(1);
    assertThat(metadata.location()).endsWith("/sales/big_orders");
    SQLViewRepresentation sql =
        (SQLViewRepresentation) metadata.currentVersion().representations().get(0);
    assertThat(sql.dialect()).isEqualTo("floe");
    assertThat(sql.sql()).isEqualTo("SELECT id, total FROM orders WHERE total > 3");
    assertThat(metadata.currentVersion().defaultNamespace().levels()).isEmpty();
    assertThat(metadata.currentVersion().summary()).containsEntry("engine-name", "floe");
    assertThat(metadata.schema().columns())
        .extracting(org.apache.iceberg.types.Types.NestedField::name)
        .containsExactly("order_id", "amount");
    assertThat(metadata.schema().findField("amount").type())
        .isEqualTo(org.apache.iceberg.types.Types.DecimalType.of(10, 2));
    assertThat(Sql.lines(c, "SELECT order_id, amount FROM sales.big_orders ORDER BY 1"))
        .containsExactly("1 5.00", "2 7.50");
  }

  @Test
  void aViewHoldsItsQueryForTrinoAndSparkTooWhichDuckdbRunsToTheSameRows() throws Exception {
    s.execute(
        "CREATE VIEW big_spenders AS SELECT customer, SUM(total) AS spent FROM orders"
            + " WHERE total > 2 GROUP BY customer HAVING COUNT(*) >= 1");
    ViewMetadata metadata = view(root.resolve("big_spenders"));
    Map<String, String> texts = new java.util.LinkedHashMap<>();
    for (org.apache.iceberg.view.ViewRepresentation r :
        metadata.currentVersion().representations()) {
      SQLViewRepresentation sql = (SQLViewRepresentation) r;
      texts.put(sql.dialect(), sql.sql());
    }
    assertThat(texts.keySet()).containsExactly("floe", "trino", "spark");
    assertThat(texts.get("trino")).contains("FROM \"orders\"").contains("SUM(\"total\")");
    assertThat(texts.get("spark")).contains("FROM `orders`").contains("SUM(`total`)");
    List<String> files = new java.util.ArrayList<>();
    try (ResultSet rows =
        s.executeQuery("SELECT file_path FROM \"orders$data_files\" ORDER BY 1")) {
      while (rows.next()) {
        files.add("'" + rows.getString(1).replace("file:", "").replace("'", "''") + "'");
      }
    }
    List<String> duck = new java.util.ArrayList<>();
    try (Connection d = DriverManager.getConnection("jdbc:duckdb:");
        Statement ds = d.createStatement()) {
      ds.execute(
          "CREATE VIEW orders AS SELECT * FROM read_parquet([" + String.join(", ", files) + "])");
      try (ResultSet rows =
          ds.executeQuery("SELECT * FROM (" + texts.get("trino") + ") ORDER BY 1")) {
        while (rows.next()) {
          duck.add(rows.getInt(1) + " " + rows.getBigDecimal(2).setScale(2));
        }
      }
    }
    assertThat(duck).containsExactly("10 7.25", "20 7.50");
    assertThat(Sql.lines(c, "SELECT * FROM big_spenders ORDER BY 1"))
        .containsExactlyElementsOf(duck);
  }

  @Test
  void aViewUsingSqlOnlyFloeMeansThisWayHoldsFloesTextAlone() throws Exception {
    s.execute("CREATE VIEW a_names AS SELECT id FROM customers WHERE name ILIKE 'A%'");
    s.execute("CREATE VIEW months AS SELECT date_trunc('month', DATE '2024-05-17') AS m");
    for (String name : List.of("a_names", "months")) {
      assertThat(view(root.resolve(name)).currentVersion().representations())
          .extracting(r -> ((SQLViewRepresentation) r).dialect())
          .containsExactly("floe");
    }
    assertThat(Sql.lines(c, "SELECT * FROM a_names")).containsExactly("10");
  }

  @Test
  void viewsJoinWithTablesAndStackOnEachOther() throws Exception {
    s.execute(
        "CREATE VIEW spend AS SELECT customer, SUM(total) AS spent FROM orders GROUP BY customer");
    s.execute(
        "CREATE VIEW named_spend AS SELECT c.name, s.spent FROM spend s"
            + " JOIN customers c ON c.id = s.customer");
    assertThat(Sql.lines(c, "SELECT name, spent FROM named_spend ORDER BY name"))
        .containsExactly("ann 7.25", "bob 7.50");
    assertThat(
            Sql.lines(
                c,
                "SELECT o.id, v.spent FROM orders o JOIN spend AS v ON v.customer = o.customer"
                    + " WHERE o.id = 2"))
        .containsExactly("2 7.50");
    assertThat(Sql.lines(c, "SELECT spend.spent FROM SPEND WHERE spend.customer = 20"))
        .containsExactly("7.50");
    assertThat(
            Sql.lines(
                c,
                "SELECT name FROM customers WHERE id IN (SELECT customer FROM spend) ORDER BY 1"))
        .containsExactly("ann", "bob");
    s.execute("CREATE TABLE copy AS SELECT * FROM named_spend");
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM copy")).containsExactly("2");
  }

  @Test
  void aViewResolvesItsNamesFromTheSchemaCurrentWhenItWasCreated() throws Exception {
    s.execute("CREATE TABLE sales.orders (id INT)");
    s.execute("INSERT INTO sales.orders VALUES (100)");
    c.setSchema("sales");
    s.execute("CREATE VIEW sales_ids AS SELECT id FROM orders");
    c.setSchema("main");
    assertThat(Sql.lines(c, "SELECT id FROM sales.sales_ids")).containsExactly("100");
    assertThat(
            view(root.resolve("sales").resolve("sales_ids"))
                .currentVersion()
                .defaultNamespace()
                .levels())
        .containsExactly("sales");
  }

  @Test
  void replacingAViewChangesWhatTheSameQueryTextReads() throws Exception {
    s.execute("CREATE VIEW v AS SELECT id FROM orders WHERE id = 1");
    java.sql.PreparedStatement p = c.prepareStatement("SELECT * FROM v");
    assertThat(Sql.lines(c, "SELECT * FROM v")).containsExactly("1");
    s.execute("CREATE OR REPLACE VIEW v AS SELECT name FROM customers WHERE id = 20");
    assertThat(Sql.lines(c, "SELECT * FROM v")).containsExactly("bob");
    try (ResultSet rs = p.executeQuery()) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("bob");
    }
    assertThat(view(root.resolve("v")).versions()).hasSize(2);
    s.execute("DROP VIEW v");
    assertThat(Files.exists(root.resolve("v"))).isFalse();
    assertState(() -> Sql.lines(c, "SELECT * FROM v"), "42S02");
    s.execute("DROP VIEW IF EXISTS v");
    assertState(() -> s.execute("DROP VIEW v"), "42S02", "v");
  }

  @Test
  void aViewReadsTheSnapshotItsTransactionPinned() throws Exception {
    s.execute("CREATE VIEW v AS SELECT COUNT(*) AS n FROM orders");
    c.setAutoCommit(false);
    assertThat(Sql.lines(c, "SELECT n FROM v")).containsExactly("3");
    try (Connection other = DriverManager.getConnection("jdbc:floe:" + root);
        Statement st = other.createStatement()) {
      st.executeUpdate("INSERT INTO orders VALUES (4, 30, 1.00)");
    }
    assertThat(Sql.lines(c, "SELECT n FROM v")).containsExactly("3");
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM orders")).containsExactly("3");
    c.commit();
    assertThat(Sql.lines(c, "SELECT n FROM v")).containsExactly("4");
  }

  @Test
  void viewDdlInsideATransactionCommitsAtOnce() throws Exception {
    c.setAutoCommit(false);
    s.executeUpdate("INSERT INTO orders VALUES (4, 30, 1.00)");
    s.execute("CREATE VIEW v AS SELECT id FROM orders");
    try (Connection other = DriverManager.getConnection("jdbc:floe:" + root)) {
      assertThat(Sql.lines(other, "SELECT COUNT(*) FROM v")).containsExactly("3");
    }
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM v")).containsExactly("4");
    c.rollback();
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM v")).containsExactly("3");
  }

  @Test
  void timeTravelOnAViewIsRefusedClearly() throws Exception {
    s.execute("CREATE VIEW v AS SELECT id FROM orders");
    assertState(
        () -> Sql.lines(c, "SELECT * FROM v FOR VERSION AS OF 1"), "0A000", "view", "tables");
    assertState(
        () -> Sql.lines(c, "SELECT * FROM v FOR TIMESTAMP AS OF TIMESTAMP '2020-01-01 00:00:00'"),
        "0A000",
        "view");
  }

  @Test
  void showCreateViewShowsAStatementThatCreatesItAgain() throws Exception {
    s.execute("CREATE VIEW v (k, t) AS SELECT id, total FROM orders WHERE id < 3");
    String ddl = Sql.column(c, "SHOW CREATE VIEW v").get(0);
    assertThat(ddl)
        .isEqualTo(
            "CREATE VIEW \"v\" (\"k\", \"t\") AS\nSELECT id, total FROM orders WHERE id < 3");
    s.execute("DROP VIEW v");
    s.execute(ddl);
    assertThat(Sql.lines(c, "SELECT k, t FROM v ORDER BY k")).containsExactly("1 5.00", "2 7.50");
    assertThat(Sql.column(c, "SHOW TABLES")).containsExactly("customers", "orders", "v");
    List<String> described = new ArrayList<>();
    for (String line : Sql.lines(c, "DESCRIBE orders")) {
      if (line.startsWith("id ")) {
        described.add(line.replaceFirst("^id", "k"));
      } else if (line.startsWith("total ")) {
        described.add(line.replaceFirst("^total", "t"));
      }
    }
    assertThat(Sql.lines(c, "DESCRIBE v")).isEqualTo(described).hasSize(2);
    assertState(() -> Sql.lines(c, "SHOW CREATE VIEW orders"), "42809", "SHOW CREATE TABLE");
    assertState(() -> Sql.lines(c, "SHOW CREATE TABLE v"), "42809", "view");
  }

  @Test
  void jdbcMetadataListsViewsWithTheirColumnsAsDbeaverAsksForThem() throws Exception {
    s.execute("CREATE VIEW v (k, t) AS SELECT id, total FROM orders");
    DatabaseMetaData meta = c.getMetaData();
    List<String> types = new ArrayList<>();
    try (ResultSet rs = meta.getTableTypes()) {
      while (rs.next()) {
        types.add(rs.getString("TABLE_TYPE"));
      }
    }
    assertThat(types).containsExactly("TABLE", "VIEW");
    List<String> all = new ArrayList<>();
    try (ResultSet rs = meta.getTables(null, "main", "%", null)) {
      while (rs.next()) {
        all.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
      }
    }
    assertThat(all).containsExactly("customers:TABLE", "orders:TABLE", "v:VIEW");
    try (ResultSet rs = meta.getTables(null, "main", "%", new String[] {"VIEW"})) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("TABLE_NAME")).isEqualTo("v");
      assertThat(rs.next()).isFalse();
    }
    try (ResultSet rs = meta.getTables(null, null, null, new String[] {"TABLE"})) {
      List<String> tables = new ArrayList<>();
      while (rs.next()) {
        tables.add(rs.getString("TABLE_NAME"));
      }
      assertThat(tables).containsExactly("customers", "orders");
    }
    // DBeaver, on opening a view: columns, keys, indexes, references.
    try (ResultSet rs = meta.getColumns(null, "main", "v", "%")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("COLUMN_NAME")).isEqualTo("k");
      assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.INTEGER);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("COLUMN_NAME")).isEqualTo("t");
      assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.DECIMAL);
      assertThat(rs.getInt("COLUMN_SIZE")).isEqualTo(10);
      assertThat(rs.getInt("DECIMAL_DIGITS")).isEqualTo(2);
      assertThat(rs.next()).isFalse();
    }
    try (ResultSet rs = meta.getPrimaryKeys(null, "main", "v")) {
      assertThat(rs.next()).isFalse();
    }
    try (ResultSet rs = meta.getIndexInfo(null, "main", "v", false, true)) {
      assertThat(rs.next()).isFalse();
    }
    try (ResultSet rs = meta.getImportedKeys(null, "main", "v")) {
      assertThat(rs.next()).isFalse();
    }
    try (ResultSet rs = meta.getColumns(null, "main", "v$snapshots", "%")) {
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void aSchemaHoldingOnlyViewsIsASchema() throws Exception {
    s.execute("CREATE VIEW reports.v AS SELECT 1 AS one");
    List<String> schemas = new ArrayList<>();
    try (ResultSet rs = c.getMetaData().getSchemas()) {
      while (rs.next()) {
        schemas.add(rs.getString("TABLE_SCHEM"));
      }
    }
    assertThat(schemas).containsExactly("main", "reports");
    assertThat(Sql.lines(c, "SELECT one FROM reports.v")).containsExactly("1");
  }
}
