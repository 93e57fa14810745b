package dev.floe.examples.shell;

import dev.floe.FloeDriver;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * Floe's driver with a {@link LakeWatcher} on every connection it opens. While installed it stands
 * in front of {@link FloeDriver} in {@link DriverManager}, so sqlline's {@code jdbc:floe:}
 * connections, including ones opened with {@code !connect}, are watched.
 */
final class WatchingDriver implements Driver, AutoCloseable {
  private final Driver floe = new FloeDriver();
  private final PrintStream report;
  private final long progressMillis;
  private final ScheduledExecutorService ticker;
  private final List<Driver> displaced = new ArrayList<>();
  private final AtomicInteger failures = new AtomicInteger();

  WatchingDriver(PrintStream report, long progressMillis) {
    this.report = report;
    this.progressMillis = progressMillis;
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "floe-shell-progress");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Registers this driver in place of Floe's own until {@link #close()}. */
  WatchingDriver install() throws SQLException {
    for (Driver driver : Collections.list(DriverManager.getDrivers())) {
      if (driver instanceof FloeDriver) {
        DriverManager.deregisterDriver(driver);
        displaced.add(driver);
      }
    }
    DriverManager.registerDriver(this);
    return this;
  }

  /** Puts Floe's own driver back and stops the progress ticker. */
  @Override
  public void close() throws SQLException {
    DriverManager.deregisterDriver(this);
    for (Driver driver : displaced) {
      DriverManager.registerDriver(driver);
    }
    displaced.clear();
    ticker.shutdownNow();
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    Connection connection;
    try {
      connection = floe.connect(url, info);
    } catch (SQLException | RuntimeException e) {
      failures.incrementAndGet();
      throw e;
    }
    Path root = connection == null ? null : localRoot(url);
    if (root == null) {
      return connection;
    }
    return Watched.connection(
        connection,
        new LakeWatcher(root, report, ticker, progressMillis, failures::incrementAndGet));
  }

  /** How many statements failed on this driver's connections, including failed connects. */
  int failures() {
    return failures.get();
  }

  /** The local folder a Floe URL names, or null when it is not a local folder. */
  static Path localRoot(String url) {
    String location = url.substring(FloeDriver.URL_PREFIX.length());
    int query = location.indexOf('?');
    if (query >= 0) {
      location = location.substring(0, query);
    }
    try {
      if (location.regionMatches(true, 0, "file:", 0, 5)) {
        URI uri = URI.create(location);
        return Path.of(new URI("file", null, uri.getPath(), null));
      }
      if (location.matches("(?i)[a-z][a-z0-9+.-]+:/.*")) {
        return null; // s3://bucket/... and other stores
      }
      return Path.of(location).toAbsolutePath();
    } catch (IllegalArgumentException | java.net.URISyntaxException e) {
      return null;
    }
  }

  @Override
  public boolean acceptsURL(String url) throws SQLException {
    return floe.acceptsURL(url);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
    return floe.getPropertyInfo(url, info);
  }

  @Override
  public int getMajorVersion() {
    return floe.getMajorVersion();
  }

  @Override
  public int getMinorVersion() {
    return floe.getMinorVersion();
  }

  @Override
  public boolean jdbcCompliant() {
    return floe.jdbcCompliant();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return floe.getParentLogger();
  }
}
