package dev.floe.tck;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A full read and write cycle through plain JDBC, run in a child JVM with only the shaded driver on
 * its class path: creates, fills, updates, deletes from and reads a table, and reads a table
 * another writer wrote (with position deletes). Prints the row counts it saw.
 */
public final class ReadWriteCycle {
  private ReadWriteCycle() {}

  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection(args[0]);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE visits (id BIGINT, name VARCHAR, seen TIMESTAMP)");
      s.executeUpdate(
          "INSERT INTO visits VALUES (1, 'one', TIMESTAMP '2024-01-01 00:00:00'),"
              + " (2, 'two', TIMESTAMP '2024-01-02 00:00:00'),"
              + " (3, 'three', TIMESTAMP '2024-01-03 00:00:00')");
      s.executeUpdate("UPDATE visits SET name = 'TWO' WHERE id = 2");
      s.executeUpdate("DELETE FROM visits WHERE id = 3");
      System.out.println("visits " + count(s, "SELECT id, name, seen FROM visits"));
      System.out.println("written " + count(s, "SELECT * FROM written"));
    }
  }

  private static long count(Statement s, String sql) throws Exception {
    long rows = 0;
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          rs.getObject(i);
        }
        rows++;
      }
    }
    return rows;
  }
}
