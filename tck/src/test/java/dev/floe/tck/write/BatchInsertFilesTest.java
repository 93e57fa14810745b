package dev.floe.tck.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A PreparedStatement batch writes the same data files as plain INSERT statements of the same rows:
 * per partition, the same rows read back by Iceberg's own Parquet reader, and the same metrics in
 * the manifests (record, value, null and NaN counts, lower and upper bounds), which pruning and
 * aggregates answered from metadata rely on.
 */
class BatchInsertFilesTest {
  private static final int ROWS = 60;
  private static final DateTimeFormatter MICROS_OF_DAY =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter NANOS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSSSS");
  private static final String[] NAMES = {"apple", "banana", null, "cherry", "apricot", "Ünïcode"};

  @TempDir Path lake;

  static Stream<Arguments> partitionsAndVersions() {
    // Each case plans one INSERT of every row as literals, which Calcite plans slowly: each
    // partitioning runs once, on format version 2 or 3 in turn.
    return Stream.of(
        Arguments.of("", 2),
        Arguments.of("", 3),
        Arguments.of("PARTITIONED BY (name)", 2),
        Arguments.of("PARTITIONED BY (bucket(4, id))", 3),
        Arguments.of("PARTITIONED BY (truncate(3, name))", 2),
        Arguments.of("PARTITIONED BY (truncate(5, amount))", 3),
        Arguments.of("PARTITIONED BY (month(d))", 2),
        Arguments.of("PARTITIONED BY (day(ts))", 3),
        Arguments.of("PARTITIONED BY (hour(tz), k)", 2));
  }

  @ParameterizedTest(name = "{0} v{1}")
  @MethodSource("partitionsAndVersions")
  void aBatchWritesTheFilesPlainInsertsWrite(String partition, int version) throws Exception {
    boolean v3 = version == 3;
    String columns =
        "(id BIGINT NOT NULL, k INT, name VARCHAR, amount DECIMAL(10, 2), v DOUBLE, r REAL,"
            + " flag BOOLEAN, d DATE, t TIME, ts TIMESTAMP, tz TIMESTAMP WITH LOCAL TIME ZONE"
            + (v3 ? ", ns TIMESTAMP(9))" : ")");
    String with = " WITH ('format-version' = '" + version + "')";
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE batch " + columns + " " + partition + with,
          "CREATE TABLE plain " + columns + " " + partition + with);
      String parameters =
          v3 ? "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?" : "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
      // On v3 the rows come in four batches of one transaction, which share their open files:
      // the files are still those of one statement.
      int batches = v3 ? 4 : 1;
      c.setAutoCommit(batches == 1);
      try (PreparedStatement p =
          c.prepareStatement("INSERT INTO batch VALUES (" + parameters + ")")) {
        for (int b = 0; b < batches; b++) {
          int size = ROWS / batches;
          for (int i = b * size; i < (b + 1) * size; i++) {
            bind(p, i, v3);
            p.addBatch();
          }
          assertThat(p.executeBatch()).hasSize(size).containsOnly(1);
        }
      }
      c.setAutoCommit(true);
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < ROWS; i++) {
        values.append(i == 0 ? "" : ", ").append(literals(i, v3));
      }
      assertThat(Sql.update(c, "INSERT INTO plain VALUES " + values)).isEqualTo(ROWS);
    }

    IcebergView batch = IcebergView.of(lake.resolve("batch"));
    IcebergView plain = IcebergView.of(lake.resolve("plain"));
    assertThat(batch.snapshots()).hasSize(1);
    assertThat(batch.rows()).hasSize(ROWS).isEqualTo(plain.rows());
    Map<String, List<Object>> batchFiles = filesByPartition(batch);
    assertThat(batchFiles).isEqualTo(filesByPartition(plain));
    if (!partition.isEmpty()) {
      assertThat(batchFiles).hasSizeGreaterThan(1);
    }
    for (DataFile file : batch.dataFiles()) {
      assertThat(file.format()).isEqualTo(FileFormat.PARQUET);
      assertThat(file.lowerBounds()).isNotEmpty();
    }
  }

  @Test
  void nestedValuesOfABatchAreWrittenInTheirIcebergForm() throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE nested (id INT NOT NULL, days ARRAY<DATE>, m MAP<VARCHAR, TIMESTAMP>,"
              + " s STRUCT<d: DATE, n: BIGINT>)");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO nested VALUES (?, ?, ?, ?)")) {
        p.setInt(1, 1);
        p.setObject(2, List.of(LocalDate.of(1969, 12, 31), LocalDate.of(2024, 2, 29)));
        p.setObject(3, Map.of("a", LocalDateTime.of(2024, 2, 29, 10, 11, 12, 123_456_000)));
        p.setObject(4, new Object[] {LocalDate.of(1970, 1, 2), 5L});
        p.addBatch();
        p.setInt(1, 2);
        p.setNull(2, Types.ARRAY);
        p.setNull(3, Types.OTHER);
        p.setNull(4, Types.STRUCT);
        p.addBatch();
        p.executeBatch();
      }
    }
    IcebergView view = IcebergView.of(lake.resolve("nested"));
    List<Record> records = new ArrayList<>();
    view.dataFiles().forEach(f -> records.addAll(view.records(f)));
    records.sort((a, b) -> Integer.compare((Integer) a.get(0), (Integer) b.get(0)));
    assertThat(records).hasSize(2);
    Record first = records.get(0);
    assertThat(first.get(1))
        .isEqualTo(List.of(LocalDate.of(1969, 12, 31), LocalDate.of(2024, 2, 29)));
    assertThat(first.get(2))
        .isEqualTo(Map.of("a", LocalDateTime.of(2024, 2, 29, 10, 11, 12, 123_456_000)));
    Record struct = (Record) first.get(3);
    assertThat(struct.get(0)).isEqualTo(LocalDate.of(1970, 1, 2));
    assertThat(struct.get(1)).isEqualTo(5L);
    assertThat(records.get(1).get(1)).isNull();
    assertThat(records.get(1).get(3)).isNull();
  }

  /** Per partition: the files' rows (sorted) and manifest metrics, which must match. */
  private static Map<String, List<Object>> filesByPartition(IcebergView view) {
    Map<String, List<Object>> files = new TreeMap<>();
    for (DataFile file : view.dataFiles()) {
      List<List<Object>> rows = new ArrayList<>();
      for (Record record : view.records(file)) {
        List<Object> row = new ArrayList<>();
        for (int i = 0; i < record.size(); i++) {
          row.add(String.valueOf(record.get(i)));
        }
        rows.add(row);
      }
      String key = view.table().spec().partitionToPath(file.partition());
      assertThat(files).as("one file per partition").doesNotContainKey(key);
      files.put(
          key,
          List.of(
              file.recordCount(),
              Rows.sorted(rows),
              new TreeMap<>(file.valueCounts()),
              new TreeMap<>(file.nullValueCounts()),
              file.nanValueCounts() == null ? Map.of() : new TreeMap<>(file.nanValueCounts()),
              bounds(file.lowerBounds()),
              bounds(file.upperBounds())));
    }
    return files;
  }

  private static Map<Integer, String> bounds(Map<Integer, ByteBuffer> bounds) {
    Map<Integer, String> shown = new TreeMap<>();
    bounds.forEach(
        (id, buffer) -> {
          ByteBuffer copy = buffer.duplicate();
          byte[] bytes = new byte[copy.remaining()];
          copy.get(bytes);
          shown.put(id, java.util.HexFormat.of().formatHex(bytes));
        });
    return shown;
  }

  private static Long id(int i) {
    return (long) ((i * 7919) % 1000 - 300);
  }

  private static Integer k(int i) {
    return i % 11 == 0 ? null : i % 5;
  }

  private static BigDecimal amount(int i) {
    return i % 13 == 0 ? null : BigDecimal.valueOf(i * 125 - 5000, 2);
  }

  private static double v(int i) {
    return i * 0.5 - 30;
  }

  private static float r(int i) {
    return i * 0.25f - 3;
  }

  private static Boolean flag(int i) {
    return i % 7 == 0 ? null : i % 3 == 0;
  }

  private static LocalDate d(int i) {
    return LocalDate.of(1969, 12, 30).plusDays(i * 40L);
  }

  private static LocalTime t(int i) {
    return LocalTime.of(i % 24, i % 60, (i * 7) % 60, (i * 1_234_567) % 1_000_000 * 1000);
  }

  private static LocalDateTime ts(int i) {
    return LocalDateTime.of(1969, 12, 31, 20, 0).plusHours(i * 7L).plusNanos(i * 1_001_000L);
  }

  private static LocalDateTime ns(int i) {
    return ts(i).plusNanos(i * 7L % 1000);
  }

  private static void bind(PreparedStatement p, int i, boolean v3) throws Exception {
    p.setLong(1, id(i));
    if (k(i) == null) {
      p.setNull(2, Types.INTEGER);
    } else {
      p.setInt(2, k(i));
    }
    p.setString(3, NAMES[i % NAMES.length]);
    p.setBigDecimal(4, amount(i));
    p.setDouble(5, v(i));
    p.setFloat(6, r(i));
    if (flag(i) == null) {
      p.setNull(7, Types.BOOLEAN);
    } else {
      p.setBoolean(7, flag(i));
    }
    p.setObject(8, d(i));
    p.setObject(9, t(i));
    p.setObject(10, ts(i));
    p.setObject(11, OffsetDateTime.of(ts(i), ZoneOffset.UTC));
    if (v3) {
      p.setObject(12, ns(i));
    }
  }

  private static String literals(int i, boolean v3) {
    String name = NAMES[i % NAMES.length];
    return "("
        + id(i)
        + ", "
        + k(i)
        + ", "
        + (name == null ? "NULL" : "'" + name + "'")
        + ", "
        + (amount(i) == null ? "NULL" : amount(i).toPlainString())
        + ", "
        + v(i)
        + "E0, CAST("
        + r(i)
        + " AS REAL), "
        + flag(i)
        + ", DATE '"
        + d(i)
        + "', TIME '"
        + MICROS_OF_DAY.format(t(i))
        + "', TIMESTAMP '"
        + MICROS.format(ts(i))
        + "', TIMESTAMP WITH LOCAL TIME ZONE '"
        + MICROS.format(ts(i))
        + "'"
        + (v3 ? ", TIMESTAMP '" + NANOS.format(ns(i)) + "'" : "")
        + ")";
  }
}
