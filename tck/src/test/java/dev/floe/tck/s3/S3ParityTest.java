package dev.floe.tck.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One script of statements, run on a local folder and on an S3 prefix through the shaded driver,
 * must give the same answers statement by statement: every kind of write, the ETL statements,
 * transactions, time travel, metadata tables, SHOW, branches and tags, and the maintenance
 * procedures. On S3 every object stays under the lake's prefix, and DROP leaves nothing behind.
 */
class S3ParityTest {
  private final S3TestServer server = S3TestServer.get();

  /**
   * The script. {@code ${name}} is replaced by a value an earlier {@code @name} step captured
   * (first column of its first row), so snapshot ids, which differ between the runs, are never
   * compared, only used.
   */
  private static final List<String> SCRIPT =
      List.of(
          "CREATE TABLE sales.orders (id BIGINT NOT NULL, region VARCHAR, amount DECIMAL(10,2),"
              + " d DATE) PARTITIONED BY (region)",
          "INSERT INTO sales.orders VALUES (1, 'eu', 10.00, DATE '2024-01-01'),"
              + " (2, 'us', 20.50, DATE '2024-01-02'), (3, 'eu', 30.25, DATE '2024-01-03')",
          "@first SELECT snapshot_id FROM sales.\"orders$snapshots\" ORDER BY committed_at",
          "INSERT INTO sales.orders VALUES (4, 'apac', 4.00, DATE '2024-02-01')",
          "INSERT INTO sales.orders VALUES (5, 'us', 5.00, NULL)",
          "UPDATE sales.orders SET amount = amount * 2 WHERE region = 'us'",
          "DELETE FROM sales.orders WHERE id = 1",
          "SELECT id, region, amount, d FROM sales.orders ORDER BY id",
          "SELECT region, count(*), sum(amount) FROM sales.orders GROUP BY region ORDER BY region",
          "SELECT id FROM sales.orders FOR VERSION AS OF ${first} ORDER BY id",
          "MERGE INTO sales.orders t USING (VALUES (2, 'us', 1.00), (9, 'eu', 9.00)) AS s(id, r, a)"
              + " ON t.id = s.id WHEN MATCHED THEN UPDATE SET amount = s.a"
              + " WHEN NOT MATCHED THEN INSERT (id, region, amount) VALUES (s.id, s.r, s.a)",
          "SELECT id, region, amount FROM sales.orders ORDER BY id",
          "INSERT OVERWRITE sales.orders PARTITION (region = 'eu') SELECT 7, 7.77, DATE '2024-03-07'",
          "SELECT id, region, amount FROM sales.orders ORDER BY id",
          "ALTER TABLE sales.orders CREATE TAG before_truncate",
          "CREATE TABLE main.copy AS SELECT id, amount FROM sales.orders WHERE id > 2",
          "TRUNCATE TABLE sales.orders",
          "SELECT count(*) FROM sales.orders",
          "SELECT id FROM sales.orders FOR VERSION AS OF 'before_truncate' ORDER BY id",
          "@tagged SELECT snapshot_id FROM sales.\"orders$refs\" WHERE name = 'before_truncate'",
          "ALTER TABLE sales.orders EXECUTE set_current_snapshot(snapshot_id => ${tagged})",
          "SELECT id FROM sales.orders ORDER BY id",
          "SELECT name, type FROM sales.\"orders$refs\" ORDER BY name",
          "SELECT count(*) FROM sales.\"orders$history\"",
          "SELECT partition_count FROM (SELECT count(*) AS partition_count"
              + " FROM sales.\"orders$partitions\")",
          "ALTER TABLE sales.orders EXECUTE optimize",
          "SELECT id, region, amount FROM sales.orders ORDER BY id",
          "ALTER TABLE sales.orders EXECUTE expire_snapshots(retention_threshold => '0s',"
              + " retain_last => 1, dry_run => true)",
          "ALTER TABLE sales.orders EXECUTE expire_snapshots(retention_threshold => '0s',"
              + " retain_last => 1)",
          "SELECT id FROM sales.orders FOR VERSION AS OF 'before_truncate' ORDER BY id",
          "ALTER TABLE sales.orders EXECUTE remove_orphan_files(retention_threshold => '0s')",
          "SELECT id, region, amount FROM sales.orders ORDER BY id",
          "SHOW TABLES FROM sales",
          "DESCRIBE sales.orders",
          "SELECT * FROM copy ORDER BY id",
          "BEGIN",
          "INSERT INTO copy VALUES (100, 1.00)",
          "SELECT count(*) FROM copy",
          "ROLLBACK",
          "SELECT count(*) FROM copy",
          "DROP TABLE copy");

  @Test
  void theSameScriptGivesTheSameAnswersOnALocalFolderAndOnS3(@TempDir Path dir) throws Exception {
    List<String> local = run("jdbc:floe:" + dir.resolve("lake") + "?create=true");

    String bucket = server.newBucket();
    List<String> s3 = run(server.url(bucket, "the lake"));

    assertThat(s3).hasSize(SCRIPT.size());
    for (int i = 0; i < SCRIPT.size(); i++) {
      assertThat(s3.get(i)).as(SCRIPT.get(i)).isEqualTo(local.get(i));
    }
    List<String> keys = server.keys(bucket);
    assertThat(keys)
        .isNotEmpty()
        .allSatisfy(
            key ->
                assertThat(key)
                    .startsWith("the lake/sales/orders/")
                    .doesNotContain("//")
                    .doesNotContain("%20"));
    assertThat(Files.exists(dir.resolve("lake/sales/orders/metadata/version-hint.text"))).isTrue();
    assertThat(Files.exists(dir.resolve("lake/copy"))).isFalse();
  }

  @Test
  void anOrphanUnderATablesPrefixIsRemovedAndNothingElse() throws Exception {
    String bucket = server.newBucket();
    try (Connection c = DriverManager.getConnection(server.url(bucket, "lake") + retention())) {
      execute(c, "CREATE TABLE t (id INT)");
      execute(c, "INSERT INTO t VALUES (1), (2)");
      execute(c, "CREATE TABLE t2 (id INT)");
      execute(c, "INSERT INTO t2 VALUES (3)");
      List<String> before = server.keys(bucket);
      server.put(bucket, "lake/t/data/left-by-a-killed-writer.parquet", new byte[] {1, 2, 3});
      server.put(bucket, "lake/t2/data/not-ours-to-touch.parquet", new byte[] {4});

      assertThat(
              execute(
                  c,
                  "ALTER TABLE t EXECUTE remove_orphan_files(retention_threshold => '0s',"
                      + " dry_run => true)"))
          .contains("deleted_files_count=1");
      assertThat(server.exists(bucket, "lake/t/data/left-by-a-killed-writer.parquet")).isTrue();

      assertThat(
              execute(c, "ALTER TABLE t EXECUTE remove_orphan_files(retention_threshold => '0s')"))
          .contains("deleted_files_count=1");
      List<String> after = new ArrayList<>(before);
      after.add("lake/t2/data/not-ours-to-touch.parquet");
      after.sort(null);
      assertThat(server.keys(bucket)).isEqualTo(after);
      assertThat(execute(c, "SELECT count(*) FROM t")).isEqualTo("[[2]]");
    }
  }

  private static String retention() {
    return "&maintenance.min-retention=0s";
  }

  private static List<String> run(String url) throws SQLException {
    String full = url + (url.contains("?") ? "&" : "?") + "maintenance.min-retention=0s";
    Map<String, String> captured = new LinkedHashMap<>();
    List<String> answers = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(full)) {
      for (String step : SCRIPT) {
        String name = null;
        String sql = step;
        if (sql.startsWith("@")) {
          name = sql.substring(1, sql.indexOf(' '));
          sql = sql.substring(sql.indexOf(' ') + 1);
        }
        sql = substitute(sql, captured);
        if (sql.equals("BEGIN")) {
          c.setAutoCommit(false);
          answers.add("begin");
          continue;
        }
        if (sql.equals("ROLLBACK")) {
          c.rollback();
          c.setAutoCommit(true);
          answers.add("rollback");
          continue;
        }
        String answer = execute(c, sql);
        if (name != null) {
          List<List<String>> rows = rows(c, sql);
          captured.put(name, rows.get(0).get(0));
          answer = rows.size() + " rows";
        }
        answers.add(answer);
      }
    }
    return answers;
  }

  private static String substitute(String sql, Map<String, String> captured) {
    Matcher m = Pattern.compile("\\$\\{(\\w+)}").matcher(sql);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, captured.get(m.group(1)));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** A statement's answer as text: its rows, with column labels for procedures, or its count. */
  private static String execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      if (!s.execute(sql)) {
        return "count " + s.getUpdateCount();
      }
      try (ResultSet rs = s.getResultSet()) {
        boolean labelled = sql.contains(" EXECUTE ");
        List<String> rows = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          List<String> row = new ArrayList<>();
          for (int i = 1; i <= n; i++) {
            String label = rs.getMetaData().getColumnLabel(i);
            if (labelled && label.contains("bytes")) {
              continue; // metadata files hold the lake's location, so their sizes differ
              // and snapshot ids are random
            }
            String value = label.endsWith("snapshot_id") ? "<id>" : rs.getString(i);
            row.add(labelled ? label + "=" + value : value);
          }
          rows.add(row.toString());
        }
        return rows.toString();
      }
    }
  }

  private static List<List<String>> rows(Connection c, String sql) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.add(rs.getString(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
