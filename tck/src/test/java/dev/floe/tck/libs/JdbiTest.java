package dev.floe.tck.libs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
  void aFailingStatementCarriesFloesSqlState() {
    try (Handle h = jdbi.open()) {
      assertThatThrownBy(() -> h.execute("DROP TABLE missing"))
          .isInstanceOf(UnableToExecuteStatementException.class)
          .satisfies(e -> assertThat(Causes.sqlState(e)).isEqualTo("42S02"))
          .hasMessageContaining("missing");
    }
  }
}
