package dev.floe.planner.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.GenericBlobMetadata;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.puffin.Blob;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinWriter;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The distinct values the planner assumes for a table's columns: Puffin theta-sketch blobs' {@code
 * ndv} (as Trino and Spark write them) first, then keys, then the range of INT/BIGINT/DATE bounds
 * in the manifests; nothing for a column none of these describes.
 */
class TableStatisticsTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.required(2, "nation", Types.IntegerType.get()),
              Types.NestedField.optional(3, "name", Types.StringType.get()),
              Types.NestedField.optional(4, "day", Types.DateType.get())),
          Set.of(1));

  private static final AtomicInteger TABLES = new AtomicInteger();

  /** A new table in an in-memory catalog (its metadata and Puffin files in memory too). */
  private static Table table() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    Namespace namespace = Namespace.of("db");
    catalog.createNamespace(namespace);
    return catalog.createTable(
        TableIdentifier.of(namespace, "t" + TABLES.incrementAndGet()),
        SCHEMA,
        PartitionSpec.unpartitioned());
  }

  /** A data file of {@code rows} rows whose nation lies in [lo, hi] and day in [lo, hi + 99]. */
  private static DataFile file(String name, long rows, int lo, int hi) {
    Map<Integer, ByteBuffer> lower =
        Map.of(
            2, Conversions.toByteBuffer(Types.IntegerType.get(), lo),
            4, Conversions.toByteBuffer(Types.DateType.get(), lo));
    Map<Integer, ByteBuffer> upper =
        Map.of(
            2, Conversions.toByteBuffer(Types.IntegerType.get(), hi),
            4, Conversions.toByteBuffer(Types.DateType.get(), hi + 99));
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("/nowhere/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(1000)
        .withRecordCount(rows)
        .withMetrics(new Metrics(rows, null, null, null, null, lower, upper))
        .build();
  }

  private static long snapshot(Table table) {
    return table.currentSnapshot().snapshotId();
  }

  /** Writes a statistics file for the current snapshot with one theta blob per (field, ndv). */
  private static void analyze(Table table, Map<Integer, Long> ndv) throws Exception {
    long snapshotId = snapshot(table);
    String location = table.location() + "/metadata/stats-" + snapshotId + ".puffin";
    OutputFile out = table.io().newOutputFile(location);
    List<org.apache.iceberg.BlobMetadata> blobs;
    long size;
    long footer;
    try (PuffinWriter writer = Puffin.write(out).createdBy("TableStatisticsTest").build()) {
      for (Map.Entry<Integer, Long> e : ndv.entrySet()) {
        writer.add(
            new Blob(
                TableStatistics.THETA_BLOB,
                List.of(e.getKey()),
                snapshotId,
                table.currentSnapshot().sequenceNumber(),
                ByteBuffer.wrap(new byte[] {1, 2, 3}),
                null,
                Map.of(TableStatistics.NDV_PROPERTY, Long.toString(e.getValue()))));
      }
      writer.finish();
      size = writer.fileSize();
      footer = writer.footerSize();
      blobs = writer.writtenBlobsMetadata().stream().map(GenericBlobMetadata::from).toList();
    }
    table
        .updateStatistics()
        .setStatistics(new GenericStatisticsFile(snapshotId, location, size, footer, blobs))
        .commit();
  }

  @Test
  void keysHaveAsManyValuesAsRowsAndBoundsLimitTheRest() {
    Table table = table();
    table.newAppend().appendFile(file("a", 600, 0, 10)).appendFile(file("b", 400, 5, 24)).commit();

    TableStatistics stats = TableStatistics.of(table, table.schema(), snapshot(table));

    assertThat(stats.rows()).isEqualTo(1000);
    assertThat(stats.distinctValues(1)).as("the identifier field").isEqualTo(1000);
    assertThat(stats.distinctValues(2)).as("nation in [0, 24]").isEqualTo(25);
    assertThat(stats.distinctValues(4)).as("day in [0, 123], capped by the rows").isEqualTo(124);
    assertThat(stats.distinctValues(3)).as("a string nothing describes").isEqualTo(-1);
  }

  @Test
  void puffinThetaBlobsTellTheDistinctValuesOfTheirSnapshotAndItsDescendants() throws Exception {
    Table table = table();
    table.newAppend().appendFile(file("a", 1000, 0, 24)).commit();
    analyze(table, Map.of(3, 7L, 2, 20L));
    table.refresh();

    TableStatistics analyzed = TableStatistics.of(table, table.schema(), snapshot(table));
    assertThat(analyzed.distinctValues(3)).isEqualTo(7);
    assertThat(analyzed.distinctValues(2)).as("the sketch before the bounds").isEqualTo(20);

    table.newAppend().appendFile(file("b", 500, 0, 24)).commit();
    TableStatistics later = TableStatistics.of(table, table.schema(), snapshot(table));
    assertThat(later.rows()).isEqualTo(1500);
    assertThat(later.distinctValues(3)).as("the ancestor's statistics").isEqualTo(7);
  }

  @Test
  void aSketchLargerThanTheTableIsCappedAtItsRows() throws Exception {
    Table table = table();
    table.newAppend().appendFile(file("a", 10, 0, 24)).commit();
    analyze(table, Map.of(3, 5000L));
    table.refresh();

    assertThat(TableStatistics.of(table, table.schema(), snapshot(table)).distinctValues(3))
        .isEqualTo(10);
  }

  @Test
  void aFilterKeepsOneValueInTheColumnsDistinctValuesOrCalcitesGuess() throws Exception {
    Table table = table();
    table.newAppend().appendFile(file("a", 1000, 0, 24)).commit();
    ScanSelectivity before =
        new ScanSelectivity(SCHEMA, TableStatistics.of(table, table.schema(), snapshot(table)));

    assertThat(before.of(Expressions.equal("id", 7L))).as("a key").isEqualTo(1d / 1000);
    assertThat(before.of(Expressions.equal("nation", 3))).as("bounds [0, 24]").isEqualTo(1d / 25);
    assertThat(before.of(Expressions.equal("name", "x"))).as("nothing tells").isEqualTo(0.15);
    assertThat(before.of(Expressions.in("nation", 1, 2, 3))).isEqualTo(3d / 25);
    assertThat(before.of(Expressions.notEqual("nation", 3))).isEqualTo(24d / 25);
    assertThat(
            before.of(
                Expressions.and(
                    Expressions.equal("nation", 3),
                    Expressions.and(
                        Expressions.notNull("nation"), Expressions.equal("name", "x")))))
        .as("a product; IS NOT NULL beside a comparison of its column keeps all")
        .isCloseTo(0.15 / 25, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(
            before.of(Expressions.or(Expressions.equal("nation", 3), Expressions.equal("id", 7L))))
        .isCloseTo(1d / 25 + 1d / 1000, org.assertj.core.data.Offset.offset(1e-12));

    analyze(table, Map.of(3, 40L));
    table.refresh();
    ScanSelectivity analyzed =
        new ScanSelectivity(SCHEMA, TableStatistics.of(table, table.schema(), snapshot(table)));
    assertThat(analyzed.of(Expressions.equal("name", "x"))).as("ANALYZE's NDV").isEqualTo(1d / 40);
  }

  @Test
  void rangesOfOneBoundedColumnKeepTheirIntersectionOfItsSpan() {
    Table table = table();
    table.newAppend().appendFile(file("a", 1000, 0, 24)).commit();
    ScanSelectivity selectivity =
        new ScanSelectivity(SCHEMA, TableStatistics.of(table, table.schema(), snapshot(table)));

    // day lies in [0, 123]: 124 days, of which [31, 61] keeps 31
    assertThat(
            selectivity.of(
                Expressions.and(
                    Expressions.greaterThanOrEqual("day", 31), Expressions.lessThan("day", 62))))
        .isEqualTo(31d / 124);
    assertThat(selectivity.of(Expressions.greaterThan("day", 200))).isEqualTo(0d);
    assertThat(selectivity.of(Expressions.lessThan("name", "m"))).as("no bounds").isEqualTo(0.5);
  }

  @Test
  void isNullKeepsTheFilesNullCountsShare() {
    Table table = table();
    Map<Integer, Long> nulls = Map.of(1, 0L, 2, 0L, 3, 250L, 4, 0L);
    DataFile file =
        DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath("/nowhere/n.parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(1000)
            .withRecordCount(1000)
            .withMetrics(new Metrics(1000L, null, null, nulls, null, null, null))
            .build();
    table.newAppend().appendFile(file).commit();
    ScanSelectivity selectivity =
        new ScanSelectivity(SCHEMA, TableStatistics.of(table, table.schema(), snapshot(table)));

    assertThat(selectivity.of(Expressions.isNull("name"))).isEqualTo(0.25);
    assertThat(selectivity.of(Expressions.notNull("name"))).isEqualTo(0.75);
    assertThat(new ScanSelectivity(SCHEMA, null).of(Expressions.isNull("name"))).isEqualTo(0.1);
  }
}
