package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An aggregate over a join whose aggregated values come from one table's scan aggregates that scan
 * first, grouped by its join keys, and combines the partial rows above the join (eager
 * aggregation): {@code SUM(o.price) ... FROM customers c JOIN orders o ... GROUP BY c.name} read
 * and joined every order row, and took eight times DuckDB's time. Each query is checked against the
 * same query with the aggregated table behind a filter no scan takes ({@code RAND() >= 0}), which
 * Calcite's own aggregate above the join answers, and its plan against where the aggregate runs.
 * The customers' keys repeat (two names for one key), some customers have no sales and some sales
 * no customer, keys and values are NULL, and the sales are in three files with rows deleted.
 */
class AggregateJoinTest {
  private static final int SALES = 3000;
  private static final int CUSTOMERS = 60;
  private static final int PRODUCTS = 12;

  @TempDir static Path lake;
  private static Connection connection;

  @BeforeAll
  static void fillTables() throws SQLException {
    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    Sql.update(
        connection,
        "CREATE TABLE sales (id BIGINT, cust INT, prod BIGINT, qty INT, price DECIMAL(12, 2),"
            + " rate DOUBLE, note VARCHAR, d DATE)");
    Sql.update(connection, "CREATE TABLE customers (cust INT, name VARCHAR, region VARCHAR)");
    Sql.update(connection, "CREATE TABLE products (prod BIGINT, cat VARCHAR)");
    Random random = new Random(20261207);
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int file = 0; file < 3; file++) {
        for (int i = 0; i < SALES / 3; i++) {
          int id = file * (SALES / 3) + i;
          insert.setLong(1, id);
          // customers 0..69: 60..69 have no row in customers; one sale in 50 has no customer
          Sql.setOrNull(
              insert, 2, random.nextInt(50) == 0 ? null : random.nextInt(70), Types.INTEGER);
          Sql.setOrNull(
              insert,
              3,
              random.nextInt(40) == 0 ? null : (long) random.nextInt(PRODUCTS + 2),
              Types.BIGINT);
          Sql.setOrNull(
              insert, 4, random.nextInt(30) == 0 ? null : random.nextInt(20) - 3, Types.INTEGER);
          Sql.setOrNull(
              insert,
              5,
              random.nextInt(25) == 0 ? null : BigDecimal.valueOf(random.nextInt(2_000_000), 2),
              Types.DECIMAL);
          insert.setDouble(6, random.nextDouble());
          Sql.setOrNull(
              insert, 7, random.nextInt(10) == 0 ? null : "n" + random.nextInt(9), Types.VARCHAR);
          insert.setDate(
              8, java.sql.Date.valueOf(java.time.LocalDate.of(2026, 1 + id % 12, 1 + id % 28)));
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO customers VALUES (?, ?, ?)")) {
      for (int cust = 0; cust < CUSTOMERS; cust++) {
        insert.setInt(1, cust);
        insert.setString(2, "c" + cust % 45);
        insert.setString(3, cust % 3 == 0 ? "EU" : cust % 3 == 1 ? "US" : null);
        insert.addBatch();
      }
      // a key with two customers, and a customer without a key
      insert.setInt(1, 7);
      insert.setString(2, "c7bis");
      insert.setString(3, "EU");
      insert.addBatch();
      Sql.setOrNull(insert, 1, null, Types.INTEGER);
      insert.setString(2, "nobody");
      insert.setString(3, "US");
      insert.addBatch();
      insert.executeBatch();
    }
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO products VALUES (?, ?)")) {
      for (int prod = 0; prod < PRODUCTS; prod++) {
        insert.setLong(1, prod);
        insert.setString(2, "k" + prod % 4);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    Sql.update(connection, "DELETE FROM sales WHERE MOD(id, 17) = 3");
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  /** Queries the rule rewrites; {@code sales} is the table aggregated first. */
  private static final List<String> EAGER =
      List.of(
          "SELECT c.name, SUM(s.price), COUNT(*), COUNT(s.qty), MIN(s.d), MAX(s.note),"
              + " MIN(s.price), AVG(s.qty), AVG(s.price), SUM(s.qty) FROM sales s"
              + " JOIN customers c ON s.cust = c.cust GROUP BY c.name",
          "SELECT c.cust, c.name, SUM(s.price) AS spent, COUNT(*) AS n FROM customers c"
              + " JOIN sales s ON c.cust = s.cust GROUP BY c.cust, c.name HAVING COUNT(*) > 40"
              + " ORDER BY spent DESC, c.cust, c.name LIMIT 7",
          "SELECT c.region, p.cat, SUM(s.qty), COUNT(*), MAX(s.price)"
              + " FROM customers c, products p, sales s"
              + " WHERE s.cust = c.cust AND s.prod = p.prod GROUP BY c.region, p.cat",
          "SELECT s.d, c.region, SUM(s.price), COUNT(s.note) FROM sales s"
              + " JOIN customers c ON s.cust = c.cust GROUP BY s.d, c.region",
          "SELECT COUNT(*), SUM(s.qty), MIN(s.note) FROM sales s"
              + " JOIN customers c ON s.cust = c.cust",
          "SELECT COUNT(*), SUM(s.qty), MAX(s.price) FROM sales s"
              + " JOIN customers c ON s.cust = c.cust WHERE s.id < 0",
          "SELECT c.name, COUNT(*) FROM sales s JOIN customers c ON s.cust = c.cust"
              + " WHERE s.id < 0 GROUP BY c.name",
          "SELECT c.name, SUM(s.price), COUNT(*) FROM sales s JOIN customers c"
              + " ON s.cust = c.cust AND s.qty > 4 AND s.note LIKE 'n%' GROUP BY c.name",
          "SELECT c.cust, c.name, COUNT(s.id), SUM(s.price), MAX(s.qty), MIN(s.note)"
              + " FROM customers c LEFT JOIN sales s ON c.cust = s.cust AND s.qty > 10"
              + " GROUP BY c.cust, c.name",
          "SELECT c.cust, COUNT(s.price), SUM(s.qty) FROM customers c LEFT JOIN sales s"
              + " ON c.cust = s.cust AND c.region = 'EU' GROUP BY c.cust",
          "SELECT c.name, COUNT(s.qty), AVG(s.price) FROM sales s RIGHT JOIN customers c"
              + " ON s.cust = c.cust GROUP BY c.name",
          "SELECT p.cat, s.cust, SUM(s.qty) FROM sales s JOIN products p ON s.prod = p.prod"
              + " GROUP BY p.cat, s.cust",
          // the scan joined to two tables: split at each join
          "SELECT c.region, p.cat, SUM(s.qty), COUNT(*), MAX(s.price), AVG(s.price) FROM sales s"
              + " JOIN customers c ON s.cust = c.cust JOIN products p ON s.prod = p.prod"
              + " GROUP BY c.region, p.cat",
          "SELECT c.region, p.cat, SUM(s.price), MIN(s.d) FROM sales s, customers c, products p"
              + " WHERE s.cust = c.cust AND s.prod = p.prod AND s.qty > 2"
              + " GROUP BY c.region, p.cat");

  /** Queries the rule leaves to Calcite's aggregate above the join. */
  private static final List<String> LEFT_ALONE =
      List.of(
          "SELECT c.name, COUNT(DISTINCT s.prod) FROM sales s JOIN customers c"
              + " ON s.cust = c.cust GROUP BY c.name",
          "SELECT c.name, SUM(s.price) FROM sales s JOIN customers c ON s.cust = c.cust"
              + " WHERE c.region = 'EU' GROUP BY c.name",
          "SELECT c.cust, COUNT(*) FROM customers c LEFT JOIN sales s ON c.cust = s.cust"
              + " GROUP BY c.cust",
          "SELECT c.name, SUM(s.rate) FROM sales s JOIN customers c ON s.cust = c.cust"
              + " GROUP BY c.name",
          "SELECT c.name, SUM(s.qty * c.cust) FROM sales s JOIN customers c ON s.cust = c.cust"
              + " GROUP BY c.name",
          "SELECT c.name, SUM(s.qty) FROM sales s JOIN customers c ON s.cust < c.cust"
              + " GROUP BY c.name",
          // expressions of the aggregated table: computed on rows the join would drop, and
          // below an outer join not NULL for an unmatched row (a split gave 0 where 1 is right)
          "SELECT EXTRACT(MONTH FROM s.d), c.region, SUM(s.price * s.qty), SUM(s.qty + 1)"
              + " FROM sales s JOIN customers c ON s.cust = c.cust"
              + " GROUP BY EXTRACT(MONTH FROM s.d), c.region",
          "SELECT c.cust, SUM(CASE WHEN s.id IS NULL THEN 1 ELSE 0 END), MAX(1)"
              + " FROM customers c LEFT JOIN sales s ON c.cust = s.cust GROUP BY c.cust",
          "SELECT c.cust, COUNT(COALESCE(s.qty, 0)), AVG(COALESCE(s.qty, 0)) FROM customers c"
              + " LEFT JOIN sales s ON c.cust = s.cust GROUP BY c.cust",
          "SELECT CASE WHEN s.id IS NULL THEN 0 WHEN s.qty > 10 THEN 1 END, COUNT(s.id)"
              + " FROM customers c LEFT JOIN sales s ON c.cust = s.cust"
              + " GROUP BY CASE WHEN s.id IS NULL THEN 0 WHEN s.qty > 10 THEN 1 END",
          // a BIGINT's partial sum may overflow for one key where the total does not
          "SELECT SUM(s.id), COUNT(*) FROM sales s JOIN customers c ON s.cust = c.cust",
          // the first of two joins is filtered
          "SELECT c.region, p.cat, SUM(s.qty) FROM sales s JOIN customers c ON s.cust = c.cust"
              + " AND c.region = 'EU' JOIN products p ON s.prod = p.prod GROUP BY c.region, p.cat");

  @Test
  void aggregatesOverAJoinAggregateTheScanFirstAndAnswerAsCalcitesAggregate() throws SQLException {
    for (String sql : EAGER) {
      String plan = Sql.explain(connection, sql);
      assertThat(plan).as(sql).containsPattern("table=\\[\\[main, sales\\]\\].*aggregate=");
      assertThat(Sql.explain(connection, oracle(sql))).as(sql).doesNotContain("aggregate=");
      assertThat(answer(sql)).as(sql).isEqualTo(answer(oracle(sql)));
    }
  }

  @Test
  void aggregatesTheRuleLeavesAreNotAggregatedInTheScanAndAnswerTheSame() throws SQLException {
    for (String sql : LEFT_ALONE) {
      assertThat(Sql.explain(connection, sql)).as(sql).doesNotContain("aggregate=");
      assertThat(answer(sql)).as(sql).isEqualTo(answer(oracle(sql)));
    }
  }

  /** Spot checks against values computed from the tables here, so both paths cannot agree wrong. */
  @Test
  void countsAndSumsMatchTheJoinComputedHere() throws SQLException {
    List<String> sales = Sql.lines(connection, "SELECT cust, qty FROM sales");
    List<String> customers = Sql.column(connection, "SELECT cust FROM customers");
    long count = 0;
    long qty = 0;
    for (String sale : sales) {
      String[] parts = sale.split(" ");
      for (String customer : customers) {
        if (!parts[0].equals("null") && parts[0].equals(customer)) {
          count++;
          qty += parts[1].equals("null") ? 0 : Long.parseLong(parts[1]);
        }
      }
    }
    assertThat(count).isGreaterThan(SALES / 2);
    assertThat(Sql.lines(connection, EAGER.get(4)))
        .singleElement()
        .asString()
        .startsWith(count + " " + qty + " ");
    assertThat(Sql.lines(connection, EAGER.get(5))).containsExactly("0 null null");
    assertThat(Sql.lines(connection, EAGER.get(6))).isEmpty();
  }

  private static List<String> answer(String sql) throws SQLException {
    List<String> rows = Sql.lines(connection, sql);
    return sql.contains("ORDER BY") ? rows : Sql.sorted(rows);
  }

  /** The query with {@code sales} behind a filter the scan does not take. */
  private static String oracle(String sql) {
    String oracle = sql.replace("sales s", "(SELECT * FROM sales WHERE RAND() >= 0) s");
    assertThat(oracle).isNotEqualTo(sql);
    return oracle;
  }
}
