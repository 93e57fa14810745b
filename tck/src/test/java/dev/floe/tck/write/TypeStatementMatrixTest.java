package dev.floe.tck.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.iceberg.StructLike;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every type Floe maps, written by every kind of statement that writes rows, reads back exactly the
 * values written, with Iceberg's own reader and through JDBC: one assignment for all (docs/sql.md,
 * "Assignment"). A source table is filled by INSERT VALUES and checked against the expected Java
 * values; each statement then writes its rows into another table, which must read back as the
 * source does, value for value (TIME and TIMESTAMP to the microsecond, TIMESTAMP(9) to the
 * nanosecond, DECIMAL(38, 10), binary, UUID, and ARRAY, MAP and ROW holding times and timestamps),
 * including a row of NULLs.
 */
class TypeStatementMatrixTest {
  /** The columns: name, SQL type, the literal of row 1, its value as Iceberg's reader gives it. */
  private record Column(String name, String type, String literal, Object value) {}

  private static final List<Column> COLUMNS =
      List.of(
          new Column("b", "BOOLEAN", "TRUE", true),
          new Column("i", "INT", "-2147483648", Integer.MIN_VALUE),
          new Column("l", "BIGINT", "9223372036854775807", Long.MAX_VALUE),
          new Column("r", "REAL", "CAST(1.5 AS REAL)", 1.5f),
          new Column("d", "DOUBLE", "2.5E-300", 2.5e-300),
          new Column(
              "dm",
              "DECIMAL(38, 10)",
              "1234567890123456789012345678.0123456789",
              new BigDecimal("1234567890123456789012345678.0123456789")),
          new Column("dt", "DATE", "DATE '0001-01-01'", LocalDate.of(1, 1, 1)),
          new Column("tm", "TIME", "TIME '23:59:59.999999'", LocalTime.parse("23:59:59.999999")),
          new Column(
              "ts",
              "TIMESTAMP(6)",
              "TIMESTAMP '1969-12-31 23:59:59.999999'",
              LocalDateTime.parse("1969-12-31T23:59:59.999999")),
          new Column(
              "tz",
              "TIMESTAMP(6) WITH LOCAL TIME ZONE",
              "TIMESTAMP WITH LOCAL TIME ZONE '2024-02-29 12:34:56.789012'",
              OffsetDateTime.parse("2024-02-29T12:34:56.789012Z")),
          new Column(
              "ns",
              "TIMESTAMP(9)",
              "TIMESTAMP '2024-01-01 10:11:12.123456789'",
              LocalDateTime.parse("2024-01-01T10:11:12.123456789")),
          new Column(
              "nz",
              "TIMESTAMP(9) WITH LOCAL TIME ZONE",
              "TIMESTAMP WITH LOCAL TIME ZONE '1969-12-31 23:59:59.999999999'",
              OffsetDateTime.parse("1969-12-31T23:59:59.999999999Z")),
          new Column("s", "VARCHAR", "'日本 ✓ '' quote'", "日本 ✓ ' quote"),
          new Column(
              "u",
              "UUID",
              "UUID '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'",
              UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")),
          new Column("f", "BINARY(4)", "X'00ff0102'", new byte[] {0, -1, 1, 2}),
          new Column("vb", "VARBINARY", "X'deadbeef00'", new byte[] {-34, -83, -66, -17, 0}),
          new Column(
              "a",
              "ARRAY<TIME>",
              "ARRAY[TIME '00:00:00.000001', TIME '12:00:00.5']",
              List.of(LocalTime.parse("00:00:00.000001"), LocalTime.parse("12:00:00.5"))),
          new Column(
              "m",
              "MAP<VARCHAR, TIMESTAMP(6)>",
              "MAP['k', TIMESTAMP '2024-01-01 10:11:12.123456']",
              Map.of("k", LocalDateTime.parse("2024-01-01T10:11:12.123456"))),
          new Column(
              "st",
              "ROW(x INT, t TIME, ts TIMESTAMP(6), dm DECIMAL(10, 2))",
              "ROW(1, TIME '01:02:03.000004', TIMESTAMP '0001-01-01 00:00:00', 12.34)",
              new Object[] {
                1,
                LocalTime.parse("01:02:03.000004"),
                LocalDateTime.parse("0001-01-01T00:00"),
                new BigDecimal("12.34")
              }));

  /** What each column's value reads as through JDBC's getString, one field of a nested one. */
  private static final String READ_BACK =
      "SELECT id, b, i, l, r, d, dm, dt, tm, ts, tz, ns, nz, s, u, f, vb, x.a[1], x.a[2],"
          + " x.m['k'], x.st.x, x.st.t, x.st.ts, x.st.dm FROM %s x%s ORDER BY id";

  /** Every kind of statement that writes rows. */
  enum Kind {
    INSERT_VALUES,
    INSERT_SELECT,
    BATCH,
    UPDATE_CARRYING,
    UPDATE_ASSIGNING,
    MERGE_UPDATE_CARRYING,
    MERGE_UPDATE_ASSIGNING,
    MERGE_INSERT,
    MERGE_INSERT_VALUES,
    CREATE_TABLE_AS_SELECT,
    CREATE_OR_REPLACE_AS_SELECT,
    INSERT_OVERWRITE,
    COPY_ON_WRITE_DELETE,
    COPY_ON_WRITE_UPDATE,
    COPY_ON_WRITE_MERGE,
    OPTIMIZE
  }

  @TempDir Path lake;

  @ParameterizedTest
  @EnumSource(Kind.class)
  void everyTypeReadsBackExactly(Kind kind) throws Exception {
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE src (" + columns() + ") WITH ('format-version' = '3')",
          "INSERT INTO src VALUES "
              + literalRow()
              + ", (2"
              + ", NULL".repeat(COLUMNS.size())
              + ")");
      assertThat(canonical(IcebergView.of(lake.resolve("src")).rows()))
          .as("the source, as Iceberg reads it")
          .containsExactly(expectedRow(), nullRow());
      List<Integer> ids = write(c, kind);
      String where = ids.size() == 2 ? "" : " WHERE x.id = " + ids.get(0);
      List<List<Object>> expected = new ArrayList<>();
      for (List<Object> row : IcebergView.of(lake.resolve("src")).rows()) {
        if (ids.contains((Integer) row.get(0))) {
          expected.add(row);
        }
      }
      List<List<Object>> written = new ArrayList<>();
      for (List<Object> row : IcebergView.of(lake.resolve("t")).rows()) {
        written.add(row.subList(0, COLUMNS.size() + 1));
      }
      assertThat(canonical(written))
          .as(kind + ", as Iceberg reads it")
          .isEqualTo(canonical(expected));
      assertThat(Sql.lines(c, String.format(READ_BACK, "t", "")))
          .as(kind + ", through JDBC")
          .isEqualTo(Sql.lines(c, String.format(READ_BACK, "src", where)));
      if (kind == Kind.OPTIMIZE) {
        assertThat(IcebergView.of(lake.resolve("t")).dataFiles()).hasSize(1);
      }
    }
  }

  /**
   * Writes table {@code t} with the statement kind; returns the ids of the source rows it holds.
   */
  private List<Integer> write(Connection c, Kind kind) throws SQLException {
    String v3 = " WITH ('format-version' = '3')";
    String withK = "CREATE TABLE t (" + columns() + ", k INT)";
    String names = COLUMNS.stream().map(Column::name).collect(Collectors.joining(", "));
    String fromSource =
        COLUMNS.stream()
            .map(col -> col.name() + " = s." + col.name())
            .collect(Collectors.joining(", "));
    String literals =
        COLUMNS.stream()
            .map(col -> col.name() + " = " + col.literal())
            .collect(Collectors.joining(", "));
    switch (kind) {
      case INSERT_VALUES:
        Sql.run(
            c,
            "CREATE TABLE t (" + columns() + ")" + v3,
            "INSERT INTO t VALUES "
                + literalRow()
                + ", (2"
                + ", NULL".repeat(COLUMNS.size())
                + ")");
        return List.of(1, 2);
      case INSERT_SELECT:
        Sql.run(c, "CREATE TABLE t (" + columns() + ")" + v3, "INSERT INTO t SELECT * FROM src");
        return List.of(1, 2);
      case BATCH:
        Sql.run(c, "CREATE TABLE t (" + columns() + ")" + v3);
        try (PreparedStatement p =
            c.prepareStatement("INSERT INTO t VALUES (?" + ", ?".repeat(COLUMNS.size()) + ")")) {
          p.setInt(1, 1);
          for (int i = 0; i < COLUMNS.size(); i++) {
            p.setObject(i + 2, COLUMNS.get(i).value());
          }
          p.addBatch();
          p.setInt(1, 2);
          for (int i = 0; i < COLUMNS.size(); i++) {
            p.setObject(i + 2, null);
          }
          p.addBatch();
          p.executeBatch();
        }
        return List.of(1, 2);
      case UPDATE_CARRYING:
        Sql.run(c, withK + v3, "INSERT INTO t SELECT *, 0 FROM src", "UPDATE t SET k = 1");
        return List.of(1, 2);
      case UPDATE_ASSIGNING:
        Sql.run(
            c,
            withK + v3,
            "INSERT INTO t (id, k) SELECT id, 0 FROM src",
            "UPDATE t SET " + literals + " WHERE id = 1");
        return List.of(1, 2);
      case MERGE_UPDATE_CARRYING:
        Sql.run(
            c,
            withK + v3,
            "INSERT INTO t SELECT *, 0 FROM src",
            "MERGE INTO t USING src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET k = 1");
        return List.of(1, 2);
      case MERGE_UPDATE_ASSIGNING:
        Sql.run(
            c,
            withK + v3,
            "INSERT INTO t (id, k) SELECT id, 0 FROM src",
            "MERGE INTO t USING src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET " + fromSource);
        return List.of(1, 2);
      case MERGE_INSERT:
        Sql.run(
            c,
            "CREATE TABLE t (" + columns() + ")" + v3,
            "MERGE INTO t USING src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *");
        return List.of(1, 2);
      case MERGE_INSERT_VALUES:
        Sql.run(
            c,
            "CREATE TABLE t (" + columns() + ")" + v3,
            "MERGE INTO t USING src s ON t.id = s.id"
                + " WHEN NOT MATCHED AND s.id = 1 THEN INSERT (id, "
                + names
                + ") VALUES (s.id, "
                + COLUMNS.stream().map(Column::literal).collect(Collectors.joining(", "))
                + ") WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)");
        return List.of(1, 2);
      case CREATE_TABLE_AS_SELECT:
        Sql.run(c, "CREATE TABLE t AS SELECT * FROM src");
        return List.of(1, 2);
      case CREATE_OR_REPLACE_AS_SELECT:
        Sql.run(
            c,
            "CREATE TABLE t (other VARCHAR)",
            "INSERT INTO t VALUES ('gone')",
            "CREATE OR REPLACE TABLE t AS SELECT * FROM src");
        return List.of(1, 2);
      case INSERT_OVERWRITE:
        Sql.run(
            c,
            "CREATE TABLE t (" + columns() + ")" + v3,
            "INSERT INTO t (id) VALUES (7), (8)",
            "INSERT OVERWRITE t SELECT * FROM src");
        return List.of(1, 2);
      case COPY_ON_WRITE_DELETE:
        Sql.run(
            c,
            "CREATE TABLE t ("
                + columns()
                + ") WITH ('format-version' = '3', 'write.delete.mode' = 'copy-on-write')",
            "INSERT INTO t SELECT * FROM src",
            "DELETE FROM t WHERE id = 2");
        return List.of(1);
      case COPY_ON_WRITE_UPDATE:
        Sql.run(
            c,
            withK + " WITH ('format-version' = '3', 'write.update.mode' = 'copy-on-write')",
            "INSERT INTO t SELECT *, 0 FROM src",
            "UPDATE t SET k = 1 WHERE id = 2");
        return List.of(1, 2);
      case COPY_ON_WRITE_MERGE:
        Sql.run(
            c,
            withK + " WITH ('format-version' = '3', 'write.merge.mode' = 'copy-on-write')",
            "INSERT INTO t SELECT *, 0 FROM src",
            "MERGE INTO t USING (SELECT 2 AS id) s ON t.id = s.id"
                + " WHEN MATCHED THEN UPDATE SET k = 1");
        return List.of(1, 2);
      case OPTIMIZE:
        Sql.run(
            c,
            "CREATE TABLE t (" + columns() + ")" + v3,
            "INSERT INTO t SELECT * FROM src WHERE id = 1",
            "INSERT INTO t SELECT * FROM src WHERE id = 2");
        try (Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("ALTER TABLE t EXECUTE optimize")) {
          assertThat(rs.next()).isTrue();
        }
        return List.of(1, 2);
      default:
        throw new IllegalArgumentException(kind.name());
    }
  }

  private static String columns() {
    return "id INT, "
        + COLUMNS.stream().map(c -> c.name() + " " + c.type()).collect(Collectors.joining(", "));
  }

  private static String literalRow() {
    return "(1, " + COLUMNS.stream().map(Column::literal).collect(Collectors.joining(", ")) + ")";
  }

  private static String expectedRow() {
    List<Object> row = new ArrayList<>();
    row.add(1);
    for (Column column : COLUMNS) {
      row.add(IcebergView.normalize(column.value()));
    }
    return canonicalRow(row);
  }

  private static String nullRow() {
    List<Object> row = new ArrayList<>();
    row.add(2);
    for (int i = 0; i < COLUMNS.size(); i++) {
      row.add(null);
    }
    return canonicalRow(row);
  }

  /** Rows in canonical text, ordered by their first column (the id). */
  private static List<String> canonical(List<List<Object>> rows) {
    List<List<Object>> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparing(r -> (Integer) r.get(0)));
    return sorted.stream().map(TypeStatementMatrixTest::canonicalRow).toList();
  }

  private static String canonicalRow(List<Object> row) {
    return row.stream().map(TypeStatementMatrixTest::canonical).collect(Collectors.joining(", "));
  }

  /** A value as text that compares equal exactly when the values are equal, nested included. */
  private static String canonical(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof byte[] bytes) {
      return "0x" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return "0x" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof Object[] fields) {
      return "(" + canonicalRow(java.util.Arrays.asList(fields)) + ")";
    }
    if (value instanceof StructLike struct) {
      List<Object> fields = new ArrayList<>();
      for (int i = 0; i < struct.size(); i++) {
        fields.add(struct.get(i, Object.class));
      }
      return "(" + canonicalRow(fields) + ")";
    }
    if (value instanceof List<?> list) {
      return "[" + canonicalRow(new ArrayList<Object>(list)) + "]";
    }
    if (value instanceof Map<?, ?> map) {
      TreeMap<String, String> sorted = new TreeMap<>();
      map.forEach((k, v) -> sorted.put(canonical(k), canonical(v)));
      return sorted.toString();
    }
    if (value instanceof CharSequence) {
      return "'" + value + "'";
    }
    return value.getClass().getSimpleName() + ":" + value;
  }
}
