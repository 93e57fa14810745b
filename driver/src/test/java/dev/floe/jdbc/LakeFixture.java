package dev.floe.jdbc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/** A temporary lake and small helpers for JDBC tests over it. */
abstract class LakeFixture {
  @TempDir Path root;

  Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  Connection connect(String properties) throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root + "?" + properties);
  }

  static long update(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      return s.executeLargeUpdate(sql);
    }
  }

  static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** Every row of a query, each value as {@code getString} shows it. */
  static List<List<String>> rows(Connection c, String sql) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(rs.getString(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  static String single(Connection c, String sql) throws SQLException {
    List<List<String>> rows = rows(c, sql);
    if (rows.size() != 1 || rows.get(0).size() != 1) {
      throw new AssertionError("Expected one value from " + sql + " but got " + rows);
    }
    return rows.get(0).get(0);
  }

  /** Every file under the root, relative, sorted. */
  TreeSet<String> files() throws Exception {
    TreeSet<String> files = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isRegularFile).forEach(p -> files.add(root.relativize(p).toString()));
    }
    return files;
  }
}
