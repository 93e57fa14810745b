package dev.floe.command.ddl;

import dev.floe.command.CommandContext;
import dev.floe.command.QueryRows;
import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.error.SqlErrors;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.parser.FloeParser;
import dev.floe.planner.parser.ddl.ColumnDef;
import dev.floe.planner.parser.ddl.PartitionField;
import dev.floe.planner.parser.ddl.SqlAlterLakeTable;
import dev.floe.planner.parser.ddl.SqlAlterTableLayout;
import dev.floe.planner.parser.ddl.SqlAlterTableProperties;
import dev.floe.planner.parser.ddl.SqlCreateLakeTable;
import dev.floe.planner.parser.ddl.SqlCreateLakeView;
import dev.floe.planner.parser.ddl.SqlDropLakeTable;
import dev.floe.planner.parser.ddl.SqlDropLakeView;
import dev.floe.planner.parser.ddl.SqlLakeIndex;
import dev.floe.planner.parser.ddl.SqlTruncateTable;
import dev.floe.planner.parser.stmt.SqlInsertOverwrite;
import dev.floe.planner.parser.stmt.SqlMergeInto;
import dev.floe.planner.prepare.ColumnLabels;
import dev.floe.planner.spi.LakeCatalog;
import dev.floe.planner.type.LakeTypes;
import dev.floe.planner.write.LakeWrites;
import dev.floe.planner.write.WritePlan;
import dev.floe.storage.FolderCatalog;
import dev.floe.txn.FloeSession;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Runs Floe's own statements, parsed by Floe's grammar ({@link FloeParser}): DDL commits at once
 * (CREATE TABLE ... AS SELECT creates and fills the table in one commit, so a failure leaves no
 * table and no folder behind); statements the grammar knows but Floe does not run yet are refused
 * with 0A000.
 */
public final class Ddl {
  /**
   * How many old metadata files a table Floe creates keeps (docs/maintenance.md, "Maintenance").
   */
  static final String PREVIOUS_VERSIONS_MAX = "25";

  private static final String NO_INDEXES =
      "Iceberg tables have no indexes; pruning comes from partitions and statistics";

  private final CommandContext connection;
  private SQLWarning warning;

  public Ddl(CommandContext connection) {
    this.connection = connection;
  }

  private static SQLException notYet(String what) {
    return SqlErrors.of(FloeError.NOT_SUPPORTED, what + " is not supported yet");
  }

  /**
   * Runs one statement of Floe's own; returns the update count (rows written by CREATE TABLE AS).
   *
   * @param sql the statement's text, whose query part CREATE TABLE ... AS runs
   */
  public long execute(SqlNode statement, String sql) throws SQLException {
    try {
      if (statement instanceof SqlLakeIndex) {
        throw SqlErrors.of(
            FloeError.NOT_SUPPORTED,
            (((SqlLakeIndex) statement).create ? "CREATE INDEX: " : "DROP INDEX: ") + NO_INDEXES);
      }
      if (statement instanceof SqlTruncateTable) {
        throw notYet("TRUNCATE TABLE");
      }
      if (statement instanceof SqlInsertOverwrite) {
        throw notYet("INSERT OVERWRITE");
      }
      if (statement instanceof SqlMergeInto) {
        throw notYet(
            "this form of MERGE (several clauses of a kind, AND conditions, NOT MATCHED BY SOURCE,"
                + " DELETE, UPDATE SET * or INSERT *)");
      }
      if (connection.session().readOnly()) {
        throw SqlErrors.of(FloeError.READ_ONLY, "run DDL");
      }
      if (statement instanceof SqlCreateLakeTable) {
        return create((SqlCreateLakeTable) statement, sql);
      }
      if (statement instanceof SqlCreateLakeView) {
        new Views(connection).create((SqlCreateLakeView) statement, sql);
        return 0;
      }
      if (statement instanceof SqlDropLakeView) {
        new Views(connection).drop((SqlDropLakeView) statement);
        return 0;
      }
      if (statement instanceof SqlDropLakeTable) {
        drop((SqlDropLakeTable) statement);
        return 0;
      }
      if (statement instanceof SqlAlterLakeTable) {
        alter((SqlAlterLakeTable) statement);
        return 0;
      }
      if (statement instanceof SqlAlterTableLayout) {
        SqlAlterTableLayout layout = (SqlAlterTableLayout) statement;
        List<String> path =
            names().tableToChange(connection.schemaPath(), SqlNames.parts(layout.name), "alter");
        checkNoPendingChange(path, "alter");
        TableLayout.alter(catalog().loadTable(path), path, layout);
        return 0;
      }
      if (statement instanceof SqlAlterTableProperties) {
        alterProperties((SqlAlterTableProperties) statement);
        return 0;
      }
      throw notYet(statement.getKind().toString());
    } catch (RuntimeException e) {
      throw SqlErrors.toSql(e);
    }
  }

  private FloeSession session() {
    return connection.session();
  }

  private LakeCatalog catalog() {
    return session().catalog();
  }

  private long create(SqlCreateLakeTable create, String sql) throws SQLException {
    if (create.replace) {
      if (create.ifNotExists) {
        throw SqlErrors.of(
            FloeError.SYNTAX, "CREATE OR REPLACE TABLE cannot say IF NOT EXISTS as well");
      }
      List<String> existing = existingPath(create.name);
      if (existing != null && catalog().tableExists(existing)) {
        return replace(create, sql, existing);
      }
    }
    List<String> path;
    try {
      path = newTablePath(create.name);
    } catch (FloeException e) {
      if (create.ifNotExists && e.error() == FloeError.TABLE_EXISTS) {
        return 0;
      }
      throw e;
    }
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(TableProperties.FORMAT_VERSION, "2");
    properties.put(TableProperties.DELETE_MODE, "merge-on-read");
    properties.put(TableProperties.UPDATE_MODE, "merge-on-read");
    properties.put(TableProperties.MERGE_MODE, "merge-on-read");
    properties.put(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true");
    properties.put(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, PREVIOUS_VERSIONS_MAX);
    Map<String, String> given = TrinoProperties.toIceberg(create.properties);
    properties.putAll(given);
    checkFormatVersion(properties);
    if (create.query == null) {
      Schema schema = schema(columns(create.columns), create.primaryKey, path);
      Transaction txn =
          catalog()
              .newCreateTableTransaction(
                  path,
                  schema,
                  spec(path, schema, create.partitioning),
                  formatFor(schema, properties, given, 0));
      txn.commitTransaction();
      return 0;
    }
    return createAsSelect(
        create,
        FloeParser.textFrom(sql, create.queryStart),
        path,
        schema ->
            catalog()
                .newCreateTableTransaction(
                    path,
                    schema,
                    spec(path, schema, create.partitioning),
                    formatFor(schema, properties, given, 0)));
  }

  /**
   * CREATE OR REPLACE TABLE of an existing table: Iceberg's replace transaction, one commit with
   * the new schema, spec and rows; the old snapshots stay in the history. The table is read as it
   * is when the statement begins; a commit by another writer before this one publishes is 40001.
   */
  private long replace(SqlCreateLakeTable create, String sql, List<String> path)
      throws SQLException {
    checkNoPendingChange(path, "replace");
    Table current = catalog().loadTable(path);
    Map<String, String> given = TrinoProperties.toIceberg(create.properties);
    Map<String, String> properties = new LinkedHashMap<>(given);
    if (properties.containsKey(TableProperties.FORMAT_VERSION)) {
      checkFormatVersion(properties);
    }
    ReplaceFactory factory =
        schema ->
            catalog()
                .newReplaceTableTransaction(
                    path,
                    current,
                    schema,
                    spec(path, schema, create.partitioning),
                    formatFor(schema, properties, given, TableUtil.formatVersion(current)));
    if (create.query == null) {
      factory.begin(schema(columns(create.columns), create.primaryKey, path)).commitTransaction();
      return 0;
    }
    return createAsSelect(create, FloeParser.textFrom(sql, create.queryStart), path, factory);
  }

  /**
   * The properties of a table created or replaced, with or without a query: a nanosecond timestamp
   * column needs format version 3, which the table gets when no version is given (a version given
   * below 3 is refused, 0A000, rather than the digits cut).
   */
  private static Map<String, String> formatFor(
      Schema schema, Map<String, String> properties, Map<String, String> given, int current) {
    if (!hasNanos(schema.asStruct())) {
      return properties;
    }
    String version = given.get(TableProperties.FORMAT_VERSION);
    if (version != null) {
      checkNanosFit(schema.asStruct(), Integer.parseInt(version));
      return properties;
    }
    if (current >= 3) {
      return properties;
    }
    Map<String, String> upgraded = new LinkedHashMap<>(properties);
    upgraded.put(TableProperties.FORMAT_VERSION, "3");
    return upgraded;
  }

  private static boolean hasNanos(Type type) {
    return TypeUtil.find(type, t -> t.typeId() == Type.TypeID.TIMESTAMP_NANO) != null;
  }

  /** A nanosecond timestamp in a table of format version below 3 is refused, 0A000. */
  private static void checkNanosFit(Type type, int version) {
    if (version < 3 && hasNanos(type)) {
      throw FloeError.NOT_SUPPORTED.error(
          "a TIMESTAMP(9) column in a table of format version "
              + version
              + " (nanosecond timestamps need 'format-version' = '3')");
    }
  }

  /** Begins the transaction that creates or replaces a table with a schema. */
  @FunctionalInterface
  private interface ReplaceFactory {
    Transaction begin(Schema schema);
  }

  private long createAsSelect(
      SqlCreateLakeTable create, String querySql, List<String> path, ReplaceFactory factory)
      throws SQLException {
    List<List<String>> createdFolders = missingFolders(path);
    try (Statement query = connection.createStatement();
        ResultSet rs = query.executeQuery(querySql)) {
      QueryRows raw = connection.queryRows(rs);
      List<WritePlan.SourceType> sources = new ArrayList<>();
      List<Column> columns = new ArrayList<>();
      for (RelDataTypeField field : raw.rowType().getFieldList()) {
        sources.add(WritePlan.SourceType.of(field.getType()));
        Type type = LakeTypes.icebergType(field.getType());
        if (type == null) {
          throw SqlErrors.of(
              FloeError.NOT_SUPPORTED,
              "CREATE TABLE AS SELECT with column "
                  + field.getName()
                  + " of type "
                  + field.getType().getFullTypeString()
                  + " (cast it to a type a table can hold)");
        }
        columns.add(
            new Column(
                ColumnLabels.of(field.getName()), type, !field.getType().isNullable(), null));
      }
      if (!create.columns.isEmpty()) {
        if (create.columns.size() != columns.size()) {
          throw SqlErrors.of(
              FloeError.VALIDATION,
              "the column list has "
                  + create.columns.size()
                  + " columns, the query "
                  + columns.size());
        }
        columns = columns(create.columns);
      }
      Transaction txn = factory.begin(schema(columns, create.primaryKey, path));
      Table table = txn.table();
      String operationId = UUID.randomUUID().toString();
      AtomicInteger rows = new AtomicInteger();
      try {
        List<DataFile> files =
            LakeWrites.writeRows(
                table, sources, new RawRows(raw, sources.size(), rows), operationId);
        if (!files.isEmpty()) {
          AppendFiles append = txn.newAppend();
          files.forEach(append::appendFile);
          append.commit();
        }
        txn.commitTransaction();
      } catch (RuntimeException | Error e) {
        LakeWrites.deleteWrittenFiles(table, operationId, List.of());
        if (!catalog().tableExists(path)) {
          for (List<String> created : createdFolders) {
            catalog().deleteFolder(created);
          }
        }
        throw e;
      }
      return rows.get();
    }
  }

  private void drop(SqlDropLakeTable drop) throws SQLException {
    List<String> path = existingPath(drop.name);
    if (path == null || !catalog().tableExists(path)) {
      names().checkNotMetadataTable(connection.schemaPath(), SqlNames.parts(drop.name), "drop");
      names().checkNotView(connection.schemaPath(), SqlNames.parts(drop.name), "drop table");
      if (drop.ifExists) {
        return;
      }
      throw SqlErrors.toSql(names().notFound(connection.schemaPath(), SqlNames.parts(drop.name)));
    }
    checkNoPendingChange(path, "drop");
    FolderCatalog.Dropped dropped = session().folders().drop(path, drop.purge);
    List<String> said = new ArrayList<>();
    List<String> left = dropped.outside();
    if (!left.isEmpty()) {
      said.add(
          "leaving "
              + left.size()
              + " referenced files outside its folder in place (Floe deletes only the files under"
              + " a table's own folder): "
              + String.join(", ", left.subList(0, Math.min(5, left.size())))
              + (left.size() > 5 ? ", ..." : ""));
    }
    if (!dropped.why().isEmpty()) {
      List<String> kept = dropped.kept();
      said.add(
          dropped.why()
              + (kept.isEmpty()
                  ? ""
                  : ": "
                      + String.join(", ", kept.subList(0, Math.min(5, kept.size())))
                      + (kept.size() > 5 ? ", ..." : "")));
    }
    if (dropped.unlisted()) {
      said.add("its metadata could not be read to list the files it references outside its folder");
    }
    if (!said.isEmpty()) {
      warning =
          SqlErrors.warning(
              FloeError.WARNING.format(
                  "Dropped table " + String.join(".", path) + ", " + String.join("; ", said)));
    }
  }

  /** The warning of the last statement run, or null; reading it clears it. */
  public SQLWarning takeWarning() {
    SQLWarning taken = warning;
    warning = null;
    return taken;
  }

  private void alter(SqlAlterLakeTable alter) throws SQLException {
    List<String> path =
        names().tableToChange(connection.schemaPath(), SqlNames.parts(alter.name), "alter");
    checkNoPendingChange(path, "alter");
    Table table = catalog().loadTable(path);
    UpdateSchema update = table.updateSchema();
    try {
      switch (alter.action) {
        case ADD_COLUMN:
          {
            Column column = column(alter.column);
            Type type =
                TypeUtil.assignFreshIds(column.type(), new AtomicInteger(1000)::incrementAndGet);
            if (column.required()) {
              throw SqlErrors.of(
                  FloeError.NOT_SUPPORTED,
                  "adding a NOT NULL column to an existing table: its old rows have no value");
            }
            ColumnNames.checkNew(columns(table), column.name(), table.name());
            checkNanosFit(type, TableUtil.formatVersion(table));
            update.addColumn(column.name(), type, column.comment());
            break;
          }
        case DROP_COLUMN:
          update.deleteColumn(column(table, alter.target));
          break;
        case RENAME_COLUMN:
          {
            String renamed = column(table, alter.target);
            String newName = name(alter.newName);
            List<String> others = new ArrayList<>(columns(table));
            others.remove(renamed);
            ColumnNames.checkNew(others, newName, table.name());
            update.renameColumn(renamed, newName);
            break;
          }
        default:
          {
            Type type = alter.type;
            if (!type.isPrimitiveType()) {
              throw SqlErrors.of(FloeError.NOT_SUPPORTED, "changing a column to a nested type");
            }
            update.updateColumn(column(table, alter.target), type.asPrimitiveType());
          }
      }
      update.commit();
    } catch (ValidationException | IllegalArgumentException e) {
      throw SqlErrors.create(
          FloeError.VALIDATION.sqlState(),
          "Cannot alter table " + String.join(".", path) + ": " + e.getMessage(),
          e);
    }
  }

  /**
   * SET or UNSET of table properties: the rules of CREATE, one commit, at once (as all DDL; 25000
   * inside a transaction with uncommitted changes to the table).
   */
  private void alterProperties(SqlAlterTableProperties alter) throws SQLException {
    List<String> path =
        names().tableToChange(connection.schemaPath(), SqlNames.parts(alter.name), "alter");
    checkNoPendingChange(path, "alter");
    Table table = catalog().loadTable(path);
    Map<String, String> set = TrinoProperties.toIceberg(alter.set);
    if (set.containsKey(TableProperties.FORMAT_VERSION)) {
      checkFormatVersion(set);
    }
    List<String> unset = new ArrayList<>();
    for (String key : TrinoProperties.toIceberg(alter.unset)) {
      if (key.equals(TableProperties.FORMAT_VERSION)) {
        throw FloeError.INVALID_PROPERTY.error(
            "UNSET of '" + key + "'", "a table always has a format version");
      }
      if (table.properties().containsKey(key)) {
        unset.add(key);
      } else if (!alter.ifExists) {
        throw FloeError.INVALID_PROPERTY.error(
            "UNSET of '" + key + "'",
            "table "
                + String.join(".", path)
                + " has no such property (UNSET IF EXISTS ignores it)");
      }
    }
    if (set.isEmpty() && unset.isEmpty()) {
      return;
    }
    catalog().updateProperties(path, table, set, unset);
  }

  /** The column of a table a name denotes, resolved by the one column resolver. */
  private static String column(Table table, SqlIdentifier name) {
    return ColumnNames.resolve(columns(table), SqlNames.part(name), table.name());
  }

  private static List<String> columns(Table table) {
    return ColumnNames.names(table.schema().columns());
  }

  private void checkNoPendingChange(List<String> path, String verb) throws SQLException {
    if (!session().autoCommit() && session().hasPendingChange(path)) {
      throw SqlErrors.of(
          FloeError.INVALID_TRANSACTION_STATE,
          verb + " table " + String.join(".", path),
          "the open transaction has uncommitted changes to it; commit or roll back first");
    }
  }

  /** A column to create: its name as stored, its type, whether it is required, its comment. */
  private record Column(String name, Type type, boolean required, String comment) {}

  /**
   * A column definition as Floe creates it: a quoted name as written, an unquoted one in lower
   * case.
   */
  private static Column column(ColumnDef def) {
    return new Column(
        name(def.name()), def.type(), def.notNull() || def.primaryKey(), def.comment());
  }

  private static List<Column> columns(List<ColumnDef> defs) {
    List<Column> columns = new ArrayList<>();
    for (ColumnDef def : defs) {
      columns.add(column(def));
    }
    return columns;
  }

  /** The name a new column gets: quoted as written, unquoted in lower case. */
  private static String name(SqlIdentifier id) {
    return ColumnNames.newName(SqlNames.part(id));
  }

  /**
   * A schema from column definitions, with fresh field ids; the PRIMARY KEY columns are its
   * identifier fields, and so required.
   */
  private static Schema schema(
      List<Column> columns, List<SqlIdentifier> primaryKey, List<String> path) {
    String table = String.join(".", path);
    List<String> names = new ArrayList<>();
    for (Column column : columns) {
      ColumnNames.checkNew(names, column.name(), table);
      names.add(column.name());
    }
    List<String> key = new ArrayList<>();
    for (SqlIdentifier id : primaryKey) {
      String name = ColumnNames.resolve(names, SqlNames.part(id), table + " (PRIMARY KEY)");
      if (!key.contains(name)) {
        key.add(name);
      }
    }
    List<Types.NestedField> fields = new ArrayList<>();
    for (Column column : columns) {
      boolean required = column.required() || key.contains(column.name());
      if (key.contains(column.name()) && !column.type().isPrimitiveType()) {
        throw FloeError.NOT_SUPPORTED.error(
            "a PRIMARY KEY column of a nested type (" + column.name() + ")");
      }
      fields.add(
          required
              ? Types.NestedField.required(0, column.name(), column.type(), column.comment())
              : Types.NestedField.optional(0, column.name(), column.type(), column.comment()));
    }
    AtomicInteger ids = new AtomicInteger();
    Types.StructType struct =
        (Types.StructType)
            TypeUtil.assignFreshIds(Types.StructType.of(fields), ids::incrementAndGet);
    java.util.Set<Integer> identifiers = new java.util.LinkedHashSet<>();
    for (String name : key) {
      identifiers.add(struct.field(name).fieldId());
    }
    return new Schema(struct.fields(), identifiers);
  }

  /** Refuses a format version Iceberg cannot write (22023), before anything is created. */
  private static void checkFormatVersion(Map<String, String> properties) {
    String version = properties.get(TableProperties.FORMAT_VERSION);
    if (!List.of("1", "2", "3").contains(version)) {
      throw FloeError.INVALID_PROPERTY.error(
          "'" + TableProperties.FORMAT_VERSION + "' = '" + version + "'",
          "the format versions Floe writes are 1, 2 and 3");
    }
  }

  /** The partition spec of a new table; a transform its column cannot take is 42000. */
  private static PartitionSpec spec(List<String> path, Schema schema, List<PartitionField> fields) {
    List<String> names = ColumnNames.names(schema.columns());
    String table = String.join(".", path) + " (PARTITIONED BY)";
    List<String> columns = new ArrayList<>();
    for (PartitionField field : fields) {
      columns.add(ColumnNames.resolve(names, SqlNames.part(field.column()), table));
    }
    try {
      return spec(schema, fields, columns);
    } catch (ValidationException | IllegalArgumentException e) {
      throw FloeError.VALIDATION.error(
          e, "Cannot partition table " + String.join(".", path) + ": " + e.getMessage());
    }
  }

  /** A spec of partition fields, each on the column resolved for it. */
  private static PartitionSpec spec(
      Schema schema, List<PartitionField> fields, List<String> columns) {
    PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
    for (int i = 0; i < fields.size(); i++) {
      PartitionField field = fields.get(i);
      String column = columns.get(i);
      switch (field.transform()) {
        case "identity":
          builder.identity(column);
          break;
        case "bucket":
          builder.bucket(column, field.argument());
          break;
        case "truncate":
          builder.truncate(column, field.argument());
          break;
        case "year":
          builder.year(column);
          break;
        case "month":
          builder.month(column);
          break;
        case "day":
          builder.day(column);
          break;
        case "hour":
          builder.hour(column);
          break;
        default:
          throw FloeError.SYNTAX.error("unknown partition transform " + field.transform());
      }
    }
    return builder.build();
  }

  /**
   * The path of a new table, resolved by the one resolver: existing folders matched as lookups
   * match them, new names as written (lower case unless quoted). An unqualified name is created in
   * the connection's current schema.
   */
  private List<String> newTablePath(SqlIdentifier name) throws SQLException {
    return names().newTable(connection.schemaPath(), SqlNames.parts(name));
  }

  /** The path of an existing table, or null, resolved as every statement resolves it. */
  private List<String> existingPath(SqlIdentifier name) throws SQLException {
    return names().table(connection.schemaPath(), SqlNames.parts(name));
  }

  /** The folders of a path that do not exist yet, deepest first: what a failed CTAS removes. */
  private List<List<String>> missingFolders(List<String> path) {
    List<List<String>> missing = new ArrayList<>();
    for (int i = path.size(); i > 0; i--) {
      List<String> folder = path.subList(0, i);
      if (catalog().folderNames(folder.subList(0, i - 1)).contains(folder.get(i - 1))) {
        break;
      }
      missing.add(List.copyOf(folder));
    }
    return missing;
  }

  private TableNames names() {
    return new TableNames(session().catalog());
  }

  /** A name as written, for messages. */
  static String display(SqlIdentifier name) {
    return TableNames.display(SqlNames.parts(name));
  }

  /** A query's rows in Calcite's runtime forms, for the one assignment, counted as they go. */
  private static final class RawRows implements Iterator<Object[]> {
    private final QueryRows rows;
    private final int columns;
    private final AtomicInteger count;
    private Boolean ready;

    RawRows(QueryRows rows, int columns, AtomicInteger count) {
      this.rows = rows;
      this.columns = columns;
      this.count = count;
    }

    @Override
    public boolean hasNext() {
      if (ready == null) {
        try {
          ready = rows.next();
        } catch (SQLException e) {
          throw new IllegalStateException(SqlErrors.toSql(e));
        }
      }
      return ready;
    }

    @Override
    public Object[] next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      ready = null;
      Object[] row = new Object[columns];
      try {
        for (int i = 0; i < row.length; i++) {
          row[i] = rows.value(i);
        }
      } catch (SQLException e) {
        throw new IllegalStateException(SqlErrors.toSql(e));
      }
      count.incrementAndGet();
      return row;
    }
  }
}
