package dev.floe.jdbc;

import static dev.floe.jdbc.SampleLake.column;
import static dev.floe.jdbc.SampleLake.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The connection and statement calls a client tool makes besides metadata, and their effects. */
class ConnectionAndStatementTest {
  @TempDir Path lake;

  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    SampleLake.create(lake);
    connection = SampleLake.open(lake);
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @Test
  void aConnectionIsValidUntilClosed() throws SQLException {
    assertThat(connection.isValid(0)).isTrue();
    assertThatThrownBy(() -> connection.isValid(-1)).isInstanceOf(SQLException.class);
    connection.close();
    assertThat(connection.isValid(0)).isFalse();
    assertThatThrownBy(connection::createStatement)
        .hasFieldOrPropertyWithValue("SQLState", "08003");
  }

  @Test
  void aReadOnlyConnectionRefusesWritesAndSaysSo() throws SQLException {
    connection.setReadOnly(true);
    assertThat(connection.isReadOnly()).isTrue();
    assertThat(connection.getMetaData().isReadOnly()).isTrue();
    try (Statement s = connection.createStatement()) {
      assertThatThrownBy(() -> s.executeUpdate("INSERT INTO orders (id) VALUES (9)"))
          .hasFieldOrPropertyWithValue("SQLState", "25006");
      try (ResultSet rs = s.executeQuery("SELECT id FROM orders")) {
        assertThat(rs.getMetaData().isReadOnly(1)).isTrue();
        assertThat(rs.getMetaData().isWritable(1)).isFalse();
      }
    }
    connection.setReadOnly(false);
    try (Statement s = connection.createStatement()) {
      assertThat(s.executeUpdate("INSERT INTO orders (id) VALUES (9)")).isEqualTo(1);
    }
    try (Connection opened = DriverManager.getConnection("jdbc:floe:" + lake + "?readOnly=true")) {
      opened.setReadOnly(false);
      assertThat(opened.isReadOnly()).isTrue();
    }
  }

  @Test
  void aNestedSchemaCanBeMadeCurrentByItsMetadataName() throws Exception {
    connection.setSchema("SALES.EU");
    assertThat(connection.getSchema()).isEqualTo("sales.eu");
    assertThat(query("SELECT name FROM customers")).containsExactly("Ada");
    assertThat(query("SELECT note FROM orders WHERE id = 1")).containsExactly("first");
    assertThat(query("SELECT name FROM sales.us.customers")).isEmpty();
    assertThat(query("SELECT name FROM \"sales.eu\".customers")).containsExactly("Ada");
    execute("CREATE TABLE visits (id INT)");
    assertThat(Files.isDirectory(lake.resolve("sales/eu/visits/metadata"))).isTrue();
    execute("INSERT INTO visits VALUES (1)");
    assertThat(query("SELECT id FROM sales.eu.visits")).containsExactly(1);
    execute("DROP TABLE visits");
    assertThat(Files.exists(lake.resolve("sales/eu/visits"))).isFalse();
    assertThatThrownBy(() -> connection.setSchema("sales.asia"))
        .hasFieldOrPropertyWithValue("SQLState", "3F000");
    assertThat(connection.getSchema()).isEqualTo("sales.eu");
    connection.setSchema("main");
    assertThat(query("SELECT count(*) FROM orders")).containsExactly(3L);
  }

  @Test
  void theQuotedDottedNameOfANestedSchemaWorksInQueriesAndDdl() throws Exception {
    assertThat(query("SELECT name FROM \"sales.eu\".customers")).containsExactly("Ada");
    execute("ALTER TABLE \"sales.eu\".customers ADD COLUMN points BIGINT");
    assertThat(
            column(
                connection.getMetaData().getColumns(null, "sales.eu", "customers", "points"),
                "TYPE_NAME"))
        .containsExactly("BIGINT");
    execute("CREATE TABLE \"sales.eu\".leads (id INT)");
    assertThat(Files.isDirectory(lake.resolve("sales/eu/leads/metadata"))).isTrue();
    assertThat(Files.exists(lake.resolve("sales.eu"))).isFalse();
    execute("DROP TABLE \"sales.eu\".leads");
    assertThat(Files.exists(lake.resolve("sales/eu/leads"))).isFalse();
  }

  @Test
  void maxRowsLimitsAndFetchSizeIsKept() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.setFetchSize(50);
      assertThat(s.getFetchSize()).isEqualTo(50);
      s.setMaxRows(2);
      assertThat(s.getMaxRows()).isEqualTo(2);
      assertThat(rows(s.executeQuery("SELECT id FROM orders"))).hasSize(2);
      s.setLargeMaxRows(0);
      assertThat(s.getLargeMaxRows()).isZero();
      assertThat(rows(s.executeQuery("SELECT id FROM orders"))).hasSize(3);
      s.setQueryTimeout(30);
      assertThat(s.getQueryTimeout()).isEqualTo(30);
      assertThatThrownBy(() -> s.setMaxRows(-1)).isInstanceOf(SQLException.class);
    }
  }

  @Test
  void cancelStopsAScanThatIsBeingRead() throws SQLException {
    fillBigTable();
    try (Statement s = connection.createStatement()) {
      ResultSet rs = s.executeQuery("SELECT x FROM big");
      assertThat(rs.next()).isTrue();
      s.cancel();
      assertThatThrownBy(() -> readAll(rs))
          .isInstanceOf(SQLException.class)
          .hasFieldOrPropertyWithValue("SQLState", "57014");
    }
  }

  @Test
  void aQueryTimeoutStopsAScanThatRunsPastIt() throws Exception {
    fillBigTable();
    try (Statement s = connection.createStatement()) {
      s.setQueryTimeout(1);
      ResultSet rs = s.executeQuery("SELECT x FROM big");
      assertThat(rs.next()).isTrue();
      Thread.sleep(1_200);
      assertThatThrownBy(() -> readAll(rs))
          .isInstanceOf(SQLTimeoutException.class)
          .hasFieldOrPropertyWithValue("SQLState", "57014");
    }
  }

  @Test
  void valuesAreReadAsJavaTimeClasses() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(
          "UPDATE sales.eu.customers SET since = TIME '08:30:00', uid = UUID '123e4567-e89b-12d3-a456-426614174000'");
      try (ResultSet rs =
          s.executeQuery("SELECT placed, placed_utc, \"day\" FROM orders WHERE id = 3")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1, LocalDateTime.class))
            .isEqualTo(LocalDateTime.parse("2024-02-29T23:59:59.123456"));
        assertThat(rs.getObject(2, Instant.class))
            .isEqualTo(Instant.parse("2024-03-01T00:00:00.000001Z"));
        assertThat(rs.getObject(2, OffsetDateTime.class))
            .isEqualTo(OffsetDateTime.parse("2024-03-01T00:00:00.000001Z"));
        assertThat(rs.getObject(2, ZonedDateTime.class).toInstant())
            .isEqualTo(Instant.parse("2024-03-01T00:00:00.000001Z"));
        assertThat(rs.getObject(2, ZonedDateTime.class).getZone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(rs.getObject(3, LocalDate.class)).isEqualTo(LocalDate.of(1, 1, 1));
      }
      try (ResultSet rs = s.executeQuery("SELECT since, uid FROM sales.eu.customers")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1, LocalTime.class)).isEqualTo(LocalTime.of(8, 30));
        assertThat(rs.getObject(2))
            .isEqualTo(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
        assertThat(rs.getMetaData().getColumnClassName(2)).isEqualTo(UUID.class.getName());
        assertThat(rs.getObject(2, String.class)).isEqualTo("123e4567-e89b-12d3-a456-426614174000");
      }
    }
  }

  @Test
  void generatedKeysAreAskedForButNoneAreMade() throws SQLException {
    try (Statement s = connection.createStatement()) {
      assertThat(
              s.executeUpdate(
                  "INSERT INTO orders (id) VALUES (10)", Statement.RETURN_GENERATED_KEYS))
          .isEqualTo(1);
      try (ResultSet keys = s.getGeneratedKeys()) {
        assertThat(keys.next()).isFalse();
      }
    }
  }

  @Test
  void clientInfoIsKeptWithTheConnection() throws SQLException {
    connection.setClientInfo("ApplicationName", "DBeaver 24.2");
    assertThat(connection.getClientInfo("ApplicationName")).isEqualTo("DBeaver 24.2");
    Properties all = new Properties();
    all.setProperty("ClientUser", "ada");
    connection.setClientInfo(all);
    assertThat(connection.getClientInfo()).containsOnlyKeys("ClientUser");
    connection.close();
    assertThatThrownBy(() -> connection.setClientInfo("ApplicationName", "x"))
        .isInstanceOf(SQLClientInfoException.class)
        .hasFieldOrPropertyWithValue("SQLState", "08003");
  }

  private void fillBigTable() throws SQLException {
    StringJoiner digits = new StringJoiner(", ");
    for (int i = 0; i < 100; i++) {
      digits.add("(" + i + ")");
    }
    execute("CREATE TABLE big (x INT)");
    execute(
        "INSERT INTO big SELECT a.d * 100 + b.d FROM (VALUES "
            + digits
            + ") AS a(d), (VALUES "
            + digits
            + ") AS b(d)");
  }

  private static void readAll(ResultSet rs) throws SQLException {
    while (rs.next()) {
      rs.getInt(1);
    }
  }

  private void execute(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
  }

  private java.util.List<Object> query(String sql) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      java.util.List<Object> values = new java.util.ArrayList<>();
      while (rs.next()) {
        values.add(rs.getObject(1));
      }
      return values;
    }
  }
}
