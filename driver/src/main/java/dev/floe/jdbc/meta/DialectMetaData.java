package dev.floe.jdbc.meta;

import dev.floe.jdbc.forwarding.ForwardingDatabaseMetaData;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * The part of Floe's database metadata that describes its SQL: how names are written and matched,
 * the functions of the JDBC escape, the features the dialect has, transactions and result sets.
 * Each answer is what Floe does, and the tests check the claims against SQL that runs; only the
 * keyword list is Calcite's, whose parser Floe uses. Subclasses make {@link #open()} refuse calls
 * on a closed connection.
 */
abstract class DialectMetaData extends ForwardingDatabaseMetaData {
  DialectMetaData(DatabaseMetaData calcite) {
    super(calcite);
  }

  // ---- names --------------------------------------------------------------------------

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

  @Override
  public boolean storesMixedCaseIdentifiers() throws SQLException {
    open();
    return true;
  }

  @Override
  public boolean storesUpperCaseIdentifiers() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean storesLowerCaseIdentifiers() throws SQLException {
    open();
    return false;
  }

  /**
   * Quoted table and schema names are case sensitive, but quoted column names still match ignoring
   * case (Calcite has one case-sensitivity switch for columns, shared with unquoted names), so
   * quoted identifiers as a whole are not.
   */
  @Override
  public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean storesMixedCaseQuotedIdentifiers() throws SQLException {
    open();
    return true;
  }

  @Override
  public boolean storesUpperCaseQuotedIdentifiers() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean storesLowerCaseQuotedIdentifiers() throws SQLException {
    open();
    return false;
  }

  @Override
  public String getSchemaTerm() throws SQLException {
    open();
    return "schema";
  }

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

  @Override
  public boolean supportsSchemasInTableDefinitions() throws SQLException {
    open();
    return true;
  }

  @Override
  public boolean supportsSchemasInProcedureCalls() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean supportsSchemasInIndexDefinitions() throws SQLException {
    open();
    return false;
  }

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

  @Override
  public boolean supportsCatalogsInTableDefinitions() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean supportsCatalogsInProcedureCalls() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
    open();
    return false;
  }

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
    return SqlTypeUtil.canCastFrom(types.createSqlType(to), types.createSqlType(from), true);
  }

  // ---- SQL ------------------------------------------------------------------------------

  /** Floe follows the SQL standard's entry level; it does not claim the larger levels. */
  @Override
  public boolean supportsANSI92IntermediateSQL() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean supportsANSI92FullSQL() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean supportsExtendedSQLGrammar() throws SQLException {
    open();
    return false;
  }

  /** {@code ALTER TABLE ... ADD COLUMN} (docs/sql.md, "DDL"). */
  @Override
  public boolean supportsAlterTableWithAddColumn() throws SQLException {
    open();
    return true;
  }

  /** {@code ALTER TABLE ... DROP COLUMN} (docs/sql.md, "DDL"). */
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

  @Override
  public boolean nullsAreSortedLow() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean nullsAreSortedAtStart() throws SQLException {
    open();
    return false;
  }

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

  @Override
  public boolean supportsStoredProcedures() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean allProceduresAreCallable() throws SQLException {
    open();
    return false;
  }

  // ---- transactions -----------------------------------------------------------------------

  @Override
  public boolean supportsTransactions() throws SQLException {
    open();
    return true;
  }

  /** Snapshot isolation, reported as repeatable read (docs/transactions.md, "Transactions"). */
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

  @Override
  public boolean supportsDataManipulationTransactionsOnly() throws SQLException {
    open();
    return true;
  }

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

  @Override
  public boolean supportsSavepoints() throws SQLException {
    open();
    return false;
  }

  /** A whole batch is one commit (docs/transactions.md, "Transactions"). */
  @Override
  public boolean supportsBatchUpdates() throws SQLException {
    open();
    return true;
  }

  @Override
  public boolean supportsRefCursors() throws SQLException {
    open();
    return false;
  }

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

  @Override
  public boolean supportsGetGeneratedKeys() throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean supportsNamedParameters() throws SQLException {
    open();
    return false;
  }

  @Override
  public RowIdLifetime getRowIdLifetime() throws SQLException {
    open();
    return RowIdLifetime.ROWID_UNSUPPORTED;
  }

  // ---- result sets ------------------------------------------------------------------------

  /** Forward-only and scroll-insensitive result sets, read-only. */
  @Override
  public boolean supportsResultSetType(int type) throws SQLException {
    open();
    return type == ResultSet.TYPE_FORWARD_ONLY || type == ResultSet.TYPE_SCROLL_INSENSITIVE;
  }

  @Override
  public boolean supportsResultSetConcurrency(int type, int concurrency) throws SQLException {
    open();
    return supportsResultSetType(type) && concurrency == ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public boolean supportsResultSetHoldability(int holdability) throws SQLException {
    open();
    return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

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

  @Override
  public boolean ownDeletesAreVisible(int type) throws SQLException {
    open();
    return false;
  }

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

  @Override
  public boolean othersDeletesAreVisible(int type) throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean othersInsertsAreVisible(int type) throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean updatesAreDetected(int type) throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean deletesAreDetected(int type) throws SQLException {
    open();
    return false;
  }

  @Override
  public boolean insertsAreDetected(int type) throws SQLException {
    open();
    return false;
  }
}
