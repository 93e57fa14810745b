package dev.floe.command.dml;

import dev.floe.command.CommandContext;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.parser.FloeParser;
import dev.floe.planner.parser.ddl.SqlTruncateTable;
import dev.floe.planner.parser.stmt.SqlInsertOverwrite;
import dev.floe.planner.parser.stmt.SqlMergeInto;
import dev.floe.planner.session.PinnedTable;
import dev.floe.planner.session.TableChange;
import dev.floe.planner.type.DatetimeLiterals;
import dev.floe.planner.write.LakeWrites;
import dev.floe.txn.FloeSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.BitString;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.StructLikeSet;

/**
 * The statements batch ETL is written in that change a table's rows: TRUNCATE TABLE, INSERT
 * OVERWRITE and MERGE INTO ({@link Merge}). Each runs as one statement of the connection's
 * transaction (in auto-commit mode, one Iceberg commit), validated against concurrent writers as
 * DELETE is: a concurrent commit that adds or deletes rows in what the statement replaces fails it
 * with 40001.
 *
 * <p>INSERT OVERWRITE writes its rows through Calcite's INSERT (so every value goes through the one
 * assignment function) and then removes, in the same change, the files of the partitions it
 * replaces, as seen in the snapshot pinned when the statement started.
 */
public final class Etl {
  private final CommandContext connection;

  public Etl(CommandContext connection) {
    this.connection = connection;
  }

  /**
   * Runs one statement (TRUNCATE TABLE, INSERT OVERWRITE, MERGE INTO) as Floe's parser parsed it;
   * returns its update count.
   */
  public long execute(SqlNode node, String sql) throws SQLException {
    FloeSession session = connection.session();
    boolean succeeded = false;
    try {
      session.beginStatement();
      long count;
      if (node instanceof SqlTruncateTable) {
        count = truncate((SqlTruncateTable) node);
      } else if (node instanceof SqlInsertOverwrite) {
        count = overwrite((SqlInsertOverwrite) node, sql);
      } else if (node instanceof SqlMergeInto) {
        count = new Merge(this, (SqlMergeInto) node).run();
      } else if (node instanceof SqlMerge) {
        count = new Merge(this, (SqlMerge) node).run();
      } else {
        throw FloeError.SYNTAX.error(
            "expected TRUNCATE TABLE, INSERT OVERWRITE or MERGE INTO: " + sql);
      }
      succeeded = true;
      return count;
    } catch (SQLException | RuntimeException e) {
      throw SqlErrors.toSql(e);
    } finally {
      try {
        session.endStatement(succeeded);
      } catch (RuntimeException e) {
        if (succeeded) {
          throw SqlErrors.toSql(e);
        }
      }
    }
  }

  CommandContext connection() {
    return connection;
  }

  /**
   * The folder path of an existing table a statement changes, resolved by the one resolver; a
   * metadata table is 42809.
   *
   * @param action what the statement does, for messages
   */
  List<String> tablePath(SqlIdentifier name, String action) throws SQLException {
    return new TableNames(connection.session().catalog())
        .tableToChange(connection.schemaPath(), SqlNames.parts(name), action);
  }

  /**
   * TRUNCATE TABLE: removes every data file (and the delete files that applied to them) of the
   * pinned snapshot in one metadata-only change; no file is rewritten and history is kept.
   */
  private long truncate(SqlTruncateTable truncate) throws SQLException {
    List<String> path = tablePath(truncate.name, "truncate");
    FloeSession session = connection.session();
    session.checkWritable(path);
    PinnedTable pinned = session.pin(path);
    TableChange.Builder change = TableChange.builder();
    for (FileScanTask task : tasks(pinned)) {
      removeWhole(change, task);
    }
    change.deleteFilter(Expressions.alwaysTrue()).rows(0);
    session.stage(path, change.build());
    return 0;
  }

  /** Removes a data file and the file-scoped delete files that applied to it. */
  private static void removeWhole(TableChange.Builder change, FileScanTask task) {
    change.removeData(task.file());
    for (DeleteFile delete : task.deletes()) {
      if (ContentFileUtil.isFileScoped(delete)) {
        change.removeDeletes(delete);
      }
    }
  }

  /** Every file task of the pinned snapshot, planned now (a later preview may replace it). */
  private static List<FileScanTask> tasks(PinnedTable pinned) {
    List<FileScanTask> tasks = new ArrayList<>();
    if (pinned.snapshotId() == null) {
      return tasks;
    }
    try (CloseableIterable<FileScanTask> planned =
        pinned.table().newScan().useSnapshot(pinned.snapshotId()).planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  /**
   * INSERT OVERWRITE. With PARTITION, the static partition's rows are replaced: the filter {@code c
   * = v AND ...} selects whole files, which are removed. Without it, every partition the query
   * writes rows into is replaced (dynamic, as Iceberg's ReplacePartitions); an unpartitioned table
   * is replaced whole.
   */
  private long overwrite(SqlInsertOverwrite overwrite, String sql) throws SQLException {
    List<String> path = tablePath(overwrite.table, "insert overwrite");
    FloeSession session = connection.session();
    session.checkWritable(path);
    PinnedTable pinned = session.pin(path);
    Table table = pinned.table();
    String name = String.join(".", path);
    List<FileScanTask> before = tasks(pinned);
    boolean isStatic = overwrite.partitionColumns.size() > 0;

    // Static: check the partition clause and find the replaced files before writing anything.
    Map<String, SqlNode> staticValues = new LinkedHashMap<>();
    Expression staticFilter = Expressions.alwaysTrue();
    List<FileScanTask> staticRemoved = new ArrayList<>();
    if (isStatic) {
      for (int i = 0; i < overwrite.partitionColumns.size(); i++) {
        SqlIdentifier column = (SqlIdentifier) overwrite.partitionColumns.get(i);
        Types.NestedField field = identityPartitionColumn(table, column, name);
        if (staticValues.put(field.name(), overwrite.partitionValues.get(i)) != null) {
          throw FloeError.VALIDATION.error(
              "Cannot overwrite "
                  + name
                  + ": column "
                  + field.name()
                  + " is named twice in PARTITION");
        }
        Object value =
            partitionValue(field, overwrite.partitionValues.get(i), session.timeZone().toZoneId());
        staticFilter =
            Expressions.and(
                staticFilter,
                value == null
                    ? Expressions.isNull(field.name())
                    : Expressions.equal(field.name(), value));
      }
      try (CloseableIterable<FileScanTask> planned =
          pinned.snapshotId() == null
              ? CloseableIterable.empty()
              : table.newScan().useSnapshot(pinned.snapshotId()).filter(staticFilter).planFiles()) {
        for (FileScanTask task : planned) {
          if (!task.residual().equals(Expressions.alwaysTrue())) {
            throw FloeError.NOT_SUPPORTED.error(
                "INSERT OVERWRITE ... PARTITION on "
                    + name
                    + ": data file "
                    + task.file().location()
                    + " holds rows of other partitions too (written under an earlier partition"
                    + " spec); use DELETE and INSERT in one transaction");
          }
          staticRemoved.add(task);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    TableChange pendingBefore = session.pendingChange(path);
    long rows;
    try (Statement insert = connection.calciteStatement()) {
      rows = insert.executeLargeUpdate(insertSql(overwrite, sql, table, staticValues));
    }
    TableChange.Builder change = TableChange.builder();
    if (isStatic) {
      staticRemoved.forEach(task -> removeWhole(change, task));
      change.deleteFilter(staticFilter);
    } else if (table.spec().isUnpartitioned()) {
      before.forEach(task -> removeWhole(change, task));
      change.deleteFilter(Expressions.alwaysTrue());
    } else {
      Set<String> earlier = new TreeSet<>();
      pendingBefore.addedDataFiles().forEach(f -> earlier.add(f.location()));
      Map<Integer, StructLikeSet> written = new LinkedHashMap<>();
      Expression filter = Expressions.alwaysFalse();
      for (DataFile file : session.pendingChange(path).addedDataFiles()) {
        if (!earlier.contains(file.location())) {
          written
              .computeIfAbsent(
                  file.specId(), id -> StructLikeSet.create(table.specs().get(id).partitionType()))
              .add(file.partition());
          filter = Expressions.or(filter, LakeWrites.partitionFilter(table, file));
        }
      }
      for (FileScanTask task : before) {
        StructLikeSet partitions = written.get(task.file().specId());
        if (partitions != null && partitions.contains(task.file().partition())) {
          removeWhole(change, task);
        }
      }
      if (!written.isEmpty()) {
        change.deleteFilter(filter);
      }
    }
    session.stage(path, change.rows(0).build());
    return rows;
  }

  /** A column of a PARTITION clause: it must be partitioned by identity in the current spec. */
  private static Types.NestedField identityPartitionColumn(
      Table table, SqlIdentifier column, String name) {
    Types.NestedField field =
        ColumnNames.field(table.schema().columns(), SqlNames.part(column), name);
    for (PartitionField partition : table.spec().fields()) {
      if (partition.sourceId() == field.fieldId() && partition.transform().isIdentity()) {
        return field;
      }
    }
    throw FloeError.VALIDATION.error(
        "Cannot overwrite "
            + name
            + ": "
            + field.name()
            + " is not an identity partition column of the table; PARTITION names identity"
            + " partition columns only (omit PARTITION to replace the partitions the query writes)");
  }

  /**
   * The value of a PARTITION clause entry for Iceberg's filter, after checking that its type is one
   * the column takes (42804 otherwise). The rows themselves get the value through INSERT.
   */
  private static Object partitionValue(Types.NestedField field, SqlNode node, ZoneId zone) {
    if (!(node instanceof SqlLiteral)) {
      throw FloeError.DATATYPE_MISMATCH.error(
          field.name(), "a PARTITION value must be a literal, not " + node);
    }
    SqlLiteral literal = (SqlLiteral) node;
    Type.TypeID type = field.type().typeId();
    SqlTypeName kind = literal.getTypeName();
    if (literal instanceof SqlUnknownLiteral) {
      DatetimeLiterals.check(literal);
      // DATE '...' and TIMESTAMP '...' are typed only by validation; their tag says which.
      String tag = ((SqlUnknownLiteral) literal).tag.toUpperCase(Locale.ROOT);
      kind =
          tag.equals("TIMESTAMP WITH LOCAL TIME ZONE")
              ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
              : SqlTypeName.get(tag);
      if (kind == null) {
        kind = SqlTypeName.UNKNOWN;
      }
    }
    if (kind == SqlTypeName.NULL) {
      if (field.isRequired()) {
        throw FloeError.NULL_NOT_ALLOWED.error(field.name());
      }
      return null;
    }
    try {
      if (literal instanceof SqlNumericLiteral) {
        BigDecimal number = literal.getValueAs(BigDecimal.class);
        switch (type) {
          case INTEGER:
          case LONG:
            return number.longValueExact();
          case FLOAT:
          case DOUBLE:
            return number.doubleValue();
          case DECIMAL:
            return number.setScale(((Types.DecimalType) field.type()).scale());
          default:
            break;
        }
      } else if (literal instanceof SqlCharStringLiteral) {
        if (type == Type.TypeID.STRING) {
          return literal.getValueAs(String.class);
        }
      } else if (kind == SqlTypeName.BOOLEAN) {
        if (type == Type.TypeID.BOOLEAN) {
          return literal.booleanValue();
        }
      } else if (kind == SqlTypeName.DATE) {
        if (type == Type.TypeID.DATE) {
          return literal.toValue().trim();
        }
      } else if (kind == SqlTypeName.TIMESTAMP) {
        if (type == Type.TypeID.TIMESTAMP
            && !((Types.TimestampType) field.type()).shouldAdjustToUTC()) {
          return literal.toValue().trim().replace(' ', 'T');
        }
        if (type == Type.TypeID.TIMESTAMP_NANO
            && !((Types.TimestampNanoType) field.type()).shouldAdjustToUTC()) {
          return literal.toValue().trim().replace(' ', 'T');
        }
      } else if (kind == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
        boolean withZone =
            (type == Type.TypeID.TIMESTAMP
                    && ((Types.TimestampType) field.type()).shouldAdjustToUTC())
                || (type == Type.TypeID.TIMESTAMP_NANO
                    && ((Types.TimestampNanoType) field.type()).shouldAdjustToUTC());
        if (withZone) {
          // The literal is a time in the session's zone, as the INSERT reads it too.
          return LocalDateTime.parse(literal.toValue().trim().replace(' ', 'T'))
              .atZone(zone)
              .toOffsetDateTime()
              .toString();
        }
      } else if (kind == SqlTypeName.TIME) {
        if (type == Type.TypeID.TIME) {
          return literal.toValue().trim();
        }
      } else if (kind == SqlTypeName.UUID) {
        if (type == Type.TypeID.UUID) {
          return java.util.UUID.fromString(literal.toValue().trim());
        }
      } else if (kind == SqlTypeName.BINARY) {
        byte[] bytes = literal.getValueAs(BitString.class).getAsByteArray();
        if (type == Type.TypeID.BINARY
            || (type == Type.TypeID.FIXED
                && bytes.length == ((Types.FixedType) field.type()).length())) {
          return ByteBuffer.wrap(bytes);
        }
      }
    } catch (ArithmeticException e) {
      throw FloeError.NUMERIC_OUT_OF_RANGE.error(
          field.name(), literal + " does not fit " + field.type());
    }
    throw FloeError.DATATYPE_MISMATCH.error(
        field.name(),
        "the PARTITION value "
            + literal
            + " is of type "
            + kind
            + ", the column of type "
            + field.type());
  }

  /**
   * The INSERT that writes the overwrite's rows: the target and the query as written; static
   * partition values first, then the query's columns into the listed columns or, without a list,
   * into the table's other columns in order.
   */
  private static String insertSql(
      SqlInsertOverwrite overwrite, String sql, Table table, Map<String, SqlNode> staticValues) {
    String target = text(sql, overwrite.table.getParserPosition());
    String query = FloeParser.textFrom(sql, overwrite.query.getParserPosition());
    if (staticValues.isEmpty()) {
      String columns =
          overwrite.columns == null ? "" : " " + text(sql, overwrite.columns.getParserPosition());
      if (!columns.isEmpty() && !columns.trim().startsWith("(")) {
        columns = " (" + columns.trim() + ")";
      }
      return "INSERT INTO " + target + columns + " " + query;
    }
    List<String> columns = new ArrayList<>();
    List<String> values = new ArrayList<>();
    for (Map.Entry<String, SqlNode> entry : staticValues.entrySet()) {
      columns.add(quote(entry.getKey()));
      values.add(text(sql, entry.getValue().getParserPosition()));
    }
    if (overwrite.columns != null) {
      for (SqlNode column : overwrite.columns) {
        columns.add(text(sql, column.getParserPosition()));
      }
    } else {
      for (Types.NestedField field : table.schema().columns()) {
        if (!staticValues.containsKey(field.name())) {
          columns.add(quote(field.name()));
        }
      }
    }
    return "INSERT INTO "
        + target
        + " ("
        + String.join(", ", columns)
        + ") SELECT "
        + String.join(", ", values)
        + ", q.* FROM ("
        + query
        + ") AS q";
  }

  private static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** The text a parsed node was written as. */
  static String text(String sql, SqlParserPos pos) {
    int start = offset(sql, pos.getLineNum(), pos.getColumnNum());
    int end = offset(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
    return sql.substring(start, Math.min(sql.length(), Math.max(start, end)));
  }

  /** The character offset of a 1-based line and column. */
  private static int offset(String sql, int line, int column) {
    int at = 0;
    for (int l = 1; l < line; l++) {
      int newline = sql.indexOf('\n', at);
      if (newline < 0) {
        return sql.length();
      }
      at = newline + 1;
    }
    return Math.min(sql.length(), at + column - 1);
  }
}
