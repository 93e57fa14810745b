package dev.floe.tck.write;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/** JDBC the way a user writes it: {@code DriverManager} and the {@code jdbc:floe:} URL. */
final class Sql {
  private Sql() {}

  /** Opens a connection to a lake given by a path. */
  static Connection connect(Path lake) throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + lake);
  }

  /** Opens a connection to a lake given as any location spelling. */
  static Connection connect(String location) throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + location);
  }

  /** Runs statements in autocommit mode on a fresh connection. */
  static void run(Path lake, String... statements) throws SQLException {
    try (Connection c = connect(lake)) {
      run(c, statements);
    }
  }

  /** Runs statements on a connection. */
  static void run(Connection c, String... statements) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** Runs one statement and returns its update count. */
  static int update(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      return s.executeUpdate(sql);
    }
  }

  /** The rows of a query, normalized to Iceberg's generic value forms and sorted. */
  static List<List<Object>> rows(Connection c, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData meta = rs.getMetaData();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          Object value = rs.getObject(i);
          if (value instanceof java.sql.Date) {
            value = rs.getObject(i, LocalDate.class);
          } else if (value instanceof Timestamp) {
            value = rs.getObject(i, LocalDateTime.class);
          }
          row.add(value);
        }
        rows.add(row);
      }
    }
    return Rows.sorted(rows);
  }

  /** Every row of a query, its columns read with getString and joined by a space ("null"). */
  static List<String> lines(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          values.add(String.valueOf(rs.getString(i)));
        }
        rows.add(String.join(" ", values));
      }
    }
    return rows;
  }

  /** The rows of a query on a fresh connection. */
  static List<List<Object>> rows(Path lake, String sql) throws SQLException {
    try (Connection c = connect(lake)) {
      return rows(c, sql);
    }
  }

  /** The single long value of a query. */
  static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
