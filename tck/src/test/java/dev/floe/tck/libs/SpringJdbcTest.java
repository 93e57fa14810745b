package dev.floe.tck.libs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.SimpleJdbcInsert;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring's JDBC support over the shaded jar: JdbcTemplate, ScriptUtils, SimpleJdbcInsert (which
 * reads the table's columns from DatabaseMetaData), named parameters and transactions through a
 * DataSourceTransactionManager.
 */
class SpringJdbcTest {
  @TempDir Path root;
  private DataSource dataSource;
  private JdbcTemplate jdbc;

  @BeforeEach
  void connect() {
    dataSource = new DriverManagerDataSource("jdbc:floe:" + root);
    jdbc = new JdbcTemplate(dataSource);
  }

  @Test
  void jdbcTemplateExecuteRunsDdl() {
    jdbc.execute("CREATE TABLE events (id INT, name VARCHAR)");
    assertThat(jdbc.update("INSERT INTO events VALUES (?, ?)", 1, "a")).isEqualTo(1);
    jdbc.execute("ALTER TABLE events ADD COLUMN n INT");
    assertThat(jdbc.queryForList("SELECT name FROM events", String.class)).containsExactly("a");
    assertThat(jdbc.queryForList("SHOW TABLES", String.class)).containsExactly("events");
    jdbc.execute("DROP TABLE events");
    assertThat(Files.exists(root.resolve("events"))).isFalse();
  }

  @Test
  void scriptUtilsRunsAScriptWithComments() throws SQLException {
    String script =
        "-- the schema\n"
            + "CREATE TABLE a (x INT);\n"
            + "/* a block\n comment */\n"
            + "INSERT INTO a VALUES (1), (2);\n"
            + "CREATE TABLE b (y VARCHAR, z VARCHAR);\n"
            + "INSERT INTO b VALUES ('semi;colon', 'it''s');\n";
    try (Connection c = dataSource.getConnection()) {
      ScriptUtils.executeSqlScript(c, new ByteArrayResource(script.getBytes()));
    }
    assertThat(jdbc.queryForObject("SELECT SUM(x) FROM a", Long.class)).isEqualTo(3L);
    assertThat(jdbc.queryForMap("SELECT y, z FROM b"))
        .isEqualTo(Map.of("y", "semi;colon", "z", "it's"));
  }

  @Test
  void simpleJdbcInsertFindsTheColumnsInTheMetadata() {
    jdbc.execute("CREATE TABLE events (id INT, name VARCHAR, amount DECIMAL(10, 2))");
    SimpleJdbcInsert insert = new SimpleJdbcInsert(jdbc).withTableName("events");
    assertThat(insert.execute(Map.of("id", 1, "name", "a", "amount", new BigDecimal("2.50"))))
        .isEqualTo(1);
    assertThat(insert.execute(new MapSqlParameterSource().addValue("id", 2).addValue("name", null)))
        .isEqualTo(1);
    assertThat(insert.getInsertString()).contains("(id, name, amount)");
    Map<String, Object> second = new LinkedHashMap<>();
    second.put("id", 2);
    second.put("name", null);
    second.put("amount", null);
    assertThat(jdbc.queryForList("SELECT id, name, amount FROM events ORDER BY id"))
        .containsExactly(Map.of("id", 1, "name", "a", "amount", new BigDecimal("2.50")), second);
  }

  @Test
  void namedParametersAndBatchesReachTheQuery() {
    NamedParameterJdbcTemplate named = new NamedParameterJdbcTemplate(jdbc);
    jdbc.execute("CREATE TABLE events (id INT, name VARCHAR)");
    int[] counts =
        jdbc.batchUpdate(
            "INSERT INTO events VALUES (?, ?)",
            List.of(new Object[] {1, "a"}, new Object[] {2, "b"}, new Object[] {3, "c"}));
    assertThat(counts).containsExactly(1, 1, 1);
    assertThat(
            named.queryForList(
                "SELECT name FROM events WHERE id IN (:ids) AND name <> :not ORDER BY id",
                new MapSqlParameterSource().addValue("ids", List.of(1, 3)).addValue("not", "x"),
                String.class))
        .containsExactly("a", "c");
    assertThat(
            named.update(
                "UPDATE events SET name = :name WHERE id = :id", Map.of("name", "B", "id", 2)))
        .isEqualTo(1);
    assertThat(jdbc.queryForList("SELECT name FROM events ORDER BY id", String.class))
        .containsExactly("a", "B", "c");
  }

  @Test
  void aTransactionManagerCommitsOrRollsBackAsOne() {
    jdbc.execute("CREATE TABLE events (id INT)");
    TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    tx.executeWithoutResult(
        status -> {
          jdbc.update("INSERT INTO events VALUES (1)");
          jdbc.update("INSERT INTO events VALUES (2)");
          assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM events", Long.class)).isEqualTo(2L);
        });
    tx.executeWithoutResult(
        status -> {
          jdbc.update("INSERT INTO events VALUES (3)");
          status.setRollbackOnly();
        });
    assertThat(jdbc.queryForList("SELECT id FROM events ORDER BY id", Integer.class))
        .containsExactly(1, 2);
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM \"events$snapshots\"", Long.class))
        .as("the two inserts of the first transaction are one commit")
        .isEqualTo(1L);
  }

  @Test
  void aNullBindsThroughTheParameterMetadata() {
    jdbc.execute("CREATE TABLE events (id INT, name VARCHAR, day DATE, amount DECIMAL(5, 1))");
    assertThat(jdbc.update("INSERT INTO events VALUES (?, ?, ?, ?)", 1, null, null, null))
        .isEqualTo(1);
    assertThat(
            jdbc.update(
                "INSERT INTO events VALUES (?, ?, ?, ?)",
                new Object[] {2, null, null, null},
                new int[] {Types.INTEGER, Types.VARCHAR, Types.DATE, Types.DECIMAL}))
        .isEqualTo(1);
    assertThat(
            jdbc.queryForObject(
                "SELECT COUNT(*) FROM events WHERE name IS NULL AND day IS NULL", Long.class))
        .isEqualTo(2L);
  }

  @Test
  void aBatchOfStatementsRunsDdlAndWrites() {
    int[] counts =
        jdbc.batchUpdate(
            "CREATE TABLE a (x INT)", "INSERT INTO a VALUES (1), (2)", "CREATE TABLE b (y INT)");
    assertThat(counts).containsExactly(0, 2, 0);
    assertThat(jdbc.queryForObject("SELECT SUM(x) FROM a", Integer.class)).isEqualTo(3);
  }

  @Test
  void dateTimeAndUuidValuesBindAndReadBack() {
    jdbc.execute(
        "CREATE TABLE v (day DATE, at TIMESTAMP(6), atz TIMESTAMP(6) WITH LOCAL TIME ZONE, u UUID)");
    LocalDate day = LocalDate.of(2024, 2, 29);
    LocalDateTime at = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_000);
    OffsetDateTime atz = OffsetDateTime.parse("2024-02-29T13:14:15.654321Z");
    UUID u = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
    jdbc.update("INSERT INTO v VALUES (?, ?, ?, ?)", day, at, atz, u);
    assertThat(jdbc.queryForObject("SELECT day FROM v", LocalDate.class)).isEqualTo(day);
    assertThat(jdbc.queryForObject("SELECT at FROM v", LocalDateTime.class)).isEqualTo(at);
    assertThat(jdbc.queryForObject("SELECT atz FROM v", OffsetDateTime.class)).isEqualTo(atz);
    assertThat(jdbc.queryForObject("SELECT u FROM v", UUID.class)).isEqualTo(u);
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM v WHERE day = ?", Long.class, day))
        .isEqualTo(1L);
    try (var days = jdbc.queryForStream("SELECT day FROM v", (rs, n) -> rs.getObject(1))) {
      assertThat(days.toList()).containsExactly(java.sql.Date.valueOf(day));
    }
  }

  @Test
  void theTemplatesLimitsReachTheDriver() {
    jdbc.execute("CREATE TABLE n (i INT)");
    jdbc.update("INSERT INTO n VALUES (1), (2), (3)");
    JdbcTemplate limited = new JdbcTemplate(dataSource);
    limited.setMaxRows(2);
    limited.setFetchSize(1);
    limited.setQueryTimeout(30);
    assertThat(limited.queryForList("SELECT i FROM n ORDER BY i", Integer.class))
        .containsExactly(1, 2);
  }

  @Test
  void aFailingStatementCarriesFloesSqlState() {
    assertThatThrownBy(() -> jdbc.execute("DROP TABLE missing"))
        .as("Spring reads 42S02 as bad grammar")
        .isInstanceOf(BadSqlGrammarException.class)
        .satisfies(e -> assertThat(Causes.sqlState(e)).isEqualTo("42S02"))
        .hasMessageContaining("missing");
  }
}
