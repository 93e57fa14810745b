package dev.floe.jdbc;

import dev.floe.FloeDriver;
import dev.floe.FloeProperty;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Floe's database metadata, answered by Floe: what the lake holds ({@link MetadataCatalog}: no
 * catalogs, the schemas of {@link LakeSchemas}, tables of type TABLE, columns, primary keys from
 * Iceberg identifier fields; empty foreign keys, indexes, procedures and functions, which Iceberg
 * tables do not have), the types of DESIGN §4 ({@link MetadataTypes}), and what Floe's SQL does.
 * Only the SQL keyword list is Calcite's, whose parser Floe uses. Every call on a closed
 * connection fails with 08003.
 */
final class FloeDatabaseMetaData extends ForwardingDatabaseMetaData {
  /** The one table type of Floe. */
  static final String TABLE_TYPE = "TABLE";

  private final FloeConnection connection;
  private final MetadataCatalog catalog;

  FloeDatabaseMetaData(FloeConnection connection, DatabaseMetaData calcite) {
    super(calcite);
    this.connection = connection;
    this.catalog = new MetadataCatalog(connection);
  }

  @Override
  DatabaseMetaData open() throws SQLException {
    connection.checkOpen();
    return delegate();
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

  /** {@inheritDoc} */
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

  /** Columns typed as DESIGN §4 maps Iceberg types, with column docs as REMARKS. */
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

  /** The types a Floe column can have (DESIGN §4). */
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
  public ResultSet getSuperTables(
      String catalogName, String schemaPattern, String tableNamePattern) throws SQLException {
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
   * Floe has no user-defined functions: an empty result. The built-in ones are listed by {@link
   * #getNumericFunctions()} and its siblings.
   */
  @Override
  public ResultSet getFunctions(
      String catalogName, String schemaPattern, String functionNamePattern) throws SQLException {
    return empty(MetadataResults.FUNCTIONS);
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

  /** {@inheritDoc} */
  @Override
  public Connection getConnection() {
    return connection;
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
    StringBuilder url = new StringBuilder(FloeDriver.URL_PREFIX).append(connection.location());
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

  /** {@inheritDoc} */
  @Override
  public String getDatabaseProductName() throws SQLException {
    open();
    return "Floe";
  }

  /** {@inheritDoc} */
  @Override
  public String getDatabaseProductVersion() throws SQLException {
    open();
    return FloeDriver.MAJOR_VERSION + "." + FloeDriver.MINOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public String getDriverName() throws SQLException {
    open();
    return "Floe JDBC driver";
  }

  /** {@inheritDoc} */
  @Override
  public String getDriverVersion() throws SQLException {
    open();
    return FloeDriver.MAJOR_VERSION + "." + FloeDriver.MINOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public int getDriverMajorVersion() {
    return FloeDriver.MAJOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public int getDriverMinorVersion() {
    return FloeDriver.MINOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public int getDatabaseMajorVersion() throws SQLException {
    open();
    return FloeDriver.MAJOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public int getDatabaseMinorVersion() throws SQLException {
    open();
    return FloeDriver.MINOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public int getJDBCMajorVersion() throws SQLException {
    open();
    return 4;
  }

  /** {@inheritDoc} */
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

  /** {@inheritDoc} */
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

  /** {@inheritDoc} */
  @Override
  public boolean usesLocalFilePerTable() throws SQLException {
    open();
    return false;
  }

  // ---- names --------------------------------------------------------------------------

  /** {@inheritDoc} */
  @Override
  public String getIdentifierQuoteString() throws SQLException {
    open();
    return "\"";
  }

  /** The escape of {@link MetadataPattern}. */
  @Override
  public String getSearchStringEscape() throws SQLException {
    open();
    return MetadataPattern.ESCAPE;
  }

  /** {@inheritDoc} */
  @Override
  public String getExtraNameCharacters() throws SQLException {
    open();
    return "";
  }

  /** Unquoted names match ignoring case but are stored as written (folder names). */
  @Override
  public boolean supportsMixedCaseIdentifiers() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean storesMixedCaseIdentifiers() throws SQLException {
    open();
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean storesUpperCaseIdentifiers() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean storesLowerCaseIdentifiers() throws SQLException {
    open();
    return false;
  }

  /**
   * Quoted names are stored as written, but today they also match ignoring case when only one
   * name matches (Calcite's case-insensitive lookup applies to them too), so they are not case
   * sensitive; DESIGN §3 asks that they be, and this answer is to change with that fix.
   */
  @Override
  public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean storesMixedCaseQuotedIdentifiers() throws SQLException {
    open();
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean storesUpperCaseQuotedIdentifiers() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean storesLowerCaseQuotedIdentifiers() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public String getSchemaTerm() throws SQLException {
    open();
    return "schema";
  }

  /** {@inheritDoc} */
  @Override
  public String getCatalogTerm() throws SQLException {
    open();
    return "catalog";
  }

  /** No catalogs, so no separator. */
  @Override
  public String getCatalogSeparator() throws SQLException {
    open();
    return "";
  }

  /** Schemas are usable in queries, DML and CREATE TABLE; there is nothing else to qualify. */
  @Override
  public boolean supportsSchemasInDataManipulation() throws SQLException {
    open();
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsSchemasInTableDefinitions() throws SQLException {
    open();
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsSchemasInProcedureCalls() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsSchemasInIndexDefinitions() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException {
    open();
    return false;
  }

  /** Floe has no catalogs. */
  @Override
  public boolean supportsCatalogsInDataManipulation() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsCatalogsInTableDefinitions() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsCatalogsInProcedureCalls() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException {
    open();
    return false;
  }

  // ---- functions --------------------------------------------------------------------------

  /** The math functions of the JDBC escape {@code {fn ...}}, each one tested. */
  @Override
  public String getNumericFunctions() throws SQLException {
    open();
    return "ABS,ACOS,ASIN,ATAN,ATAN2,CBRT,CEILING,COS,COT,DEGREES,EXP,FLOOR,LOG,LOG10,MOD,PI,POWER,"
        + "RADIANS,RAND,ROUND,SIGN,SIN,SQRT,TAN,TRUNCATE";
  }

  /** The string functions of the JDBC escape {@code {fn ...}}, each one tested. */
  @Override
  public String getStringFunctions() throws SQLException {
    open();
    return "ASCII,CHAR,CONCAT,DIFFERENCE,INSERT,LCASE,LEFT,LENGTH,LOCATE,LTRIM,REPEAT,REPLACE,"
        + "RIGHT,RTRIM,SOUNDEX,SPACE,SUBSTRING,UCASE";
  }

  /** The system functions of the JDBC escape {@code {fn ...}}, each one tested. */
  @Override
  public String getSystemFunctions() throws SQLException {
    open();
    return "CONVERT,DATABASE,IFNULL,USER";
  }

  /**
   * The date and time functions of the JDBC escape {@code {fn ...}}, each one tested. Calcite also
   * names CONVERT_TIMEZONE, which it cannot run.
   */
  @Override
  public String getTimeDateFunctions() throws SQLException {
    open();
    return "CURDATE,CURTIME,DAYNAME,DAYOFMONTH,DAYOFWEEK,DAYOFYEAR,HOUR,MINUTE,MONTH,MONTHNAME,NOW,"
        + "QUARTER,SECOND,TIMESTAMPADD,TIMESTAMPDIFF,TO_DATE,TO_TIMESTAMP,WEEK,YEAR";
  }

  /** {@code {fn CONVERT(value, type)}} works. */
  @Override
  public boolean supportsConvert() throws SQLException {
    open();
    return true;
  }

  /** Whether Floe's SQL can CAST between two JDBC types, by Calcite's casting rules. */
  @Override
  public boolean supportsConvert(int fromType, int toType) throws SQLException {
    open();
    SqlTypeName from = SqlTypeName.getNameForJdbcType(fromType);
    SqlTypeName to = SqlTypeName.getNameForJdbcType(toType);
    if (from == null || to == null) {
      return false;
    }
    RelDataTypeFactory types = new JavaTypeFactoryImpl();
    return SqlTypeUtil.canCastFrom(
        types.createSqlType(to), types.createSqlType(from), true);
  }

  // ---- SQL ------------------------------------------------------------------------------

  /** Floe follows the SQL standard's entry level; it does not claim the larger levels. */
  @Override
  public boolean supportsANSI92IntermediateSQL() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsANSI92FullSQL() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsExtendedSQLGrammar() throws SQLException {
    open();
    return false;
  }

  /** {@code ALTER TABLE ... ADD COLUMN} (DESIGN §7). */
  @Override
  public boolean supportsAlterTableWithAddColumn() throws SQLException {
    open();
    return true;
  }

  /** {@code ALTER TABLE ... DROP COLUMN} (DESIGN §7). */
  @Override
  public boolean supportsAlterTableWithDropColumn() throws SQLException {
    open();
    return true;
  }

  /** {@code x > ALL (subquery)} and {@code x = SOME (subquery)} work. */
  @Override
  public boolean supportsSubqueriesInQuantifieds() throws SQLException {
    open();
    return true;
  }

  /** A table may be given its own name as correlation name. */
  @Override
  public boolean supportsDifferentTableCorrelationNames() throws SQLException {
    open();
    return false;
  }

  /** NULL sorts after every value ascending, before them descending. */
  @Override
  public boolean nullsAreSortedHigh() throws SQLException {
    open();
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean nullsAreSortedLow() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean nullsAreSortedAtStart() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean nullsAreSortedAtEnd() throws SQLException {
    open();
    return false;
  }

  /** Floe has no stored procedures or functions to call. */
  @Override
  public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsStoredProcedures() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean allProceduresAreCallable() throws SQLException {
    open();
    return false;
  }

  // ---- transactions -----------------------------------------------------------------------

  /** {@inheritDoc} */
  @Override
  public boolean supportsTransactions() throws SQLException {
    open();
    return true;
  }

  /** Snapshot isolation, reported as repeatable read (DESIGN §6). */
  @Override
  public int getDefaultTransactionIsolation() throws SQLException {
    open();
    return Connection.TRANSACTION_REPEATABLE_READ;
  }

  /** Repeatable read (snapshot isolation) and serializable; weaker levels are raised. */
  @Override
  public boolean supportsTransactionIsolationLevel(int level) throws SQLException {
    open();
    return level == Connection.TRANSACTION_REPEATABLE_READ
        || level == Connection.TRANSACTION_SERIALIZABLE;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsDataManipulationTransactionsOnly() throws SQLException {
    open();
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsDataDefinitionAndDataManipulationTransactions() throws SQLException {
    open();
    return false;
  }

  /** DDL commits at once, as in most databases. */
  @Override
  public boolean dataDefinitionCausesTransactionCommit() throws SQLException {
    open();
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean dataDefinitionIgnoredInTransactions() throws SQLException {
    open();
    return false;
  }

  /** Several connections may each have a transaction open. */
  @Override
  public boolean supportsMultipleTransactions() throws SQLException {
    open();
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsSavepoints() throws SQLException {
    open();
    return false;
  }

  /** A whole batch is one commit (DESIGN §6). */
  @Override
  public boolean supportsBatchUpdates() throws SQLException {
    open();
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsRefCursors() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsSharding() throws SQLException {
    open();
    return false;
  }

  /** Floe has no LOB types. */
  @Override
  public long getMaxLogicalLobSize() throws SQLException {
    open();
    return 0;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsGetGeneratedKeys() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsNamedParameters() throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public RowIdLifetime getRowIdLifetime() throws SQLException {
    open();
    return RowIdLifetime.ROWID_UNSUPPORTED;
  }

  // ---- result sets ------------------------------------------------------------------------

  /** Forward-only, read-only result sets. */
  @Override
  public boolean supportsResultSetType(int type) throws SQLException {
    open();
    return type == ResultSet.TYPE_FORWARD_ONLY;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsResultSetConcurrency(int type, int concurrency) throws SQLException {
    open();
    return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsResultSetHoldability(int holdability) throws SQLException {
    open();
    return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  /** {@inheritDoc} */
  @Override
  public int getResultSetHoldability() throws SQLException {
    open();
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  /** No result set of Floe's changes rows. */
  @Override
  public boolean ownUpdatesAreVisible(int type) throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean ownDeletesAreVisible(int type) throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean ownInsertsAreVisible(int type) throws SQLException {
    open();
    return false;
  }

  /** A result set reads the snapshot it started on. */
  @Override
  public boolean othersUpdatesAreVisible(int type) throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean othersDeletesAreVisible(int type) throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean othersInsertsAreVisible(int type) throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean updatesAreDetected(int type) throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean deletesAreDetected(int type) throws SQLException {
    open();
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public boolean insertsAreDetected(int type) throws SQLException {
    open();
    return false;
  }
}
