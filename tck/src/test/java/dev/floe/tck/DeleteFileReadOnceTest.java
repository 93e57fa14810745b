package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each delete file is read once per statement, however many data files it applies to. The
 * observation is the JDK's own: Flight Recorder's {@code jdk.FileRead} events (threshold zero)
 * record every read of every file channel with the file's path and the bytes read, so the bytes
 * read from a delete file during one SELECT show how often it was read: at most its size if once,
 * about four times its size if once per data file.
 */
class DeleteFileReadOnceTest {
  private static final int DATA_FILES = 4;
  private static final int ROWS_PER_FILE = 500;
  private static final Schema SCHEMA = ReferenceWriter.ID_NAME;

  @TempDir Path lake;

  @ParameterizedTest(name = "scanThreads={0}")
  @ValueSource(strings = {"default", "1"})
  void eachDeleteFileIsReadOncePerStatementHoweverManyDataFilesItAppliesTo(String scanThreads)
      throws Exception {
    Table table =
        ReferenceWriter.create(lake.resolve("events"), SCHEMA, PartitionSpec.unpartitioned(), 2);
    List<DataFile> dataFiles = new ArrayList<>();
    for (int f = 0; f < DATA_FILES; f++) {
      dataFiles.addAll(
          ReferenceWriter.append(
              table, ReferenceWriter.idNameRows(f * ROWS_PER_FILE, (f + 1) * ROWS_PER_FILE)));
    }
    // One position-delete file naming rows 0 and 1 of every data file, and one global equality
    // delete (unpartitioned spec) of ids 10 and 11 of every file: each applies to all four files.
    Map<String, List<Long>> positions = new LinkedHashMap<>();
    TreeSet<Long> deletedIds = new TreeSet<>();
    List<Record> keys = new ArrayList<>();
    Schema key = SCHEMA.select("id");
    for (int f = 0; f < DATA_FILES; f++) {
      positions.put(dataFiles.get(f).location(), List.of(0L, 1L));
      long first = (long) f * ROWS_PER_FILE;
      deletedIds.addAll(List.of(first, first + 1, first + 10, first + 11));
      keys.add(ReferenceWriter.record(key, first + 10));
      keys.add(ReferenceWriter.record(key, first + 11));
    }
    DeleteFile positionDeletes = ReferenceWriter.positionDeletes(table, positions);
    DeleteFile equalityDeletes = ReferenceWriter.equalityDelete(table, List.of("id"), keys);

    String url =
        "jdbc:floe:" + lake + (scanThreads.equals("default") ? "" : "?scanThreads=" + scanThreads);
    Path events = lake.resolve("reads-" + scanThreads + ".jfr");
    List<Long> ids = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      // Warm up outside the recording, so only the measured statement's reads are counted.
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM events")) {
        rs.next();
      }
      try (Recording recording = new Recording()) {
        recording.enable("jdk.FileRead").withThreshold(Duration.ZERO).withoutStackTrace();
        recording.start();
        try (ResultSet rs = s.executeQuery("SELECT id, name FROM events")) {
          while (rs.next()) {
            ids.add(rs.getLong(1));
          }
        }
        recording.stop();
        recording.dump(events);
      }
    }

    List<Long> expected = new ArrayList<>();
    for (long id = 0; id < DATA_FILES * ROWS_PER_FILE; id++) {
      if (!deletedIds.contains(id)) {
        expected.add(id);
      }
    }
    assertThat(ids).containsExactlyInAnyOrderElementsOf(expected);

    List<RecordedEvent> reads = RecordingFile.readAllEvents(events);
    for (DeleteFile delete : List.of(positionDeletes, equalityDeletes)) {
      Path file = Path.of(java.net.URI.create(delete.location()));
      long size = Files.size(file);
      long bytesRead =
          reads.stream()
              .filter(e -> file.toString().equals(e.getString("path")))
              .mapToLong(e -> Math.max(0, e.getLong("bytesRead")))
              .sum();
      // Read at all (the observation works), and not more than once: a second reading of the
      // file's footer and column chunks would pass its size.
      assertThat(bytesRead).as("bytes read from %s of %d bytes", file, size).isPositive();
      assertThat(bytesRead)
          .as("bytes read from %s of %d bytes", file, size)
          .isLessThanOrEqualTo(size);
    }
    // Every data file was read in the same recording, so the observation covers the whole scan.
    for (DataFile data : dataFiles) {
      String path = Path.of(java.net.URI.create(data.location())).toString();
      assertThat(reads).anyMatch(e -> path.equals(e.getString("path")));
    }
  }
}
