package dev.floe.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.iceberg.types.Type;

/** Small helpers for running SQL against Floe and reading the answer in canonical form. */
final class Sql {
  private Sql() {}

  /** The canonical rows of a query, each column read for the given Iceberg type. */
  static List<List<String>> rows(Connection connection, String sql, List<Type> types)
      throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      return Canonical.rows(rs, types);
    }
  }

  /** The first column of every row of a query, as strings. */
  static List<String> column(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      List<String> values = new ArrayList<>();
      while (rs.next()) {
        values.add(rs.getString(1));
      }
      return values;
    }
  }

  /** Every row of a query, its columns read with getString and joined by a space ("null"). */
  static List<String> lines(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          values.add(String.valueOf(rs.getString(i)));
        }
        rows.add(String.join(" ", values));
      }
      return rows;
    }
  }

  /** The whole text of {@code EXPLAIN PLAN FOR} a query. */
  static String explain(Connection connection, String sql) throws SQLException {
    return String.join("\n", column(connection, "EXPLAIN PLAN FOR " + sql));
  }

  /** Runs an update and returns its count. */
  static int update(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      return statement.executeUpdate(sql);
    }
  }

  /** Sets a parameter, or NULL of {@code type} when the value is null. */
  static void setOrNull(PreparedStatement statement, int index, Object value, int type)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, type);
    } else {
      statement.setObject(index, value);
    }
  }

  /** Rows in their natural order, for answers whose order the query leaves open. */
  static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }

  /**
   * Creates a table {@code (id BIGINT, k INT)} of {@code rows} rows, row {@code i} having id {@code
   * i} and key {@code i % keys}, unless it holds rows already.
   */
  static void keyedTable(Connection connection, String table, int rows, int keys)
      throws SQLException {
    update(connection, "CREATE TABLE IF NOT EXISTS " + table + " (id BIGINT, k INT)");
    if (!column(connection, "SELECT count(*) FROM " + table).equals(List.of("0"))) {
      return;
    }
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
      for (int i = 0; i < rows; i++) {
        insert.setLong(1, i);
        insert.setInt(2, i % keys);
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  /** Every file under a folder with its size and modification time, to prove nothing changed. */
  static TreeMap<String, String> snapshotOfFiles(Path folder) {
    TreeMap<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path p : walk.toList()) {
        BasicFileAttributes attrs = Files.readAttributes(p, BasicFileAttributes.class);
        files.put(
            folder.relativize(p).toString(),
            attrs.isDirectory()
                ? "dir"
                : attrs.size() + " bytes, modified " + attrs.lastModifiedTime());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }
}
