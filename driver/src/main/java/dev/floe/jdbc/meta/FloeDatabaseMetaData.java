package dev.floe.jdbc.meta;

import dev.floe.config.DriverInfo;
import dev.floe.config.FloeProperty;
import dev.floe.planner.function.FloeFunctions;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Floe's database metadata, answered by Floe: what the lake holds ({@link MetadataCatalog}: no
 * catalogs, the schemas of {@link LakeSchemas}, tables of type TABLE, columns, primary keys from
 * Iceberg identifier fields; empty foreign keys, indexes, procedures and functions, which Iceberg
 * tables do not have), the types of the type table (docs/sql.md, "Types"; {@link MetadataTypes}),
 * what Floe is, and (in {@link DialectMetaData}) what Floe's SQL does. Every call on a closed
 * connection fails with 08003.
 */
public final class FloeDatabaseMetaData extends DialectMetaData {
  /** The one table type of Floe. */
  static final String TABLE_TYPE = "TABLE";

  private final MetadataSource connection;
  private final MetadataCatalog catalog;

  public FloeDatabaseMetaData(MetadataSource connection, DatabaseMetaData calcite) {
    super(calcite);
    this.connection = connection;
    this.catalog = new MetadataCatalog(connection);
  }

  @Override
  protected DatabaseMetaData open() throws SQLException {
    connection.checkOpen();
    return delegate();
  }

  /** The empty result set of {@code Statement.getGeneratedKeys()}: Floe generates no keys. */
  public ResultSet generatedKeys() throws SQLException {
    return empty(java.util.List.of());
  }

  private ResultSet empty(java.util.List<MetadataResults.Column> columns) throws SQLException {
    return MetadataResults.empty(connection, columns);
  }

  // ---- what the lake holds --------------------------------------------------------------

  /** Floe has no catalogs: an empty result. */
  @Override
  public ResultSet getCatalogs() throws SQLException {
    return empty(MetadataResults.CATALOGS);
  }

  /** {@code main} and every folder path holding tables, as {@link LakeSchemas} names them. */
  @Override
  public ResultSet getSchemas() throws SQLException {
    return catalog.schemas(null, null);
  }

  @Override
  public ResultSet getSchemas(String catalogName, String schemaPattern) throws SQLException {
    return catalog.schemas(catalogName, schemaPattern);
  }

  /** Only TABLE: Floe has no views. */
  @Override
  public ResultSet getTableTypes() throws SQLException {
    return MetadataResults.of(
        connection, new MetadataResults.Rows(MetadataResults.TABLE_TYPES).add(TABLE_TYPE));
  }

  /** Tables, with the Iceberg table property {@code comment} as REMARKS. */
  @Override
  public ResultSet getTables(
      String catalogName, String schemaPattern, String tableNamePattern, String[] types)
      throws SQLException {
    return catalog.tables(catalogName, schemaPattern, tableNamePattern, types);
  }

  /** Columns typed as the type table maps Iceberg types (docs/sql.md, "Types"), docs as REMARKS. */
  @Override
  public ResultSet getColumns(
      String catalogName, String schemaPattern, String tableNamePattern, String columnNamePattern)
      throws SQLException {
    return catalog.columns(catalogName, schemaPattern, tableNamePattern, columnNamePattern);
  }

  /**
   * The Iceberg identifier fields of a table. As DBeaver does, a table name of {@code %} asks for
   * the keys of every table of the schema.
   */
  @Override
  public ResultSet getPrimaryKeys(String catalogName, String schema, String table)
      throws SQLException {
    return catalog.primaryKeys(catalogName, schema, table);
  }

  /** Iceberg tables have no foreign keys: an empty result. */
  @Override
  public ResultSet getImportedKeys(String catalogName, String schema, String table)
      throws SQLException {
    return empty(MetadataResults.KEYS);
  }

  /** Iceberg tables have no foreign keys: an empty result. */
  @Override
  public ResultSet getExportedKeys(String catalogName, String schema, String table)
      throws SQLException {
    return empty(MetadataResults.KEYS);
  }

  /** Iceberg tables have no foreign keys: an empty result. */
  @Override
  public ResultSet getCrossReference(
      String parentCatalog,
      String parentSchema,
      String parentTable,
      String foreignCatalog,
      String foreignSchema,
      String foreignTable)
      throws SQLException {
    return empty(MetadataResults.KEYS);
  }

  /** Iceberg tables have no indexes: an empty result. */
  @Override
  public ResultSet getIndexInfo(
      String catalogName, String schema, String table, boolean unique, boolean approximate)
      throws SQLException {
    return empty(MetadataResults.INDEX_INFO);
  }

  /** No column is a row identifier Floe could promise: an empty result. */
  @Override
  public ResultSet getBestRowIdentifier(
      String catalogName, String schema, String table, int scope, boolean nullable)
      throws SQLException {
    return empty(MetadataResults.BEST_ROW_IDENTIFIER);
  }

  /** No column changes by itself when a row changes: an empty result. */
  @Override
  public ResultSet getVersionColumns(String catalogName, String schema, String table)
      throws SQLException {
    return empty(MetadataResults.VERSION_COLUMNS);
  }

  /** Floe has no privileges of its own (the file system's apply): an empty result. */
  @Override
  public ResultSet getTablePrivileges(
      String catalogName, String schemaPattern, String tableNamePattern) throws SQLException {
    return empty(MetadataResults.TABLE_PRIVILEGES);
  }

  /** Floe has no privileges of its own (the file system's apply): an empty result. */
  @Override
  public ResultSet getColumnPrivileges(
      String catalogName, String schema, String table, String columnNamePattern)
      throws SQLException {
    return empty(MetadataResults.COLUMN_PRIVILEGES);
  }

  /** The types a Floe column can have (docs/sql.md, "Types"). */
  @Override
  public ResultSet getTypeInfo() throws SQLException {
    return MetadataResults.of(connection, MetadataTypes.typeInfo());
  }

  /** No user-defined types: an empty result. */
  @Override
  public ResultSet getUDTs(
      String catalogName, String schemaPattern, String typeNamePattern, int[] types)
      throws SQLException {
    return empty(MetadataResults.UDTS);
  }

  /** No user-defined types: an empty result. */
  @Override
  public ResultSet getSuperTypes(String catalogName, String schemaPattern, String typeNamePattern)
      throws SQLException {
    return empty(MetadataResults.SUPER_TYPES);
  }

  /** No table hierarchies: an empty result. */
  @Override
  public ResultSet getSuperTables(String catalogName, String schemaPattern, String tableNamePattern)
      throws SQLException {
    return empty(MetadataResults.SUPER_TABLES);
  }

  /** No user-defined types: an empty result. */
  @Override
  public ResultSet getAttributes(
      String catalogName, String schemaPattern, String typeNamePattern, String attributeNamePattern)
      throws SQLException {
    return empty(MetadataResults.ATTRIBUTES);
  }

  /** Floe has no stored procedures: an empty result. */
  @Override
  public ResultSet getProcedures(
      String catalogName, String schemaPattern, String procedureNamePattern) throws SQLException {
    return empty(MetadataResults.PROCEDURES);
  }

  /** Floe has no stored procedures: an empty result. */
  @Override
  public ResultSet getProcedureColumns(
      String catalogName,
      String schemaPattern,
      String procedureNamePattern,
      String columnNamePattern)
      throws SQLException {
    return empty(MetadataResults.PROCEDURE_COLUMNS);
  }

  /**
   * The functions a statement may call by name: the SQL standard's and Floe's vocabulary beyond it
   * ({@link FloeFunctions#vocabulary()}), built in, so in no catalog or schema; REMARKS says what
   * each does and which engines spell it so. A name pattern matches the upper-case name or its
   * lower-case spelling.
   */
  @Override
  public ResultSet getFunctions(
      String catalogName, String schemaPattern, String functionNamePattern) throws SQLException {
    connection.checkOpen();
    MetadataResults.Rows rows = new MetadataResults.Rows(MetadataResults.FUNCTIONS);
    boolean builtIn =
        (catalogName == null || catalogName.isEmpty())
            && (schemaPattern == null || schemaPattern.isEmpty() || schemaPattern.equals("%"));
    MetadataPattern names = MetadataPattern.of(functionNamePattern);
    for (FloeFunctions.Function function :
        builtIn ? FloeFunctions.vocabulary() : java.util.List.<FloeFunctions.Function>of()) {
      String name = function.name();
      if (names.matches(name) || names.matches(name.toLowerCase(Locale.ROOT))) {
        rows.add(
            null,
            null,
            name,
            function.description(),
            (short) DatabaseMetaData.functionNoTable,
            name);
      }
    }
    return MetadataResults.of(connection, rows);
  }

  /** Floe has no user-defined functions: an empty result. */
  @Override
  public ResultSet getFunctionColumns(
      String catalogName,
      String schemaPattern,
      String functionNamePattern,
      String columnNamePattern)
      throws SQLException {
    return empty(MetadataResults.FUNCTION_COLUMNS);
  }

  /** Floe has no pseudo columns: an empty result. */
  @Override
  public ResultSet getPseudoColumns(
      String catalogName, String schemaPattern, String tableNamePattern, String columnNamePattern)
      throws SQLException {
    return empty(MetadataResults.PSEUDO_COLUMNS);
  }

  /** Floe keeps no client info: an empty result. */
  @Override
  public ResultSet getClientInfoProperties() throws SQLException {
    return empty(MetadataResults.CLIENT_INFO_PROPERTIES);
  }

  // ---- what Floe is -----------------------------------------------------------------------

  @Override
  public Connection getConnection() {
    return connection.connection();
  }

  /** The URL with its location and non-secret properties only. */
  @Override
  public String getURL() throws SQLException {
    open();
    Map<String, String> shown = new TreeMap<>();
    for (String key : connection.properties().stringPropertyNames()) {
      FloeProperty property = FloeProperty.byKey(key);
      if (property != null && !property.secret()) {
        shown.put(key, connection.properties().getProperty(key));
      }
    }
    StringBuilder url = new StringBuilder(DriverInfo.URL_PREFIX).append(connection.location());
    char separator = '?';
    for (Map.Entry<String, String> e : shown.entrySet()) {
      url.append(separator).append(e.getKey()).append('=').append(e.getValue());
      separator = '&';
    }
    return url.toString();
  }

  /** Floe has no users; the file system decides who may read and write. */
  @Override
  public String getUserName() throws SQLException {
    open();
    return "";
  }

  @Override
  public String getDatabaseProductName() throws SQLException {
    open();
    return "Floe";
  }

  @Override
  public String getDatabaseProductVersion() throws SQLException {
    open();
    return DriverInfo.MAJOR_VERSION + "." + DriverInfo.MINOR_VERSION;
  }

  @Override
  public String getDriverName() throws SQLException {
    open();
    return "Floe JDBC driver";
  }

  @Override
  public String getDriverVersion() throws SQLException {
    open();
    return DriverInfo.MAJOR_VERSION + "." + DriverInfo.MINOR_VERSION;
  }

  @Override
  public int getDriverMajorVersion() {
    return DriverInfo.MAJOR_VERSION;
  }

  @Override
  public int getDriverMinorVersion() {
    return DriverInfo.MINOR_VERSION;
  }

  @Override
  public int getDatabaseMajorVersion() throws SQLException {
    open();
    return DriverInfo.MAJOR_VERSION;
  }

  @Override
  public int getDatabaseMinorVersion() throws SQLException {
    open();
    return DriverInfo.MINOR_VERSION;
  }

  @Override
  public int getJDBCMajorVersion() throws SQLException {
    open();
    return 4;
  }

  @Override
  public int getJDBCMinorVersion() throws SQLException {
    open();
    return 2;
  }

  /** Floe's SQLStates are those of the SQL standard. */
  @Override
  public int getSQLStateType() throws SQLException {
    open();
    return DatabaseMetaData.sqlStateSQL;
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    return connection.isReadOnly();
  }

  /** A local lake keeps its tables in local files; one folder of many files per table. */
  @Override
  public boolean usesLocalFiles() throws SQLException {
    open();
    return !connection.location().isS3();
  }

  @Override
  public boolean usesLocalFilePerTable() throws SQLException {
    open();
    return false;
  }
}
