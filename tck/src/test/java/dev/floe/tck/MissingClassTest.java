package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A class missing from the driver jar, the defect that once broke every write in the field, fails
 * the statement that needs it with an SQLException (HY000 naming the class and the jar), never a
 * {@code NoClassDefFoundError}; the table stays as it was, the statement's files are deleted, and
 * the next statement on the same connection works. Each case runs the shaded jar in a loader that
 * cannot find the classes of one path: those only reading Parquet, only writing it, or only
 * committing an append.
 */
class MissingClassTest {
  @TempDir Path temp;

  /**
   * A class loader over the shaded jar alone that cannot find the classes under a prefix, as if the
   * jar had been built without them.
   */
  private static final class JarWithout extends URLClassLoader {
    private final String missing;

    JarWithout(String prefix) throws IOException {
      super(new URL[] {JarDriver.jar().toUri().toURL()}, ClassLoader.getPlatformClassLoader());
      this.missing = prefix.replace('/', '.');
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      if (name.startsWith(missing)) {
        throw new ClassNotFoundException(name);
      }
      return super.findClass(name);
    }
  }

  private static TreeMap<String, Long> listing(Path folder) throws IOException {
    TreeMap<String, Long> files = new TreeMap<>();
    if (Files.exists(folder)) {
      try (var walk = Files.walk(folder)) {
        for (Path p : walk.filter(Files::isRegularFile).toList()) {
          files.put(folder.relativize(p).toString(), Files.size(p));
        }
      }
    }
    return files;
  }

  private static long sum(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT SUM(id) FROM t")) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "reading Parquet, org/apache/iceberg/parquet/VectorizedParquetReader, SELECT SUM(id) FROM t",
    "writing Parquet, org/apache/iceberg/parquet/ParquetWriter, INSERT INTO t VALUES (3)",
    "committing an append, org/apache/iceberg/MergeAppend, INSERT INTO t VALUES (3)"
  })
  void aClassMissingFromTheJarIsAnSqlExceptionNamingItAndTheConnectionGoesOn(
      String path, String missing, String failing) throws Exception {
    Path lake = temp.resolve("lake");
    Files.createDirectories(lake);
    // The table and its first rows, written by the whole jar.
    try (Connection c = JarDriver.floe().connect("jdbc:floe:" + lake, new Properties());
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT)");
      s.execute("INSERT INTO t VALUES (1), (2)");
    }
    TreeMap<String, Long> before = listing(lake);

    try (URLClassLoader loader = new JarWithout(missing)) {
      Driver driver =
          (Driver)
              Class.forName("dev.floe.FloeDriver", true, loader)
                  .getDeclaredConstructor()
                  .newInstance();
      try (Connection c = driver.connect("jdbc:floe:" + lake, new Properties());
          Statement s = c.createStatement()) {
        assertThatThrownBy(() -> s.execute(failing))
            .as(path)
            .isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY000"))
            .hasMessageContaining(missing.replace('/', '.'))
            .hasMessageContaining("driver jar")
            .hasMessageContaining(JarDriver.jar().getFileName().toString());
        assertThat(listing(lake)).as("the lake after the failed statement").isEqualTo(before);
        // the same connection goes on with what does not need the missing class
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(2);
        }
        s.execute("CREATE TABLE u (a INT)");
        assertThat(Files.isDirectory(lake.resolve("u"))).isTrue();
      }
    }
    // and the whole jar reads the table as it was
    try (Connection c = JarDriver.floe().connect("jdbc:floe:" + lake, new Properties());
        Statement s = c.createStatement()) {
      assertThat(sum(s)).isEqualTo(3);
      List<String> left = listing(lake.resolve("t")).keySet().stream().toList();
      assertThat(left)
          .containsExactlyElementsOf(before.keySet().stream().map(k -> k.substring(2)).toList());
    }
  }
}
