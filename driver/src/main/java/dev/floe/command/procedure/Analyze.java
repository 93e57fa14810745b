package dev.floe.command.procedure;

import dev.floe.command.CommandContext;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.adapter.TableStatistics;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.parser.FloeParser;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.UpdateSketch;
import org.apache.iceberg.BlobMetadata;
import org.apache.iceberg.GenericBlobMetadata;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.puffin.Blob;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinWriter;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * {@code ANALYZE table [(column, ...)]}: the number of distinct values of each column (all
 * top-level columns of primitive types by default) of the table's current snapshot, written as
 * Trino and Spark write them, so that they and Floe's planner read them: one Puffin file beside the
 * table's metadata with an {@code apache-datasketches-theta-v1} blob per column (a compact theta
 * sketch of the column's non-NULL values, each hashed as Iceberg's single-value binary form) whose
 * {@code ndv} property is the sketch's estimate, registered as the snapshot's statistics file
 * (replacing one it had). Answers the number of rows read.
 */
public final class Analyze {
  private static final Pattern HANDLED =
      Pattern.compile(
          "^(?:\\s|--[^\\n]*\\n|/\\*.*?\\*/)*ANALYZE\\b(.*)$",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  private final CommandContext connection;

  public Analyze(CommandContext connection) {
    this.connection = connection;
  }

  /** Whether a statement is an ANALYZE (a cheap test on its first word). */
  public static boolean handles(String sql) {
    return HANDLED.matcher(sql).find();
  }

  /** Runs the statement; returns the number of rows read. */
  public long execute(String sql) throws SQLException {
    Matcher m = HANDLED.matcher(sql);
    if (!m.find()) {
      throw SqlErrors.of(FloeError.SYNTAX, "expected ANALYZE table [(column, ...)]: " + sql);
    }
    Target target = target(m.group(1).strip(), sql);
    try {
      List<String> path =
          new TableNames(connection.session().catalog())
              .tableToChange(connection.schemaPath(), SqlNames.parts(target.table()), "analyze");
      if (connection.session().readOnly()) {
        throw SqlErrors.of(FloeError.READ_ONLY, "run analyze on " + String.join(".", path));
      }
      if (!connection.session().autoCommit() && connection.session().hasPendingChange(path)) {
        throw SqlErrors.of(
            FloeError.INVALID_TRANSACTION_STATE,
            "run analyze on " + String.join(".", path),
            "the open transaction has uncommitted changes to it; commit or roll back first");
      }
      Table table = connection.session().catalog().loadTable(path);
      Snapshot snapshot = table.currentSnapshot();
      if (snapshot == null) {
        return 0; // an empty table: nothing to describe
      }
      Schema schema = table.schemas().getOrDefault(snapshot.schemaId(), table.schema());
      List<Types.NestedField> fields = fields(schema, target.columns(), String.join(".", path));
      return analyze(table, path, snapshot, fields);
    } catch (IOException e) {
      throw SqlErrors.toSql(FloeError.IO.error(e, target.table().toString(), e.getMessage()));
    } catch (RuntimeException e) {
      throw SqlErrors.toSql(e);
    }
  }

  private record Target(SqlIdentifier table, List<SqlIdentifier> columns) {}

  /**
   * The table and columns of {@code rest} (what follows ANALYZE), parsed by Floe's parser as the
   * FROM and select list of a query, so names are spelled and quoted as everywhere else.
   */
  private static Target target(String rest, String sql) throws SQLException {
    String text = rest.endsWith(";") ? rest.substring(0, rest.length() - 1).strip() : rest;
    int open = firstUnquoted(text, '(');
    String name = open < 0 ? text : text.substring(0, open).strip();
    String columns = "*";
    if (open >= 0) {
      if (!text.endsWith(")")) {
        throw SqlErrors.of(FloeError.SYNTAX, "expected ANALYZE table [(column, ...)]: " + sql);
      }
      columns = text.substring(open + 1, text.length() - 1);
    }
    if (name.isEmpty() || columns.isBlank()) {
      throw SqlErrors.of(FloeError.SYNTAX, "expected ANALYZE table [(column, ...)]: " + sql);
    }
    SqlNode parsed;
    try {
      parsed = FloeParser.parse("SELECT " + columns + " FROM " + name);
    } catch (RuntimeException e) {
      throw SqlErrors.of(FloeError.SYNTAX, "expected ANALYZE table [(column, ...)]: " + sql);
    }
    if (!(parsed instanceof SqlSelect select)
        || !(select.getFrom() instanceof SqlIdentifier table)) {
      throw SqlErrors.of(FloeError.SYNTAX, "expected ANALYZE table [(column, ...)]: " + sql);
    }
    List<SqlIdentifier> list = new ArrayList<>();
    SqlNodeList items = select.getSelectList();
    for (SqlNode item : items) {
      if (!(item instanceof SqlIdentifier id) || (id.isStar() && items.size() > 1)) {
        throw SqlErrors.of(
            FloeError.SYNTAX, "expected column names in ANALYZE table (column, ...): " + sql);
      }
      if (!id.isStar()) {
        list.add(id);
      }
    }
    return new Target(table, list);
  }

  private static int firstUnquoted(String text, char wanted) {
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '`') {
        quoted = !quoted;
      } else if (c == wanted && !quoted) {
        return i;
      }
    }
    return -1;
  }

  /** The fields named (quoted: exactly; unquoted: ignoring case), or every primitive column. */
  private static List<Types.NestedField> fields(
      Schema schema, List<SqlIdentifier> columns, String table) throws SQLException {
    List<Types.NestedField> fields = new ArrayList<>();
    if (columns.isEmpty()) {
      for (Types.NestedField field : schema.columns()) {
        if (field.type().isPrimitiveType()) {
          fields.add(field);
        }
      }
      return fields;
    }
    for (SqlIdentifier column : columns) {
      if (column.names.size() != 1) {
        throw SqlErrors.of(FloeError.COLUMN_NOT_FOUND, column + " in " + table);
      }
      Types.NestedField found =
          schema.findField(
              ColumnNames.resolve(
                  ColumnNames.names(schema.columns()), SqlNames.part(column), table));
      if (!found.type().isPrimitiveType()) {
        throw SqlErrors.of(
            FloeError.NOT_SUPPORTED, "ANALYZE of " + found.name() + " (" + found.type() + ")");
      }
      if (!fields.contains(found)) {
        fields.add(found);
      }
    }
    return fields;
  }

  private long analyze(
      Table table, List<String> path, Snapshot snapshot, List<Types.NestedField> fields)
      throws SQLException, IOException {
    List<UpdateSketch> sketches = new ArrayList<>();
    StringBuilder select = new StringBuilder("SELECT ");
    for (int i = 0; i < fields.size(); i++) {
      sketches.add(UpdateSketch.builder().build());
      select.append(i == 0 ? "" : ", ").append(quoted(fields.get(i).name()));
    }
    if (fields.isEmpty()) {
      select.append("1");
    }
    select.append(" FROM ");
    for (int i = 0; i < path.size(); i++) {
      select.append(i == 0 ? "" : ".").append(quoted(path.get(i)));
    }
    select.append(" FOR VERSION AS OF ").append(snapshot.snapshotId());
    long rows = 0;
    try (Statement query = connection.createStatement();
        ResultSet rs = query.executeQuery(select.toString())) {
      while (rs.next()) {
        rows++;
        for (int i = 0; i < fields.size(); i++) {
          Type type = fields.get(i).type();
          Object value = internal(rs, i + 1, type);
          if (value != null) {
            ByteBuffer bytes = Conversions.toByteBuffer(type, value);
            byte[] array = new byte[bytes.remaining()];
            bytes.duplicate().get(array);
            sketches.get(i).update(array);
          }
        }
      }
    }
    String location =
        table.location()
            + "/metadata/"
            + snapshot.snapshotId()
            + "-"
            + UUID.randomUUID()
            + ".stats";
    OutputFile out = table.io().newOutputFile(location);
    List<BlobMetadata> blobs = new ArrayList<>();
    long size;
    long footer;
    try (PuffinWriter writer = Puffin.write(out).createdBy("Floe").build()) {
      for (int i = 0; i < fields.size(); i++) {
        CompactSketch sketch = sketches.get(i).compact();
        writer.add(
            new Blob(
                TableStatistics.THETA_BLOB,
                List.of(fields.get(i).fieldId()),
                snapshot.snapshotId(),
                snapshot.sequenceNumber(),
                ByteBuffer.wrap(sketch.toByteArray()),
                null,
                Map.of(
                    TableStatistics.NDV_PROPERTY,
                    Long.toString(Math.round(sketch.getEstimate())))));
      }
      writer.finish();
      size = writer.fileSize();
      footer = writer.footerSize();
      for (org.apache.iceberg.puffin.BlobMetadata written : writer.writtenBlobsMetadata()) {
        blobs.add(GenericBlobMetadata.from(written));
      }
    }
    table
        .updateStatistics()
        .setStatistics(
            new GenericStatisticsFile(snapshot.snapshotId(), location, size, footer, blobs))
        .commit();
    return rows;
  }

  private static String quoted(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** A column's value in Iceberg's internal form, read with the getter that gives it exactly. */
  private static Object internal(ResultSet rs, int column, Type type) throws SQLException {
    Object value =
        switch (type.typeId()) {
          case DATE -> rs.getObject(column, LocalDate.class);
          case TIME -> rs.getObject(column, LocalTime.class);
          case TIMESTAMP, TIMESTAMP_NANO ->
              ((Types.TimestampType) asTimestamp(type)).shouldAdjustToUTC()
                  ? rs.getObject(column, OffsetDateTime.class)
                  : rs.getObject(column, LocalDateTime.class);
          case DECIMAL -> rs.getBigDecimal(column);
          case FIXED, BINARY -> rs.getBytes(column);
          case UUID -> rs.getObject(column, UUID.class);
          default -> rs.getObject(column);
        };
    if (value == null) {
      return null;
    }
    return switch (type.typeId()) {
      case DATE -> DateTimeUtil.daysFromDate((LocalDate) value);
      case TIME -> DateTimeUtil.microsFromTime((LocalTime) value);
      case TIMESTAMP ->
          value instanceof OffsetDateTime o
              ? DateTimeUtil.microsFromTimestamptz(o)
              : DateTimeUtil.microsFromTimestamp((LocalDateTime) value);
      case TIMESTAMP_NANO ->
          value instanceof OffsetDateTime o
              ? DateTimeUtil.nanosFromTimestamptz(o)
              : DateTimeUtil.nanosFromTimestamp((LocalDateTime) value);
      case DECIMAL -> ((BigDecimal) value).setScale(((Types.DecimalType) type).scale());
      case FIXED, BINARY -> ByteBuffer.wrap((byte[]) value);
      case INTEGER -> ((Number) value).intValue();
      case LONG -> ((Number) value).longValue();
      case FLOAT -> ((Number) value).floatValue();
      case DOUBLE -> ((Number) value).doubleValue();
      case STRING -> value.toString();
      default -> value;
    };
  }

  /** TIMESTAMP_NANO's zone flag as a {@link Types.TimestampType}'s. */
  private static Type asTimestamp(Type type) {
    if (type instanceof Types.TimestampNanoType nano) {
      return nano.shouldAdjustToUTC()
          ? Types.TimestampType.withZone()
          : Types.TimestampType.withoutZone();
    }
    return type;
  }
}
