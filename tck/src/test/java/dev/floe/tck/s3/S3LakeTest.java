package dev.floe.tck.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * An S3 lake works like a local folder, through the shaded driver and DriverManager, against a real
 * S3 server on 127.0.0.1: DDL, every kind of write, transactions, metadata; exact keys, nothing
 * written outside the prefix, no file left by a failure, credentials never shown.
 */
class S3LakeTest {
  private final S3TestServer server = S3TestServer.get();

  static List<List<Object>> rows(Connection c, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          Object value = rs.getObject(i);
          row.add(value == null ? null : value.toString());
        }
        rows.add(row);
      }
    }
    return rows;
  }

  static int update(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      return s.executeUpdate(sql);
    }
  }

  private static List<String> column(ResultSet rs, String label) throws SQLException {
    List<String> values = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        values.add(rs.getString(label));
      }
    }
    return values;
  }

  @Test
  void everyStatementWorksAsOnALocalFolderAtExactKeys() throws Exception {
    String bucket = server.newBucket();
    try (Connection c = DriverManager.getConnection(server.url(bucket, "my lake"))) {
      update(
          c,
          "CREATE TABLE sales.orders (id BIGINT NOT NULL, name VARCHAR, amount DECIMAL(10,2))"
              + " PARTITIONED BY (bucket(2, id))");
      assertThat(
              update(
                  c,
                  "INSERT INTO sales.orders VALUES (1, 'a b', 1.50), (2, 'c', 2.00), (3, 'd', 3.25)"))
          .isEqualTo(3);
      assertThat(update(c, "UPDATE sales.orders SET amount = amount * 2 WHERE id = 2"))
          .isEqualTo(1);
      assertThat(update(c, "DELETE FROM sales.orders WHERE id = 3")).isEqualTo(1);
      assertThat(rows(c, "SELECT id, name, amount FROM sales.orders ORDER BY id"))
          .containsExactly(List.of("1", "a b", "1.50"), List.of("2", "c", "4.00"));
      assertThat(rows(c, "SELECT count(*) FROM sales.orders WHERE amount > 2"))
          .containsExactly(List.of("1"));
      update(c, "ALTER TABLE sales.orders ADD COLUMN note VARCHAR");
      update(c, "CREATE TABLE \"Mixed Case\" AS SELECT id, name FROM sales.orders");
      assertThat(rows(c, "SELECT count(*) FROM \"Mixed Case\"")).containsExactly(List.of("2"));

      DatabaseMetaData meta = c.getMetaData();
      assertThat(column(meta.getSchemas(null, "%"), "TABLE_SCHEM"))
          .containsExactly("main", "sales");
      assertThat(column(meta.getTables(null, "sales", "%", null), "TABLE_NAME"))
          .containsExactly("orders");
      assertThat(column(meta.getTables(null, "main", "%", null), "TABLE_NAME"))
          .containsExactly("Mixed Case");
      assertThat(column(meta.getColumns(null, "sales", "orders", "%"), "COLUMN_NAME"))
          .containsExactly("id", "name", "amount", "note");
      assertThat(meta.getURL()).startsWith("jdbc:floe:s3://" + bucket + "/my lake");
    }
    List<String> keys = server.keys(bucket);
    assertThat(keys)
        .contains(
            "my lake/sales/orders/metadata/version-hint.text",
            "my lake/Mixed Case/metadata/v1.metadata.json")
        .allSatisfy(
            key ->
                assertThat(key)
                    .startsWith("my lake/")
                    .doesNotContain("//")
                    .doesNotContain("%20")
                    .doesNotContain(".floe/"));
  }

  @Test
  void rollbackAndFailedStatementsDeleteWhatTheyWroteAndABatchIsOneCommit() throws Exception {
    String bucket = server.newBucket();
    try (Connection c = DriverManager.getConnection(server.url(bucket, "lake"))) {
      update(c, "CREATE TABLE t (id INT NOT NULL, v VARCHAR)");
      update(c, "INSERT INTO t VALUES (1, 'one')");
      List<String> before = server.keys(bucket);

      c.setAutoCommit(false);
      update(c, "INSERT INTO t VALUES (2, 'two')");
      update(c, "DELETE FROM t WHERE id = 1");
      assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of("2"));
      c.rollback();
      assertThat(server.keys(bucket)).isEqualTo(before);
      assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of("1"));

      update(c, "INSERT INTO t VALUES (2, 'two')");
      update(c, "DELETE FROM t WHERE id = 1");
      c.commit();
      c.setAutoCommit(true);
      assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of("2"));
      assertThat(server.keys(bucket))
          .contains("lake/t/metadata/v3.metadata.json")
          .doesNotContain("lake/t/metadata/v4.metadata.json");

      List<String> afterCommit = server.keys(bucket);
      assertThatThrownBy(() -> update(c, "INSERT INTO t SELECT 10 / (id - 2), 'x' FROM t"))
          .isInstanceOf(SQLException.class);
      assertThat(server.keys(bucket)).isEqualTo(afterCommit);

      try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
        for (int i = 100; i < 200; i++) {
          insert.setInt(1, i);
          insert.setString(2, "r" + i);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      assertThat(rows(c, "SELECT count(*) FROM t")).containsExactly(List.of("101"));
      assertThat(server.keys(bucket))
          .contains("lake/t/metadata/v4.metadata.json")
          .doesNotContain("lake/t/metadata/v5.metadata.json");
    }
  }

  @Test
  void aTableIsNeverCreatedToWriteOutsideTheLakesPrefix() throws Exception {
    String bucket = server.newBucket();
    try (Connection c = DriverManager.getConnection(server.url(bucket, "lake"))) {
      List<String> before = server.keys(bucket);
      assertThatThrownBy(
              () ->
                  update(
                      c,
                      "CREATE TABLE t (id INT) WITH ('write.data.path' = 's3://"
                          + bucket
                          + "/elsewhere')"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42602"));
      assertThat(server.keys(bucket)).isEqualTo(before);
    }
  }

  @Test
  void aTableWhoseFilesLieOutsideThePrefixIsReadButNeverWrittenOrPurgedThere() throws Exception {
    String bucket = server.newBucket();
    try (Connection other = DriverManager.getConnection(server.url(bucket, "other"))) {
      update(other, "CREATE TABLE t (id INT)");
      update(other, "INSERT INTO t VALUES (1)");
      update(other, "INSERT INTO t VALUES (2)");
    }
    List<String> outside = server.keys(bucket);
    // Another tool copied the table's metadata into the lake: it still names the files, and the
    // location, under "other/".
    for (String key : outside) {
      if (key.startsWith("other/t/metadata/")) {
        server.put(
            bucket, "lake/t/" + key.substring("other/t/".length()), server.read(bucket, key));
      }
    }
    try (Connection c = DriverManager.getConnection(server.url(bucket, "lake"))) {
      assertThat(rows(c, "SELECT id FROM t ORDER BY id"))
          .containsExactly(List.of("1"), List.of("2"));
      List<String> before = server.keys(bucket);
      for (String sql :
          List.of(
              "INSERT INTO t VALUES (3)",
              "DELETE FROM t WHERE id = 1",
              "TRUNCATE TABLE t",
              "ALTER TABLE t EXECUTE optimize")) {
        assertThatThrownBy(() -> c.createStatement().execute(sql))
            .as(sql)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42602"))
            .hasMessageContaining("outside the lake");
        assertThat(server.keys(bucket)).as(sql).isEqualTo(before);
      }
      update(c, "DROP TABLE t PURGE");
      assertThat(server.keys(bucket)).isEqualTo(outside);
    }
  }

  @Test
  void viewsAreCreatedReplacedReadAndDroppedAsOnALocalFolder() throws Exception {
    String bucket = server.newBucket();
    try (Connection c = DriverManager.getConnection(server.url(bucket, "lake"))) {
      update(c, "CREATE TABLE t (id INT)");
      update(c, "INSERT INTO t VALUES (1), (2), (3)");
      update(c, "CREATE VIEW sales.v AS SELECT id FROM t WHERE id > 1");
      assertThat(server.keys(bucket))
          .contains(
              "lake/sales/v/metadata/v1.metadata.json", "lake/sales/v/metadata/view-hint.text");
      assertThat(rows(c, "SELECT COUNT(*) FROM sales.v")).containsExactly(List.of("2"));
      update(c, "CREATE OR REPLACE VIEW sales.v AS SELECT id FROM t WHERE id > 2");
      assertThat(rows(c, "SELECT id FROM sales.v")).containsExactly(List.of("3"));
      assertThat(server.keys(bucket)).contains("lake/sales/v/metadata/v2.metadata.json");
      assertThatThrownBy(() -> update(c, "CREATE VIEW sales.v AS SELECT 1 AS x"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S01"));
      assertThatThrownBy(() -> update(c, "INSERT INTO sales.v VALUES (4)"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42809"));
      List<String> views =
          column(c.getMetaData().getTables(null, null, "%", new String[] {"VIEW"}), "TABLE_NAME");
      assertThat(views).containsExactly("v");
      update(c, "DROP VIEW sales.v");
      assertThat(server.keys(bucket)).allSatisfy(k -> assertThat(k).startsWith("lake/t/"));
      assertThat(rows(c, "SELECT COUNT(*) FROM t")).containsExactly(List.of("3"));
    }
  }

  @Test
  void dropDeletesOnlyTheTablesObjects() throws Exception {
    String bucket = server.newBucket();
    try (Connection c = DriverManager.getConnection(server.url(bucket, "lake"))) {
      update(c, "CREATE TABLE t (id INT)");
      update(c, "CREATE TABLE t2 (id INT)");
      update(c, "INSERT INTO t VALUES (1)");
      update(c, "INSERT INTO t2 VALUES (2)");
      update(c, "DROP TABLE t");
      assertThat(server.keys(bucket))
          .isNotEmpty()
          .allSatisfy(k -> assertThat(k).startsWith("lake/t2/"));
      assertThat(rows(c, "SELECT id FROM t2")).containsExactly(List.of("2"));
      assertThatThrownBy(() -> rows(c, "SELECT * FROM t"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
    }
  }

  @Test
  void aStoreThatIgnoresConditionalWritesIsRefusedUnlessSingleWriter() throws Exception {
    String bucket = server.newBucket();
    try (FaultProxy proxy = new FaultProxy(server.port())) {
      proxy.rule(request -> FaultProxy.Action.IGNORE_CONDITION);
      String url = server.url(bucket, "lake", proxy.endpoint());
      try (Connection c = DriverManager.getConnection(url)) {
        assertThatThrownBy(() -> update(c, "CREATE TABLE t (id INT)"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"))
            .hasMessageContaining("s3.single-writer=true");
      }
      assertThat(server.keys(bucket)).isEmpty();
      try (Connection c = DriverManager.getConnection(url + "&s3.single-writer=true")) {
        update(c, "CREATE TABLE t (id INT)");
        update(c, "INSERT INTO t VALUES (7)");
        assertThat(rows(c, "SELECT id FROM t")).containsExactly(List.of("7"));
      }
    }
  }

  @Test
  void badEndpointCredentialsOrBucketAre08001WithinSeconds() throws Exception {
    String bucket = server.newBucket();
    long started = System.nanoTime();
    assertThatThrownBy(
            () -> DriverManager.getConnection(server.url(bucket, "lake", "http://127.0.0.1:1")))
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"))
        .hasMessageContaining("cannot be reached");
    assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(10_000);
    assertThatThrownBy(() -> DriverManager.getConnection(server.url("no-such-bucket", "lake")))
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"))
        .hasMessageContaining("does not exist");
    Properties wrong = new Properties();
    wrong.setProperty("s3.secret-access-key", "not-the-secret");
    String url = server.url(bucket, "lake").replaceAll("&s3.secret-access-key=[^&]*", "");
    assertThatThrownBy(() -> DriverManager.getConnection(url, wrong))
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"))
        .hasMessageContaining("credentials")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("not-the-secret"));
  }
}
