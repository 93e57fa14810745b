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

/**
 * Floe's database metadata: what Floe is and does, answered by Floe; catalog listings come from
 * Calcite's view of the lake schema.
 */
final class FloeDatabaseMetaData extends ForwardingDatabaseMetaData {
  private final FloeConnection connection;

  FloeDatabaseMetaData(FloeConnection connection, DatabaseMetaData calcite) {
    super(calcite);
    this.connection = connection;
  }

  /** {@inheritDoc} */
  @Override
  public Connection getConnection() {
    return connection;
  }

  /** The URL with its location and non-secret properties only. */
  @Override
  public String getURL() {
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

  /** {@inheritDoc} */
  @Override
  public String getUserName() {
    return "";
  }

  /** {@inheritDoc} */
  @Override
  public String getDatabaseProductName() {
    return "Floe";
  }

  /** {@inheritDoc} */
  @Override
  public String getDatabaseProductVersion() {
    return FloeDriver.MAJOR_VERSION + "." + FloeDriver.MINOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public String getDriverName() {
    return "Floe JDBC driver";
  }

  /** {@inheritDoc} */
  @Override
  public String getDriverVersion() {
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
  public int getDatabaseMajorVersion() {
    return FloeDriver.MAJOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public int getDatabaseMinorVersion() {
    return FloeDriver.MINOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public int getJDBCMajorVersion() {
    return 4;
  }

  /** {@inheritDoc} */
  @Override
  public int getJDBCMinorVersion() {
    return 2;
  }

  /** {@inheritDoc} */
  @Override
  public boolean isReadOnly() throws SQLException {
    return connection.isReadOnly();
  }

  /** {@inheritDoc} */
  @Override
  public String getIdentifierQuoteString() {
    return "\"";
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsTransactions() {
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public int getDefaultTransactionIsolation() {
    return Connection.TRANSACTION_REPEATABLE_READ;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsTransactionIsolationLevel(int level) {
    return level == Connection.TRANSACTION_REPEATABLE_READ
        || level == Connection.TRANSACTION_SERIALIZABLE;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsDataManipulationTransactionsOnly() {
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsDataDefinitionAndDataManipulationTransactions() {
    return false;
  }

  /** DDL commits at once, as in most databases. */
  @Override
  public boolean dataDefinitionCausesTransactionCommit() {
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsBatchUpdates() {
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsMultipleTransactions() {
    return true;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsGetGeneratedKeys() {
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public RowIdLifetime getRowIdLifetime() {
    return RowIdLifetime.ROWID_UNSUPPORTED;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsResultSetType(int type) {
    return type == ResultSet.TYPE_FORWARD_ONLY;
  }

  /** {@inheritDoc} */
  @Override
  public boolean supportsResultSetConcurrency(int type, int concurrency) {
    return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
  }
}
