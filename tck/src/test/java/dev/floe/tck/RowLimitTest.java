package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A statement's row limit ({@code setMaxRows}) holds however the statement was made: libraries
 * (JDBI, jOOQ, MyBatis) prepare every query and set the limit on the prepared statement after
 * preparing it.
 */
class RowLimitTest {
  @TempDir Path root;

  private static List<Integer> read(PreparedStatement p) throws SQLException {
    List<Integer> values = new ArrayList<>();
    try (ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        values.add(rs.getInt(1));
      }
    }
    return values;
  }

  @Test
  void aLimitSetAfterPreparingHoldsForEveryKindOfQuery() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + root)) {
      c.createStatement().execute("CREATE TABLE n (i INT)");
      c.createStatement().execute("INSERT INTO n VALUES (3), (1), (2), (5), (4)");
      for (String sql :
          List.of(
              "SELECT i FROM n ORDER BY i",
              "SELECT i FROM n WHERE i > ? ORDER BY i",
              "SELECT i + 0 FROM n ORDER BY 1",
              "SELECT i FROM n")) {
        try (PreparedStatement p = c.prepareStatement(sql)) {
          if (sql.contains("?")) {
            p.setInt(1, 0);
          }
          p.setMaxRows(2);
          assertThat(read(p)).as(sql).hasSize(2);
          p.setMaxRows(0);
          assertThat(read(p)).as(sql).hasSize(5);
        }
      }
      try (PreparedStatement p = c.prepareStatement("SELECT i FROM n ORDER BY i")) {
        p.setMaxRows(3);
        assertThat(read(p)).containsExactly(1, 2, 3);
      }
    }
  }
}
