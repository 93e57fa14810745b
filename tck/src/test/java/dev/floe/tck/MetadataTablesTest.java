package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataTask;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataTableType;
import org.apache.iceberg.MetadataTableUtils;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table's snapshots, history, files, manifests, partitions, refs, properties, metadata log and
 * manifest entries as tables ({@code "t$snapshots"}), compared column by column with what Iceberg's
 * own metadata-table scan gives for the same table.
 */
class MetadataTablesTest {
  @org.junit.jupiter.api.io.TempDir static Path root;
  static HistoryLake lake;

  @BeforeAll
  static void writeLake() {
    lake = HistoryLake.write(root);
  }

  /** Iceberg's rows of a metadata table, each column in canonical form, sorted. */
  private static List<String> reference(Table table, MetadataTableType type, Long snapshotId)
      throws Exception {
    Table meta = MetadataTableUtils.createMetadataTableInstance(table, type);
    TableScan scan = meta.newScan();
    if (snapshotId != null) {
      scan = scan.useSnapshot(snapshotId);
    }
    Types.StructType struct = meta.schema().asStruct();
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        try (CloseableIterable<StructLike> taskRows = ((DataTask) task).rows()) {
          for (StructLike row : taskRows) {
            rows.add(internal(struct, row));
          }
        }
      }
    }
    rows.sort(null);
    return rows;
  }

  /** Floe's rows of a query, each column in canonical form for the reference schema, sorted. */
  private static List<String> floe(Connection c, String sql, Types.StructType struct)
      throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      assertThat(md.getColumnCount()).isEqualTo(struct.fields().size());
      for (int i = 0; i < struct.fields().size(); i++) {
        assertThat(md.getColumnName(i + 1).toLowerCase(Locale.ROOT))
            .isEqualTo(struct.fields().get(i).name());
      }
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 0; i < struct.fields().size(); i++) {
          row.add(jdbc(struct.fields().get(i).type(), rs.getObject(i + 1)));
        }
        rows.add("{" + String.join(", ", row) + "}");
      }
    }
    rows.sort(null);
    return rows;
  }

  /** Canonical form of a value in Iceberg's internal representation (micros, ByteBuffer). */
  private static String internal(Type type, Object value) {
    if (value == null) {
      return "NULL";
    }
    switch (type.typeId()) {
      case STRUCT:
        {
          StructLike struct = (StructLike) value;
          List<Types.NestedField> fields = type.asStructType().fields();
          List<String> parts = new ArrayList<>();
          for (int i = 0; i < fields.size(); i++) {
            parts.add(internal(fields.get(i).type(), struct.get(i, Object.class)));
          }
          return "{" + String.join(", ", parts) + "}";
        }
      case LIST:
        {
          List<String> parts = new ArrayList<>();
          for (Object e : (List<?>) value) {
            parts.add(internal(type.asListType().elementType(), e));
          }
          return "[" + String.join(", ", parts) + "]";
        }
      case MAP:
        {
          TreeMap<String, String> parts = new TreeMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            parts.put(
                internal(type.asMapType().keyType(), e.getKey()),
                internal(type.asMapType().valueType(), e.getValue()));
          }
          return "map" + parts;
        }
      case TIMESTAMP:
        {
          long micros = (Long) value;
          return Instant.ofEpochSecond(
                  Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000L)
              .toString();
        }
      case BINARY:
      case FIXED:
        {
          ByteBuffer b = ((ByteBuffer) value).duplicate();
          byte[] bytes = new byte[b.remaining()];
          b.get(bytes);
          return HexFormat.of().formatHex(bytes);
        }
      case STRING:
        return "'" + value + "'";
      default:
        return value.toString();
    }
  }

  /** Canonical form of a value as JDBC's {@code getObject} returns it. */
  private static String jdbc(Type type, Object value) throws SQLException {
    if (value == null) {
      return "NULL";
    }
    switch (type.typeId()) {
      case STRUCT:
        {
          Object[] attributes =
              value instanceof Struct ? ((Struct) value).getAttributes() : (Object[]) value;
          List<Types.NestedField> fields = type.asStructType().fields();
          List<String> parts = new ArrayList<>();
          for (int i = 0; i < fields.size(); i++) {
            parts.add(jdbc(fields.get(i).type(), attributes[i]));
          }
          return "{" + String.join(", ", parts) + "}";
        }
      case LIST:
        {
          List<Object> elements = new ArrayList<>();
          if (value instanceof Array) {
            // getArray() of a BIGINT or INTEGER array is a primitive array.
            Object array = ((Array) value).getArray();
            for (int i = 0; i < java.lang.reflect.Array.getLength(array); i++) {
              elements.add(java.lang.reflect.Array.get(array, i));
            }
          } else {
            elements.addAll((List<?>) value);
          }
          List<String> parts = new ArrayList<>();
          for (Object e : elements) {
            parts.add(jdbc(type.asListType().elementType(), e));
          }
          return "[" + String.join(", ", parts) + "]";
        }
      case MAP:
        {
          TreeMap<String, String> parts = new TreeMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            parts.put(
                jdbc(type.asMapType().keyType(), e.getKey()),
                jdbc(type.asMapType().valueType(), e.getValue()));
          }
          return "map" + parts;
        }
      case TIMESTAMP:
        return ((java.sql.Timestamp) value).toInstant().toString();
      case BINARY:
      case FIXED:
        // Inside a MAP, Floe gives Avatica's ByteString (docs/limits.md, "Known limits"), which
        // prints as
        // lower-case hex.
        return value instanceof byte[]
            ? HexFormat.of().formatHex((byte[]) value)
            : value.toString();
      case STRING:
        return "'" + value + "'";
      default:
        return value.toString();
    }
  }

  private static Types.StructType schemaOf(MetadataTableType type) {
    return MetadataTableUtils.createMetadataTableInstance(lake.table(), type).schema().asStruct();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "snapshots",
        "history",
        "files",
        "manifests",
        "partitions",
        "refs",
        "metadata_log_entries",
        "entries",
        "all_manifests",
        "all_files",
        "all_entries",
        "data_files",
        "delete_files"
      })
  void everyMetadataTableMatchesIcebergsOwnScan(String name) throws Exception {
    MetadataTableType type = MetadataTableType.from(name);
    Types.StructType struct = schemaOf(type);
    List<String> expected = reference(lake.table(), type, null);
    assertThat(expected).isNotEmpty();
    try (Connection c = DriverManager.getConnection(lake.url)) {
      assertThat(floe(c, "SELECT * FROM \"hist$" + name + "\"", struct)).isEqualTo(expected);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"files", "manifests", "partitions", "entries"})
  void snapshotMetadataTablesTravelInTime(String name) throws Exception {
    MetadataTableType type = MetadataTableType.from(name);
    List<String> expected = reference(lake.table(), type, lake.s2);
    try (Connection c = DriverManager.getConnection(lake.url)) {
      String at = HistoryLake.timestampLiteral(lake.committedAt(lake.s2), java.time.ZoneOffset.UTC);
      assertThat(
              floe(
                  c,
                  "SELECT * FROM \"hist$" + name + "\" FOR SYSTEM_TIME AS OF " + at,
                  schemaOf(type)))
          .isEqualTo(expected);
      assertThat(
              floe(
                  c,
                  "SELECT * FROM \"hist$" + name + "\" FOR VERSION AS OF " + lake.s2,
                  schemaOf(type)))
          .isEqualTo(expected);
    }
  }

  @Test
  void propertiesAreKeysAndValues() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT \"key\", \"value\" FROM \"hist$properties\"")) {
      Map<String, String> properties = new TreeMap<>();
      while (rs.next()) {
        properties.put(rs.getString(1), rs.getString(2));
      }
      assertThat(properties).isEqualTo(new TreeMap<>(lake.table().properties()));
      assertThat(properties).isNotEmpty();
    }
  }

  @Test
  void anUnquotedNameWorksAndFiltersApply() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT snapshot_id, operation FROM hist$snapshots WHERE snapshot_id = "
                    + lake.s3)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(lake.s3);
      assertThat(rs.getString(2)).isEqualTo("delete");
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void anUnknownMetadataTableNamesTheValidOnes() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      SQLException e =
          catchThrowableOfType(
              SQLException.class,
              () -> {
                try (Statement s = c.createStatement()) {
                  s.executeQuery("SELECT * FROM \"hist$nope\"");
                }
              });
      assertThat((Throwable) e).isNotNull();
      assertThat(e.getSQLState()).isEqualTo("42S02");
      assertThat(e.getMessage()).contains("nope").contains("snapshots").contains("refs");
    }
  }

  @Test
  void databaseMetaDataHidesThemFromTablesButDescribesTheirColumns() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.url)) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_NAME"));
        }
      }
      assertThat(tables).contains("hist").noneMatch(t -> t.contains("$"));
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = c.getMetaData().getColumns(null, null, "hist$snapshots", "%")) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME"));
        }
      }
      assertThat(columns)
          .containsExactly(
              "committed_at", "snapshot_id", "parent_id", "operation", "manifest_list", "summary");
    }
  }
}
