package dev.floe.jdbc;

import dev.floe.config.ContextLoader;
import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.error.SqlErrors;
import dev.floe.jdbc.meta.LakeSchemas;
import dev.floe.jdbc.meta.MetadataTypes;
import dev.floe.planner.spi.LakeCatalog;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.types.Types.NestedField;

/**
 * The columns of a Floe result set, described as {@code getColumns} describes table columns: a
 * column read straight from a table has that column's type name, size and digits, and the schema
 * name {@code getSchemas} reports ({@code sales.eu}, where Calcite says only {@code eu}); a
 * computed column is described from its SQL type ({@link MetadataTypes#ofResult}). Nullability is
 * the query's (an outer join can make a required column nullable).
 *
 * <p>Not thread-safe; one per result set or prepared statement.
 */
final class FloeResultSetMetaData implements ResultSetMetaData {
  private final FloeConnection connection;
  private final ResultSetMetaData calcite;
  private final MetadataTypes.Description[] types;
  private final String[] schemas;
  private final boolean[] fromTable;

  FloeResultSetMetaData(FloeConnection connection, ResultSetMetaData calcite) throws SQLException {
    this.connection = connection;
    this.calcite = calcite;
    int n = calcite.getColumnCount();
    this.types = new MetadataTypes.Description[n + 1];
    this.schemas = new String[n + 1];
    this.fromTable = new boolean[n + 1];
    Map<String, Optional<List<String>>> paths = new HashMap<>();
    Map<List<String>, Map<String, NestedField>> tables = new HashMap<>();
    try (ContextLoader ignored = ContextLoader.enter()) {
      for (int i = 1; i <= n; i++) {
        describe(i, paths, tables);
      }
    } catch (RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
  }

  private void describe(
      int column,
      Map<String, Optional<List<String>>> paths,
      Map<List<String>, Map<String, NestedField>> tables)
      throws SQLException {
    String schema = calcite.getSchemaName(column);
    String table = calcite.getTableName(column);
    String name = calcite.getColumnName(column);
    NestedField field = null;
    if (schema != null && table != null && name != null) {
      List<String> path =
          paths
              .computeIfAbsent(
                  schema + "\0" + table, key -> Optional.ofNullable(tablePath(schema, table)))
              .orElse(null);
      if (path != null) {
        schemas[column] = LakeSchemas.name(path.subList(0, path.size() - 1));
        field = tables.computeIfAbsent(path, this::fields).get(name);
      }
    }
    if (field != null) {
      fromTable[column] = true;
      types[column] =
          MetadataTypes.of(connection.calcite().getTypeFactory(), field.type(), field.isOptional());
    } else {
      types[column] =
          MetadataTypes.ofResult(
              calcite.getColumnType(column),
              calcite.getColumnTypeName(column),
              calcite.getPrecision(column),
              calcite.getScale(column));
    }
  }

  /**
   * The path of the table Calcite names by its innermost schema and its name: the schema with that
   * JDBC name, else the one schema whose last folder has that name and holds the table.
   */
  private List<String> tablePath(String schema, String table) {
    LakeCatalog catalog = connection.session().catalog();
    List<String> direct = schema.equals(LakeSchemas.ROOT) ? List.of(table) : List.of(schema, table);
    try {
      if (catalog.tableExists(direct)) {
        return direct;
      }
    } catch (dev.floe.error.FloeException e) {
      // no folder name (a read_csv or read_parquet call, named by its text): no table's column
      return null;
    }
    List<List<String>> candidates = new ArrayList<>();
    for (List<String> path : LakeSchemas.all(catalog)) {
      String name = LakeSchemas.name(path);
      boolean named =
          name.equals(schema) || (!path.isEmpty() && path.get(path.size() - 1).equals(schema));
      if (named && catalog.tableNames(path).contains(table)) {
        if (name.equals(schema)) {
          return withTable(path, table);
        }
        candidates.add(path);
      }
    }
    return candidates.size() == 1 ? withTable(candidates.get(0), table) : null;
  }

  private static List<String> withTable(List<String> schema, String table) {
    List<String> path = new ArrayList<>(schema);
    path.add(table);
    return path;
  }

  private Map<String, NestedField> fields(List<String> path) {
    Map<String, NestedField> fields = new HashMap<>();
    try {
      for (NestedField field : connection.session().catalog().loadTable(path).schema().columns()) {
        fields.put(field.name(), field);
      }
    } catch (FloeException e) {
      // dropped meanwhile: describe the columns from the query alone
    }
    return fields;
  }

  private MetadataTypes.Description type(int column) throws SQLException {
    check(column);
    return types[column];
  }

  private void check(int column) throws SQLException {
    if (column < 1 || column >= types.length) {
      throw SqlErrors.of(
          FloeError.INVALID_INDEX, "describe column " + column, "there are " + (types.length - 1));
    }
  }

  @Override
  public int getColumnCount() throws SQLException {
    return types.length - 1;
  }

  /** Floe has no auto-increment columns. */
  @Override
  public boolean isAutoIncrement(int column) throws SQLException {
    check(column);
    return false;
  }

  /** Text compares by case; nothing else has case. */
  @Override
  public boolean isCaseSensitive(int column) throws SQLException {
    int type = type(column).jdbcType();
    return type == Types.VARCHAR || type == Types.CHAR;
  }

  /** Every scalar column can be used in a WHERE clause; arrays, maps and structs not all ways. */
  @Override
  public boolean isSearchable(int column) throws SQLException {
    return type(column).size() != null;
  }

  @Override
  public boolean isCurrency(int column) throws SQLException {
    check(column);
    return false;
  }

  /** The query's nullability. */
  @Override
  public int isNullable(int column) throws SQLException {
    check(column);
    return calcite.isNullable(column);
  }

  @Override
  public boolean isSigned(int column) throws SQLException {
    return type(column).radix() != null;
  }

  /** The column size of {@code getColumns}: digits, characters, or bytes. */
  @Override
  public int getColumnDisplaySize(int column) throws SQLException {
    Integer size = type(column).size();
    return size == null ? MetadataTypes.UNBOUNDED : size;
  }

  @Override
  public String getColumnLabel(int column) throws SQLException {
    check(column);
    return calcite.getColumnLabel(column);
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    check(column);
    return calcite.getColumnName(column);
  }

  /** The JDBC name of the table's schema ({@code sales.eu}), or "" for a computed column. */
  @Override
  public String getSchemaName(int column) throws SQLException {
    check(column);
    if (schemas[column] != null) {
      return schemas[column];
    }
    String schema = calcite.getSchemaName(column);
    return schema == null ? "" : schema;
  }

  /** COLUMN_SIZE of {@code getColumns}; 0 where it does not apply (VARCHAR has no length). */
  @Override
  public int getPrecision(int column) throws SQLException {
    Integer size = type(column).size();
    return size == null || size == MetadataTypes.UNBOUNDED ? 0 : size;
  }

  /** DECIMAL_DIGITS of {@code getColumns}; 0 where it does not apply. */
  @Override
  public int getScale(int column) throws SQLException {
    Integer digits = type(column).digits();
    return digits == null ? 0 : digits;
  }

  /** The table's name, or "" for a computed column. */
  @Override
  public String getTableName(int column) throws SQLException {
    check(column);
    String table = calcite.getTableName(column);
    return table == null ? "" : table;
  }

  /** Floe has no catalogs: always "". */
  @Override
  public String getCatalogName(int column) throws SQLException {
    check(column);
    return "";
  }

  @Override
  public int getColumnType(int column) throws SQLException {
    return type(column).jdbcType();
  }

  @Override
  public String getColumnTypeName(int column) throws SQLException {
    return type(column).name();
  }

  /** A computed column, or any column of a read-only connection, cannot be written. */
  @Override
  public boolean isReadOnly(int column) throws SQLException {
    return !isWritable(column);
  }

  /** A table's column can be changed with UPDATE, unless the connection is read-only. */
  @Override
  public boolean isWritable(int column) throws SQLException {
    check(column);
    return fromTable[column] && !connection.isReadOnly();
  }

  /** A write may still fail (a conflicting commit, a constraint). */
  @Override
  public boolean isDefinitelyWritable(int column) throws SQLException {
    check(column);
    return false;
  }

  @Override
  public String getColumnClassName(int column) throws SQLException {
    check(column);
    switch (type(column).name()) {
      case "UUID":
        return java.util.UUID.class.getName();
      default:
        return calcite.getColumnClassName(column);
    }
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    return calcite.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(this) || calcite.isWrapperFor(iface);
  }
}
