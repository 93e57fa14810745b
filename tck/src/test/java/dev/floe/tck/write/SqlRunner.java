package dev.floe.tck.write;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A child-JVM program: runs SQL the way a user's program does. Arguments are a script: a {@code
 * jdbc:} URL opens a new connection (closing the last one), anything else is a statement run on it.
 * Prints {@code count: N} for updates and {@code row: a|b|...} for query rows; a failing statement
 * prints {@code error: SQLSTATE message} and ends the program with status 1.
 */
public final class SqlRunner {
  private SqlRunner() {}

  public static void main(String[] args) throws SQLException {
    Connection connection = null;
    try {
      for (String arg : args) {
        if (arg.startsWith("jdbc:")) {
          if (connection != null) {
            connection.close();
          }
          connection = DriverManager.getConnection(arg);
          continue;
        }
        try (Statement s = connection.createStatement()) {
          if (s.execute(arg)) {
            try (ResultSet rs = s.getResultSet()) {
              int columns = rs.getMetaData().getColumnCount();
              while (rs.next()) {
                StringBuilder row = new StringBuilder("row: ");
                for (int i = 1; i <= columns; i++) {
                  row.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                System.out.println(row);
              }
            }
          } else {
            System.out.println("count: " + s.getUpdateCount());
          }
        } catch (SQLException e) {
          System.out.println("error: " + e.getSQLState() + " " + e.getMessage());
          System.exit(1);
        }
      }
    } finally {
      if (connection != null) {
        connection.close();
      }
    }
  }
}
