package dev.floe.jdbc;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small lake for metadata tests, made through the driver: {@code orders} at the root (a
 * documented NOT NULL key column that is also the Iceberg identifier field, decimals, timestamps,
 * a table comment), {@code sales.eu.customers} two folders down (nested types), and {@code
 * sales.us.customers}, a second table of the same name elsewhere.
 */
final class SampleLake {
  private SampleLake() {}

  static Connection open(Path root) throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  static void create(Path root) throws SQLException {
    try (Connection c = open(root);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE orders ("
              + " id BIGINT NOT NULL COMMENT 'Order number',"
              + " amount DECIMAL(12, 2),"
              + " placed TIMESTAMP,"
              + " placed_utc TIMESTAMP WITH LOCAL TIME ZONE,"
              + " note VARCHAR,"
              + " \"day\" DATE)"
              + " WITH ('comment' = 'Orders of every shop')");
      s.execute(
          "CREATE TABLE sales.eu.customers ("
              + " id INT NOT NULL,"
              + " name VARCHAR NOT NULL COMMENT 'x',"
              + " since TIME,"
              + " score DOUBLE,"
              + " ratio REAL,"
              + " vip BOOLEAN,"
              + " tags ARRAY<VARCHAR>,"
              + " address STRUCT<city: VARCHAR NOT NULL, zip: VARCHAR>,"
              + " prefs MAP<VARCHAR, INT>,"
              + " uid UUID,"
              + " photo VARBINARY,"
              + " code BINARY(4))");
      s.execute("CREATE TABLE sales.us.customers (id INT NOT NULL, name VARCHAR)");
      s.executeUpdate(
          "INSERT INTO orders VALUES"
              + " (1, 12.50, NULL, NULL, 'first', DATE '2024-02-29'),"
              + " (2, 99.99, NULL, NULL, NULL, NULL)");
      s.executeUpdate("INSERT INTO sales.eu.customers (id, name) VALUES (7, 'Ada')");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)")) {
        p.setLong(1, 3);
        p.setBigDecimal(2, new BigDecimal("0.10"));
        p.setObject(3, LocalDateTime.parse("2024-02-29T23:59:59.123456"));
        p.setObject(4, OffsetDateTime.parse("2024-03-01T00:00:00.000001Z"));
        p.setString(5, "third");
        p.setObject(6, LocalDate.parse("0001-01-01"));
        p.executeUpdate();
      }
    }
    try (Connection c = open(root)) {
      c.unwrap(FloeConnection.class)
          .session()
          .catalog()
          .loadTable(List.of("orders"))
          .updateSchema()
          .setIdentifierFields("id")
          .commit();
    }
  }

  /** The rows of a result set as maps from column label to {@code getObject}, closing it. */
  static List<Map<String, Object>> rows(ResultSet rs) throws SQLException {
    try (rs) {
      ResultSetMetaData meta = rs.getMetaData();
      List<Map<String, Object>> rows = new ArrayList<>();
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          row.put(meta.getColumnLabel(i), rs.getObject(i));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  /** One column of every row, closing the result set. */
  static List<Object> column(ResultSet rs, String label) throws SQLException {
    return column(rows(rs), label);
  }

  /** One column of every row. */
  static List<Object> column(List<Map<String, Object>> rows, String label) {
    List<Object> values = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      values.add(row.get(label));
    }
    return values;
  }

  /** The column labels of a result set, without closing it. */
  static List<String> labels(ResultSet rs) throws SQLException {
    List<String> labels = new ArrayList<>();
    ResultSetMetaData meta = rs.getMetaData();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      labels.add(meta.getColumnLabel(i));
    }
    return labels;
  }
}
