package dev.floe.jdbc.meta;

import dev.floe.config.ContextLoader;
import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.error.SqlErrors;
import dev.floe.planner.scan.MetadataScan;
import dev.floe.planner.spi.LakeCatalog;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * The lake as JDBC metadata sees it: schemas ({@link LakeSchemas}), tables, their columns from the
 * Iceberg schema (types as the planner maps them, nullability from required/optional, remarks from
 * column docs) and primary keys from Iceberg's identifier fields. Everything is read from the
 * folders at each call, so tables other processes create show up at once.
 */
final class MetadataCatalog {
  /** Iceberg's table property for a table comment, as Spark and Trino write it. */
  static final String COMMENT_PROPERTY = "comment";

  /** A table or view found by a metadata call: its schema path, its name, and whether a view. */
  record TableRef(List<String> schema, String name, boolean view) {
    TableRef(List<String> schema, String name) {
      this(schema, name, false);
    }

    String schemaName() {
      return LakeSchemas.name(schema);
    }

    List<String> path() {
      List<String> path = new ArrayList<>(schema);
      path.add(name);
      return path;
    }
  }

  private final MetadataSource connection;
  private final LakeCatalog lake;

  MetadataCatalog(MetadataSource connection) {
    this.connection = connection;
    this.lake = connection.catalog();
  }

  /** Rows of {@code getSchemas}. */
  ResultSet schemas(String catalog, String schemaPattern) throws SQLException {
    MetadataResults.Rows rows = new MetadataResults.Rows(MetadataResults.SCHEMAS);
    if (noCatalogMatches(catalog)) {
      return MetadataResults.of(connection, rows);
    }
    MetadataPattern pattern = MetadataPattern.of(schemaPattern);
    for (List<String> path : run(() -> LakeSchemas.all(lake))) {
      String name = LakeSchemas.name(path);
      if (pattern.matches(name)) {
        rows.add(name, null);
      }
    }
    return MetadataResults.of(connection, rows);
  }

  /** Rows of {@code getTables}: tables of type TABLE, views of type VIEW, ordered as JDBC asks. */
  ResultSet tables(String catalog, String schemaPattern, String tablePattern, String[] types)
      throws SQLException {
    MetadataResults.Rows rows = new MetadataResults.Rows(MetadataResults.TABLES);
    boolean tables = types == null || List.of(types).contains(FloeDatabaseMetaData.TABLE_TYPE);
    boolean views = types == null || List.of(types).contains(FloeDatabaseMetaData.VIEW_TYPE);
    List<TableRef> found = new ArrayList<>();
    for (TableRef table : find(catalog, MetadataPattern.of(schemaPattern), tablePattern)) {
      if (table.view() ? views : tables) {
        found.add(table);
      }
    }
    // JDBC orders by TABLE_TYPE, then schema and name.
    found.sort(Comparator.comparing(TableRef::view));
    for (TableRef table : found) {
      String remarks = table.view() ? null : run(() -> remarks(table));
      rows.add(
          null,
          table.schemaName(),
          table.name(),
          table.view() ? FloeDatabaseMetaData.VIEW_TYPE : FloeDatabaseMetaData.TABLE_TYPE,
          remarks,
          null,
          null,
          null,
          null,
          null);
    }
    return MetadataResults.of(connection, rows);
  }

  /**
   * Rows of {@code getColumns}: the top-level columns of each table, in schema order. A table
   * pattern holding {@code $} also describes the metadata tables it names ({@code
   * orders$snapshots}), which {@code getTables} never lists.
   */
  ResultSet columns(String catalog, String schemaPattern, String tablePattern, String columnPattern)
      throws SQLException {
    MetadataResults.Rows rows = new MetadataResults.Rows(MetadataResults.COLUMNS);
    MetadataPattern columnNames = MetadataPattern.of(columnPattern);
    RelDataTypeFactory types = connection.calcite().getTypeFactory();
    for (TableRef table : find(catalog, MetadataPattern.of(schemaPattern), tablePattern)) {
      Schema schema = run(() -> schemaOf(table));
      if (schema != null) {
        addColumns(rows, types, table.schemaName(), table.name(), schema, columnNames);
      }
    }
    int dollar = tablePattern == null ? -1 : tablePattern.lastIndexOf('$');
    if (dollar > 0) {
      MetadataPattern metadataNames = MetadataPattern.of(tablePattern.substring(dollar + 1));
      String dataTables = tablePattern.substring(0, dollar);
      for (TableRef table : find(catalog, MetadataPattern.of(schemaPattern), dataTables)) {
        Table loaded = run(() -> load(table));
        if (loaded == null) {
          continue;
        }
        for (MetadataScan.Kind kind : MetadataScan.Kind.values()) {
          if (metadataNames.matches(kind.tableName())) {
            Schema schema = run(() -> kind.schema(loaded));
            String name = table.name() + "$" + kind.tableName();
            addColumns(rows, types, table.schemaName(), name, schema, columnNames);
          }
        }
      }
    }
    return MetadataResults.of(connection, rows);
  }

  private static void addColumns(
      MetadataResults.Rows rows,
      RelDataTypeFactory types,
      String schemaName,
      String tableName,
      Schema schema,
      MetadataPattern columnNames) {
    int position = 0;
    for (Types.NestedField field : schema.columns()) {
      position++;
      if (!columnNames.matches(field.name())) {
        continue;
      }
      MetadataTypes.Description type = MetadataTypes.of(types, field.type(), field.isOptional());
      rows.add(
          null,
          schemaName,
          tableName,
          field.name(),
          type.jdbcType(),
          type.name(),
          // No length for VARCHAR and VARBINARY: Iceberg's string and binary have none.
          unboundedAsNull(type.size()),
          null,
          type.digits(),
          type.radix(),
          field.isOptional() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls,
          field.doc(),
          null,
          null,
          null,
          unboundedAsNull(type.octets()),
          position,
          field.isOptional() ? "YES" : "NO",
          null,
          null,
          null,
          null,
          "NO",
          "NO");
    }
  }

  /**
   * Rows of {@code getPrimaryKeys}: a table's Iceberg identifier fields, when they are top-level
   * columns. The key has no name of its own in Iceberg, so PK_NAME is null.
   */
  ResultSet primaryKeys(String catalog, String schema, String table) throws SQLException {
    MetadataResults.Rows rows = new MetadataResults.Rows(MetadataResults.PRIMARY_KEYS);
    for (TableRef ref : find(catalog, exactly(schema), table == null ? null : escape(table))) {
      Schema tableSchema = run(() -> schemaOf(ref));
      if (tableSchema == null || tableSchema.identifierFieldIds().isEmpty()) {
        continue;
      }
      List<String> key = new ArrayList<>();
      for (Types.NestedField column : tableSchema.columns()) {
        if (tableSchema.identifierFieldIds().contains(column.fieldId())) {
          key.add(column.name());
        }
      }
      if (key.size() != tableSchema.identifierFieldIds().size()) {
        continue; // a nested field is part of the key: no column list can describe it
      }
      List<String> byName = new ArrayList<>(key);
      byName.sort(Comparator.naturalOrder());
      for (String column : byName) {
        rows.add(
            null, ref.schemaName(), ref.name(), column, (short) (key.indexOf(column) + 1), null);
      }
    }
    return MetadataResults.of(connection, rows);
  }

  /**
   * The tables whose schema name matches and whose name matches the pattern (null: all), ordered by
   * schema and name. A catalog other than null or "" matches nothing: Floe has no catalogs.
   */
  List<TableRef> find(String catalog, MetadataPattern schemas, String tablePattern)
      throws SQLException {
    List<TableRef> found = new ArrayList<>();
    if (noCatalogMatches(catalog)) {
      return found;
    }
    MetadataPattern tables = MetadataPattern.of(tablePattern);
    for (List<String> path : run(() -> LakeSchemas.all(lake))) {
      if (!schemas.matches(LakeSchemas.name(path))) {
        continue;
      }
      List<String> names = new ArrayList<>(run(() -> lake.tableNames(path)));
      List<String> views = run(() -> lake.viewNames(path, name -> true));
      names.addAll(views);
      names.sort(Comparator.naturalOrder());
      for (String name : names) {
        if (tables.matches(name)) {
          found.add(new TableRef(path, name, views.contains(name)));
        }
      }
    }
    return found;
  }

  /**
   * A pattern that matches one schema name exactly, for the calls whose schema argument is a name
   * and not a pattern; null matches every schema.
   */
  private static MetadataPattern exactly(String schema) {
    return schema == null ? MetadataPattern.of(null) : MetadataPattern.of(escape(schema));
  }

  /** The pattern matching exactly this name, except that a lone {@code %} stays "every name". */
  private static String escape(String name) {
    if (name.equals("%")) {
      return name; // DBeaver asks for the keys of every table of a schema this way
    }
    return name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }

  private static boolean noCatalogMatches(String catalog) {
    return catalog != null && !catalog.isEmpty();
  }

  private Schema schemaOf(TableRef table) {
    if (table.view()) {
      try {
        return lake.loadView(table.path()).schema();
      } catch (FloeException e) {
        if (e.error() == FloeError.VIEW_NOT_FOUND) {
          return null; // dropped since it was listed
        }
        throw e;
      }
    }
    Table loaded = load(table);
    return loaded == null ? null : loaded.schema();
  }

  private String remarks(TableRef table) {
    Table loaded = load(table);
    return loaded == null ? null : loaded.properties().get(COMMENT_PROPERTY);
  }

  /** The table, or null when it was dropped since it was listed. */
  private Table load(TableRef table) {
    if (table.view()) {
      return null; // a view has no table metadata, nor metadata tables
    }
    try {
      return lake.loadTable(table.path());
    } catch (FloeException e) {
      if (e.error() == FloeError.TABLE_NOT_FOUND) {
        return null;
      }
      throw e;
    }
  }

  /** A step that reads the lake; its failures become SQLExceptions. */
  @FunctionalInterface
  private interface Step<T> {
    T run();
  }

  private static <T> T run(Step<T> step) throws SQLException {
    try (ContextLoader ignored = ContextLoader.enter()) {
      return step.run();
    } catch (RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  private static Integer unboundedAsNull(Integer size) {
    return size == null || size == MetadataTypes.UNBOUNDED ? null : size;
  }
}
