package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A query that is a plain scan is read by the getters straight from the scan's column batches; the
 * same query on a connection with {@code columnarResults=false} goes through Calcite's row cursor.
 * Every getter, on every column of every type, with NULLs, position deletes (deletion vectors in
 * format 3), equality deletes, several files on several workers, pushed filters, LIMIT and maxRows,
 * gives the same answer (or the same SQLState) both ways.
 */
class ColumnarResultTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "b", Types.BooleanType.get()),
          Types.NestedField.optional(3, "i", Types.IntegerType.get()),
          Types.NestedField.optional(4, "f", Types.FloatType.get()),
          Types.NestedField.optional(5, "dbl", Types.DoubleType.get()),
          Types.NestedField.optional(6, "s", Types.StringType.get()),
          Types.NestedField.optional(7, "dt", Types.DateType.get()),
          Types.NestedField.optional(8, "tm", Types.TimeType.get()),
          Types.NestedField.optional(9, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(10, "tstz", Types.TimestampType.withZone()),
          Types.NestedField.optional(11, "dec", Types.DecimalType.of(12, 3)),
          Types.NestedField.optional(12, "u", Types.UUIDType.get()),
          Types.NestedField.optional(13, "bin", Types.BinaryType.get()),
          Types.NestedField.optional(
              14, "arr", Types.ListType.ofOptional(15, Types.IntegerType.get())));

  /** The columns the batch decoder reads; the others make a file be read row by row. */
  private static final String FLAT = "id, b, i, f, dbl, s, dt, tm, ts, tstz";

  @TempDir Path lake;

  private void writeTable(int formatVersion) {
    Table table =
        ReferenceWriter.create(
            lake.resolve("t"), SCHEMA, PartitionSpec.unpartitioned(), formatVersion);
    DataFile first = append(table, 0, 3000);
    ReferenceWriter.deleteRows(table, first, 0, 1, 2, 999, 1000, 2999);
    append(table, 3000, 3100);
    List<Record> keys = new ArrayList<>();
    for (long id = 3010; id < 3020; id++) {
      keys.add(ReferenceWriter.record(SCHEMA.select("id"), id));
    }
    ReferenceWriter.equalityDelete(table, List.of("id"), keys);
    append(table, 3100, 3110);
    append(table, 3110, 3111);
    append(table, 3111, 9000);
  }

  private static DataFile append(Table table, long from, long to) {
    List<Record> records = new ArrayList<>();
    for (long id = from; id < to; id++) {
      records.add(row(id));
    }
    List<DataFile> files = ReferenceWriter.append(table, records);
    assertThat(files).hasSize(1);
    return files.get(0);
  }

  private static Record row(long id) {
    boolean none = id % 13 == 0;
    return ReferenceWriter.record(
        SCHEMA,
        id,
        none ? null : id % 3 == 0,
        id % 7 == 0 ? null : (int) (id * 37 % 1001) - 500,
        none ? null : id % 11 == 0 ? Float.NaN : (float) (id * 0.25 - 100),
        id % 5 == 0 ? null : id % 17 == 0 ? -0.0 : id * 1.5e10 - 3e12,
        id % 6 == 0 ? null : "s" + id + (id % 4 == 0 ? "é" : ""),
        id % 8 == 0 ? null : LocalDate.of(1, 1, 1).plusDays(id * 97 % 800_000),
        none ? null : LocalTime.ofNanoOfDay(id * 1_234_567_000L % 86_400_000_000_000L),
        id % 9 == 0
            ? null
            : LocalDateTime.of(1500, 1, 1, 0, 0).plusNanos(id * 987_654_321_001_000L),
        none
            ? null
            : OffsetDateTime.of(2024, 3, 1, 0, 0, 0, 0, java.time.ZoneOffset.UTC)
                .plusNanos(id * 1_000_001_000L),
        none ? null : BigDecimal.valueOf(id * 1001 - 5000, 3),
        none ? null : new UUID(id, -id),
        none ? null : ByteBuffer.wrap(new byte[] {(byte) id, 0, (byte) (id >> 8)}),
        none ? null : Arrays.asList((int) id, null, 3));
  }

  private Connection connect(boolean columnar) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:floe:" + lake + "?scanThreads=3&columnarResults=" + columnar);
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void everyGetterReadsTheSameFromBatchesAsFromRows(int formatVersion) throws SQLException {
    writeTable(formatVersion);
    List<String> queries =
        List.of(
            "SELECT " + FLAT + " FROM t",
            "SELECT * FROM t",
            "SELECT ts, s, id FROM t WHERE id BETWEEN 2990 AND 3120",
            "SELECT " + FLAT + " FROM t WHERE i > 100 AND s IS NOT NULL",
            "SELECT " + FLAT + " FROM t LIMIT 2500",
            "SELECT * FROM t LIMIT 5",
            "SELECT s FROM t",
            "SELECT dt FROM t WHERE id < 100",
            "SELECT " + FLAT + " FROM t WHERE id < 0");
    try (Connection columnar = connect(true);
        Connection rows = connect(false)) {
      for (String sql : queries) {
        List<String> expected = read(rows, sql, 0);
        assertThat(read(columnar, sql, 0)).as(sql).isEqualTo(expected);
        assertThat(read(columnar, sql, 777))
            .as(sql + ", maxRows 777")
            .isEqualTo(read(rows, sql, 777));
      }
      assertThat(read(rows, "SELECT * FROM t", 0)).hasSize(9000 - 6 - 10);
    }
  }

  @Test
  void theRowPositionIsReportedAsCalcitesCursorReportsIt() throws SQLException {
    writeTable(2);
    for (String sql : List.of("SELECT id FROM t WHERE id < 20", "SELECT id FROM t WHERE id < 0")) {
      assertThat(positions(connect(true), sql)).as(sql).isEqualTo(positions(connect(false), sql));
    }
  }

  private static List<String> positions(Connection connection, String sql) throws SQLException {
    List<String> seen = new ArrayList<>();
    try (connection;
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      do {
        seen.add(
            rs.getRow() + " " + rs.isBeforeFirst() + " " + rs.isAfterLast() + " " + rs.isFirst());
      } while (rs.next());
      seen.add(
          rs.getRow() + " " + rs.isBeforeFirst() + " " + rs.isAfterLast() + " " + rs.isFirst());
      seen.add(String.valueOf(rs.next()));
    }
    return seen;
  }

  @Test
  void closingMidStreamStopsTheScanAndTheConnectionGoesOn() throws SQLException {
    writeTable(3);
    try (Connection connection = connect(true);
        Statement statement = connection.createStatement()) {
      for (int round = 0; round < 20; round++) {
        ResultSet rs = statement.executeQuery("SELECT " + FLAT + " FROM t");
        for (int i = 0; i < round * 100 && rs.next(); i++) {
          rs.getString(6);
        }
        rs.close();
        assertThatThrownBy(rs::next)
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08003"));
      }
      // A new statement replaces the open result set before it is read to the end.
      ResultSet open = statement.executeQuery("SELECT id FROM t");
      assertThat(open.next()).isTrue();
      try (ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM t")) {
        assertThat(count.next()).isTrue();
        assertThat(count.getLong(1)).isEqualTo(9000 - 6 - 10);
      }
      assertThat(open.isClosed()).isTrue();
    }
  }

  @Test
  void aCancelledScanFailsWithTheCancelledState() throws SQLException {
    writeTable(2);
    try (Connection connection = connect(true);
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT " + FLAT + " FROM t")) {
      assertThat(rs.next()).isTrue();
      statement.cancel();
      assertThatThrownBy(
              () -> {
                while (rs.next()) {
                  rs.getLong(1);
                }
              })
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
    }
  }

  /** Every row of a query, each column read with every getter, by index and by label. */
  private static List<String> read(Connection connection, String sql, int maxRows)
      throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement statement = connection.createStatement()) {
      statement.setMaxRows(maxRows);
      try (ResultSet rs = statement.executeQuery(sql)) {
        ResultSetMetaData meta = rs.getMetaData();
        int columns = meta.getColumnCount();
        int read = 0;
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          // Every getter on every 23rd row (failed reads cost an exception each), and on the
          // others the value as an object and as text.
          List<Getter> getters = read++ % 23 == 0 ? GETTERS : GETTERS.subList(0, 2);
          for (int c = 1; c <= columns; c++) {
            String label = meta.getColumnLabel(c);
            int column = c;
            row.append(label).append('{');
            for (Getter getter : getters) {
              row.append(value(() -> getter.get(rs, column)));
              row.append(value(() -> rs.wasNull())).append(';');
            }
            if (getters != GETTERS) {
              row.append('}');
              continue;
            }
            row.append(value(() -> rs.getObject(label)))
                .append(value(() -> rs.getLong(label)))
                .append(value(() -> rs.getString(label)))
                .append(value(() -> rs.getBoolean(label)))
                .append(value(() -> rs.getBigDecimal(label)))
                .append(value(() -> rs.getTimestamp(label)))
                .append('}');
          }
          out.add(row.toString());
        }
      }
    }
    return out;
  }

  /** One getter applied to a column. */
  @FunctionalInterface
  private interface Getter {
    Object get(ResultSet rs, int column) throws SQLException;
  }

  private static final List<Getter> GETTERS =
      List.of(
          ResultSet::getObject,
          ResultSet::getString,
          ResultSet::getLong,
          ResultSet::getInt,
          ResultSet::getShort,
          ResultSet::getByte,
          ResultSet::getDouble,
          ResultSet::getFloat,
          ResultSet::getBoolean,
          ResultSet::getBigDecimal,
          ResultSet::getBytes,
          ResultSet::getDate,
          ResultSet::getTime,
          ResultSet::getTimestamp,
          ResultSet::getArray,
          ResultSet::getNString,
          (rs, c) -> rs.getObject(c, LocalDate.class),
          (rs, c) -> rs.getObject(c, LocalTime.class),
          (rs, c) -> rs.getObject(c, LocalDateTime.class),
          (rs, c) -> rs.getObject(c, OffsetDateTime.class),
          (rs, c) -> rs.getObject(c, Instant.class),
          (rs, c) -> rs.getObject(c, String.class),
          (rs, c) -> rs.getObject(c, Long.class),
          (rs, c) -> rs.getObject(c, Double.class),
          (rs, c) -> rs.getObject(c, BigDecimal.class),
          (rs, c) -> rs.getObject(c, UUID.class),
          (rs, c) -> rs.getObject(c, byte[].class));

  /** A value read, or the SQLState of the failure to read it. */
  @FunctionalInterface
  private interface Read {
    Object read() throws SQLException;
  }

  private static String value(Read read) {
    Object value;
    try {
      value = read.read();
    } catch (SQLException e) {
      return "!" + e.getSQLState() + " ";
    }
    return show(value) + " ";
  }

  private static String show(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof byte[] bytes) {
      return "bytes" + Arrays.toString(bytes);
    }
    if (value instanceof java.sql.Array array) {
      try {
        return "array" + Arrays.deepToString((Object[]) array.getArray());
      } catch (SQLException e) {
        return "array!" + e.getSQLState();
      }
    }
    if (value instanceof java.util.Date date) {
      return value.getClass().getSimpleName() + ":" + value + "@" + date.getTime();
    }
    return value.getClass().getSimpleName() + ":" + value;
  }
}
