package dev.floe.tck;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * A table with a past, written with Iceberg's own API: five snapshots on main with a position
 * delete, a schema change and an equality delete between them, a tag and a branch (with a commit of
 * its own) at the second snapshot.
 *
 * <ol>
 *   <li>s1: ids 0..9 appended, schema {@code (id, name)};
 *   <li>s2: ids 10..19 appended; tag {@code v1} and branch {@code audit} point here;
 *   <li>s3: a position delete of ids 0 and 1;
 *   <li>schema change (no snapshot): {@code name} renamed {@code label}, column {@code score}
 *       added;
 *   <li>s4: ids 20..24 appended with scores;
 *   <li>s5: an equality delete of id 10;
 *   <li>branch {@code audit}: id 100 appended (main does not see it).
 * </ol>
 */
final class HistoryLake {
  static final Schema FIRST_SCHEMA = ReferenceWriter.ID_NAME;

  final Path root;
  final String url;
  final long s1;
  final long s2;
  final long s3;
  final long s4;
  final long s5;
  final long auditHead;

  private HistoryLake(Path root, long[] ids) {
    this.root = root;
    this.url = "jdbc:floe:" + root;
    this.s1 = ids[0];
    this.s2 = ids[1];
    this.s3 = ids[2];
    this.s4 = ids[3];
    this.s5 = ids[4];
    this.auditHead = ids[5];
  }

  /** Writes the table {@code hist} under a lake root. */
  static HistoryLake write(Path root) {
    Path folder = root.resolve("hist");
    Table table = ReferenceWriter.create(folder, FIRST_SCHEMA, PartitionSpec.unpartitioned(), 2);
    long[] ids = new long[6];
    DataFile first = ReferenceWriter.append(table, ReferenceWriter.idNameRows(0, 10)).get(0);
    ids[0] = current(folder);
    pause();
    ReferenceWriter.append(ReferenceWriter.load(folder), ReferenceWriter.idNameRows(10, 20));
    ids[1] = current(folder);
    table = ReferenceWriter.load(folder);
    table.manageSnapshots().createTag("v1", ids[1]).createBranch("audit", ids[1]).commit();
    pause();
    ReferenceWriter.positionDelete(ReferenceWriter.load(folder), first, 0, 1);
    ids[2] = current(folder);
    pause();
    table = ReferenceWriter.load(folder);
    table
        .updateSchema()
        .renameColumn("name", "label")
        .addColumn("score", Types.IntegerType.get())
        .commit();
    table = ReferenceWriter.load(folder);
    List<Record> scored = new ArrayList<>();
    for (long id = 20; id < 25; id++) {
      scored.add(ReferenceWriter.record(table.schema(), id, "label " + id, (int) id * 10));
    }
    ReferenceWriter.append(table, scored);
    ids[3] = current(folder);
    pause();
    table = ReferenceWriter.load(folder);
    Schema key = table.schema().select("id");
    ReferenceWriter.equalityDelete(table, List.of("id"), List.of(ReferenceWriter.record(key, 10L)));
    ids[4] = current(folder);
    pause();
    table = ReferenceWriter.load(folder);
    List<DataFile> branchFiles =
        ReferenceWriter.writeData(
            table, List.of(ReferenceWriter.record(table.schema(), 100L, "audit row", 7)));
    var append = table.newAppend().toBranch("audit");
    branchFiles.forEach(append::appendFile);
    append.commit();
    ids[5] = ReferenceWriter.load(folder).refs().get("audit").snapshotId();
    return new HistoryLake(root, ids);
  }

  /** The loaded table. */
  Table table() {
    return ReferenceWriter.load(root.resolve("hist"));
  }

  /** When a snapshot was committed. */
  Instant committedAt(long snapshotId) {
    return Instant.ofEpochMilli(table().snapshot(snapshotId).timestampMillis());
  }

  /** A plain SQL timestamp literal for an instant as seen in a time zone. */
  static String timestampLiteral(Instant instant, ZoneId zone) {
    return "TIMESTAMP '"
        + DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS")
            .format(LocalDateTime.ofInstant(instant, zone))
        + "'";
  }

  private static long current(Path folder) {
    return ReferenceWriter.load(folder).currentSnapshot().snapshotId();
  }

  /** Snapshot times are milliseconds: keep commits apart so each instant names one snapshot. */
  private static void pause() {
    try {
      Thread.sleep(15);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
