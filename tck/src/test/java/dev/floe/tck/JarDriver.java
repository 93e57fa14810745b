package dev.floe.tck;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.logging.Logger;

/**
 * How every kit test reaches Floe: the shaded driver jar, alone, in a class loader of its own whose
 * parent is the platform loader, as DBeaver and application servers load a driver. The kit's own
 * class path holds no Floe, Calcite or Avatica class, and its Iceberg, Parquet and Hadoop (the
 * independent reference) are invisible to the driver; whatever the jar lacks fails here as it fails
 * for users.
 *
 * <p>{@link DriverManager} only hands a caller the drivers its class loader can see, so this
 * delegating driver, registered through the kit's {@code META-INF/services/java.sql.Driver}, is
 * what the tests' {@code DriverManager.getConnection("jdbc:floe:...")} and HikariCP find; the
 * connections it returns are the jar's own.
 */
public final class JarDriver implements Driver {
  /** The system property naming the shaded jar (set by the build for tests and child JVMs). */
  public static final String JAR_PROPERTY = "floe.driver.jar";

  private static final URLClassLoader LOADER;
  private static final Driver FLOE;

  static {
    Path jar = jar();
    try {
      LOADER =
          new URLClassLoader(
              "floe-jar", new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    } catch (MalformedURLException e) {
      throw new ExceptionInInitializerError(e);
    }
    Driver found = null;
    for (Driver d : ServiceLoader.load(Driver.class, LOADER)) {
      if (d.getClass().getName().equals("dev.floe.FloeDriver")
          && d.getClass().getClassLoader() == LOADER) {
        found = d;
      }
    }
    if (found == null) {
      throw new IllegalStateException(jar + " registers no dev.floe.FloeDriver");
    }
    FLOE = found;
    try {
      DriverManager.registerDriver(new JarDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The shaded jar the build made; fails clearly when it is missing. */
  public static Path jar() {
    String property = System.getProperty(JAR_PROPERTY);
    if (property == null) {
      throw new IllegalStateException(
          "The kit runs against the shaded driver jar only; system property "
              + JAR_PROPERTY
              + " is not set. Run it with ./mvnw verify (it runs at integration-test, after package).");
    }
    Path jar = Path.of(property).toAbsolutePath();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "The shaded driver jar "
              + jar
              + " does not exist: run the kit with ./mvnw verify from the repository root, which"
              + " packages the driver first.");
    }
    return jar;
  }

  /** The class loader holding the jar and nothing else. */
  public static ClassLoader loader() {
    return LOADER;
  }

  /** The jar's own driver. */
  public static Driver floe() {
    return FLOE;
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    return FLOE.connect(url, info);
  }

  @Override
  public boolean acceptsURL(String url) throws SQLException {
    return FLOE.acceptsURL(url);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
    return FLOE.getPropertyInfo(url, info);
  }

  @Override
  public int getMajorVersion() {
    return FLOE.getMajorVersion();
  }

  @Override
  public int getMinorVersion() {
    return FLOE.getMinorVersion();
  }

  @Override
  public boolean jdbcCompliant() {
    return FLOE.jdbcCompliant();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return FLOE.getParentLogger();
  }
}
