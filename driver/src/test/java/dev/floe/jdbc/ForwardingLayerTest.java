package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.jdbc.forwarding.ForwardingConnection;
import dev.floe.jdbc.forwarding.ForwardingDatabaseMetaData;
import dev.floe.jdbc.forwarding.ForwardingResultSet;
import dev.floe.jdbc.forwarding.ForwardingStatement;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The delegating bases generated from the {@code java.sql} interfaces at build time: each forwards
 * every method of its interface, through {@code open()} and the error boundary, and Floe's classes
 * override the rest deliberately.
 */
class ForwardingLayerTest {
  /** JDBC's default methods Floe leaves to the interface: string functions and hints. */
  private static final Set<String> LEFT_TO_JDBC =
      Set.of(
          "Connection.beginRequest()",
          "Connection.endRequest()",
          "Statement.enquoteIdentifier(String,boolean)",
          "Statement.enquoteLiteral(String)",
          "Statement.enquoteNCharLiteral(String)",
          "Statement.isSimpleIdentifier(String)");

  /** The methods that declare no SQLException of their own: they reach the wrapped object as is. */
  private static final Set<String> UNCHECKED =
      Set.of(
          "getDriverMajorVersion()",
          "getDriverMinorVersion()",
          "setClientInfo(String,String)",
          "setClientInfo(Properties)");

  @Test
  void eachGeneratedBaseDeclaresEveryAbstractMethodOfItsInterface() {
    assertDeclaresEveryAbstractMethod(ForwardingConnection.class, Connection.class, false);
    assertDeclaresEveryAbstractMethod(ForwardingStatement.class, Statement.class, false);
    assertDeclaresEveryAbstractMethod(ForwardingResultSet.class, ResultSet.class, false);
    assertDeclaresEveryAbstractMethod(
        ForwardingDatabaseMetaData.class, DatabaseMetaData.class, false);
    assertDeclaresEveryAbstractMethod(
        ForwardingPreparedStatement.class, PreparedStatement.class, true);
  }

  @Test
  void everyMethodOfFloesClassesIsForwardedOrOverriddenAndOnlyJdbcsHintsAreLeftToTheInterface()
      throws Exception {
    Set<String> leftToInterface = new TreeSet<>();
    List<String> forwarded = new ArrayList<>();
    for (Class<?>[] pair :
        new Class<?>[][] {
          {FloeConnection.class, Connection.class},
          {FloeStatement.class, Statement.class},
          {FloePreparedStatement.class, PreparedStatement.class},
          {PreparedCommand.class, PreparedStatement.class},
          {FloeResultSet.class, ResultSet.class},
          {dev.floe.jdbc.meta.FloeDatabaseMetaData.class, DatabaseMetaData.class},
          {Class.forName("dev.floe.jdbc.meta.MetadataResults$MetadataResultSet"), ResultSet.class}
        }) {
      for (Method m : pair[1].getMethods()) {
        if (Modifier.isStatic(m.getModifiers())) {
          continue;
        }
        Class<?> owner = pair[0].getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass();
        if (owner.isInterface()) {
          leftToInterface.add(owner.getSimpleName() + "." + signature(m));
        } else {
          assertThat(owner.getName()).startsWith("dev.floe.");
          if (owner.getSimpleName().startsWith("Forwarding")) {
            forwarded.add(signature(m));
          }
        }
      }
    }
    // JDBC 4.2's large-count and SQLType methods and 4.3's sharding are Floe's own answers.
    assertThat(leftToInterface).containsExactlyInAnyOrderElementsOf(LEFT_TO_JDBC);
    assertThat(forwarded).isNotEmpty();
  }

  @Test
  void everyForwardedCallReachesTheWrappedObjectWithItsArguments() throws Exception {
    for (Class<?> api : apis()) {
      List<String> calls = new ArrayList<>();
      Object delegate =
          Proxy.newProxyInstance(
              api.getClassLoader(),
              new Class<?>[] {api},
              (proxy, method, args) -> {
                calls.add(
                    method.getName() + Arrays.deepToString(args == null ? new Object[0] : args));
                return defaultValue(method.getReturnType());
              });
      Object base = wrap(api, delegate, false);
      for (Method m : forwardedMethods(base.getClass().getSuperclass(), api)) {
        calls.clear();
        Object[] args = arguments(m);
        m.invoke(base, args);
        assertThat(calls)
            .as(api.getSimpleName() + "." + signature(m))
            .containsExactly(m.getName() + Arrays.deepToString(args));
      }
    }
  }

  @Test
  void aFailureOfTheWrappedObjectBecomesAnSqlExceptionWithAState() throws Exception {
    for (Class<?> api : apis()) {
      Object delegate =
          Proxy.newProxyInstance(
              api.getClassLoader(),
              new Class<?>[] {api},
              (proxy, method, args) -> {
                throw new IllegalStateException("the wrapped object failed");
              });
      Object base = wrap(api, delegate, false);
      for (Method m : forwardedMethods(base.getClass().getSuperclass(), api)) {
        Throwable thrown = invoke(base, m);
        String call = api.getSimpleName() + "." + signature(m);
        if (UNCHECKED.contains(signature(m))) {
          assertThat(thrown).as(call).isInstanceOf(IllegalStateException.class);
        } else {
          assertThat(thrown).as(call).isInstanceOf(SQLException.class);
          assertThat(((SQLException) thrown).getSQLState()).as(call).isNotNull();
          assertThat(thrown).as(call).hasRootCauseMessage("the wrapped object failed");
        }
      }
    }
  }

  @Test
  void aClosedWrapperFailsWith08003FromEveryMethodThatCanThrowIt() throws Exception {
    for (Class<?> api : apis()) {
      Object delegate =
          Proxy.newProxyInstance(
              api.getClassLoader(),
              new Class<?>[] {api},
              (proxy, method, args) -> defaultValue(method.getReturnType()));
      Object base = wrap(api, delegate, true);
      for (Method m : forwardedMethods(base.getClass().getSuperclass(), api)) {
        Throwable thrown = invoke(base, m);
        String call = api.getSimpleName() + "." + signature(m);
        if (UNCHECKED.contains(signature(m))) {
          assertThat(thrown).as(call).isNull();
        } else {
          assertThat(thrown).as(call).isInstanceOf(SQLException.class);
          assertThat(((SQLException) thrown).getSQLState()).as(call).isEqualTo("08003");
        }
      }
    }
  }

  @Test
  void aResultSetRefusesEveryChangeOfRowsWith0A000() throws Exception {
    ResultSet delegate =
        (ResultSet)
            Proxy.newProxyInstance(
                ResultSet.class.getClassLoader(),
                new Class<?>[] {ResultSet.class},
                (proxy, method, args) -> defaultValue(method.getReturnType()));
    ResultSet base = (ResultSet) wrap(ResultSet.class, delegate, false);
    List<String> refused = new ArrayList<>();
    for (Method m : ForwardingResultSet.class.getDeclaredMethods()) {
      if (!Modifier.isPublic(m.getModifiers()) || !refusedChange(m)) {
        continue;
      }
      Throwable thrown = invoke(base, m);
      if (thrown instanceof SQLException) {
        SQLException e = (SQLException) thrown;
        assertThat(e.getSQLState()).as(signature(m)).isEqualTo("0A000");
        assertThat(e.getMessage()).as(signature(m)).contains("read-only");
        refused.add(m.getName());
      }
    }
    assertThat(refused)
        .contains(
            "updateRow",
            "insertRow",
            "deleteRow",
            "refreshRow",
            "cancelRowUpdates",
            "moveToInsertRow",
            "moveToCurrentRow",
            "updateObject",
            "updateNClob")
        .hasSizeGreaterThan(90);
  }

  @Test
  void unwrapAnswersForTheWrapperFirstAndThenAsksTheWrappedObject() throws Exception {
    ResultSet delegate =
        (ResultSet)
            Proxy.newProxyInstance(
                ResultSet.class.getClassLoader(),
                new Class<?>[] {ResultSet.class},
                (proxy, method, args) ->
                    method.getName().equals("isWrapperFor")
                        ? args[0] == java.io.Serializable.class
                        : defaultValue(method.getReturnType()));
    ResultSet base = (ResultSet) wrap(ResultSet.class, delegate, false);
    assertThat(base.unwrap(ForwardingResultSet.class)).isSameAs(base);
    assertThat(base.isWrapperFor(ForwardingResultSet.class)).isTrue();
    assertThat(base.isWrapperFor(java.io.Serializable.class)).isTrue();
    assertThat(base.isWrapperFor(java.sql.Array.class)).isFalse();
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static List<Class<?>> apis() {
    return List.of(Connection.class, Statement.class, ResultSet.class, DatabaseMetaData.class);
  }

  /** A generated base around {@code delegate}; {@code closed}: its open() refuses with 08003. */
  private static Object wrap(Class<?> api, Object delegate, boolean closed) {
    Function<String, SQLException> refuse = what -> SqlErrors.of(FloeError.CLOSED, what);
    if (api == Connection.class) {
      return new ForwardingConnection((Connection) delegate) {
        @Override
        protected Connection open() throws SQLException {
          if (closed) {
            throw refuse.apply("connection");
          }
          return super.open();
        }
      };
    }
    if (api == Statement.class) {
      return new ForwardingStatement((Statement) delegate) {
        @Override
        protected Statement open() throws SQLException {
          if (closed) {
            throw refuse.apply("statement");
          }
          return super.open();
        }
      };
    }
    if (api == ResultSet.class) {
      return new ForwardingResultSet((ResultSet) delegate) {
        @Override
        protected ResultSet open() throws SQLException {
          if (closed) {
            throw refuse.apply("result set");
          }
          return super.open();
        }
      };
    }
    return new ForwardingDatabaseMetaData((DatabaseMetaData) delegate) {
      @Override
      protected DatabaseMetaData open() throws SQLException {
        if (closed) {
          throw refuse.apply("connection");
        }
        return super.open();
      }
    };
  }

  /** The public methods a base declares that forward to the wrapped object. */
  private static List<Method> forwardedMethods(Class<?> base, Class<?> api) {
    return Stream.of(base.getDeclaredMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic())
        .filter(m -> !(api == ResultSet.class && refusedChange(m)))
        .filter(m -> !m.getName().equals("unwrap") && !m.getName().equals("isWrapperFor"))
        .collect(Collectors.toList());
  }

  private static boolean refusedChange(Method m) {
    return m.getName().startsWith("update")
        || Set.of(
                "insertRow",
                "deleteRow",
                "refreshRow",
                "cancelRowUpdates",
                "moveToInsertRow",
                "moveToCurrentRow")
            .contains(m.getName());
  }

  private static void assertDeclaresEveryAbstractMethod(
      Class<?> base, Class<?> api, boolean ownOnly) {
    Set<String> expected = new TreeSet<>();
    for (Method m : ownOnly ? api.getDeclaredMethods() : api.getMethods()) {
      if (Modifier.isAbstract(m.getModifiers())) {
        expected.add(signature(m));
      }
    }
    Set<String> declared = new TreeSet<>();
    for (Method m : base.getDeclaredMethods()) {
      if (Modifier.isPublic(m.getModifiers()) && !m.isSynthetic()) {
        declared.add(signature(m));
      }
    }
    assertThat(declared).as(base.getSimpleName()).containsAll(expected);
    Set<String> extra = new TreeSet<>(declared);
    extra.removeAll(expected);
    // Beyond the abstract methods, only the result set's refusals of JDBC 4.2's SQLType updates.
    assertThat(extra)
        .as(base.getSimpleName())
        .allMatch(s -> base == ForwardingResultSet.class && s.startsWith("updateObject("));
  }

  private static String signature(Method m) {
    return m.getName()
        + Stream.of(m.getParameterTypes())
            .map(Class::getSimpleName)
            .collect(Collectors.joining(",", "(", ")"));
  }

  /** Arguments that tell one parameter from another: 1, 2, 3 ... and their text. */
  private static Object[] arguments(Method m) {
    Class<?>[] types = m.getParameterTypes();
    Object[] args = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      Class<?> t = types[i];
      int n = i + 1;
      args[i] =
          t == int.class
              ? (Object) n
              : t == long.class
                  ? (Object) (long) n
                  : t == boolean.class
                      ? (Object) true
                      : t == short.class
                          ? (Object) (short) n
                          : t == byte.class
                              ? (Object) (byte) n
                              : t == float.class
                                  ? (Object) (float) n
                                  : t == double.class
                                      ? (Object) (double) n
                                      : t == String.class ? (Object) ("arg" + n) : null;
    }
    return args;
  }

  private static Object defaultValue(Class<?> type) {
    if (!type.isPrimitive() || type == void.class) {
      return null;
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == char.class) {
      return (char) 0;
    }
    return type == long.class
        ? (Object) 0L
        : type == float.class
            ? (Object) 0f
            : type == double.class
                ? (Object) 0d
                : type == short.class
                    ? (Object) (short) 0
                    : type == byte.class ? (Object) (byte) 0 : (Object) 0;
  }

  /** What a call throws, or null. */
  private static Throwable invoke(Object target, Method m) throws IllegalAccessException {
    try {
      m.invoke(target, arguments(m));
      return null;
    } catch (InvocationTargetException e) {
      return e.getCause();
    }
  }
}
