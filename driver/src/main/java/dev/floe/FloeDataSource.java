package dev.floe;

import dev.floe.config.FloeProperty;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} for Floe, for pools and frameworks that configure data sources by bean
 * properties: set {@link #setUrl(String)} and optionally properties. Thread-safe once configured.
 */
public final class FloeDataSource implements DataSource {
  private volatile String url;
  private final Properties properties = new Properties();
  private volatile int loginTimeout;
  private volatile PrintWriter logWriter;

  /** The JDBC URL, {@code jdbc:floe:<location>[?key=value...]}. */
  public String getUrl() {
    return url;
  }

  /** Sets the JDBC URL. */
  public void setUrl(String url) {
    this.url = url;
  }

  /** Sets one connection property (see {@link FloeProperty}). */
  public void setProperty(String key, String value) {
    synchronized (properties) {
      properties.setProperty(key, value);
    }
  }

  /** {@inheritDoc} */
  @Override
  public Connection getConnection() throws SQLException {
    Properties copy = new Properties();
    synchronized (properties) {
      copy.putAll(properties);
    }
    return new FloeDriver().connect(url, copy);
  }

  /** Floe has no users; the arguments are ignored. */
  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return getConnection();
  }

  /** {@inheritDoc} */
  @Override
  public PrintWriter getLogWriter() {
    return logWriter;
  }

  /** {@inheritDoc} */
  @Override
  public void setLogWriter(PrintWriter out) {
    this.logWriter = out;
  }

  /** {@inheritDoc} */
  @Override
  public void setLoginTimeout(int seconds) {
    this.loginTimeout = seconds;
  }

  /** {@inheritDoc} */
  @Override
  public int getLoginTimeout() {
    return loginTimeout;
  }

  /** {@inheritDoc} */
  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return Logger.getLogger("dev.floe");
  }

  /** {@inheritDoc} */
  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw SqlErrors.of(FloeError.INVALID_ARGUMENT, "unwrap", "not a wrapper for " + iface);
  }

  /** {@inheritDoc} */
  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
