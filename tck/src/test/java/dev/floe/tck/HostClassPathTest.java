package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded driver jar inside a host application that carries its own, older versions of the
 * libraries Floe uses (Jackson 2.12, Guava 16, commons-lang3 3.1, commons-io 2.5, SLF4J 2): all on
 * one class path, the host's jars first, as an ETL program's launcher would put them. Floe must
 * read and write there, and the host must still see its own versions.
 */
class HostClassPathTest {
  /** Packages the jar may hold without relocation (docs/connecting.md, "Living in a host"). */
  private static final List<String> UNRELOCATED =
      List.of(
          "dev/floe/",
          "org/apache/calcite/",
          "org/codehaus/janino/",
          "org/codehaus/commons/",
          "org/apache/iceberg/",
          "org/apache/parquet/",
          "shaded/parquet/",
          "org/apache/avro/",
          "org/apache/hadoop/",
          "com/github/luben/zstd/",
          "org/xerial/snappy/",
          "io/airlift/compress/",
          "org/locationtech/");

  @TempDir Path temp;

  private static List<Path> hostJars() throws IOException {
    Path folder = Path.of(System.getProperty("floe.host.libs"));
    try (Stream<Path> jars = Files.list(folder)) {
      List<Path> list = jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
      assertThat(list).hasSizeGreaterThanOrEqualTo(6);
      return list;
    }
  }

  @Test
  void theJarHoldsNoUnrelocatedCopyOfAHostLibrary() throws IOException {
    List<String> unrelocated = new ArrayList<>();
    try (ZipFile jar = new ZipFile(System.getProperty("floe.driver.jar"))) {
      jar.stream()
          .map(e -> e.getName())
          .filter(n -> n.endsWith(".class") && n.contains("/"))
          .map(n -> n.startsWith("META-INF/versions/") ? n.substring(n.indexOf('/', 18) + 1) : n)
          .filter(n -> UNRELOCATED.stream().noneMatch(n::startsWith))
          .filter(n -> !n.startsWith("dev/floe/shaded/"))
          .forEach(unrelocated::add);
    }
    assertThat(unrelocated).isEmpty();
  }

  @Test
  void theDriverReadsAndWritesBesideTheHostsOwnJacksonGuavaCommonsAndSlf4j() throws Exception {
    List<URL> urls = new ArrayList<>();
    for (Path jar : hostJars()) {
      urls.add(jar.toUri().toURL());
    }
    urls.add(Path.of(System.getProperty("floe.driver.jar")).toUri().toURL());
    try (URLClassLoader host =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      // The host sees its own versions.
      assertThat(jarOf(host, "com.fasterxml.jackson.databind.ObjectMapper"))
          .contains("jackson-databind-2.12");
      assertThat(jarOf(host, "com.google.common.collect.ImmutableList")).contains("guava-16");
      assertThat(jarOf(host, "org.apache.commons.lang3.StringUtils")).contains("commons-lang3-3.1");
      assertThat(jarOf(host, "org.slf4j.LoggerFactory")).contains("slf4j-api-2");

      Driver driver =
          (Driver)
              Class.forName("dev.floe.FloeDriver", true, host)
                  .getDeclaredConstructor()
                  .newInstance();
      Path root = temp.resolve("lake");
      Files.createDirectories(root);
      ClassLoader previous = Thread.currentThread().getContextClassLoader();
      Thread.currentThread().setContextClassLoader(host);
      try (Connection c = driver.connect("jdbc:floe:" + root, new Properties());
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE sales.orders (id BIGINT NOT NULL, name VARCHAR, d DATE)");
        assertThat(
                s.executeUpdate(
                    "INSERT INTO sales.orders VALUES (1, 'a', DATE '2024-02-29'), (2, NULL, NULL)"))
            .isEqualTo(2);
        List<String> rows = new ArrayList<>();
        try (ResultSet rs =
            s.executeQuery("SELECT id, name, d FROM sales.orders WHERE id > 0 ORDER BY id")) {
          while (rs.next()) {
            rows.add(
                rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getObject(3, LocalDate.class));
          }
        }
        assertThat(rows).containsExactly("1|a|2024-02-29", "2|null|null");
        try (ResultSet rs =
            s.executeQuery("SELECT name, COUNT(*) FROM sales.orders GROUP BY name ORDER BY 1")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("a");
        }
        try (ResultSet rs = c.getMetaData().getColumns(null, "sales", "orders", null)) {
          List<String> columns = new ArrayList<>();
          while (rs.next()) {
            columns.add(rs.getString("COLUMN_NAME"));
          }
          assertThat(columns).containsExactly("id", "name", "d");
        }
        // What a database tool asks first: schemas, tables, keys.
        try (ResultSet rs = c.getMetaData().getSchemas()) {
          List<String> schemas = new ArrayList<>();
          while (rs.next()) {
            schemas.add(rs.getString("TABLE_SCHEM"));
          }
          assertThat(schemas).contains("sales");
        }
        try (ResultSet rs = c.getMetaData().getTables(null, "sales", "%", null)) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString("TABLE_NAME")).isEqualTo("orders");
        }
        try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, "sales", "orders")) {
          while (rs.next()) {
            assertThat(rs.getString("COLUMN_NAME")).isNotNull();
          }
        }
      } finally {
        Thread.currentThread().setContextClassLoader(previous);
      }
      try (Connection c = driver.connect(ReferenceLake.shared().url(), new Properties())) {
        for (ReferenceTable table : ReferenceLake.shared().wholeRowTables().subList(0, 3)) {
          List<List<String>> actual = Sql.rows(c, "SELECT * FROM " + table.sql(), table.types());
          assertThat(Canonical.sorted(actual)).isEqualTo(Canonical.sorted(table.expected()));
        }
      }
    }
  }

  private static String jarOf(ClassLoader loader, String className) throws Exception {
    return Class.forName(className, false, loader)
        .getProtectionDomain()
        .getCodeSource()
        .getLocation()
        .toString();
  }
}
