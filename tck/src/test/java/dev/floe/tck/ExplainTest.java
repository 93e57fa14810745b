package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EXPLAIN says what a person needs: the pushed filter as SQL, the snapshot, how many data and
 * delete files planning kept out of how many, and the rows it expects; EXPLAIN ANALYZE runs the
 * query and says what the scan did and where the time went.
 */
class ExplainTest {
  private static final Schema EVENTS =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(3, "d", Types.DateType.get()));

  @TempDir static Path root;
  static long snapshotId;

  @BeforeAll
  static void writeEvents() {
    Table table =
        ReferenceWriter.create(
            root.resolve("events"), EVENTS, PartitionSpec.builderFor(EVENTS).day("ts").build(), 2);
    List<DataFile> files = new ArrayList<>();
    for (int day = 1; day <= 3; day++) {
      List<Record> rows = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        rows.add(
            ReferenceWriter.record(
                EVENTS,
                (long) day * 100 + i,
                LocalDateTime.of(2024, 6, day, 10, i),
                java.time.LocalDate.of(2024, 1, day)));
      }
      files.addAll(ReferenceWriter.append(ReferenceWriter.load(root.resolve("events")), rows));
    }
    // A delete file on the first day's file: planning keeps it only when it keeps that file.
    ReferenceWriter.positionDelete(ReferenceWriter.load(root.resolve("events")), files.get(0), 0);
    snapshotId = ReferenceWriter.load(root.resolve("events")).currentSnapshot().snapshotId();
  }

  private static Connection connect() throws Exception {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  @Test
  void pushedFiltersAreSqlLiteralsAndPlanningSaysWhatItKept() throws Exception {
    try (Connection c = connect()) {
      String plan =
          Sql.explain(
              c,
              "SELECT id FROM events WHERE ts >= TIMESTAMP '2024-06-03 00:00:00'"
                  + " AND d = DATE '2024-01-03'");
      assertThat(plan)
          .contains("ts >= TIMESTAMP '2024-06-03 00:00:00'")
          .contains("d = DATE '2024-01-03'")
          .contains("snapshot=[" + snapshotId + "]")
          .contains("dataFiles=[1 of 3]")
          .contains("deleteFiles=[0 of 1]")
          .contains("estimatedRows=[10]");
      // One line per plan node, without Iceberg's internal spelling of the filter.
      for (String line : plan.split("\n")) {
        assertThat(line.length()).as(line).isLessThanOrEqualTo(240);
      }
      assertThat(plan).doesNotContain("IS NOT NULL").doesNotContain("ref(");
      String all = Sql.explain(c, "SELECT id FROM events");
      assertThat(all).contains("dataFiles=[3 of 3]").contains("deleteFiles=[1 of 1]");
    }
  }

  @Test
  void explainAnalyzeRunsTheQueryAndReportsTheScan() throws Exception {
    try (Connection c = connect()) {
      List<String> lines =
          Sql.column(
              c,
              "EXPLAIN ANALYZE SELECT id FROM events WHERE ts >= TIMESTAMP '2024-06-02 00:00:00'");
      String text = String.join("\n", lines);
      assertThat(text)
          .contains("LakeTableScan")
          .contains("files opened: 2")
          .contains("rows read: 20")
          .contains("rows returned: 20")
          .contains("row groups skipped: 0")
          .containsPattern("planning: \\d+ ms")
          .containsPattern("scan: \\d+ ms")
          .containsPattern("rest: \\d+ ms");
      String deleted =
          String.join("\n", Sql.column(c, "EXPLAIN ANALYZE SELECT id FROM events WHERE id < 200"));
      // The first day's file is read whole (10 rows), one row is deleted, so 9 come back.
      assertThat(deleted).contains("rows returned: 9");
    }
  }

  @Test
  void aScanExecutedOncePerOuterRowIsOneSummedLine() throws Exception {
    // A nested-loop join whose inner input does not fit its share of the budget scans it once per
    // outer row: thousands of scans made a report too large to return (its statement passed the
    // JVM's 64 KB limit for a method). A budget of 1 kB makes the join read its inner input again.
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + root + "?memoryBudget=1kB")) {
      String query = "SELECT count(*) FROM events a JOIN events b ON a.id < b.id";
      assertThat(Sql.column(c, query)).containsExactly("406");
      String text = String.join("\n", Sql.column(c, "EXPLAIN ANALYZE " + query));
      assertThat(text)
          .containsPattern("LakeTableScan events \\(snapshot \\d+, \\d+ executions summed\\)");
      assertThat(text.lines().filter(l -> l.startsWith("LakeTableScan events")).count())
          .isEqualTo(1);
    }
  }
}
