package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Joins of five to eight tables, written by Floe as Iceberg tables, with equality chains and range
 * predicates, a LEFT JOIN, a correlated subquery, IN and NOT EXISTS: each answer is checked against
 * the one computed here from the inserted rows, and each plan joins on the equalities (no join
 * without a condition). Before the join order of such queries was chosen by a heuristic, Calcite's
 * exhaustive search took over a minute to plan a join of eight tables.
 */
class ManyTableJoinTest {
  /** An equality between two columns of a join's inputs, as EXPLAIN writes it. */
  private static final Pattern EQUALITY = Pattern.compile("(?<![<>!])=\\(\\$\\d+, \\$\\d+\\)");

  @TempDir static Path lake;
  private static Connection connection;

  record Region(int id, String name) {}

  record Customer(int id, int regionId, String name) {}

  record Category(int id, String name) {}

  record Supplier(int id, String name) {}

  record Product(int id, int categoryId, int supplierId, int price, String name) {}

  record Order(int id, int customerId, int productId, int qty, int placed) {}

  record Shipment(int orderId, String carrier, int transit) {}

  private static final List<Region> REGIONS = new ArrayList<>();
  private static final List<Customer> CUSTOMERS = new ArrayList<>();
  private static final List<Category> CATEGORIES = new ArrayList<>();
  private static final List<Supplier> SUPPLIERS = new ArrayList<>();
  private static final List<Product> PRODUCTS = new ArrayList<>();
  private static final List<Order> ORDERS = new ArrayList<>();
  private static final List<Shipment> SHIPMENTS = new ArrayList<>();

  @BeforeAll
  static void fillTables() throws SQLException {
    String[] regionNames = {"north", "south", "east", "west"};
    for (int i = 1; i <= regionNames.length; i++) {
      REGIONS.add(new Region(i, regionNames[i - 1]));
    }
    for (int i = 1; i <= 12; i++) {
      CUSTOMERS.add(new Customer(i, 1 + i % 4, "customer" + i));
    }
    for (int i = 1; i <= 5; i++) {
      CATEGORIES.add(new Category(i, "category" + i));
    }
    for (int i = 1; i <= 6; i++) {
      SUPPLIERS.add(new Supplier(i, "supplier" + i));
    }
    for (int i = 1; i <= 15; i++) {
      PRODUCTS.add(new Product(i, 1 + i % 5, 1 + (i * 7) % 6, 10 + (i * 13) % 70, "product" + i));
    }
    for (int i = 1; i <= 60; i++) {
      ORDERS.add(new Order(i, 1 + (i * 5) % 12, 1 + (i * 11) % 15, 1 + (i * 3) % 10, i % 20));
    }
    for (Order order : ORDERS) {
      if (order.id() % 4 != 0) {
        SHIPMENTS.add(new Shipment(order.id(), "carrier" + order.id() % 3, order.id() % 6));
      }
      if (order.id() % 8 == 6) {
        SHIPMENTS.add(new Shipment(order.id(), "express", 1));
      }
    }

    connection = DriverManager.getConnection("jdbc:floe:" + lake);
    create("regions (id INTEGER, name VARCHAR)", REGIONS, r -> r.id() + ", '" + r.name() + "'");
    create(
        "customers (id INTEGER, region_id INTEGER, name VARCHAR)",
        CUSTOMERS,
        c -> c.id() + ", " + c.regionId() + ", '" + c.name() + "'");
    create(
        "categories (id INTEGER, name VARCHAR)", CATEGORIES, c -> c.id() + ", '" + c.name() + "'");
    create("suppliers (id INTEGER, name VARCHAR)", SUPPLIERS, s -> s.id() + ", '" + s.name() + "'");
    create(
        "products (id INTEGER, category_id INTEGER, supplier_id INTEGER, price INTEGER,"
            + " name VARCHAR)",
        PRODUCTS,
        p ->
            p.id()
                + ", "
                + p.categoryId()
                + ", "
                + p.supplierId()
                + ", "
                + p.price()
                + ", '"
                + p.name()
                + "'");
    create(
        "orders (id INTEGER, customer_id INTEGER, product_id INTEGER, qty INTEGER, placed INTEGER)",
        ORDERS,
        o ->
            o.id()
                + ", "
                + o.customerId()
                + ", "
                + o.productId()
                + ", "
                + o.qty()
                + ", "
                + o.placed());
    create(
        "shipments (order_id INTEGER, carrier VARCHAR, transit INTEGER)",
        SHIPMENTS,
        s -> s.orderId() + ", '" + s.carrier() + "', " + s.transit());
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  /** Six tables listed in no useful order, joined by a chain of equalities in WHERE. */
  @Test
  void sixTablesJoinedByEqualitiesInWhereWithRanges() throws SQLException {
    String sql =
        "SELECT o.id, c.name, r.name, p.name, k.name, s.name"
            + " FROM categories k, orders o, suppliers s, regions r, customers c, products p"
            + " WHERE o.customer_id = c.id AND c.region_id = r.id AND o.product_id = p.id"
            + " AND p.category_id = k.id AND p.supplier_id = s.id"
            + " AND o.qty BETWEEN 3 AND 9 AND p.price >= 20 AND o.placed > 5 AND r.id <> 2"
            + " ORDER BY o.id";
    List<String> expected = new ArrayList<>();
    for (Order o : ORDERS) {
      Customer c = CUSTOMERS.get(o.customerId() - 1);
      Region r = REGIONS.get(c.regionId() - 1);
      Product p = PRODUCTS.get(o.productId() - 1);
      Category k = CATEGORIES.get(p.categoryId() - 1);
      Supplier s = SUPPLIERS.get(p.supplierId() - 1);
      if (o.qty() >= 3 && o.qty() <= 9 && p.price() >= 20 && o.placed() > 5 && r.id() != 2) {
        expected.add(
            String.join(" ", "" + o.id(), c.name(), r.name(), p.name(), k.name(), s.name()));
      }
    }

    assertThat(expected).hasSizeBetween(5, ORDERS.size() - 5);
    assertThat(rows(sql)).containsExactlyElementsOf(expected);
    assertEveryJoinHasAnEquality(sql, 5);
  }

  /**
   * Seven tables in explicit joins, one of them a LEFT JOIN whose condition has a range, and a
   * correlated scalar subquery over one of them in WHERE.
   */
  @Test
  void sevenTablesWithALeftJoinAndACorrelatedSubquery() throws SQLException {
    String sql =
        "SELECT o.id, c.name, p.name, k.name, s.name, COALESCE(sh.carrier, 'none')"
            + " FROM orders o"
            + " JOIN customers c ON c.id = o.customer_id"
            + " JOIN regions r ON r.id = c.region_id"
            + " JOIN products p ON p.id = o.product_id"
            + " JOIN categories k ON k.id = p.category_id"
            + " LEFT JOIN shipments sh ON sh.order_id = o.id AND sh.transit <= 3"
            + " JOIN suppliers s ON s.id = p.supplier_id"
            + " WHERE r.name <> 'north' AND p.price < 60"
            + " AND o.qty > (SELECT MIN(o2.qty) FROM orders o2"
            + " WHERE o2.customer_id = o.customer_id AND o2.placed < o.placed)"
            + " ORDER BY o.id, 6";
    List<String> expected = new ArrayList<>();
    for (Order o : ORDERS) {
      Customer c = CUSTOMERS.get(o.customerId() - 1);
      Region r = REGIONS.get(c.regionId() - 1);
      Product p = PRODUCTS.get(o.productId() - 1);
      Category k = CATEGORIES.get(p.categoryId() - 1);
      Supplier s = SUPPLIERS.get(p.supplierId() - 1);
      Integer earlierMin =
          ORDERS.stream()
              .filter(o2 -> o2.customerId() == o.customerId() && o2.placed() < o.placed())
              .map(Order::qty)
              .min(Integer::compare)
              .orElse(null); // MIN of no rows is NULL, and a comparison with NULL is not true
      if (r.name().equals("north")
          || p.price() >= 60
          || earlierMin == null
          || o.qty() <= earlierMin) {
        continue;
      }
      List<String> carriers =
          SHIPMENTS.stream()
              .filter(sh -> sh.orderId() == o.id() && sh.transit() <= 3)
              .map(Shipment::carrier)
              .sorted()
              .collect(Collectors.toList());
      if (carriers.isEmpty()) {
        carriers = List.of("none");
      }
      for (String carrier : carriers) {
        expected.add(
            String.join(" ", "" + o.id(), c.name(), p.name(), k.name(), s.name(), carrier));
      }
    }

    assertThat(expected).hasSizeBetween(5, ORDERS.size() - 5);
    assertThat(expected).anyMatch(row -> row.endsWith(" none"));
    assertThat(expected).anyMatch(row -> row.endsWith(" express"));
    assertThat(rows(sql)).containsExactlyElementsOf(expected);
    String plan = Sql.explain(connection, sql);
    // The outer join stays one: the heuristic may put the shipments on either side.
    assertThat(plan).containsAnyOf("joinType=[left]", "joinType=[right]");
    assertNoJoinWithoutCondition(plan);
  }

  /** Five tables with an IN subquery (a semi-join) and a NOT EXISTS (an anti-join), grouped. */
  @Test
  void fiveTablesWithInAndNotExistsGrouped() throws SQLException {
    String sql =
        "SELECT c.name, COUNT(*), SUM(o.qty)"
            + " FROM customers c, orders o, products p, suppliers s, regions r"
            + " WHERE o.customer_id = c.id AND p.id = o.product_id AND s.id = p.supplier_id"
            + " AND r.id = c.region_id AND r.id >= 2 AND o.placed BETWEEN 2 AND 17"
            + " AND s.id IN (SELECT p2.supplier_id FROM products p2 WHERE p2.price > 50)"
            + " AND NOT EXISTS (SELECT 1 FROM shipments sh"
            + " WHERE sh.order_id = o.id AND sh.carrier = 'carrier1')"
            + " GROUP BY c.name ORDER BY c.name";
    Map<String, int[]> groups = new TreeMap<>();
    for (Order o : ORDERS) {
      Customer c = CUSTOMERS.get(o.customerId() - 1);
      Product p = PRODUCTS.get(o.productId() - 1);
      boolean supplierOfAnExpensiveProduct =
          PRODUCTS.stream().anyMatch(p2 -> p2.supplierId() == p.supplierId() && p2.price() > 50);
      boolean shippedByCarrier1 =
          SHIPMENTS.stream()
              .anyMatch(sh -> sh.orderId() == o.id() && sh.carrier().equals("carrier1"));
      if (c.regionId() >= 2
          && o.placed() >= 2
          && o.placed() <= 17
          && supplierOfAnExpensiveProduct
          && !shippedByCarrier1) {
        int[] group = groups.computeIfAbsent(c.name(), name -> new int[2]);
        group[0]++;
        group[1] += o.qty();
      }
    }
    List<String> expected = new ArrayList<>();
    groups.forEach((name, group) -> expected.add(name + " " + group[0] + " " + group[1]));

    assertThat(expected).hasSizeGreaterThan(3);
    assertThat(rows(sql)).containsExactlyElementsOf(expected);
    assertNoJoinWithoutCondition(Sql.explain(connection, sql));
  }

  /** Eight tables, two of them the same table under two names, with a range between them. */
  @Test
  void eightTablesWithASelfJoinOnARange() throws SQLException {
    String sql =
        "SELECT o.id, o2.id"
            + " FROM shipments sh, orders o, customers c, regions r, products p, categories k,"
            + " suppliers s, orders o2"
            + " WHERE sh.order_id = o.id AND o.customer_id = c.id AND c.region_id = r.id"
            + " AND o.product_id = p.id AND p.category_id = k.id AND p.supplier_id = s.id"
            + " AND o2.customer_id = c.id AND o2.placed > o.placed AND o2.qty < o.qty"
            + " AND sh.carrier = 'carrier2' AND k.id IN (1, 3, 4)"
            + " ORDER BY o.id, o2.id";
    List<String> expected = new ArrayList<>();
    for (Shipment sh : SHIPMENTS) {
      if (!sh.carrier().equals("carrier2")) {
        continue;
      }
      Order o = ORDERS.get(sh.orderId() - 1);
      Product p = PRODUCTS.get(o.productId() - 1);
      if (p.categoryId() != 1 && p.categoryId() != 3 && p.categoryId() != 4) {
        continue;
      }
      for (Order o2 : ORDERS) {
        if (o2.customerId() == o.customerId() && o2.placed() > o.placed() && o2.qty() < o.qty()) {
          expected.add(o.id() + " " + o2.id());
        }
      }
    }
    expected.sort(
        (a, b) -> {
          String[] x = a.split(" ");
          String[] y = b.split(" ");
          int first = Integer.compare(Integer.parseInt(x[0]), Integer.parseInt(y[0]));
          return first != 0
              ? first
              : Integer.compare(Integer.parseInt(x[1]), Integer.parseInt(y[1]));
        });

    assertThat(expected).hasSizeGreaterThan(3);
    assertThat(rows(sql)).containsExactlyElementsOf(expected);
    assertEveryJoinHasAnEquality(sql, 7);
  }

  /** The plan has this many joins, and each joins on an equality between its two inputs. */
  private static void assertEveryJoinHasAnEquality(String sql, int joins) throws SQLException {
    String plan = Sql.explain(connection, sql);
    List<String> conditions = joinConditions(plan);
    assertThat(conditions).as(plan).hasSize(joins);
    assertThat(conditions).as(plan).allMatch(condition -> EQUALITY.matcher(condition).find());
  }

  private static void assertNoJoinWithoutCondition(String plan) {
    List<String> conditions = joinConditions(plan);
    assertThat(conditions).as(plan).isNotEmpty();
    assertThat(conditions).as(plan).noneMatch(condition -> condition.equals("true"));
  }

  /** The condition of every join in an EXPLAIN text, in plan order. */
  private static List<String> joinConditions(String plan) {
    Matcher join = Pattern.compile("Join\\(condition=\\[(.*?)\\], joinType=").matcher(plan);
    List<String> conditions = new ArrayList<>();
    while (join.find()) {
      conditions.add(join.group(1));
    }
    return conditions;
  }

  private static <T> void create(String table, List<T> rows, Function<T, String> values)
      throws SQLException {
    Sql.update(connection, "CREATE TABLE " + table);
    String name = table.substring(0, table.indexOf(' '));
    Sql.update(
        connection,
        "INSERT INTO "
            + name
            + " VALUES "
            + rows.stream()
                .map(row -> "(" + values.apply(row) + ")")
                .collect(Collectors.joining(", ")));
  }

  private static List<String> rows(String sql) throws SQLException {
    return Sql.lines(connection, sql);
  }
}
