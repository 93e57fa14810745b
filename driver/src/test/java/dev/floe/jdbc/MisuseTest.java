package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every JDBC call, made through reflection on each Floe object: once the object (or its connection)
 * is closed it fails with 08003; while open it answers, or fails with a SQLState, and a feature
 * Floe lacks is a SQLFeatureNotSupportedException with 0A000 — never a bare RuntimeException or a
 * SQLException without a state.
 */
class MisuseTest {
  /**
   * Calls that stay legal on a closed object (JDBC's isValid is false then; the enquote methods are
   * string functions; begin/endRequest are hints), or that end it.
   */
  private static final Set<String> LIFECYCLE =
      Set.of(
          "close",
          "isClosed",
          "abort",
          "isValid",
          "unwrap",
          "isWrapperFor",
          "getConnection",
          "beginRequest",
          "endRequest",
          "enquoteIdentifier",
          "enquoteLiteral",
          "enquoteNCharLiteral",
          "isSimpleIdentifier");

  @TempDir Path lake;

  private String url;

  @BeforeEach
  void createTable() throws SQLException {
    url = "jdbc:floe:" + lake;
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR)");
      s.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
    }
  }

  @Test
  void everyCallOnAClosedConnectionFailsWith08003() throws Exception {
    Connection c = DriverManager.getConnection(url);
    c.close();
    assertEveryCallFailsWith08003(Connection.class, c);
  }

  @Test
  void everyCallOnAClosedStatementFailsWith08003() throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      Statement s = c.createStatement();
      s.close();
      assertEveryCallFailsWith08003(Statement.class, s);
      PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE id = ?");
      p.close();
      assertEveryCallFailsWith08003(PreparedStatement.class, p);
    }
  }

  @Test
  void everyCallOnAStatementOfAClosedConnectionFailsWith08003() throws Exception {
    Connection c = DriverManager.getConnection(url);
    Statement s = c.createStatement();
    c.close();
    assertEveryCallFailsWith08003(Statement.class, s);
  }

  @Test
  void everyCallOnAClosedResultSetFailsWith08003() throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      ResultSet rs = s.executeQuery("SELECT * FROM t");
      rs.close();
      assertEveryCallFailsWith08003(ResultSet.class, rs);
      ResultSet tables = c.getMetaData().getTables(null, null, "%", null);
      tables.close();
      assertEveryCallFailsWith08003(ResultSet.class, tables);
    }
  }

  @Test
  void everyMetadataCallOnAClosedConnectionFailsWith08003() throws Exception {
    Connection c = DriverManager.getConnection(url);
    DatabaseMetaData meta = c.getMetaData();
    ResultSet tables = meta.getTables(null, null, "%", null);
    c.close();
    assertEveryCallFailsWith08003(DatabaseMetaData.class, meta);
    assertEveryCallFailsWith08003(ResultSet.class, tables);
  }

  @Test
  void everyConnectionCallAnswersOrFailsWithAState() throws Exception {
    List<String> bad = new ArrayList<>();
    for (Method m : methods(Connection.class)) {
      try (Connection c = DriverManager.getConnection(url)) {
        check(m, c, bad);
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void everyStatementCallAnswersOrFailsWithAState() throws Exception {
    List<String> bad = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url)) {
      for (Method m : methods(Statement.class)) {
        try (Statement s = c.createStatement()) {
          check(m, s, bad);
        }
      }
      for (Method m : methods(PreparedStatement.class)) {
        try (PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE id = ?")) {
          check(m, p, bad);
        }
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void everyResultSetCallAnswersOrFailsWithAState() throws Exception {
    List<String> bad = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url)) {
      for (Method m : methods(ResultSet.class)) {
        try (Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT * FROM t")) {
          rs.next();
          check(m, rs, bad);
        }
        try (ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
          rs.next();
          check(m, rs, bad);
        }
      }
    }
    assertThat(bad).isEmpty();
  }

  @Test
  void everyMetadataCallAnswersOrFailsWithAState() throws Exception {
    List<String> bad = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url)) {
      DatabaseMetaData meta = c.getMetaData();
      for (Method m : methods(DatabaseMetaData.class)) {
        check(m, meta, bad);
      }
    }
    assertThat(bad).isEmpty();
  }

  private static void check(Method m, Object target, List<String> bad) {
    try {
      Object result = m.invoke(target, arguments(m));
      if (result instanceof ResultSet) {
        ((ResultSet) result).close();
      }
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (!(cause instanceof SQLException)) {
        bad.add(m + " threw " + cause);
      } else if (((SQLException) cause).getSQLState() == null) {
        bad.add(m + " threw without SQLState: " + cause);
      } else if (cause instanceof SQLFeatureNotSupportedException
          && !((SQLException) cause).getSQLState().equals("0A000")) {
        bad.add(m + " is unsupported with SQLState " + ((SQLException) cause).getSQLState());
      }
    } catch (ReflectiveOperationException | SQLException e) {
      bad.add(m + " could not be called: " + e);
    }
  }

  private static void assertEveryCallFailsWith08003(Class<?> api, Object target) throws Exception {
    List<String> bad = new ArrayList<>();
    for (Method m : methods(api)) {
      try {
        m.invoke(target, arguments(m));
        bad.add(m.getName() + " answered");
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (!(cause instanceof SQLException)
            || !"08003".equals(((SQLException) cause).getSQLState())) {
          bad.add(m.getName() + " threw " + cause);
        }
      }
    }
    assertThat(bad).as(api.getSimpleName()).isEmpty();
  }

  private static List<Method> methods(Class<?> api) {
    List<Method> methods = new ArrayList<>();
    for (Method m : api.getMethods()) {
      if (!Modifier.isStatic(m.getModifiers())
          && !LIFECYCLE.contains(m.getName())
          && Arrays.asList(m.getExceptionTypes()).stream()
              .anyMatch(SQLException.class::isAssignableFrom)) {
        methods.add(m);
      }
    }
    methods.sort(Comparator.comparing(Method::toString));
    return methods;
  }

  private static Object[] arguments(Method m) {
    Class<?>[] types = m.getParameterTypes();
    Object[] args = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      Class<?> t = types[i];
      if (t == int.class) {
        args[i] = 1;
      } else if (t == long.class) {
        args[i] = 1L;
      } else if (t == boolean.class) {
        args[i] = false;
      } else if (t == short.class) {
        args[i] = (short) 1;
      } else if (t == byte.class) {
        args[i] = (byte) 1;
      } else if (t == float.class) {
        args[i] = 1f;
      } else if (t == double.class) {
        args[i] = 1d;
      } else if (t == String.class) {
        args[i] = "id";
      } else if (t == Class.class) {
        args[i] = Object.class;
      } else if (t.isArray()) {
        args[i] = java.lang.reflect.Array.newInstance(t.getComponentType(), 0);
      }
    }
    return args;
  }
}
