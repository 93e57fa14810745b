package dev.floe.examples.shell;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Proxies that send a connection's {@code commit()} and its statements' executing calls through a
 * {@link LakeWatcher}, and every other call straight to Floe. This is the shell's only hook into
 * sqlline, which runs SQL on the connection it opened and offers no callback around a statement;
 * the driver's own JDBC classes are written out, not proxied.
 */
final class Watched {
  private static final Set<String> EXECUTING =
      Set.of(
          "execute",
          "executeUpdate",
          "executeLargeUpdate",
          "executeQuery",
          "executeBatch",
          "executeLargeBatch");

  private Watched() {}

  /** A connection whose statements are watched. */
  static Connection connection(Connection floe, LakeWatcher watcher) {
    return (Connection)
        Proxy.newProxyInstance(
            Watched.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            new ConnectionHandler(floe, watcher));
  }

  private static Object call(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /**
   * Warnings as sqlline prints them: once each. sqlline walks a chain of warnings by {@code
   * getNextWarning}, and prints each with every warning after it by {@code getNextException}, for
   * each warning again: n warnings (optimize commits one per partition) came out 2^n - 1 times. The
   * chain given to it has the same warnings, linked by {@code getNextWarning} only. The same chain
   * from the driver gives the same copies, so sqlline's own memory of what it printed holds.
   */
  static final class Warnings {
    private final Map<SQLWarning, SQLWarning> shown = new WeakHashMap<>();

    synchronized SQLWarning once(SQLWarning first) {
      if (first == null) {
        return null;
      }
      SQLWarning copy = shown.get(first);
      if (copy == null) {
        List<SQLWarning> chain = new ArrayList<>();
        for (SQLWarning w = first; w != null && !chain.contains(w); w = w.getNextWarning()) {
          chain.add(w);
        }
        for (int i = chain.size() - 1; i >= 0; i--) {
          copy = new Single(chain.get(i), copy);
        }
        shown.put(first, copy);
      }
      return copy;
    }
  }

  /** One warning, followed by the next as a warning and by nothing as an exception. */
  private static final class Single extends SQLWarning {
    private static final long serialVersionUID = 1L;

    private final SQLWarning next;

    Single(SQLWarning warning, SQLWarning next) {
      super(
          warning.getMessage(), warning.getSQLState(), warning.getErrorCode(), warning.getCause());
      this.next = next;
      setStackTrace(warning.getStackTrace());
    }

    @Override
    public SQLWarning getNextWarning() {
      return next;
    }

    @Override
    public SQLException getNextException() {
      return null;
    }
  }

  /** Handles the calls on a watched connection. */
  private static final class ConnectionHandler implements InvocationHandler {
    private final Connection target;
    private final LakeWatcher watcher;
    private final Warnings warnings = new Warnings();

    ConnectionHandler(Connection target, LakeWatcher watcher) {
      this.target = target;
      this.watcher = watcher;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      switch (method.getName()) {
        case "createStatement":
        case "prepareStatement":
        case "prepareCall":
          Statement statement = (Statement) call(target, method, args);
          String sql =
              args != null && args.length > 0 && args[0] instanceof String
                  ? (String) args[0]
                  : null;
          return Proxy.newProxyInstance(
              Watched.class.getClassLoader(),
              new Class<?>[] {method.getReturnType()},
              new StatementHandler(statement, (Connection) proxy, sql, watcher));
        case "commit":
          return watcher.around("COMMIT", () -> call(target, method, args));
        case "getWarnings":
          return warnings.once((SQLWarning) call(target, method, args));
        case "equals":
          return proxy == args[0];
        case "hashCode":
          return System.identityHashCode(proxy);
        default:
          return call(target, method, args);
      }
    }
  }

  /**
   * A result set whose dates, times and timestamps {@code getObject(int)} gives as {@code
   * getString} text: sqlline prints {@code getObject(i).toString()}, and a {@code java.sql.Time} or
   * {@code Timestamp} cuts the digits below the millisecond that Floe's text keeps.
   */
  static ResultSet shown(ResultSet rs) {
    Warnings warnings = new Warnings();
    return (ResultSet)
        Proxy.newProxyInstance(
            Watched.class.getClassLoader(),
            new Class<?>[] {ResultSet.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getObject")
                  && args != null
                  && args.length == 1
                  && args[0] instanceof Integer
                  && isTemporal(rs.getMetaData().getColumnType((Integer) args[0]))) {
                return rs.getString((Integer) args[0]);
              }
              switch (method.getName()) {
                case "getWarnings":
                  return warnings.once((SQLWarning) call(rs, method, args));
                case "equals":
                  return proxy == args[0];
                case "hashCode":
                  return System.identityHashCode(proxy);
                default:
                  return call(rs, method, args);
              }
            });
  }

  private static boolean isTemporal(int type) {
    return type == Types.DATE
        || type == Types.TIME
        || type == Types.TIMESTAMP
        || type == Types.TIME_WITH_TIMEZONE
        || type == Types.TIMESTAMP_WITH_TIMEZONE;
  }

  /** Handles the calls on a watched statement. */
  private static final class StatementHandler implements InvocationHandler {
    private final Statement target;
    private final Connection connection;
    private final String preparedSql;
    private final LakeWatcher watcher;
    private final Warnings warnings = new Warnings();

    StatementHandler(
        Statement target, Connection connection, String preparedSql, LakeWatcher watcher) {
      this.target = target;
      this.connection = connection;
      this.preparedSql = preparedSql;
      this.watcher = watcher;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      if (EXECUTING.contains(name)) {
        String sql =
            args != null && args.length > 0 && args[0] instanceof String
                ? (String) args[0]
                : preparedSql;
        Object result =
            watcher.around(sql, () -> call(target, method, args), target::getLargeUpdateCount);
        return result instanceof ResultSet ? shown((ResultSet) result) : result;
      }
      switch (name) {
        case "getConnection":
          return connection;
        case "getResultSet":
          ResultSet rs = (ResultSet) call(target, method, args);
          return rs == null ? null : shown(rs);
        case "getWarnings":
          return warnings.once((SQLWarning) call(target, method, args));
        case "equals":
          return proxy == args[0];
        case "hashCode":
          return System.identityHashCode(proxy);
        default:
          return call(target, method, args);
      }
    }
  }
}
