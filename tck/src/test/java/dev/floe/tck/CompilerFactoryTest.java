package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar, loaded by a host's own class loader that holds nothing else, compiles each
 * statement's generated code through Floe's Janino factory (listed in the jar before Janino's own,
 * docs/performance.md, "How a query reads a table"), and the compiled code answers correctly there.
 */
class CompilerFactoryTest {
  @TempDir Path lake;

  @Test
  void theJarsJaninoFactoryIsFloesInAHostsOwnLoader() throws Exception {
    Path jar = Path.of(System.getProperty("floe.driver.jar"));
    try (URLClassLoader host =
        new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Driver driver =
          (Driver) Class.forName("dev.floe.FloeDriver", true, host).getConstructor().newInstance();
      try (Connection c = driver.connect("jdbc:floe:" + lake, new Properties());
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (a INTEGER, b VARCHAR)");
        s.executeUpdate("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, NULL)");
        try (ResultSet rs =
            s.executeQuery(
                "SELECT sum(a * 10 + 1), count(b), max(CASE WHEN b IS NULL THEN a END) FROM t")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(63);
          assertThat(rs.getLong(2)).isEqualTo(2);
          assertThat(rs.getInt(3)).isEqualTo(3);
        }
      }
      Object factory =
          Class.forName("org.codehaus.commons.compiler.CompilerFactoryFactory", true, host)
              .getMethod("getDefaultCompilerFactory", ClassLoader.class)
              .invoke(null, host);
      assertThat(factory.getClass().getName())
          .isEqualTo("dev.floe.planner.prepare.LakeCompilerFactory");
      assertThat(factory.getClass().getClassLoader()).isSameAs(host);
    }
  }
}
