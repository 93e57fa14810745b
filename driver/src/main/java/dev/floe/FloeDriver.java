package dev.floe;

import dev.floe.config.ClassPreloader;
import dev.floe.config.DriverInfo;
import dev.floe.config.FloeProperty;
import dev.floe.error.SqlErrors;
import dev.floe.jdbc.FloeConnector;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The Floe JDBC driver: {@code jdbc:floe:<location>[?key=value&...]} opens the folder of Iceberg
 * tables at {@code <location>} as a SQL database. Registered with {@link DriverManager} when the
 * class loads, and listed in {@code META-INF/services/java.sql.Driver}.
 *
 * <p>Thread-safe; connections it returns are not.
 */
public final class FloeDriver implements Driver {
  /** The prefix of every Floe URL. */
  public static final String URL_PREFIX = DriverInfo.URL_PREFIX;

  /** The driver's version. */
  public static final int MAJOR_VERSION = DriverInfo.MAJOR_VERSION;

  /** The driver's minor version. */
  public static final int MINOR_VERSION = DriverInfo.MINOR_VERSION;

  static {
    try {
      DriverManager.registerDriver(new FloeDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** {@inheritDoc} */
  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    ClassPreloader.start();
    return FloeConnector.connect(url, info == null ? new Properties() : info);
  }

  /** {@inheritDoc} */
  @Override
  public boolean acceptsURL(String url) {
    return url != null && url.regionMatches(true, 0, URL_PREFIX, 0, URL_PREFIX.length());
  }

  /** {@inheritDoc} */
  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
    if (acceptsURL(url)) {
      try {
        info = FloeConnector.properties(url, info);
      } catch (RuntimeException | Error e) {
        throw SqlErrors.toSql(e);
      }
    }
    FloeProperty[] all = FloeProperty.values();
    DriverPropertyInfo[] result = new DriverPropertyInfo[all.length];
    for (int i = 0; i < all.length; i++) {
      FloeProperty p = all[i];
      String value = info == null ? null : info.getProperty(p.key());
      DriverPropertyInfo property =
          new DriverPropertyInfo(
              p.key(), p.secret() ? null : value == null ? p.defaultValue() : value);
      property.description = p.description();
      property.required = false;
      if (p.defaultValue().equals("true") || p.defaultValue().equals("false")) {
        property.choices = new String[] {"true", "false"};
      }
      result[i] = property;
    }
    return result;
  }

  /** {@inheritDoc} */
  @Override
  public int getMajorVersion() {
    return MAJOR_VERSION;
  }

  /** {@inheritDoc} */
  @Override
  public int getMinorVersion() {
    return MINOR_VERSION;
  }

  /** Floe is not yet fully JDBC compliant (docs/limits.md, "Known limits"). */
  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  /** {@inheritDoc} */
  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return Logger.getLogger("dev.floe");
  }
}
