package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scroll-insensitive result sets, as DBeaver and other clients ask for them: the cursor moves back
 * and forth over rows kept as they are read, the values read are those a forward-only pass reads, a
 * scroll-sensitive or updatable request is downgraded with the warning JDBC asks for, and a result
 * too large to keep fails with 53200 leaving the connection usable.
 */
class ScrollableResultSetTest {
  @TempDir Path root;

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:floe:" + root);
  }

  @BeforeEach
  void createTable() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE events (id BIGINT NOT NULL, name VARCHAR, amount DECIMAL(12, 3),"
              + " at TIMESTAMP(6), day DATE, tags ARRAY<VARCHAR>)");
      s.executeUpdate(
          "INSERT INTO events VALUES"
              + " (1, 'one', 1.250, TIMESTAMP '2024-01-01 10:11:12.123456', DATE '0001-01-01',"
              + " ARRAY['a', 'b']),"
              + " (2, NULL, NULL, NULL, NULL, NULL),"
              + " (3, 'three', -3.001, TIMESTAMP '1969-12-31 23:59:59.999999', DATE '2024-02-29',"
              + " ARRAY['c']),"
              + " (4, 'four', 4.000, TIMESTAMP '2262-04-11 23:47:16.854775', DATE '9999-12-31',"
              + " ARRAY['d', 'e', 'f']),"
              + " (5, 'five', 0.005, TIMESTAMP '2000-02-29 00:00:00.000001', DATE '1970-01-01',"
              + " ARRAY['g'])");
    }
  }

  private static Statement scrolling(Connection c) throws SQLException {
    return c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
  }

  @Test
  void theCursorMovesBackAndForthOverTheRows() throws SQLException {
    try (Connection c = connect();
        Statement s = scrolling(c);
        ResultSet rs = s.executeQuery("SELECT id FROM events ORDER BY id")) {
      assertThat((Object) c.getWarnings()).isNull();
      assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
      assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
      assertThat(rs.isBeforeFirst()).isTrue();
      assertThat(rs.getRow()).isZero();

      assertThat(rs.last()).isTrue();
      assertThat(rs.getRow()).isEqualTo(5);
      assertThat(rs.isLast()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(5);
      assertThat(rs.previous()).isTrue();
      assertThat(rs.getLong("id")).isEqualTo(4);
      assertThat(rs.isLast()).isFalse();

      assertThat(rs.first()).isTrue();
      assertThat(rs.isFirst()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(1);
      assertThat(rs.absolute(3)).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(3);
      assertThat(rs.absolute(-2)).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(4);
      assertThat(rs.getRow()).isEqualTo(4);
      assertThat(rs.relative(-3)).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(1);
      assertThat(rs.relative(0)).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(1);

      assertThat(rs.relative(-1)).isFalse();
      assertThat(rs.isBeforeFirst()).isTrue();
      assertThat(rs.getRow()).isZero();
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(1);

      assertThat(rs.relative(10)).isFalse();
      assertThat(rs.isAfterLast()).isTrue();
      assertThat(rs.getRow()).isZero();
      assertThat(rs.next()).isFalse();
      assertThat(rs.previous()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(5);

      assertThat(rs.absolute(0)).isFalse();
      assertThat(rs.isBeforeFirst()).isTrue();
      assertThat(rs.absolute(-6)).isFalse();
      assertThat(rs.isBeforeFirst()).isTrue();
      assertThat(rs.absolute(6)).isFalse();
      assertThat(rs.isAfterLast()).isTrue();

      rs.beforeFirst();
      List<Long> forward = new ArrayList<>();
      while (rs.next()) {
        forward.add(rs.getLong(1));
      }
      assertThat(forward).containsExactly(1L, 2L, 3L, 4L, 5L);
      rs.afterLast();
      List<Long> backward = new ArrayList<>();
      while (rs.previous()) {
        backward.add(rs.getLong(1));
      }
      assertThat(backward).containsExactly(5L, 4L, 3L, 2L, 1L);
    }
  }

  @Test
  void scrolledRowsReadTheSameValuesAsAForwardOnlyPass() throws SQLException {
    String query = "SELECT id, name, amount, at, day, tags FROM events ORDER BY id";
    List<String> forwardOnly = new ArrayList<>();
    List<String> scrolled = new ArrayList<>();
    try (Connection c = connect()) {
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(query)) {
        while (rs.next()) {
          forwardOnly.add(describe(rs));
        }
      }
      try (Statement s = scrolling(c);
          ResultSet rs = s.executeQuery(query)) {
        rs.afterLast();
        while (rs.previous()) {
          scrolled.add(describe(rs));
        }
      }
    }
    Collections.reverse(scrolled);
    assertThat(forwardOnly).hasSize(5);
    assertThat(scrolled).isEqualTo(forwardOnly);
    assertThat(forwardOnly.get(0))
        .contains("2024-01-01 10:11:12.123456", "2024-01-01T10:11:12.123456", "0001-01-01");
    assertThat(forwardOnly.get(1)).contains("null/true");
  }

  /** Every column as text, as an object, as java.time and whether it was NULL. */
  private static String describe(ResultSet rs) throws SQLException {
    StringBuilder row = new StringBuilder();
    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
      String text = rs.getString(i);
      row.append(text).append('/').append(rs.wasNull()).append(' ');
      Object value = rs.getObject(i);
      row.append(value instanceof java.sql.Array ? "array" : String.valueOf(value)).append(' ');
    }
    row.append(rs.getObject(4, LocalDateTime.class)).append(' ');
    row.append(rs.getBigDecimal(3)).append(' ');
    java.sql.Array tags = rs.getArray(6);
    row.append(tags == null ? null : List.of((Object[]) tags.getArray()));
    return row.toString();
  }

  @Test
  void aPreparedStatementMakesScrollInsensitiveResultSetsToo() throws SQLException {
    try (Connection c = connect();
        PreparedStatement p =
            c.prepareStatement(
                "SELECT name FROM events WHERE id >= ? ORDER BY id",
                ResultSet.TYPE_SCROLL_INSENSITIVE,
                ResultSet.CONCUR_READ_ONLY)) {
      assertThat(p.getResultSetType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
      p.setLong(1, 3);
      try (ResultSet rs = p.executeQuery()) {
        assertThat(rs.last()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("five");
        assertThat(rs.getRow()).isEqualTo(3);
        assertThat(rs.absolute(1)).isTrue();
        assertThat(rs.getString(1)).isEqualTo("three");
      }
      p.setLong(1, 5);
      try (ResultSet rs = p.executeQuery()) {
        assertThat(rs.last()).isTrue();
        assertThat(rs.getRow()).isEqualTo(1);
        assertThat(rs.isFirst()).isTrue();
      }
    }
  }

  @Test
  void showAndMetadataTablesScrollLikeQueries() throws SQLException {
    try (Connection c = connect();
        Statement s = scrolling(c)) {
      s.execute("CREATE TABLE more (x INT)");
      try (ResultSet rs = s.executeQuery("SHOW TABLES")) {
        assertThat(rs.last()).isTrue();
        assertThat(rs.getRow()).isEqualTo(2);
        assertThat(rs.first()).isTrue();
      }
      long snapshots;
      try (Statement forward = c.createStatement();
          ResultSet rs = forward.executeQuery("SELECT COUNT(*) FROM \"events$snapshots\"")) {
        rs.next();
        snapshots = rs.getLong(1);
      }
      try (ResultSet rs = s.executeQuery("SELECT * FROM \"events$snapshots\"")) {
        assertThat(rs.last()).isTrue();
        assertThat(rs.getRow()).isEqualTo(snapshots).isPositive();
      }
    }
  }

  @Test
  void anEmptyResultHasNoFirstNorLastRow() throws SQLException {
    try (Connection c = connect();
        Statement s = scrolling(c);
        ResultSet rs = s.executeQuery("SELECT id FROM events WHERE id > 100")) {
      assertThat(rs.isBeforeFirst()).isFalse();
      assertThat(rs.last()).isFalse();
      assertThat(rs.first()).isFalse();
      assertThat(rs.isAfterLast()).isFalse();
      assertThat(rs.isLast()).isFalse();
      assertThat(rs.getRow()).isZero();
    }
  }

  @Test
  void maxRowsBoundsTheKeptRows() throws SQLException {
    try (Connection c = connect();
        Statement s = scrolling(c)) {
      s.setMaxRows(3);
      try (ResultSet rs = s.executeQuery("SELECT id FROM events ORDER BY id")) {
        assertThat(rs.last()).isTrue();
        assertThat(rs.getRow()).isEqualTo(3);
        assertThat(rs.getLong(1)).isEqualTo(3);
      }
    }
  }

  @Test
  void readingOffARowSaysWhereTheCursorIs() throws SQLException {
    try (Connection c = connect();
        Statement s = scrolling(c);
        ResultSet rs = s.executeQuery("SELECT id FROM events")) {
      assertThatThrownBy(() -> rs.getLong(1))
          .isInstanceOf(SQLException.class)
          .hasFieldOrPropertyWithValue("SQLState", "24000")
          .hasMessageContaining("before the first row");
      rs.afterLast();
      assertThatThrownBy(() -> rs.getString(1))
          .isInstanceOf(SQLException.class)
          .hasFieldOrPropertyWithValue("SQLState", "24000")
          .hasMessageContaining("after the last row");
    }
  }

  @Test
  void aScrollSensitiveOrUpdatableRequestIsDowngradedWithAWarning() throws SQLException {
    try (Connection c = connect()) {
      assertThat(c.getMetaData().supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE)).isTrue();
      assertThat(c.getMetaData().supportsResultSetType(ResultSet.TYPE_SCROLL_SENSITIVE)).isFalse();
      try (Statement s =
              c.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_UPDATABLE);
          ResultSet rs = s.executeQuery("SELECT id FROM events ORDER BY id")) {
        assertThat(c.getWarnings().getSQLState()).isEqualTo("01000");
        assertThat(c.getWarnings().getMessage()).contains("scroll-insensitive");
        assertThat(c.getWarnings().getNextWarning().getMessage()).contains("read-only");
        assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
        assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
        assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
        assertThat(rs.last()).isTrue();
        assertThatThrownBy(() -> rs.updateLong(1, 9))
            .isInstanceOf(SQLFeatureNotSupportedException.class)
            .hasFieldOrPropertyWithValue("SQLState", "0A000");
      }
    }
  }

  @Test
  void aForwardOnlyResultSetRefusesToScrollAndNamesTheTypeToAskFor() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id FROM events")) {
      assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
      assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
      assertThat(rs.next()).isTrue();
      assertThatThrownBy(rs::last)
          .isInstanceOf(SQLFeatureNotSupportedException.class)
          .hasFieldOrPropertyWithValue("SQLState", "0A000")
          .hasMessageContaining("TYPE_SCROLL_INSENSITIVE");
      assertThatThrownBy(rs::previous)
          .isInstanceOf(SQLFeatureNotSupportedException.class)
          .hasFieldOrPropertyWithValue("SQLState", "0A000");
    }
  }

  @Test
  void aResultTooLargeToKeepFailsWith53200AndTheConnectionGoesOn() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE thousand (n INT)");
      StringBuilder values = new StringBuilder("INSERT INTO thousand VALUES (0)");
      for (int i = 1; i < 1001; i++) {
        values.append(", (").append(i).append(')');
      }
      s.executeUpdate(values.toString());
      // 1,002,001 rows: one more thousand than a scroll-insensitive result set keeps.
      String pairs = "SELECT a.n, b.n FROM thousand a CROSS JOIN thousand b";
      try (Statement scroll = scrolling(c);
          ResultSet rs = scroll.executeQuery(pairs)) {
        assertThat(rs.absolute(1_000_000)).isTrue();
        assertThatThrownBy(rs::last)
            .isInstanceOf(SQLException.class)
            .hasFieldOrPropertyWithValue("SQLState", "53200")
            .hasMessageContaining("1000000 rows")
            .hasMessageContaining("TYPE_FORWARD_ONLY");
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM thousand")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(1001);
      }
    }
  }
}
