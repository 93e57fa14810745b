package dev.floe.jdbc;

import dev.floe.command.Analyze;
import dev.floe.command.Ddl;
import dev.floe.command.Etl;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * A statement Floe runs itself (DDL, SHOW, DESCRIBE, TRUNCATE, INSERT OVERWRITE, MERGE, ANALYZE,
 * procedures) prepared through {@code Connection.prepareStatement}, as JDBI and other libraries
 * prepare every statement: it has no parameters, and each execution runs its text through the plain
 * statement's one path ({@link FloeStatement#execute(String)}), where the same classifier decides
 * how it runs.
 */
final class PreparedCommand {
  private PreparedCommand() {}

  /**
   * Whether {@code sql} is a statement Floe runs itself rather than one Calcite prepares; such a
   * statement with a {@code ?} is refused (0A000): commands take no parameters.
   */
  static boolean handles(String sql) throws SQLException {
    boolean own = Etl.handles(sql) || Analyze.handles(sql);
    SqlNode node = own ? null : Ddl.parse(sql);
    if (!own && !Ddl.isCommand(node)) {
      return false;
    }
    if (node != null ? hasParameter(node) : hasMark(sql)) {
      throw SqlErrors.of(
          FloeError.NOT_SUPPORTED,
          "parameters in DDL, SHOW, DESCRIBE, TRUNCATE, INSERT OVERWRITE, MERGE or ANALYZE;"
              + " write the values into the statement's text: "
              + sql);
    }
    return true;
  }

  /** A prepared statement that runs {@code sql} on {@code statement} at each execution. */
  static PreparedStatement of(FloeStatement statement, String sql) {
    return (PreparedStatement)
        Proxy.newProxyInstance(
            PreparedCommand.class.getClassLoader(),
            new Class<?>[] {PreparedStatement.class},
            (proxy, method, args) -> invoke(statement, sql, proxy, method, args));
  }

  private static Object invoke(
      FloeStatement statement, String sql, Object proxy, Method method, Object[] args)
      throws Throwable {
    String name = method.getName();
    int count = args == null ? 0 : args.length;
    switch (name) {
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      case "toString":
        return sql;
      default:
        break;
    }
    if (count == 0) {
      switch (name) {
        case "execute":
          return statement.execute(sql);
        case "executeQuery":
          return statement.executeQuery(sql);
        case "executeUpdate":
          return statement.executeUpdate(sql);
        case "executeLargeUpdate":
          return statement.executeLargeUpdate(sql);
        case "addBatch":
          statement.addBatch(sql);
          return null;
        case "clearParameters":
          statement.checkOpen();
          return null;
        case "getParameterMetaData":
          statement.checkOpen();
          return NO_PARAMETERS;
        case "getMetaData":
          // Known only once it runs (SHOW and DESCRIBE), as JDBC allows: null.
          statement.checkOpen();
          return null;
        default:
          break;
      }
    }
    if (name.startsWith("set")
        && count >= 2
        && method.getParameterTypes()[0] == int.class
        && method.getDeclaringClass() == PreparedStatement.class) {
      statement.checkOpen();
      throw SqlErrors.of(
          FloeError.PARAMETER_COUNT, "parameter " + args[0] + " of a statement with no parameters");
    }
    try {
      return method.invoke(statement, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** The parameters of a command: none. */
  private static final ParameterMetaData NO_PARAMETERS =
      (ParameterMetaData)
          Proxy.newProxyInstance(
              PreparedCommand.class.getClassLoader(),
              new Class<?>[] {ParameterMetaData.class},
              (proxy, method, args) -> {
                switch (method.getName()) {
                  case "getParameterCount":
                    return 0;
                  case "isWrapperFor":
                    return false;
                  case "equals":
                    return proxy == args[0];
                  case "hashCode":
                    return System.identityHashCode(proxy);
                  case "toString":
                    return "no parameters";
                  default:
                    throw SqlErrors.of(
                        FloeError.PARAMETER_COUNT,
                        "parameter " + args[0] + " of a statement with no parameters");
                }
              });

  private static boolean hasParameter(SqlNode node) {
    boolean[] found = {false};
    node.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlDynamicParam param) {
            found[0] = true;
            return null;
          }
        });
    return found[0];
  }

  /** Whether a {@code ?} stands outside quotes and comments. */
  private static boolean hasMark(String sql) {
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        int end = sql.indexOf(c, i + 1);
        while (end > 0 && end + 1 < sql.length() && sql.charAt(end + 1) == c) {
          end = sql.indexOf(c, end + 2);
        }
        if (end < 0) {
          return false;
        }
        i = end;
      } else if (c == '-' && sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        if (end < 0) {
          return false;
        }
        i = end;
      } else if (c == '/' && sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        if (end < 0) {
          return false;
        }
        i = end + 1;
      } else if (c == '?') {
        return true;
      }
    }
    return false;
  }
}
