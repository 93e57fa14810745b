package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.planner.session.PhaseTimes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A statement run again is not planned again, yet reads the snapshot current when it runs, and is
 * planned afresh when a table it reads changed its schema or was dropped and created anew.
 */
class PlanCacheTest extends LakeFixture {

  /** The rows of a query, and whether running it planned (validated, optimized or compiled). */
  private record Run(List<List<String>> rows, boolean planned, List<Integer> types) {}

  private static Run query(Connection c, String sql) throws SQLException {
    try (PhaseTimes.Recording recording = PhaseTimes.collect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return read(rs, recording);
    }
  }

  private static Run query(PreparedStatement ps) throws SQLException {
    try (PhaseTimes.Recording recording = PhaseTimes.collect();
        ResultSet rs = ps.executeQuery()) {
      return read(rs, recording);
    }
  }

  private static Run read(ResultSet rs, PhaseTimes.Recording recording) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    List<Integer> types = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      types.add(rs.getMetaData().getColumnType(i));
    }
    while (rs.next()) {
      List<String> row = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        row.add(rs.getString(i));
      }
      rows.add(row);
    }
    Map<PhaseTimes.Phase, Long> nanos = recording.nanos();
    boolean planned =
        nanos.get(PhaseTimes.Phase.VALIDATE) > 0
            || nanos.get(PhaseTimes.Phase.OPTIMIZE) > 0
            || nanos.get(PhaseTimes.Phase.COMPILE) > 0;
    return new Run(rows, planned, types);
  }

  private void table(Connection c) throws SQLException {
    execute(c, "CREATE TABLE t (x INT, y VARCHAR)");
    update(c, "INSERT INTO t VALUES (1, 'a'), (2, 'b')");
  }

  @Test
  void aStatementRunAgainIsNotPlannedAgainAndSeesNewCommits() throws SQLException {
    try (Connection reader = connect();
        Connection writer = connect()) {
      table(writer);
      Run first = query(reader, "SELECT COUNT(*) FROM t WHERE x > 0");
      assertThat(first.planned()).isTrue();
      assertThat(first.rows()).containsExactly(List.of("2"));
      Run again = query(reader, "SELECT COUNT(*) FROM t WHERE x > 0");
      assertThat(again.planned()).isFalse();
      assertThat(again.rows()).containsExactly(List.of("2"));

      update(writer, "INSERT INTO t VALUES (3, 'c')");
      Run after = query(reader, "SELECT COUNT(*) FROM t WHERE x > 0");
      assertThat(after.planned()).isFalse();
      assertThat(after.rows()).containsExactly(List.of("3"));
      assertThat(query(reader, "SELECT x FROM t ORDER BY x").rows())
          .containsExactly(List.of("1"), List.of("2"), List.of("3"));
      update(writer, "DELETE FROM t WHERE x = 2");
      Run deleted = query(reader, "SELECT x FROM t ORDER BY x");
      assertThat(deleted.planned()).isFalse();
      assertThat(deleted.rows()).containsExactly(List.of("1"), List.of("3"));
    }
  }

  @Test
  void aPreparedStatementRunAgainIsNotPlannedAgainAndSeesNewCommits() throws SQLException {
    try (Connection reader = connect();
        Connection writer = connect()) {
      table(writer);
      try (PreparedStatement ps = reader.prepareStatement("SELECT x, y FROM t ORDER BY x")) {
        assertThat(query(ps).rows()).hasSize(2);
        update(writer, "INSERT INTO t VALUES (3, 'c')");
        Run again = query(ps);
        assertThat(again.planned()).isFalse();
        assertThat(again.rows())
            .containsExactly(List.of("1", "a"), List.of("2", "b"), List.of("3", "c"));
      }
      // Preparing the same text again finds the kept plan.
      try (PhaseTimes.Recording recording = PhaseTimes.collect();
          PreparedStatement ps = reader.prepareStatement("SELECT x, y FROM t ORDER BY x")) {
        assertThat(recording.nanos().get(PhaseTimes.Phase.COMPILE)).isZero();
        assertThat(query(ps).rows()).hasSize(3);
      }
    }
  }

  @Test
  void parametersAreBoundAnewOnEachRun() throws SQLException {
    try (Connection c = connect()) {
      table(c);
      update(c, "INSERT INTO t VALUES (3, 'c'), (4, NULL)");
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM t WHERE x >= ?")) {
        for (int from = 0; from <= 5; from++) {
          ps.setInt(1, from);
          Run run = query(ps);
          assertThat(run.rows()).containsExactly(List.of(String.valueOf(Math.min(4, 5 - from))));
          assertThat(run.planned()).isFalse();
        }
      }
      for (int from = 0; from <= 5; from++) {
        assertThat(query(c, "SELECT COUNT(*) FROM t WHERE x >= " + from).rows())
            .containsExactly(List.of(String.valueOf(Math.min(4, 5 - from))));
      }
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
        for (int i = 10; i < 13; i++) {
          insert.setInt(1, i);
          insert.setString(2, "v" + i);
          assertThat(insert.executeUpdate()).isEqualTo(1);
        }
      }
      assertThat(query(c, "SELECT y FROM t WHERE x >= 10 ORDER BY x").rows())
          .containsExactly(List.of("v10"), List.of("v11"), List.of("v12"));
    }
  }

  @Test
  void anAddedColumnIsSeenByAStatementAndAPreparedStatement() throws SQLException {
    try (Connection reader = connect();
        Connection writer = connect()) {
      table(writer);
      PreparedStatement ps = reader.prepareStatement("SELECT * FROM t ORDER BY x");
      assertThat(query(reader, "SELECT * FROM t ORDER BY x").rows().get(0)).hasSize(2);
      assertThat(query(ps).rows().get(0)).hasSize(2);

      execute(writer, "ALTER TABLE t ADD COLUMN z DOUBLE");
      update(writer, "INSERT INTO t VALUES (3, 'c', 1.5)");
      Run statement = query(reader, "SELECT * FROM t ORDER BY x");
      assertThat(statement.planned()).isTrue();
      assertThat(statement.rows())
          .containsExactly(
              java.util.Arrays.asList("1", "a", null),
              java.util.Arrays.asList("2", "b", null),
              List.of("3", "c", "1.5"));
      Run prepared = query(ps);
      assertThat(prepared.rows()).isEqualTo(statement.rows());
      assertThat(ps.getMetaData().getColumnCount()).isEqualTo(3);
      ps.close();
    }
  }

  @Test
  void aTableDroppedAndCreatedWithAnotherTypeIsPlannedAfresh() throws SQLException {
    try (Connection reader = connect();
        Connection writer = connect()) {
      table(writer);
      try (PreparedStatement ps = reader.prepareStatement("SELECT x FROM t ORDER BY x")) {
        assertThat(query(ps).types()).containsExactly(Types.INTEGER);
        assertThat(query(reader, "SELECT x FROM t ORDER BY x").types())
            .containsExactly(Types.INTEGER);

        execute(writer, "DROP TABLE t");
        execute(writer, "CREATE TABLE t (x VARCHAR, y INT)");
        update(writer, "INSERT INTO t VALUES ('q', 7)");

        Run statement = query(reader, "SELECT x FROM t ORDER BY x");
        assertThat(statement.planned()).isTrue();
        assertThat(statement.types()).containsExactly(Types.VARCHAR);
        assertThat(statement.rows()).containsExactly(List.of("q"));
        Run prepared = query(ps);
        assertThat(prepared.types()).containsExactly(Types.VARCHAR);
        assertThat(prepared.rows()).containsExactly(List.of("q"));
      }
    }
  }

  @Test
  void aDroppedTableIsNotFound() throws SQLException {
    try (Connection reader = connect();
        Connection writer = connect()) {
      table(writer);
      try (PreparedStatement ps = reader.prepareStatement("SELECT x FROM t")) {
        query(reader, "SELECT x FROM t");
        query(ps);
        execute(writer, "DROP TABLE t");
        assertThatThrownBy(() -> query(reader, "SELECT x FROM t"))
            .isInstanceOf(SQLException.class)
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("42S02");
        assertThatThrownBy(() -> query(ps))
            .isInstanceOf(SQLException.class)
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("42S02");
      }
    }
  }

  @Test
  void aTransactionKeepsReadingItsSnapshot() throws SQLException {
    try (Connection reader = connect();
        Connection writer = connect()) {
      table(writer);
      query(reader, "SELECT COUNT(*) FROM t");
      reader.setAutoCommit(false);
      assertThat(query(reader, "SELECT COUNT(*) FROM t").rows()).containsExactly(List.of("2"));
      update(writer, "INSERT INTO t VALUES (3, 'c')");
      Run inside = query(reader, "SELECT COUNT(*) FROM t");
      assertThat(inside.planned()).isFalse();
      assertThat(inside.rows()).containsExactly(List.of("2"));
      update(reader, "INSERT INTO t VALUES (4, 'd')");
      assertThat(query(reader, "SELECT COUNT(*) FROM t").rows()).containsExactly(List.of("3"));
      reader.commit();
      assertThat(query(reader, "SELECT COUNT(*) FROM t").rows()).containsExactly(List.of("4"));
    }
  }

  @Test
  void theSameTextInAnotherSchemaOrAfterANewTableShadowsItIsAnotherPlan() throws SQLException {
    try (Connection c = connect()) {
      table(c);
      execute(c, "CREATE TABLE sales.orders (n INT)");
      update(c, "INSERT INTO sales.orders VALUES (42)");
      assertThat(query(c, "SELECT COUNT(*) FROM t").rows()).containsExactly(List.of("2"));
      c.setSchema("sales");
      // From schema sales, t is still the root's table until sales has its own.
      assertThat(query(c, "SELECT COUNT(*) FROM t").rows()).containsExactly(List.of("2"));
      execute(c, "CREATE TABLE sales.t (x INT)");
      Run shadowed = query(c, "SELECT COUNT(*) FROM t");
      assertThat(shadowed.planned()).isTrue();
      assertThat(shadowed.rows()).containsExactly(List.of("0"));
      c.setSchema("main");
      assertThat(query(c, "SELECT COUNT(*) FROM t").rows()).containsExactly(List.of("2"));
    }
  }
}
