package dev.floe.examples.shell;

import dev.floe.FloeDriver;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The sample lake the shell opens when given no location: a small shop with {@code customers},
 * {@code products}, {@code orders} (partitioned by month) and {@code order_items} (bucketed by
 * order), written through Floe itself. December 2023 was then deleted as a whole partition,
 * cancelled orders row by row, and some orders updated, so that joins, partition pruning and
 * deletes all show at once. The data comes from a fixed seed: every sample lake is the same.
 */
final class SampleLake {
  /** Present while the lake is being written; a lake that still has it was interrupted. */
  static final String INCOMPLETE_MARKER = ".floe-sample-lake-incomplete";

  static final int CUSTOMERS = 40;
  static final int ORDERS = 720;

  private static final String[] FIRST_NAMES = {
    "Ada",
    "Alan",
    "Barbara",
    "Claude",
    "Donald",
    "Edsger",
    "Frances",
    "Grace",
    "John",
    "Ken",
    "Leslie",
    "Margaret",
    "Niklaus",
    "Radia",
    "Shafi",
    "Tim"
  };
  private static final String[] LAST_NAMES = {
    "Lovelace",
    "Turing",
    "Liskov",
    "Shannon",
    "Knuth",
    "Dijkstra",
    "Allen",
    "Hopper",
    "Backus",
    "Thompson",
    "Lamport",
    "Hamilton",
    "Wirth",
    "Perlman",
    "Goldwasser",
    "Berners-Lee"
  };
  private static final String[] COUNTRIES = {"FR", "DE", "NL", "PT", "SE", "US", "JP"};
  private static final List<Object[]> PRODUCTS =
      List.of(
          new Object[] {1, "Espresso beans 1 kg", "coffee", "24.90"},
          new Object[] {2, "Filter coffee 500 g", "coffee", "11.50"},
          new Object[] {3, "Green tea 100 g", "tea", "8.40"},
          new Object[] {4, "Earl Grey 250 g", "tea", "9.90"},
          new Object[] {5, "Hand grinder", "equipment", "79.00"},
          new Object[] {6, "Moka pot", "equipment", "34.50"},
          new Object[] {7, "Pour-over kettle", "equipment", "59.00"},
          new Object[] {8, "Paper filters x100", "supplies", "4.20"},
          new Object[] {9, "Descaler", "supplies", "6.80"},
          new Object[] {10, "Ceramic mug", "tableware", "12.00"},
          new Object[] {11, "Glass teapot", "tableware", "27.50"},
          new Object[] {12, "Gift card", "gift", "25.00"});
  private static final String[] STATUSES = {"paid", "shipped", "shipped", "shipped", "cancelled"};
  private static final LocalDate FIRST_DAY = LocalDate.of(2023, 12, 1);
  private static final int DAYS = 213; // 2023-12-01 .. 2024-06-30

  private SampleLake() {}

  /**
   * Writes the sample lake into {@code folder} unless one is already there; returns whether it
   * wrote it. A folder left incomplete by an interrupted run is written again.
   */
  static boolean ensure(Path folder, PrintStream log) throws IOException, SQLException {
    Path marker = folder.resolve(INCOMPLETE_MARKER);
    if (Files.exists(marker)) {
      log.println("The sample lake in " + folder + " is incomplete; writing it again.");
      deleteTree(folder);
    } else if (Files.isDirectory(folder) && !isEmpty(folder)) {
      return false;
    }
    long start = System.nanoTime();
    log.println("Writing the sample lake into " + folder + " (first use) ...");
    Files.createDirectories(folder);
    Files.createFile(marker);
    write(folder);
    Files.delete(marker);
    log.printf(
        "Sample lake ready in %.1f s: customers, products, orders, order_items.%n",
        (System.nanoTime() - start) / 1e9);
    return true;
  }

  private static void write(Path folder) throws SQLException {
    try (Connection connection =
            new FloeDriver().connect("jdbc:floe:" + folder.toAbsolutePath(), new Properties());
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE customers ("
              + " id BIGINT NOT NULL, name VARCHAR NOT NULL, email VARCHAR,"
              + " country VARCHAR NOT NULL, signup_date DATE NOT NULL)");
      statement.execute(
          "CREATE TABLE products ("
              + " id BIGINT NOT NULL, name VARCHAR NOT NULL, category VARCHAR NOT NULL,"
              + " price DECIMAL(10, 2) NOT NULL)");
      statement.execute(
          "CREATE TABLE orders ("
              + " id BIGINT NOT NULL, customer_id BIGINT NOT NULL, order_date DATE NOT NULL,"
              + " status VARCHAR NOT NULL, total DECIMAL(12, 2) NOT NULL)"
              + " PARTITIONED BY (month(order_date)) WITH ('format-version' = '2')");
      statement.execute(
          "CREATE TABLE order_items ("
              + " order_id BIGINT NOT NULL, line INT NOT NULL, product_id BIGINT NOT NULL,"
              + " quantity INT NOT NULL, unit_price DECIMAL(10, 2) NOT NULL)"
              + " PARTITIONED BY (bucket(4, order_id)) WITH ('format-version' = '2')");
      Random random = new Random(20240601L);
      insertCustomers(connection, random);
      insertProducts(connection);
      insertOrders(connection, random);

      // A whole month goes: its files are dropped from the table, no row is rewritten.
      statement.executeUpdate(
          "DELETE FROM order_items WHERE order_id IN"
              + " (SELECT id FROM orders WHERE order_date < DATE '2024-01-01')");
      statement.executeUpdate("DELETE FROM orders WHERE order_date < DATE '2024-01-01'");
      // Cancelled orders go row by row: position delete files mark them.
      statement.executeUpdate(
          "DELETE FROM order_items WHERE order_id IN"
              + " (SELECT id FROM orders WHERE status = 'cancelled')");
      statement.executeUpdate("DELETE FROM orders WHERE status = 'cancelled'");
      // Shipped orders of the first months have arrived.
      statement.executeUpdate(
          "UPDATE orders SET status = 'delivered'"
              + " WHERE status = 'shipped' AND order_date < DATE '2024-05-01'");
    }
  }

  private static void insertCustomers(Connection connection, Random random) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO customers VALUES (?, ?, ?, ?, ?)")) {
      for (int id = 1; id <= CUSTOMERS; id++) {
        String first = FIRST_NAMES[random.nextInt(FIRST_NAMES.length)];
        String last = LAST_NAMES[random.nextInt(LAST_NAMES.length)];
        insert.setLong(1, id);
        insert.setString(2, first + " " + last);
        insert.setString(
            3, id % 9 == 0 ? null : (first + "." + last + "@example.com").toLowerCase());
        insert.setString(4, COUNTRIES[random.nextInt(COUNTRIES.length)]);
        insert.setObject(5, LocalDate.of(2022, 1, 1).plusDays(random.nextInt(700)));
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  private static void insertProducts(Connection connection) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO products VALUES (?, ?, ?, ?)")) {
      for (Object[] product : PRODUCTS) {
        insert.setLong(1, (Integer) product[0]);
        insert.setString(2, (String) product[1]);
        insert.setString(3, (String) product[2]);
        insert.setBigDecimal(4, new BigDecimal((String) product[3]));
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  private static void insertOrders(Connection connection, Random random) throws SQLException {
    try (PreparedStatement orders =
            connection.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?)");
        PreparedStatement items =
            connection.prepareStatement("INSERT INTO order_items VALUES (?, ?, ?, ?, ?)")) {
      for (int id = 1; id <= ORDERS; id++) {
        LocalDate day = FIRST_DAY.plusDays((long) (id - 1) * DAYS / ORDERS);
        int lines = 1 + random.nextInt(4);
        BigDecimal total = BigDecimal.ZERO;
        for (int line = 1; line <= lines; line++) {
          Object[] product = PRODUCTS.get(random.nextInt(PRODUCTS.size()));
          BigDecimal price = new BigDecimal((String) product[3]);
          int quantity = 1 + random.nextInt(3);
          items.setLong(1, id);
          items.setInt(2, line);
          items.setLong(3, (Integer) product[0]);
          items.setInt(4, quantity);
          items.setBigDecimal(5, price);
          items.addBatch();
          total = total.add(price.multiply(BigDecimal.valueOf(quantity)));
        }
        orders.setLong(1, id);
        orders.setLong(2, 1 + random.nextInt(CUSTOMERS));
        orders.setObject(3, day);
        orders.setString(4, STATUSES[random.nextInt(STATUSES.length)]);
        orders.setBigDecimal(5, total);
        orders.addBatch();
      }
      orders.executeBatch();
      items.executeBatch();
    }
  }

  private static boolean isEmpty(Path folder) throws IOException {
    try (Stream<Path> children = Files.list(folder)) {
      return children.findAny().isEmpty();
    }
  }

  private static void deleteTree(Path folder) throws IOException {
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
