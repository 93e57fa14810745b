package dev.floe.tck.libs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.reflect.ConstructorMapper;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JDBI 3 over the shaded jar: JDBI prepares every statement it runs, DDL included, sends scripts as
 * batches, and maps rows by column label.
 */
class JdbiTest {
  @TempDir Path root;
  private Jdbi jdbi;

  /** A row of the events table, mapped by JDBI's constructor mapper. */
  public record Event(int id, String name) {}

  @BeforeEach
  void connect() {
    jdbi = Jdbi.create("jdbc:floe:" + root);
  }

  @Test
  void handleExecuteRunsDdlThroughAPreparedStatement() {
    try (Handle h = jdbi.open()) {
      assertThat(h.execute("CREATE TABLE events (id INT, name VARCHAR)")).isZero();
      assertThat(h.execute("INSERT INTO events VALUES (?, ?)", 1, "a")).isEqualTo(1);
      assertThat(h.execute("ALTER TABLE events ADD COLUMN n INT")).isZero();
      assertThat(h.createQuery("SELECT name FROM events").mapTo(String.class).list())
          .containsExactly("a");
      assertThat(h.execute("DROP TABLE events")).isZero();
    }
    assertThat(Files.exists(root.resolve("events"))).isFalse();
  }

  @Test
  void aScriptOfSeveralStatementsRuns() {
    try (Handle h = jdbi.open()) {
      int[] counts =
          h.createScript(
                  "CREATE TABLE a (x INT);\n"
                      + "INSERT INTO a VALUES (1), (2);\n"
                      + "-- a comment between statements\n"
                      + "CREATE TABLE b (y VARCHAR);\n"
                      + "INSERT INTO b VALUES ('z');")
              .execute();
      assertThat(counts).containsExactly(0, 2, 0, 1);
      assertThat(h.createQuery("SELECT SUM(x) FROM a").mapTo(Long.class).one()).isEqualTo(3L);
      h.createScript("DROP TABLE a; DROP TABLE b").executeAsSeparateStatements();
      assertThat(h.createQuery("SHOW TABLES").mapTo(String.class).list()).isEmpty();
    }
  }

  @Test
  void namedBindsAndInListsReachTheQuery() {
    try (Handle h = jdbi.open()) {
      h.execute("CREATE TABLE events (id INT, name VARCHAR)");
      h.execute("INSERT INTO events VALUES (1, 'a'), (2, 'b'), (3, 'c')");
      assertThat(
              h.createQuery("SELECT name FROM events WHERE id > :low ORDER BY id")
                  .bind("low", 1)
                  .mapTo(String.class)
                  .list())
          .containsExactly("b", "c");
      assertThat(
              h.createQuery("SELECT id FROM events WHERE name IN (<names>) ORDER BY id")
                  .bindList("names", List.of("a", "c"))
                  .mapTo(Integer.class)
                  .list())
          .containsExactly(1, 3);
      assertThat(
              h.createQuery("SELECT id, name FROM events ORDER BY id")
                  .map(ConstructorMapper.of(Event.class))
                  .list())
          .containsExactly(new Event(1, "a"), new Event(2, "b"), new Event(3, "c"));
      List<Map<String, Object>> maps =
          h.createQuery("SELECT id, name FROM events WHERE id = 2").mapToMap().list();
      assertThat(maps).containsExactly(Map.of("id", 2, "name", "b"));
    }
  }

  @Test
  void aPreparedBatchIsOneCommit() {
    try (Handle h = jdbi.open()) {
      h.execute("CREATE TABLE events (id INT, name VARCHAR)");
      PreparedBatch batch = h.prepareBatch("INSERT INTO events VALUES (:id, :name)");
      for (int i = 1; i <= 50; i++) {
        batch.bind("id", i).bind("name", "n" + i).add();
      }
      int[] counts = batch.execute();
      assertThat(counts).hasSize(50);
      assertThat(h.createQuery("SELECT COUNT(*) FROM events").mapTo(Long.class).one())
          .isEqualTo(50L);
      assertThat(h.createQuery("SELECT COUNT(*) FROM \"events$snapshots\"").mapTo(Long.class).one())
          .as("one snapshot for the whole batch")
          .isEqualTo(1L);
    }
  }

  @Test
  void aTransactionCommitsOrRollsBackAsOne() {
    jdbi.useHandle(h -> h.execute("CREATE TABLE events (id INT, name VARCHAR)"));
    jdbi.useTransaction(
        h -> {
          h.execute("INSERT INTO events VALUES (1, 'a')");
          h.execute("INSERT INTO events VALUES (2, 'b')");
          assertThat(h.createQuery("SELECT COUNT(*) FROM events").mapTo(Long.class).one())
              .isEqualTo(2L);
        });
    assertThatThrownBy(
            () ->
                jdbi.useTransaction(
                    h -> {
                      h.execute("INSERT INTO events VALUES (3, 'c')");
                      throw new IllegalStateException("the application gives up");
                    }))
        .isInstanceOf(IllegalStateException.class);
    List<Integer> ids =
        jdbi.withHandle(
            h -> h.createQuery("SELECT id FROM events ORDER BY id").mapTo(Integer.class).list());
    assertThat(ids).containsExactly(1, 2);
  }

  @Test
  void valuesOfEveryCommonJavaTypeBindAndMapBack() {
    try (Handle h = jdbi.open()) {
      h.execute(
          "CREATE TABLE v (b BOOLEAN, i BIGINT, d DECIMAL(12, 3), f DOUBLE, day DATE,"
              + " at TIMESTAMP(6), atz TIMESTAMP(6) WITH LOCAL TIME ZONE, u UUID, bytes VARBINARY,"
              + " s VARCHAR)");
      LocalDate day = LocalDate.of(2024, 2, 29);
      LocalDateTime at = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_000);
      Instant atz = Instant.parse("2024-02-29T13:14:15.654321Z");
      UUID u = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
      assertThat(
              h.createUpdate(
                      "INSERT INTO v VALUES (:b, :i, :d, :f, :day, :at, :atz, :u, :bytes, :s)")
                  .bind("b", true)
                  .bind("i", 1L << 40)
                  .bind("d", new BigDecimal("12.345"))
                  .bind("f", 0.5d)
                  .bind("day", day)
                  .bind("at", at)
                  .bind("atz", atz)
                  .bind("u", u)
                  .bind("bytes", new byte[] {1, 2, 3})
                  .bind("s", Optional.of("x"))
                  .execute())
          .isEqualTo(1);
      assertThat(h.createQuery("SELECT b FROM v").mapTo(Boolean.class).one()).isTrue();
      assertThat(h.createQuery("SELECT i FROM v").mapTo(Long.class).one()).isEqualTo(1L << 40);
      assertThat(h.createQuery("SELECT d FROM v").mapTo(BigDecimal.class).one())
          .isEqualTo(new BigDecimal("12.345"));
      assertThat(h.createQuery("SELECT day FROM v").mapTo(LocalDate.class).one()).isEqualTo(day);
      assertThat(h.createQuery("SELECT at FROM v").mapTo(LocalDateTime.class).one()).isEqualTo(at);
      assertThat(h.createQuery("SELECT atz FROM v").mapTo(Instant.class).one()).isEqualTo(atz);
      assertThat(h.createQuery("SELECT u FROM v").mapTo(UUID.class).one()).isEqualTo(u);
      assertThat(h.createQuery("SELECT bytes FROM v").mapTo(byte[].class).one())
          .containsExactly(1, 2, 3);
      assertThat(h.createQuery("SELECT s FROM v").mapTo(String.class).findOne()).contains("x");
      assertThat(
              h.createQuery("SELECT COUNT(*) FROM v WHERE day = :day AND u = :u")
                  .bind("day", day)
                  .bind("u", u)
                  .mapTo(Long.class)
                  .one())
          .isEqualTo(1L);
    }
  }

  @Test
  void aScriptKeepsSemicolonsInsideLiteralsAndComments() {
    try (Handle h = jdbi.open()) {
      h.createScript(
              "CREATE TABLE notes (s VARCHAR); -- a; comment\n"
                  + "INSERT INTO notes VALUES ('one; two');\n"
                  + "/* block; comment */ INSERT INTO notes VALUES ('it''s')")
          .execute();
      assertThat(h.createQuery("SELECT s FROM notes ORDER BY s").mapTo(String.class).list())
          .containsExactly("it's", "one; two");
    }
  }

  @Test
  void aStatementTimeoutAndStreamsReachTheDriver() {
    try (Handle h = jdbi.open()) {
      h.execute("CREATE TABLE n (i INT)");
      h.execute("INSERT INTO n VALUES (1), (2), (3)");
      try (var rows =
          h
              .createQuery("SELECT i FROM n ORDER BY i")
              .setQueryTimeout(30)
              .setFetchSize(1)
              .setMaxRows(2)
              .mapTo(Integer.class)
              .stream()) {
        assertThat(rows.toList()).containsExactly(1, 2);
      }
    }
  }

  @Test
  void aFailingStatementCarriesFloesSqlState() {
    try (Handle h = jdbi.open()) {
      assertThatThrownBy(() -> h.execute("DROP TABLE missing"))
          .isInstanceOf(UnableToExecuteStatementException.class)
          .satisfies(e -> assertThat(Causes.sqlState(e)).isEqualTo("42S02"))
          .hasMessageContaining("missing");
    }
  }
}
