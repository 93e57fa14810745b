package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A format-version 3 table with {@code timestamp_ns} and {@code timestamptz_ns} columns written by
 * Iceberg's writer reads back nanosecond-exact through every getter, and filters on them, pushed
 * into the scan or evaluated above it, return the right rows.
 */
class NanosecondTimestampTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.IntegerType.get()),
          Types.NestedField.optional(2, "ts_ns", Types.TimestampNanoType.withoutZone()),
          Types.NestedField.optional(3, "tstz_ns", Types.TimestampNanoType.withZone()));

  /** The values by id (1-based); id 6 is NULL. */
  private static final List<LocalDateTime> VALUES =
      List.of(
          LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_789),
          LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
          LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1),
          LocalDateTime.of(1700, 1, 1, 0, 0, 0, 1),
          LocalDateTime.of(2200, 12, 31, 23, 59, 59, 999_999_999));

  @TempDir static Path lake;

  @BeforeAll
  static void writeAVersion3TableWithNanosecondTimestamps() {
    Table table =
        ReferenceWriter.create(lake.resolve("nanos"), SCHEMA, PartitionSpec.unpartitioned(), 3);
    List<Record> rows = new ArrayList<>();
    for (int i = 0; i < VALUES.size(); i++) {
      LocalDateTime value = VALUES.get(i);
      rows.add(ReferenceWriter.record(SCHEMA, i + 1, value, value.atOffset(ZoneOffset.UTC)));
    }
    rows.add(ReferenceWriter.record(SCHEMA, 6, null, null));
    ReferenceWriter.append(table, rows);
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + lake);
  }

  @Test
  void nanosecondTimestampsReadBackExactlyThroughEveryGetter() throws Exception {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, ts_ns, tstz_ns FROM nanos ORDER BY id")) {
      for (LocalDateTime value : VALUES) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(value);
        Timestamp ts = rs.getTimestamp(2);
        assertThat(ts.toLocalDateTime()).isEqualTo(value);
        assertThat(ts.getNanos()).isEqualTo(value.getNano());
        String text = value.toLocalDate() + " " + value.toLocalTime();
        assertThat(rs.getString(2)).isEqualTo(text);

        assertThat(rs.getObject(3, OffsetDateTime.class)).isEqualTo(value.atOffset(ZoneOffset.UTC));
        Timestamp tstz = rs.getTimestamp(3);
        assertThat(tstz.toInstant()).isEqualTo(value.toInstant(ZoneOffset.UTC));
        assertThat(tstz.getNanos()).isEqualTo(value.getNano());
        assertThat(rs.getString(3)).startsWith(text);
      }
      assertThat(rs.next()).isTrue();
      assertThat(rs.getObject(2, LocalDateTime.class)).isNull();
      assertThat(rs.getTimestamp(3)).isNull();
      assertThat(rs.next()).isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "ts_ns = TIMESTAMP '2024-02-29 23:59:59.123456789'| 1",
        "ts_ns = TIMESTAMP '2024-02-29 23:59:59.123456788'| ''",
        "ts_ns < TIMESTAMP '1970-01-01 00:00:00.000000001'| 2 4",
        "ts_ns <= TIMESTAMP '1970-01-01 00:00:00.000000001'| 2 3 4",
        "ts_ns > TIMESTAMP '1969-12-31 23:59:59.999999999'| 1 3 5",
        "ts_ns BETWEEN TIMESTAMP '1969-12-31 23:59:59.999999999'"
            + " AND TIMESTAMP '1970-01-01 00:00:00.000000001'| 2 3",
        "tstz_ns = TIMESTAMP '1969-12-31 23:59:59.999999999'| 2",
        "tstz_ns > TIMESTAMP '2200-12-31 23:59:59.999999998'| 5",
        "tstz_ns < TIMESTAMP '1700-01-01 00:00:00.000000002'| 4",
        "ts_ns IS NULL| 6",
      })
  void filtersOnNanosecondTimestampsArePushedAndReturnTheRightRows(String where, String ids)
      throws Exception {
    try (Connection c = connect()) {
      assertThat(Sql.explain(c, "SELECT id FROM nanos WHERE " + where))
          .contains("LakeTableScan")
          .contains("filter=");
      assertThat(Sql.column(c, "SELECT id FROM nanos WHERE " + where + " ORDER BY id"))
          .isEqualTo(ids.isEmpty() ? List.of() : List.of(ids.split(" ")));
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "COALESCE(ts_ns, TIMESTAMP '1600-01-01 00:00:00')"
            + " = TIMESTAMP '1970-01-01 00:00:00.000000001'| 3",
        "COALESCE(ts_ns, TIMESTAMP '1600-01-01 00:00:00')"
            + " > TIMESTAMP '2200-12-31 23:59:59.999999998'| 5",
        "COALESCE(ts_ns, TIMESTAMP '1600-01-01 00:00:00')"
            + " < TIMESTAMP '1700-01-01 00:00:00.000000002'| 4 6",
        "CAST(tstz_ns AS TIMESTAMP(9)) < TIMESTAMP '1969-12-31 23:59:59.999999999'| 4",
      })
  void filtersOnNanosecondTimestampsEvaluatedAboveTheScanReturnTheRightRows(
      String where, String ids) throws Exception {
    try (Connection c = connect()) {
      assertThat(Sql.explain(c, "SELECT id FROM nanos WHERE " + where))
          .contains("$condition")
          .doesNotContain("filter=");
      assertThat(Sql.column(c, "SELECT id FROM nanos WHERE " + where + " ORDER BY id"))
          .isEqualTo(List.of(ids.split(" ")));
    }
  }
}
