package dev.floe.jdbc;

import dev.floe.config.ContextLoader;
import dev.floe.config.DriverInfo;
import dev.floe.config.FloeProperty;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.planner.adapter.LakeSchema;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.parser.FloeParser;
import dev.floe.planner.type.LakeTypeSystem;
import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import dev.floe.txn.FloeSession;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;

/** Opens Floe connections: parses the URL and properties, checks the root, wires Calcite. */
public final class FloeConnector {
  /** The name of the schema holding the tables directly under the root. */
  public static final String DEFAULT_SCHEMA = TableNames.DEFAULT_SCHEMA;

  private static final LakeCalciteDriver CALCITE = new LakeCalciteDriver();
  private static final ExecutorService SCAN_POOL = scanPool();

  private FloeConnector() {}

  /** Opens a connection; the URL has been checked to start with {@code jdbc:floe:}. */
  public static Connection connect(String url, Properties info) throws SQLException {
    try (ContextLoader ignored = ContextLoader.enter()) {
      return open(url, info);
    } catch (SQLException | RuntimeException e) {
      throw masked(SqlErrors.toSql(e), url, info);
    }
  }

  /**
   * The failure with every secret property value masked in its message, however malformed the URL;
   * a cause whose messages would show a secret is not chained.
   */
  private static SQLException masked(SQLException e, String url, Properties info) {
    Properties secrets;
    try {
      secrets = properties(url, info);
    } catch (RuntimeException unreadable) {
      secrets = info == null ? new Properties() : info;
    }
    boolean shows = false;
    for (Throwable t = e; t != null && !shows; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      shows = !FloeProperty.mask(message, secrets).equals(message);
    }
    if (!shows) {
      return e;
    }
    return SqlErrors.create(e.getSQLState(), FloeProperty.mask(e.getMessage(), secrets), null);
  }

  /**
   * The connection properties of a URL and its {@link Properties}: a key given in both takes the
   * URL's value.
   */
  public static Properties properties(String url, Properties info) {
    String rest = url.substring(DriverInfo.URL_PREFIX.length());
    Properties properties = new Properties();
    if (info != null) {
      properties.putAll(info);
    }
    int question = rest.indexOf('?');
    if (question >= 0) {
      for (String pair : rest.substring(question + 1).split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq), "a property name");
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1), "property " + key);
        properties.setProperty(key, value);
      }
    }
    return properties;
  }

  private static Connection open(String url, Properties info) throws SQLException {
    String rest = url.substring(DriverInfo.URL_PREFIX.length());
    Properties properties = properties(url, info);
    FloeProperty.validate(properties);
    int question = rest.indexOf('?');
    String locationText = question < 0 ? rest : rest.substring(0, question);
    LakeLocation location = LakeLocation.parse(locationText);
    FolderCatalog catalog;
    try {
      catalog = FolderCatalog.open(location, properties);
    } catch (RuntimeException | Error e) {
      throw SqlErrors.toSql(e);
    }
    TimeZone timeZone = TimeZone.getTimeZone(FloeProperty.timeZone(properties));
    String threads = FloeProperty.SCAN_THREADS.in(properties);
    int parallelism =
        threads.isBlank()
            ? Runtime.getRuntime().availableProcessors()
            : Integer.parseInt(threads.trim());
    FloeSession session =
        new FloeSession(
            catalog,
            timeZone,
            FloeProperty.READ_ONLY.isTrue(properties),
            SCAN_POOL,
            Math.max(1, parallelism));
    Properties calcite = new Properties();
    calcite.setProperty("quoting", "DOUBLE_QUOTE");
    calcite.setProperty("unquotedCasing", "UNCHANGED");
    calcite.setProperty("quotedCasing", "UNCHANGED");
    calcite.setProperty("caseSensitive", "false");
    calcite.setProperty("typeSystem", LakeTypeSystem.class.getName() + "#INSTANCE");
    calcite.setProperty("timeZone", timeZone.getID());
    calcite.setProperty("conformance", "LENIENT");
    calcite.setProperty("materializationsEnabled", "false");
    // Floe's grammar (Calcite's, with Floe's statements): the one parser for every statement.
    calcite.setProperty("parserFactory", FloeParser.FACTORY_PROPERTY);
    CalciteConnection connection =
        CALCITE.connect("jdbc:calcite:", calcite).unwrap(CalciteConnection.class);
    SchemaPlus rootSchema = connection.getRootSchema();
    rootSchema.add(DEFAULT_SCHEMA, new LakeSchema(session, List.of()));
    connection.setSchema(DEFAULT_SCHEMA);
    return new FloeConnection(connection, session, location, properties);
  }

  /** Decodes a URL's percent-escapes; a bad one is named, never echoed (it may be a secret). */
  private static String decode(String s, String what) {
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw FloeError.INVALID_PROPERTY.error(what, "the URL has an invalid percent-escape in it");
    }
  }

  private static ExecutorService scanPool() {
    AtomicInteger count = new AtomicInteger();
    ThreadFactory factory =
        runnable -> {
          Thread thread = new Thread(runnable, "floe-scan-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    // Unbounded on purpose: each scan bounds its own workers, and two scans read by one thread
    // (a join of two Floe tables) must never wait for each other's threads.
    return Executors.newCachedThreadPool(factory);
  }
}
