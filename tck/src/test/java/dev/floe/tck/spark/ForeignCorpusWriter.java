package dev.floe.tck.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * Writes one set of the foreign-table corpus ({@code tck/src/test/resources/foreign/<set>}) with
 * Apache Spark and Iceberg's Spark runtime, and records, for every table, the rows Spark returns
 * for its current state, for earlier snapshots and for a filtered query. {@code ForeignTablesTest}
 * reads the same tables through Floe in every build and compares.
 *
 * <p>Run by the profiles {@code corpus-spark34}, {@code corpus-spark35} and {@code corpus-spark41}
 * (see {@code foreign/README.md}); each runs one Spark and Iceberg version and names its set in the
 * system property {@code corpus.set}. The tables are written under the fixed root {@value #ROOT},
 * so the absolute locations Iceberg's metadata holds are the same at every regeneration; the kit
 * copies them elsewhere and rewrites the locations before reading.
 */
class ForeignCorpusWriter {
  /** Where the tables are written; their metadata holds locations under it. */
  static final String ROOT = "/tmp/floe-foreign-corpus";

  private static final String MOR =
      "'write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read',"
          + " 'write.merge.mode' = 'merge-on-read'";

  private SparkSession spark;
  private Path generated;
  private final List<String> statements = new ArrayList<>();
  private final List<String> tableEntries = new ArrayList<>();
  private final List<String> fileEntries = new ArrayList<>();

  @Test
  void writeTheCorpusSet() throws Exception {
    String set = System.getProperty("corpus.set");
    Path out = Path.of(System.getProperty("corpus.out"));
    assertThat(set).as("system property corpus.set").isNotBlank();
    generated = Path.of(ROOT, set);
    deleteTree(generated);
    Files.createDirectories(generated.resolve("lake"));
    spark =
        SparkSession.builder()
            .master("local[1]")
            .appName("floe-foreign-corpus")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.default.parallelism", "1")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.datetime.java8API.enabled", "true")
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .config("spark.sql.catalog.lake", "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog.lake.type", "hadoop")
            .config("spark.sql.catalog.lake.warehouse", "file:" + generated.resolve("lake"))
            .config("spark.sql.catalog.lake.cache-enabled", "false")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    try {
      sql("CREATE NAMESPACE IF NOT EXISTS lake.db");
      switch (set) {
        case "spark34-iceberg13" -> {
          iceberg13();
          iceberg13Deletes();
        }
        case "spark35-iceberg110" -> iceberg110();
        case "spark41-iceberg112" -> iceberg112();
        default -> throw new IllegalArgumentException("No corpus set " + set);
      }
      finish(set, out.resolve(set));
    } finally {
      spark.stop();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The sets

  /** Spark 3.4 with Iceberg 1.3: Iceberg's defaults of the time, format 1 and gzip. */
  private void iceberg13() {
    comment("db.typed: every common type; format 1 and gzip are Iceberg 1.3's defaults");
    sql(
        "CREATE TABLE lake.db.typed (id BIGINT, region STRING, amount DECIMAL(12, 2), qty INT,"
            + " price DOUBLE, ratio FLOAT, ok BOOLEAN, d DATE, ts TIMESTAMP, ts_ntz TIMESTAMP_NTZ,"
            + " payload BINARY, address STRUCT<street: STRING, zip: INT>, tags ARRAY<STRING>,"
            + " attrs MAP<STRING, INT>) USING iceberg PARTITIONED BY (region)");
    sql(
        "INSERT INTO lake.db.typed VALUES"
            + " (1, 'eu', 12.50, 3, 1.5D, CAST(0.25 AS FLOAT), true, DATE '2024-01-01',"
            + " TIMESTAMP '2024-01-01 10:00:00.123456', TIMESTAMP_NTZ '2024-01-01 10:00:00.123456',"
            + " X'CAFE', named_struct('street', 'Main 1', 'zip', 1010), array('a', 'b'),"
            + " map('k1', 1, 'k2', 2)),"
            + " (2, 'eu', -0.01, NULL, -0.0D, CAST('NaN' AS FLOAT), false, DATE '1969-12-31',"
            + " TIMESTAMP '1969-12-31 23:59:59.999999', TIMESTAMP_NTZ '1969-12-31 23:59:59.999999',"
            + " X'', named_struct('street', CAST(NULL AS STRING), 'zip', CAST(NULL AS INT)),"
            + " CAST(array() AS ARRAY<STRING>), CAST(map() AS MAP<STRING, INT>)),"
            + " (3, 'us', 999999999.99, 2147483647, CAST('Infinity' AS DOUBLE),"
            + " CAST(-3.5 AS FLOAT), NULL, DATE '1000-03-01', TIMESTAMP '2262-04-11 23:47:16.854775',"
            + " TIMESTAMP_NTZ '0001-01-01 00:00:00', NULL, NULL, array('zürich ✓', NULL, 'NULL'),"
            + " map('only', CAST(NULL AS INT))),"
            + " (4, NULL, 0.00, -1, 2.5E-300D, CAST(1.0E-40 AS FLOAT), true, NULL, NULL, NULL,"
            + " X'00FF', named_struct('street', 'Ring 9', 'zip', -1), NULL, NULL)");
    long first = snapshot("db.typed");
    sql(
        "INSERT INTO lake.db.typed VALUES"
            + " (5, 'us', 1.00, 5, 5.0D, CAST(5.0 AS FLOAT), false, DATE '2024-02-29',"
            + " TIMESTAMP '2024-02-29 23:59:59.000001', TIMESTAMP_NTZ '2024-02-29 00:00:00.5',"
            + " X'01', named_struct('street', 'It\\'s', 'zip', 5), array('x'), map('k', 5)),"
            + " (6, 'eu', 6.60, 6, 6.6D, CAST(6.6 AS FLOAT), true, DATE '2024-03-01',"
            + " TIMESTAMP '2024-03-01 00:00:00', TIMESTAMP_NTZ '2024-03-01 00:00:00', X'06',"
            + " named_struct('street', '', 'zip', 0), array(''), map('', 0)),"
            + " (7, 'ap', 7.77, 7, 7.7D, CAST(7.7 AS FLOAT), false, DATE '2024-03-02',"
            + " TIMESTAMP '2024-03-02 12:00:00', TIMESTAMP_NTZ '2024-03-02 12:00:00', X'07',"
            + " named_struct('street', 'Seven', 'zip', 7), array('7', '7'), map('seven', 7))");
    long second = snapshot("db.typed");
    comment("format 1 rewrites the files a DELETE or UPDATE touches (copy-on-write)");
    sql("DELETE FROM lake.db.typed WHERE id = 2");
    sql(
        "UPDATE lake.db.typed SET amount = amount + 1, tags = array('updated') WHERE region = 'us'");
    comment("type promotion: the files keep int, float and decimal(12, 2); the table reads wider");
    sql("ALTER TABLE lake.db.typed ALTER COLUMN qty TYPE BIGINT");
    sql("ALTER TABLE lake.db.typed ALTER COLUMN ratio TYPE DOUBLE");
    sql("ALTER TABLE lake.db.typed ALTER COLUMN amount TYPE DECIMAL(16, 2)");
    sql("ALTER TABLE lake.db.typed ALTER COLUMN address.zip TYPE BIGINT");
    sql("ALTER TABLE lake.db.typed RENAME COLUMN address.street TO line");
    table(
        "db.typed",
        "GZIP",
        read(null, null),
        read(first, null),
        read(second, null),
        read(null, "region = 'eu' AND amount > 0"),
        read(null, "d < DATE '2024-01-01'"),
        read(null, "qty > 5 OR ratio < 0"));

    comment("db.evolved: renamed and dropped columns, partition evolution in format 1");
    sql(
        "CREATE TABLE lake.db.evolved (id INT, name STRING, category STRING, d DATE, score DOUBLE)"
            + " USING iceberg PARTITIONED BY (category)");
    sql(
        "INSERT INTO lake.db.evolved VALUES (1, 'alpha', 'x', DATE '2024-01-15', 1.0D),"
            + " (2, 'beta', 'y', DATE '2024-02-15', 2.0D), (3, 'gamma', 'x', DATE '2024-03-15',"
            + " 3.0D)");
    long before = snapshot("db.evolved");
    sql("ALTER TABLE lake.db.evolved RENAME COLUMN name TO full_name");
    sql("ALTER TABLE lake.db.evolved DROP COLUMN score");
    sql("ALTER TABLE lake.db.evolved ADD COLUMN note STRING");
    sql("ALTER TABLE lake.db.evolved ADD PARTITION FIELD months(d)");
    sql("ALTER TABLE lake.db.evolved DROP PARTITION FIELD category");
    sql("ALTER TABLE lake.db.evolved RENAME COLUMN category TO kind");
    sql(
        "INSERT INTO lake.db.evolved VALUES (4, 'delta', 'z', DATE '2024-04-15', 'after the"
            + " change'), (5, 'epsilon', 'x', DATE '2024-01-20', NULL)");
    long after = snapshot("db.evolved");
    sql("DELETE FROM lake.db.evolved WHERE id = 3");
    table(
        "db.evolved",
        "GZIP",
        read(null, null),
        read(before, null),
        read(after, null),
        read(null, "d >= DATE '2024-02-01'"),
        read(null, "kind = 'x'"));
  }

  /**
   * Spark 3.4 with Iceberg 1.3, format 2: merge-on-read position deletes of the time (scoped to a
   * partition, no referenced data file), gzip, and gzip-compressed metadata files.
   */
  private void iceberg13Deletes() {
    comment(
        "db.merge_on_read: format 2 with Iceberg 1.3's position deletes, gzip data and"
            + " gzip-compressed metadata (vN.gz.metadata.json)");
    sql(
        "CREATE TABLE lake.db.merge_on_read (id INT, name STRING, d DATE, amount DECIMAL(9, 3))"
            + " USING iceberg PARTITIONED BY (truncate(1, name), years(d))"
            + " TBLPROPERTIES ('format-version' = '2', "
            + MOR
            + ", 'write.metadata.compression-codec' = 'gzip')");
    sql(
        "INSERT INTO lake.db.merge_on_read VALUES (1, 'anna', DATE '2023-05-01', 1.001),"
            + " (2, 'axel', DATE '2023-06-01', 2.002), (3, 'bert', DATE '2024-01-01', 3.003),"
            + " (4, 'bob', DATE '2024-02-02', -4.004), (5, NULL, DATE '2022-12-31', NULL),"
            + " (6, 'cleo', NULL, 6.000)");
    long first = snapshot("db.merge_on_read");
    sql("DELETE FROM lake.db.merge_on_read WHERE id IN (2, 4)");
    sql("UPDATE lake.db.merge_on_read SET amount = amount * 10 WHERE name LIKE 'b%' OR id = 6");
    long updated = snapshot("db.merge_on_read");
    sql(
        "MERGE INTO lake.db.merge_on_read t USING (SELECT * FROM VALUES (1, 'anne'), (7, 'dora')"
            + " AS s(id, name)) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET t.name = s.name"
            + " WHEN NOT MATCHED THEN INSERT (id, name, d, amount) VALUES (s.id, s.name,"
            + " DATE '2025-01-01', 7.007)");
    table(
        "db.merge_on_read",
        "GZIP",
        read(null, null),
        read(first, null),
        read(updated, null),
        read(null, "name >= 'b' AND d < DATE '2025-01-01'"),
        read(null, "amount IS NULL OR amount > 5"));
  }

  /** Spark 3.5 with Iceberg 1.10: format 2, merge-on-read with position deletes, snappy. */
  private void iceberg110() {
    comment("db.orders: format 2, merge-on-read (position delete files), snappy");
    sql(
        "CREATE TABLE lake.db.orders (id BIGINT, customer STRING, amount DECIMAL(10, 2), d DATE,"
            + " ts TIMESTAMP, ts_ntz TIMESTAMP_NTZ, items ARRAY<STRUCT<sku: STRING, qty: INT>>,"
            + " props MAP<STRING, STRING>) USING iceberg PARTITIONED BY (days(ts))"
            + " TBLPROPERTIES ('format-version' = '2', "
            + MOR
            + ", 'write.parquet.compression-codec' = 'snappy')");
    sql(
        "INSERT INTO lake.db.orders VALUES"
            + rowsOfOrders(1, "alice", "2024-03-01")
            + ","
            + rowsOfOrders(2, "bob", "2024-03-01")
            + ","
            + rowsOfOrders(3, "carol", "2024-03-01")
            + ","
            + rowsOfOrders(4, "alice", "2024-03-02")
            + ","
            + rowsOfOrders(5, "carol", "2024-03-02")
            + ","
            + rowsOfOrders(6, "dave", "2024-03-02")
            + ","
            + rowsOfOrders(7, "bob", "2024-03-03")
            + ","
            + rowsOfOrders(8, "erin", "2024-03-03"));
    long first = snapshot("db.orders");
    sql("DELETE FROM lake.db.orders WHERE id IN (2, 5)");
    sql("UPDATE lake.db.orders SET amount = amount * 2 WHERE customer = 'carol'");
    long updated = snapshot("db.orders");
    sql(
        "MERGE INTO lake.db.orders t USING (SELECT * FROM VALUES (4, 40.40), (9, 90.90)"
            + " AS s(id, amount)) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET t.amount = s.amount"
            + " WHEN NOT MATCHED THEN INSERT (id, customer, amount, d, ts) VALUES (s.id, 'frank',"
            + " s.amount, DATE '2024-03-04', TIMESTAMP '2024-03-04 08:00:00')");
    sql("ALTER TABLE lake.db.orders RENAME COLUMN customer TO client");
    sql("ALTER TABLE lake.db.orders DROP COLUMN props");
    comment("nested evolution: a field of the list's structs renamed, widened and added");
    sql("ALTER TABLE lake.db.orders RENAME COLUMN items.element.sku TO code");
    sql("ALTER TABLE lake.db.orders ALTER COLUMN items.element.qty TYPE BIGINT");
    sql("ALTER TABLE lake.db.orders ADD COLUMN items.element.note STRING");
    sql(
        "INSERT INTO lake.db.orders (id, client, amount, d, ts, ts_ntz, items) VALUES (10,"
            + " 'gina', 10.10, DATE '2024-03-01', TIMESTAMP '2024-03-01 23:00:00', NULL, NULL)");
    table(
        "db.orders",
        "SNAPPY",
        read(null, null),
        read(first, null),
        read(updated, null),
        read(null, "ts < TIMESTAMP '2024-03-02 00:00:00'"),
        read(null, "client = 'carol' OR amount > 80"));

    comment(
        "db.respecified: format 2, identity partitioning replaced by a bucket, deletes in both"
            + " (position delete files scoped to a partition, as before Iceberg 1.8)");
    sql(
        "CREATE TABLE lake.db.respecified (id INT, region STRING, v STRING) USING iceberg"
            + " PARTITIONED BY (region) TBLPROPERTIES ('format-version' = '2', "
            + MOR
            + ", 'write.parquet.compression-codec' = 'snappy',"
            + " 'write.delete.granularity' = 'partition')");
    sql(
        "INSERT INTO lake.db.respecified VALUES (1, 'eu', 'a'), (2, 'eu', 'b'), (3, 'us', 'c'),"
            + " (4, 'us', 'd'), (5, 'ap', 'e'), (6, NULL, 'f')");
    long identity = snapshot("db.respecified");
    sql("ALTER TABLE lake.db.respecified REPLACE PARTITION FIELD region WITH bucket(4, id)");
    sql(
        "INSERT INTO lake.db.respecified VALUES (7, 'eu', 'g'), (8, 'us', 'h'), (9, 'ap', 'i'),"
            + " (10, NULL, NULL)");
    sql("DELETE FROM lake.db.respecified WHERE id IN (1, 8)");
    sql("ALTER TABLE lake.db.respecified RENAME COLUMN region TO area");
    table(
        "db.respecified",
        "SNAPPY",
        read(null, null),
        read(identity, null),
        read(null, "area = 'eu'"),
        read(null, "id > 4"));
  }

  /**
   * Spark 4.1 with Iceberg 1.12: format 3 deletion vectors, zstd (Iceberg's default since 1.4),
   * equality deletes (written with Iceberg's Java API: Spark writes none), and Parquet files from
   * Spark's own writer for {@code add_files}.
   */
  private void iceberg112() throws IOException {
    comment("db.vectors: format 3, merge-on-read (deletion vectors), zstd by default");
    sql(
        "CREATE TABLE lake.db.vectors (id BIGINT, name STRING, amount DECIMAL(38, 10), d DATE,"
            + " ts TIMESTAMP, ts_ntz TIMESTAMP_NTZ, info STRUCT<a: INT, b: STRUCT<c: STRING>>,"
            + " nums ARRAY<INT>, kv MAP<STRING, DECIMAL(10, 2)>) USING iceberg"
            + " PARTITIONED BY (bucket(4, id)) TBLPROPERTIES ('format-version' = '3', "
            + MOR
            + ")");
    StringBuilder values = new StringBuilder();
    for (int i = 1; i <= 12; i++) {
      values
          .append(i > 1 ? ", " : "")
          .append(
              String.format(
                  Locale.ROOT,
                  "(%d, 'n%d', %d.%010d, DATE '2024-%02d-%02d', TIMESTAMP '2024-%02d-%02d"
                      + " %02d:30:00.%06d', TIMESTAMP_NTZ '2024-%02d-01 00:00:00',"
                      + " named_struct('a', %d, 'b', named_struct('c', 'c%d')), array(%d, %d),"
                      + " map('m', %d.%02d))",
                  i,
                  i,
                  i * 1_000_000_007L,
                  i * 123_456_789L,
                  1 + i % 4,
                  i,
                  1 + i % 4,
                  i,
                  i,
                  i * 11,
                  1 + i % 3,
                  i,
                  i,
                  i,
                  -i,
                  i,
                  i));
    }
    sql("INSERT INTO lake.db.vectors VALUES " + values);
    long first = snapshot("db.vectors");
    sql("DELETE FROM lake.db.vectors WHERE id % 3 = 0");
    sql("UPDATE lake.db.vectors SET name = upper(name) WHERE id < 6");
    long updated = snapshot("db.vectors");
    comment("a second deletion vector for files that already have one (merged with the first)");
    sql("DELETE FROM lake.db.vectors WHERE id IN (1, 5)");
    sql("ALTER TABLE lake.db.vectors ADD PARTITION FIELD months(d)");
    sql("ALTER TABLE lake.db.vectors DROP PARTITION FIELD bucket(4, id)");
    sql(
        "MERGE INTO lake.db.vectors t USING (SELECT * FROM VALUES (2, 'merged'), (13, 'new')"
            + " AS s(id, name)) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET t.name = s.name"
            + " WHEN NOT MATCHED THEN INSERT (id, name, d) VALUES (s.id, s.name,"
            + " DATE '2024-05-05')");
    sql("ALTER TABLE lake.db.vectors RENAME COLUMN name TO label");
    sql("ALTER TABLE lake.db.vectors DROP COLUMN ts_ntz");
    sql("ALTER TABLE lake.db.vectors RENAME COLUMN info.a TO alpha");
    sql("ALTER TABLE lake.db.vectors ADD COLUMN info.z DATE");
    sql("ALTER TABLE lake.db.vectors ALTER COLUMN nums.element TYPE BIGINT");
    comment(
        "a column added with a default (format 3), with Iceberg's Java API: Spark sets none"
            + " (\"setting default values in Spark is currently unsupported\")");
    load("db.vectors")
        .updateSchema()
        .addColumn("Added Later", Types.IntegerType.get(), Literal.of(7))
        .commit();
    comment(
        "Java API (Iceberg "
            + IcebergBuild.version()
            + "): table.updateSchema().addColumn(\"Added Later\", IntegerType, Literal.of(7))"
            + ".commit()");
    sql("ALTER TABLE lake.db.vectors WRITE ORDERED BY id");
    sql(
        "INSERT INTO lake.db.vectors (id, label, d, `Added Later`) VALUES (14, 'sorted',"
            + " DATE '2024-05-06', 14)");
    sql("INSERT INTO lake.db.vectors (id, label, d) VALUES (15, 'no value', DATE '2024-05-07')");
    table(
        "db.vectors",
        "ZSTD",
        read(null, null),
        read(first, null),
        read(updated, null),
        read(null, "id BETWEEN 3 AND 9"),
        read(null, "d >= DATE '2024-03-01'"),
        filter("`Added Later` = 7", "\"Added Later\" = 7"));

    comment(
        "db.equality: format 2; equality deletes written with Iceberg's Java API"
            + " (Spark writes none), then Spark's own writes on top");
    sql(
        "CREATE TABLE lake.db.equality (id BIGINT, region STRING, v STRING, d DATE) USING"
            + " iceberg PARTITIONED BY (region) TBLPROPERTIES ('format-version' = '2', "
            + MOR
            + ")");
    sql(
        "INSERT INTO lake.db.equality VALUES (1, 'eu', 'keep', DATE '2024-01-01'),"
            + " (2, 'eu', 'gone by id', DATE '2024-01-02'), (3, 'eu', 'keep', DATE '2024-01-03'),"
            + " (4, 'eu', 'gone by id', DATE '2024-01-04'), (5, 'us', 'keep', DATE '2024-01-05'),"
            + " (6, 'us', 'gone', DATE '2024-01-06'), (7, 'us', 'keep', DATE '2024-01-07'),"
            + " (8, 'us', 'gone', DATE '2024-01-08'), (9, 'us', NULL, DATE '2024-01-09'),"
            + " (10, 'eu', 'gone', DATE '2024-01-10')");
    long beforeDeletes = snapshot("db.equality");
    equalityDeletes();
    long deleted = snapshot("db.equality");
    comment("id 2 again: a row added after the equality delete is not deleted by it");
    sql("INSERT INTO lake.db.equality VALUES (2, 'eu', 'back', DATE '2024-02-02')");
    sql("UPDATE lake.db.equality SET v = 'changed' WHERE id = 7");
    table(
        "db.equality",
        "ZSTD",
        read(null, null),
        read(beforeDeletes, null),
        read(deleted, null),
        read(null, "region = 'eu'"),
        read(null, "v IS NULL OR id > 6"));

    plainParquet();
  }

  /** The equality deletes of db.equality: ids 2 and 4 in 'eu', and v = 'gone' in 'us'. */
  private void equalityDeletes() throws IOException {
    Table table = load("db.equality");
    comment(
        "Java API (Iceberg "
            + IcebergBuild.version()
            + "): table.newRowDelta() with two equality delete files, one commit:");
    Schema schema = table.schema();
    RowDeltaBuilder delta = new RowDeltaBuilder(table);
    delta.add(schema.select("id"), "eu", List.of(2L, 4L));
    delta.add(schema.select("v"), "us", List.of("gone"));
    delta.commit();
  }

  /** Writes equality delete files with Iceberg's generic writers and commits them together. */
  private final class RowDeltaBuilder {
    private final Table table;
    private final org.apache.iceberg.RowDelta delta;
    private int n;

    RowDeltaBuilder(Table table) {
      this.table = table;
      this.delta = table.newRowDelta();
    }

    void add(Schema deleteSchema, String region, List<?> values) throws IOException {
      int fieldId = deleteSchema.columns().get(0).fieldId();
      String column = deleteSchema.columns().get(0).name();
      GenericFileWriterFactory factory =
          new GenericFileWriterFactory.Builder(table)
              .deleteFileFormat(FileFormat.PARQUET)
              .equalityFieldIds(new int[] {fieldId})
              .equalityDeleteRowSchema(deleteSchema)
              .build();
      PartitionKey partition = new PartitionKey(table.spec(), table.schema());
      GenericRecord row = GenericRecord.create(table.schema());
      row.setField("region", region);
      partition.partition(row);
      String location =
          table
              .locationProvider()
              .newDataLocation(table.spec(), partition, "equality-deletes-" + (++n) + ".parquet");
      EqualityDeleteWriter<Record> writer =
          factory.newEqualityDeleteWriter(
              EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location)),
              table.spec(),
              partition);
      try (writer) {
        for (Object value : values) {
          GenericRecord deleted = GenericRecord.create(deleteSchema);
          deleted.setField(column, value);
          writer.write(deleted);
        }
      }
      delta.addDeletes(writer.toDeleteFile());
      comment(
          "  equality delete file "
              + location.substring(location.lastIndexOf('/') + 1)
              + " (equality field "
              + column
              + ", partition region = '"
              + region
              + "'): "
              + column
              + " IN "
              + values);
    }

    void commit() {
      delta.commit();
    }
  }

  /** Parquet files from Spark's own writer (no Iceberg), for add_files. */
  private void plainParquet() {
    comment("plain_parquet: Spark's own Parquet writer (snappy, Spark's default), no Iceberg");
    String view =
        "CREATE OR REPLACE TEMPORARY VIEW plain AS SELECT CAST(id AS INT) AS id, name,"
            + " CAST(amount AS DECIMAL(10, 2)) AS amount, d, ts, ts_ntz, tags, info FROM VALUES"
            + " (1, 'one', 1.10, DATE '2024-06-01', TIMESTAMP '2024-06-01 01:00:00.000001',"
            + " TIMESTAMP_NTZ '2024-06-01 01:00:00', array('a', 'b'), named_struct('a', 1, 'b',"
            + " 'x')),"
            + " (2, 'two', 22.20, DATE '1970-01-01', TIMESTAMP '1969-12-31 23:59:59.5',"
            + " TIMESTAMP_NTZ '1969-12-31 23:59:59.5', CAST(array() AS ARRAY<STRING>),"
            + " named_struct('a', CAST(NULL AS INT), 'b', CAST(NULL AS STRING))),"
            + " (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
            + " (4, 'four', -4.40, DATE '2024-06-04', TIMESTAMP '2024-06-04 04:04:04',"
            + " TIMESTAMP_NTZ '2024-06-04 04:04:04', array(NULL, 'd'), named_struct('a', 4,"
            + " 'b', 'y'))"
            + " AS t(id, name, amount, d, ts, ts_ntz, tags, info)";
    sql(view);
    writeFiles("plain_parquet", "db.plain", "SNAPPY", "");
    comment(
        "plain_parquet_legacy: the same rows in Spark's legacy layout (Hive's: two-level lists,"
            + " decimals as fixed-length binary), millisecond timestamps, gzip");
    sql("SET spark.sql.parquet.writeLegacyFormat = true");
    sql("SET spark.sql.parquet.outputTimestampType = TIMESTAMP_MILLIS");
    writeFiles("plain_parquet_legacy", "db.plain_legacy", "GZIP", "gzip");
    sql("RESET spark.sql.parquet.writeLegacyFormat");
    sql("RESET spark.sql.parquet.outputTimestampType");
  }

  /** Writes the view {@code plain} with Spark's Parquet writer, and what Spark reads back. */
  private void writeFiles(String name, String table, String codec, String compression) {
    String folder = "file:" + generated.resolve(name);
    var writer = spark.table("plain").repartition(2).write();
    if (!compression.isEmpty()) {
      writer = writer.option("compression", compression);
    }
    writer.parquet(folder);
    statements.add(
        "spark.table(\"plain\").repartition(2).write()"
            + (compression.isEmpty() ? "" : ".option(\"compression\", \"" + compression + "\")")
            + ".parquet(\""
            + folder
            + "\");  -- Java");
    List<String> reads = new ArrayList<>();
    reads.add(readFiles(folder, null));
    reads.add(readFiles(folder, "amount > 5"));
    fileEntries.add(
        "{\"name\": "
            + json(name)
            + ", \"folder\": "
            + json(name)
            + ", \"codec\": "
            + json(codec)
            + ", \"table\": "
            + json(table)
            + ", \"create\": "
            + json(
                "CREATE TABLE "
                    + table
                    + " (id INT, name VARCHAR, amount DECIMAL(10, 2), d DATE,"
                    + " ts TIMESTAMP WITH LOCAL TIME ZONE, ts_ntz TIMESTAMP, tags ARRAY<VARCHAR>,"
                    + " info ROW(a INT, b VARCHAR))")
            + ",\n  \"reads\": [\n    "
            + String.join(",\n    ", reads)
            + "]}");
  }

  private String readFiles(String folder, String where) {
    String query =
        "SELECT * FROM parquet.`"
            + folder
            + "`"
            + (where == null ? "" : " WHERE " + where)
            + " ORDER BY id";
    return readEntry(query, null, where, where);
  }

  private static String rowsOfOrders(int id, String customer, String day) {
    return String.format(
        Locale.ROOT,
        "(%d, '%s', %d.%02d, DATE '%s', TIMESTAMP '%s %02d:15:00.25', TIMESTAMP_NTZ '%s"
            + " 12:00:00', array(named_struct('sku', 's%d', 'qty', %d), named_struct('sku', NULL,"
            + " 'qty', NULL)), map('channel', '%s'))",
        id,
        customer,
        id * 11,
        id,
        day,
        day,
        id,
        day,
        id,
        id,
        id % 2 == 0 ? "web" : "store");
  }

  // ---------------------------------------------------------------------------------------------
  // Recording

  private void comment(String text) {
    statements.add("-- " + text);
  }

  private void sql(String statement) {
    statements.add(statement + ";");
    spark.sql(statement).collectAsList();
  }

  private Table load(String table) {
    return new HadoopTables(spark.sparkContext().hadoopConfiguration())
        .load("file:" + generated.resolve("lake").resolve(table.replace('.', '/')));
  }

  private long snapshot(String table) {
    return load(table).currentSnapshot().snapshotId();
  }

  /** A read to record: the current state or a snapshot, optionally filtered. */
  private record Read(Long snapshot, String where, String floeWhere) {}

  private static Read read(Long snapshot, String where) {
    return new Read(snapshot, where, where);
  }

  /** A filter whose Spark and Floe spellings differ (quoted names: `a b` and "a b"). */
  private static Read filter(String where, String floeWhere) {
    return new Read(null, where, floeWhere);
  }

  private void table(String name, String codec, Read... reads) {
    Table table = load(name);
    List<String> entries = new ArrayList<>();
    for (Read r : reads) {
      String query =
          "SELECT * FROM lake."
              + name
              + (r.snapshot() == null ? "" : " VERSION AS OF " + r.snapshot())
              + (r.where() == null ? "" : " WHERE " + r.where())
              + " ORDER BY id";
      entries.add(readEntry(query, r.snapshot(), r.where(), r.floeWhere()));
    }
    tableEntries.add(
        "{\"name\": "
            + json(name)
            + ", \"location\": "
            + json(table.location())
            + ", \"codec\": "
            + json(codec)
            + ",\n  \"reads\": [\n    "
            + String.join(",\n    ", entries)
            + "]}");
  }

  /** Runs a query with Spark and renders its columns and rows. */
  private String readEntry(String query, Long snapshot, String where, String floeWhere) {
    Dataset<Row> result = spark.sql(query);
    StructType schema = result.schema();
    List<Row> rows = result.collectAsList();
    assertThat(rows).as(query).isNotEmpty();
    List<String> rendered = new ArrayList<>();
    for (Row row : rows) {
      List<String> values = new ArrayList<>();
      for (int i = 0; i < schema.fields().length; i++) {
        values.add(value(row.get(i), schema.fields()[i].dataType()));
      }
      rendered.add("[" + String.join(", ", values) + "]");
    }
    int[] ids = {0};
    return "{\"spark\": "
        + json(query)
        + ", \"snapshot\": "
        + (snapshot == null ? "null" : snapshot.toString())
        + ", \"where\": "
        + (where == null ? "null" : json(where))
        + ", \"floeWhere\": "
        + (floeWhere == null ? "null" : json(floeWhere))
        + ",\n     \"schema\": "
        + struct(schema, ids)
        + ",\n     \"rows\": [\n      "
        + String.join(",\n      ", rendered)
        + "]}";
  }

  /** A Spark type as Iceberg's JSON form of the type Iceberg maps it to. */
  private static String type(DataType type, int[] ids) {
    if (type instanceof BooleanType) {
      return "\"boolean\"";
    } else if (type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType) {
      return "\"int\"";
    } else if (type instanceof LongType) {
      return "\"long\"";
    } else if (type instanceof FloatType) {
      return "\"float\"";
    } else if (type instanceof DoubleType) {
      return "\"double\"";
    } else if (type instanceof DecimalType decimal) {
      return "\"decimal(" + decimal.precision() + ", " + decimal.scale() + ")\"";
    } else if (type instanceof StringType) {
      return "\"string\"";
    } else if (type instanceof BinaryType) {
      return "\"binary\"";
    } else if (type instanceof DateType) {
      return "\"date\"";
    } else if (type instanceof TimestampType) {
      return "\"timestamptz\"";
    } else if (type instanceof TimestampNTZType) {
      return "\"timestamp\"";
    } else if (type instanceof StructType struct) {
      return struct(struct, ids);
    } else if (type instanceof ArrayType array) {
      int element = ++ids[0];
      return "{\"type\": \"list\", \"element-id\": "
          + element
          + ", \"element\": "
          + type(array.elementType(), ids)
          + ", \"element-required\": "
          + !array.containsNull()
          + "}";
    } else if (type instanceof MapType map) {
      int key = ++ids[0];
      int value = ++ids[0];
      return "{\"type\": \"map\", \"key-id\": "
          + key
          + ", \"key\": "
          + type(map.keyType(), ids)
          + ", \"value-id\": "
          + value
          + ", \"value\": "
          + type(map.valueType(), ids)
          + ", \"value-required\": "
          + !map.valueContainsNull()
          + "}";
    }
    throw new IllegalArgumentException("No Iceberg type for Spark's " + type);
  }

  private static String struct(StructType struct, int[] ids) {
    List<String> fields = new ArrayList<>();
    for (StructField field : struct.fields()) {
      int id = ++ids[0];
      fields.add(
          "{\"id\": "
              + id
              + ", \"name\": "
              + json(field.name())
              + ", \"required\": "
              + !field.nullable()
              + ", \"type\": "
              + type(field.dataType(), ids)
              + "}");
    }
    return "{\"type\": \"struct\", \"fields\": [" + String.join(", ", fields) + "]}";
  }

  /**
   * A value as Spark returned it (with {@code spark.sql.datetime.java8API.enabled}), in JSON:
   * integers as numbers; floating-point numbers, decimals, dates, timestamps (ISO-8601, an instant
   * with {@code Z}) and binary (hex) as strings; a struct as the array of its fields, a list as an
   * array, a map as an array of [key, value] pairs.
   */
  private static String value(Object v, DataType type) {
    if (v == null) {
      return "null";
    } else if (type instanceof BooleanType) {
      return v.toString();
    } else if (type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof LongType) {
      return ((Number) v).toString();
    } else if (type instanceof FloatType) {
      return json(Float.toString((Float) v));
    } else if (type instanceof DoubleType) {
      return json(Double.toString((Double) v));
    } else if (type instanceof DecimalType) {
      return json(((BigDecimal) v).toPlainString());
    } else if (type instanceof StringType) {
      return json((String) v);
    } else if (type instanceof BinaryType) {
      return json(HexFormat.of().formatHex((byte[]) v));
    } else if (type instanceof DateType) {
      return json(((LocalDate) v).toString());
    } else if (type instanceof TimestampType) {
      return json(((Instant) v).atOffset(ZoneOffset.UTC).toLocalDateTime() + "Z");
    } else if (type instanceof TimestampNTZType) {
      return json(((LocalDateTime) v).toString());
    } else if (type instanceof StructType struct) {
      Row row = (Row) v;
      List<String> fields = new ArrayList<>();
      for (int i = 0; i < struct.fields().length; i++) {
        fields.add(value(row.get(i), struct.fields()[i].dataType()));
      }
      return "[" + String.join(", ", fields) + "]";
    } else if (type instanceof ArrayType array) {
      List<String> elements = new ArrayList<>();
      scala.collection.Iterator<?> it = ((scala.collection.Iterable<?>) v).iterator();
      while (it.hasNext()) {
        elements.add(value(it.next(), array.elementType()));
      }
      return "[" + String.join(", ", elements) + "]";
    } else if (type instanceof MapType map) {
      List<String> entries = new ArrayList<>();
      scala.collection.Iterator<?> it = ((scala.collection.Iterable<?>) v).iterator();
      while (it.hasNext()) {
        scala.Tuple2<?, ?> entry = (scala.Tuple2<?, ?>) it.next();
        entries.add(
            "["
                + value(entry._1(), map.keyType())
                + ", "
                + value(entry._2(), map.valueType())
                + "]");
      }
      return "[" + String.join(", ", entries) + "]";
    }
    throw new IllegalArgumentException("No JSON form for Spark's " + type);
  }

  private static String json(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  // ---------------------------------------------------------------------------------------------
  // Output

  private void finish(String set, Path target) throws IOException {
    // Hadoop's local file system leaves a .crc file beside each file it writes: not Iceberg's
    try (Stream<Path> files = Files.walk(generated)) {
      for (Path p : files.filter(p -> p.getFileName().toString().endsWith(".crc")).toList()) {
        Files.delete(p);
      }
    }
    List<String> contents = new ArrayList<>();
    try (Stream<Path> files = Files.walk(generated)) {
      for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
        contents.add(
            "{\"path\": "
                + json(generated.relativize(p).toString().replace('\\', '/'))
                + ", \"bytes\": "
                + Files.size(p)
                + "}");
      }
    }
    String engine = "Apache Spark " + spark.version();
    String iceberg = IcebergBuild.fullVersion();
    String date = Instant.now().toString();
    String java = System.getProperty("java.vendor") + " " + System.getProperty("java.version");
    Files.writeString(
        generated.resolve("corpus.json"),
        "{\"set\": "
            + json(set)
            + ", \"engine\": "
            + json(engine)
            + ", \"iceberg\": "
            + json(iceberg)
            + ", \"java\": "
            + json(java)
            + ", \"written\": "
            + json(date)
            + ", \"root\": "
            + json("file:" + generated)
            + ",\n\"tables\": [\n "
            + String.join(",\n ", tableEntries)
            + "],\n\"files\": [\n "
            + String.join(",\n ", fileEntries)
            + "],\n\"contents\": [\n "
            + String.join(",\n ", contents)
            + "]}\n",
        StandardCharsets.UTF_8);
    Files.writeString(
        generated.resolve("PROVENANCE.md"),
        "# "
            + set
            + "\n\n"
            + "- Engine: "
            + engine
            + " (local mode, one thread, session time zone UTC)\n"
            + "- Iceberg: "
            + iceberg
            + " (iceberg-spark-runtime, Hadoop catalog `lake` at `file:"
            + generated.resolve("lake")
            + "`)\n"
            + "- Java: "
            + java
            + "\n"
            + "- Written: "
            + date
            + " by `dev.floe.tck.spark.ForeignCorpusWriter` (see ../README.md)\n"
            + "- Hadoop's `.crc` side files were removed; nothing else was changed.\n"
            + "- `corpus.json`: per table, the rows Spark returned for each query below it.\n\n"
            + "## Statements, in order\n\n```sql\n"
            + String.join("\n", statements)
            + "\n```\n",
        StandardCharsets.UTF_8);
    deleteTree(target);
    try (Stream<Path> files = Files.walk(generated)) {
      for (Path p : files.toList()) {
        Path to = target.resolve(generated.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    long size;
    try (Stream<Path> files = Files.walk(target)) {
      size = files.filter(Files::isRegularFile).mapToLong(ForeignCorpusWriter::size).sum();
    }
    System.out.println("Corpus set " + set + ": " + size + " bytes in " + target);
    assertThat(size).as("bytes in " + target).isLessThan(3L << 20);
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
