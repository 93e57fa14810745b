package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shaded driver jar in the setup users have: loaded by a class loader of its own whose parent
 * is the platform loader, while the thread's context class loader stays the application's (as in
 * DBeaver). It must read every reference table and write: Iceberg finds its Parquet writer through
 * the context class loader, which is what broke in the field.
 */
class ShadedJarTest {
  private static URLClassLoader loader;
  private static Driver driver;

  @TempDir Path temp;

  @BeforeAll
  static void loadTheJarInAClassLoaderOfItsOwn() throws Exception {
    Path jar = Path.of(System.getProperty("floe.driver.jar"));
    assertThat(jar).isRegularFile();
    loader =
        new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    driver =
        (Driver)
            Class.forName("dev.floe.FloeDriver", true, loader)
                .getDeclaredConstructor()
                .newInstance();
  }

  @AfterAll
  static void closeTheLoader() throws Exception {
    loader.close();
  }

  private static Connection connect(String url) throws SQLException {
    Connection connection = driver.connect(url, new Properties());
    assertThat(connection).isNotNull();
    return connection;
  }

  @Test
  void theDriverAndItsIcebergComeFromTheJarWhileTheContextLoaderStaysTheApplications()
      throws Exception {
    ClassLoader application = Thread.currentThread().getContextClassLoader();
    assertThat(driver.getClass().getClassLoader()).isSameAs(loader);
    assertThat(loader.loadClass("org.apache.iceberg.Table").getClassLoader()).isSameAs(loader);
    assertThat(application).isNotSameAs(loader);
    try (Connection c = connect(ReferenceLake.shared().url())) {
      assertThat(c.getClass().getClassLoader()).isSameAs(loader);
    }
    assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(application);
  }

  static Stream<ReferenceTable> referenceTables() {
    return ReferenceLake.shared().wholeRowTables().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("referenceTables")
  void theIsolatedDriverReadsEveryReferenceTableLikeIcebergsOwnReader(ReferenceTable table)
      throws SQLException {
    try (Connection c = connect(ReferenceLake.shared().url())) {
      List<List<String>> actual = Sql.rows(c, "SELECT * FROM " + table.sql(), table.types());
      assertThat(Canonical.sorted(actual)).isEqualTo(Canonical.sorted(table.expected()));
    }
  }

  @Test
  void theIsolatedDriverCreatesInsertsAndSelectsWithFilesAtTheExactPath() throws Exception {
    Path root = temp.resolve("lake with space");
    Files.createDirectories(root);
    ClassLoader application = Thread.currentThread().getContextClassLoader();
    try (Connection c = connect("jdbc:floe:" + root);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE sales.orders (id BIGINT NOT NULL, name VARCHAR, d DATE)");
      assertThat(
              s.executeUpdate(
                  "INSERT INTO sales.orders VALUES (1, 'ünï 😀', DATE '0001-01-01'), (2, NULL,"
                      + " NULL)"))
          .isEqualTo(2);
      List<String> rows = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT id, name, d FROM sales.orders ORDER BY id")) {
        while (rs.next()) {
          rows.add(rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getObject(3, LocalDate.class));
        }
      }
      assertThat(rows).containsExactly("1|ünï 😀|0001-01-01", "2|null|null");
    }
    assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(application);

    Path table = root.resolve("sales").resolve("orders");
    assertThat(table.resolve("metadata").resolve("v1.metadata.json")).isRegularFile();
    assertThat(table.resolve("metadata").resolve("version-hint.text")).isRegularFile();
    try (Stream<Path> data = Files.walk(table.resolve("data"))) {
      assertThat(data.filter(p -> p.toString().endsWith(".parquet")).toList()).isNotEmpty();
    }
    // Iceberg's own reader, through Hadoop's file system, reads what the isolated driver wrote.
    Table written = ReferenceWriter.load(table);
    List<String> read = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(written).build()) {
      for (Record r : records) {
        read.add(r.getField("id") + "|" + r.getField("name") + "|" + r.getField("d"));
      }
    }
    assertThat(read).containsExactlyInAnyOrder("1|ünï 😀|0001-01-01", "2|null|null");
    assertThat(written.location()).endsWith("/lake with space/sales/orders");
  }

  @Test
  void theIsolatedDriverParsesEveryStatementWithFloesGrammar() throws Exception {
    Path root = temp.resolve("grammar");
    Files.createDirectories(root);
    try (Connection c = connect("jdbc:floe:" + root);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE sales.orders (id BIGINT, note VARCHAR COMMENT 'free text',"
              + " PRIMARY KEY (id)) PARTITIONED BY (bucket(4, id))");
      assertThat(s.executeUpdate("INSERT INTO sales.orders VALUES (1, 'a'), (2, 'b')"))
          .isEqualTo(2);
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SHOW TABLES FROM sales")) {
        assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("Table");
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      assertThat(tables).containsExactly("orders");
      List<String> described = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("DESCRIBE sales.orders")) {
        while (rs.next()) {
          described.add(
              rs.getString("Column") + " " + rs.getString("Type") + " | " + rs.getString("Extra"));
        }
      }
      assertThat(described)
          .containsExactly(
              "id BIGINT | not null, primary key, partition key bucket(4)", "note VARCHAR | ");
      String ddl;
      try (ResultSet rs = s.executeQuery("SHOW CREATE TABLE sales.orders")) {
        assertThat(rs.next()).isTrue();
        ddl = rs.getString("Create Table");
      }
      s.execute(ddl.replace("\"orders\"", "\"orders_copy\""));
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM sales.orders_copy")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isZero();
      }
      assertThatThrownBy(() -> s.execute("SELECT * FROM sales.orders WHERE"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42000");
                assertThat(e.getMessage())
                    .contains("line 1, column 32")
                    .contains("expected one of");
              });
      assertThatThrownBy(() -> s.execute("SELECT * FROM sales.orders FOR VERSION AS OF 1"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42S02");
                assertThat(e.getMessage()).contains("snapshot");
              });
    }
  }

  @Test
  void theIsolatedDriverBindsAndReadsBackExactMicroseconds() throws Exception {
    Path root = temp.resolve("copy");
    Files.createDirectories(root);
    try (Connection c = connect("jdbc:floe:" + root);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (ts TIMESTAMP(6))");
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isZero();
      }
      try (var insert = c.prepareStatement("INSERT INTO t VALUES (?)")) {
        insert.setObject(1, LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000));
        assertThat(insert.executeUpdate()).isEqualTo(1);
      }
      try (ResultSet rs = s.executeQuery("SELECT ts FROM t")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1, LocalDateTime.class))
            .isEqualTo(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000));
      }
    }
  }
}
