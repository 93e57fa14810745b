package dev.floe.tck.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Spark with Iceberg's Spark runtime, in local mode, reads what Floe writes: after optimize
 * (over the position deletes of format 2 and the deletion vectors of format 3), snapshot expiry,
 * orphan removal, a rollback, branch and tag creation and MERGE, Spark's rows for the table, its
 * branch and its tag are exactly the rows Floe reads. Floe runs from the shaded jar in a class
 * loader of its own (its bundled libraries never meet Spark's); Spark loads each table by its path,
 * as docs/interop.md, "Opening the lake from Spark and Trino", shows. Runs with the {@code spark}
 * profile.
 */
class SparkInteropTest {
  private static URLClassLoader loader;
  private static Driver driver;
  private static SparkSession spark;

  @TempDir static Path sandbox;

  @BeforeAll
  static void start() throws Exception {
    Path jar = Path.of(System.getProperty("floe.driver.jar"));
    assertThat(jar).isRegularFile();
    loader =
        new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    driver =
        (Driver)
            Class.forName("dev.floe.FloeDriver", true, loader)
                .getDeclaredConstructor()
                .newInstance();
    spark =
        SparkSession.builder()
            .master("local[1]")
            .appName("floe-interop")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.warehouse.dir", sandbox.resolve("warehouse").toUri().toString())
            // the spark-sql form of docs/interop.md: the lake folder as a Hadoop catalog
            .config("spark.sql.catalog.lake", "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog.lake.type", "hadoop")
            .config("spark.sql.catalog.lake.warehouse", sandbox.resolve("cat").toUri().toString())
            .config("spark.sql.catalog.lake.cache-enabled", "false")
            // the catalog spark.read().format("iceberg").load(path) goes through: Iceberg's
            // default is a Hive catalog, which needs Hive on the classpath
            .config("spark.sql.catalog.default_iceberg", "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog.default_iceberg.type", "hadoop")
            .config(
                "spark.sql.catalog.default_iceberg.warehouse",
                sandbox.resolve("lake").toUri().toString())
            .config("spark.sql.catalog.default_iceberg.cache-enabled", "false")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
  }

  @AfterAll
  static void stop() throws Exception {
    if (spark != null) {
      spark.stop();
    }
    loader.close();
  }

  private static Connection connect(Path lake) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("maintenance.min-retention", "0s");
    return driver.connect("jdbc:floe:" + lake, properties);
  }

  private static void run(Connection c, String... statements) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : statements) {
        if (s.execute(sql)) {
          s.getResultSet().close();
        }
      }
    }
  }

  private static long firstLong(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  /** Floe's rows, each as its columns' strings joined by '|', sorted. */
  private static List<String> floeRows(Connection c, String query) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
    }
    rows.sort(null);
    return rows;
  }

  /** Spark's rows of a dataset, rendered the same way. */
  private static List<String> sparkRows(Dataset<Row> data) {
    List<String> rows = new ArrayList<>();
    for (Row r : data.collectAsList()) {
      StringBuilder row = new StringBuilder();
      for (int i = 0; i < r.length(); i++) {
        row.append(i > 0 ? "|" : "").append(r.isNullAt(i) ? null : String.valueOf(r.get(i)));
      }
      rows.add(row.toString());
    }
    rows.sort(null);
    return rows;
  }

  private static Dataset<Row> sparkTable(Path lake, String table, String ref) {
    var reader = spark.read().format("iceberg");
    if (ref != null) {
      reader = reader.option("versionAsOf", ref); // a branch or tag name
    }
    return reader.load(lake.resolve(table).toUri().toString());
  }

  /** Spark reads the current state of a table exactly as Floe does; both non-empty. */
  private static void sameRows(Connection c, Path lake, String table) throws SQLException {
    List<String> floe = floeRows(c, "SELECT * FROM " + table);
    assertThat(floe).isNotEmpty();
    assertThat(sparkRows(sparkTable(lake, table, null))).as(table).isEqualTo(floe);
  }

  private static void sameRowsAt(Connection c, Path lake, String table, String ref)
      throws SQLException {
    List<String> floe = floeRows(c, "SELECT * FROM " + table + " FOR VERSION AS OF '" + ref + "'");
    assertThat(floe).isNotEmpty();
    assertThat(sparkRows(sparkTable(lake, table, ref))).as(table + "@" + ref).isEqualTo(floe);
  }

  private static void fill(Connection c, String table, int from, int to) throws SQLException {
    for (int i = from; i < to; i++) {
      run(
          c,
          "INSERT INTO "
              + table
              + " VALUES ("
              + i
              + ", 'r"
              + (i % 3)
              + "', DATE '2024-01-0"
              + (1 + i % 4)
              + "', "
              + i
              + ".25, "
              + (i * 1_000_000_000L)
              + ")");
    }
  }

  private static String create(String table, String partition, int formatVersion) {
    return "CREATE TABLE "
        + table
        + " (id INT, region VARCHAR, d DATE, amount DECIMAL(10, 2), big BIGINT)"
        + (partition == null ? "" : " PARTITIONED BY (" + partition + ")")
        + " WITH ('format-version' = '"
        + formatVersion
        + "')";
  }

  @Test
  void sparkSqlReadsTheLakeAsAHadoopCatalog() throws Exception {
    Path lake = Files.createDirectories(sandbox.resolve("cat"));
    try (Connection c = connect(lake)) {
      run(c, create("sales.orders", "region", 2));
      fill(c, "sales.orders", 0, 6);
      run(c, "DELETE FROM sales.orders WHERE id = 4", "ALTER TABLE sales.orders CREATE TAG v1");
      run(c, "ALTER TABLE sales.orders EXECUTE optimize");
      List<String> floe = floeRows(c, "SELECT * FROM sales.orders");
      assertThat(floe).hasSize(5);
      assertThat(sparkRows(spark.sql("SELECT * FROM lake.sales.orders"))).isEqualTo(floe);
      assertThat(sparkRows(spark.sql("SELECT * FROM lake.sales.orders VERSION AS OF 'v1'")))
          .isEqualTo(floe);
    }
  }

  @Test
  void sparkReadsWhatFloeWritesAfterMaintenance() throws Exception {
    Path lake = Files.createDirectories(sandbox.resolve("lake"));
    try (Connection c = connect(lake)) {
      // optimize, format 2 (position deletes) and format 3 (deletion vectors), with and without
      // partitions, and optimize limited by WHERE
      run(c, create("opt2", "region", 2), create("opt3", "day(d)", 3), create("flat", null, 2));
      for (String t : List.of("opt2", "opt3", "flat")) {
        fill(c, t, 0, 12);
        run(c, "DELETE FROM " + t + " WHERE id IN (1, 5, 10)");
        sameRows(c, lake, t);
      }
      run(c, "ALTER TABLE opt2 EXECUTE optimize WHERE region = 'r1'");
      sameRows(c, lake, "opt2");
      for (String t : List.of("opt2", "opt3", "flat")) {
        run(c, "ALTER TABLE " + t + " EXECUTE optimize");
        sameRows(c, lake, t);
        run(c, "ALTER TABLE " + t + " EXECUTE optimize_manifests");
        sameRows(c, lake, t);
      }

      // a tag and a branch, then expiry and orphan removal that must keep what they reference
      run(c, create("refs", "region", 2));
      fill(c, "refs", 0, 4);
      run(c, "ALTER TABLE refs CREATE TAG first", "ALTER TABLE refs CREATE BRANCH audit");
      fill(c, "refs", 4, 8);
      run(c, "DELETE FROM refs WHERE id = 2", "ALTER TABLE refs EXECUTE optimize");
      Files.writeString(lake.resolve("refs/data/orphan.parquet"), "left by a killed writer");
      Files.setLastModifiedTime(
          lake.resolve("refs/data/orphan.parquet"),
          java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
      sameRows(c, lake, "refs");
      sameRowsAt(c, lake, "refs", "first");
      sameRowsAt(c, lake, "refs", "audit");
      run(
          c,
          "ALTER TABLE refs EXECUTE expire_snapshots(retention_threshold => '0s')",
          "ALTER TABLE refs EXECUTE remove_orphan_files(retention_threshold => '0s')");
      assertThat(lake.resolve("refs/data/orphan.parquet")).doesNotExist();
      sameRows(c, lake, "refs");
      sameRowsAt(c, lake, "refs", "first");
      sameRowsAt(c, lake, "refs", "audit");

      // rollback
      run(c, create("rb", null, 2));
      fill(c, "rb", 0, 3);
      long before =
          firstLong(
              c,
              "SELECT snapshot_id FROM \"rb$snapshots\" ORDER BY committed_at" + " DESC LIMIT 1");
      fill(c, "rb", 3, 6);
      run(c, "DELETE FROM rb WHERE id = 0");
      run(c, "ALTER TABLE rb EXECUTE rollback_to_snapshot(" + before + ")");
      assertThat(floeRows(c, "SELECT id FROM rb")).containsExactly("0", "1", "2");
      sameRows(c, lake, "rb");

      // MERGE: updates, deletes and inserts in one statement
      run(c, create("m", "region", 2));
      fill(c, "m", 0, 6);
      run(
          c,
          "MERGE INTO m USING (SELECT id, region FROM opt2 WHERE id BETWEEN 3 AND 9) s"
              + " ON m.id = s.id"
              + " WHEN MATCHED AND m.id = 3 THEN DELETE"
              + " WHEN MATCHED THEN UPDATE SET amount = amount + 1"
              + " WHEN NOT MATCHED THEN INSERT (id, region, d, amount, big)"
              + " VALUES (s.id, s.region, DATE '2024-02-01', 0, 0)");
      sameRows(c, lake, "m");
      run(c, "ALTER TABLE m EXECUTE optimize");
      sameRows(c, lake, "m");
    }
  }
}
