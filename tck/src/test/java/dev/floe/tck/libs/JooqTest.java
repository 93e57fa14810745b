package dev.floe.tck.libs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Meta;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jOOQ over the shaded jar, with no dialect of its own for Floe (SQLDialect.DEFAULT): plain SQL
 * queries and updates with binds, batches, and jOOQ's reading of the catalog through
 * DatabaseMetaData.
 */
class JooqTest {
  @TempDir Path root;
  private Connection connection;
  private DSLContext dsl;

  @BeforeEach
  void connect() throws SQLException {
    System.setProperty("org.jooq.no-logo", "true");
    System.setProperty("org.jooq.no-tips", "true");
    connection = DriverManager.getConnection("jdbc:floe:" + root);
    dsl = DSL.using(connection);
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @Test
  void plainSqlRunsDdlQueriesAndUpdates() {
    assertThat(dsl.execute("CREATE TABLE events (id INT, name VARCHAR)")).isZero();
    assertThat(dsl.execute("INSERT INTO events VALUES (?, ?), (?, ?)", 1, "a", 2, "b"))
        .isEqualTo(2);
    Result<Record> rows = dsl.fetch("SELECT id, name FROM events WHERE id >= ? ORDER BY id", 1);
    assertThat(rows).hasSize(2);
    assertThat(rows.getValues("name", String.class)).containsExactly("a", "b");
    assertThat(rows.getValues("id", Integer.class)).containsExactly(1, 2);
    assertThat(dsl.fetchValue("SELECT COUNT(*) FROM events", Long.class)).isEqualTo(2L);
    assertThat(dsl.fetch("SHOW TABLES").getValues(0, String.class)).containsExactly("events");
    assertThat(dsl.execute("DROP TABLE events")).isZero();
  }

  @Test
  void aBatchOfStatementsAndABatchOfBindsRun() {
    int[] script =
        dsl.batch(
                "CREATE TABLE a (x INT)",
                "INSERT INTO a VALUES (1), (2)",
                "CREATE TABLE b (y VARCHAR)")
            .execute();
    assertThat(script).containsExactly(0, 2, 0);
    int[] binds =
        dsl.batch(dsl.query("INSERT INTO b VALUES (?)", (Object) null))
            .bind("p")
            .bind("q")
            .bind("r")
            .execute();
    assertThat(binds).containsExactly(1, 1, 1);
    assertThat(dsl.fetch("SELECT y FROM b ORDER BY y").getValues(0, String.class))
        .containsExactly("p", "q", "r");
  }

  @Test
  void theDslRendersQueriesFloeRuns() {
    dsl.execute("CREATE TABLE events (id INT, name VARCHAR)");
    Table<Record> events = DSL.table(DSL.name("events"));
    Field<Integer> id = DSL.field(DSL.name("id"), Integer.class);
    Field<String> name = DSL.field(DSL.name("name"), String.class);
    assertThat(dsl.insertInto(events, id, name).values(1, "a").values(2, "b").execute())
        .isEqualTo(2);
    assertThat(dsl.select(name).from(events).where(id.gt(1)).fetch(name)).containsExactly("b");
    assertThat(dsl.selectCount().from(events).fetchOne(0, Integer.class)).isEqualTo(2);
    assertThat(dsl.update(events).set(name, "B").where(id.eq(2)).execute()).isEqualTo(1);
    assertThat(dsl.deleteFrom(events).where(id.eq(1)).execute()).isEqualTo(1);
    assertThat(dsl.select(id, name).from(events).fetch().intoMaps())
        .containsExactly(java.util.Map.of("id", 2, "name", "B"));
  }

  @Test
  void metaReadsTablesAndColumnsFromTheMetadata() {
    dsl.execute("CREATE TABLE events (id INT NOT NULL, name VARCHAR, amount DECIMAL(10, 2))");
    dsl.execute("CREATE TABLE sales.orders (o BIGINT)");
    Meta meta = dsl.meta();
    List<String> names = meta.getTables().stream().map(Table::getName).sorted().toList();
    assertThat(names).contains("events", "orders");
    Table<?> events =
        meta.getTables().stream().filter(t -> t.getName().equals("events")).findFirst().get();
    assertThat(List.of(events.fields()).stream().map(Field::getName))
        .containsExactly("id", "name", "amount");
    assertThat(events.field("id").getDataType().nullable()).isFalse();
    assertThat(events.field("amount").getDataType().precision()).isEqualTo(10);
    assertThat(events.field("amount").getDataType().scale()).isEqualTo(2);
    assertThat(meta.getSchemas().stream().map(s -> s.getName())).contains("sales");
  }

  @Test
  void theDslRendersDdlAndPagingFloeRuns() {
    dsl.createTable("items")
        .column("id", SQLDataType.INTEGER.notNull())
        .column("label", SQLDataType.VARCHAR(20))
        .column("price", SQLDataType.DECIMAL(8, 2))
        .column("day", SQLDataType.LOCALDATE)
        .execute();
    Table<Record> items = DSL.table(DSL.name("items"));
    Field<Integer> id = DSL.field(DSL.name("id"), Integer.class);
    Field<LocalDate> day = DSL.field(DSL.name("day"), LocalDate.class);
    for (int i = 1; i <= 5; i++) {
      dsl.insertInto(items).columns(id, day).values(i, LocalDate.of(2024, 1, i)).execute();
    }
    assertThat(dsl.select(id).from(items).orderBy(id).limit(2).offset(1).fetch(id))
        .containsExactly(2, 3);
    assertThat(dsl.select(day).from(items).where(id.eq(5)).fetchOne(day))
        .isEqualTo(LocalDate.of(2024, 1, 5));
    assertThat(
            dsl.select(DSL.count())
                .from(items)
                .where(day.between(LocalDate.of(2024, 1, 2), LocalDate.of(2024, 1, 3)))
                .fetchOne(0, Integer.class))
        .isEqualTo(2);
    dsl.alterTable("items").addColumn("note", SQLDataType.VARCHAR).execute();
    dsl.dropTable("items").execute();
    assertThat(dsl.fetch("SHOW TABLES")).isEmpty();
  }

  @Test
  void aFailingStatementCarriesFloesSqlState() {
    assertThatThrownBy(() -> dsl.execute("DROP TABLE missing"))
        .isInstanceOf(DataAccessException.class)
        .satisfies(e -> assertThat(Causes.sqlState(e)).isEqualTo("42S02"))
        .hasMessageContaining("missing");
  }
}
