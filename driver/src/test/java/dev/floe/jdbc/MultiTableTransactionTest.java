package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.TreeSet;
import org.apache.iceberg.relocated.com.google.common.collect.Lists;
import org.junit.jupiter.api.Test;

class MultiTableTransactionTest extends LakeFixture {
  private int snapshots(String table) {
    return Lists.newArrayList(
            new FolderCatalog(LakeLocation.parse(root.toString()))
                .loadTable(List.of(table))
                .snapshots())
        .size();
  }

  @Test
  void aTransactionOverTwoTablesPublishesEachOnceOnCommit() throws Exception {
    try (Connection c = connect();
        Connection other = connect()) {
      execute(c, "CREATE TABLE a (id INT)");
      execute(c, "CREATE TABLE b (id INT)");
      c.setAutoCommit(false);
      update(c, "INSERT INTO a VALUES (1), (2)");
      update(c, "INSERT INTO b SELECT id * 10 FROM a");
      update(c, "DELETE FROM a WHERE id = 1");
      assertThat(single(other, "SELECT count(*) FROM a")).isEqualTo("0");
      c.commit();
      assertThat(rows(other, "SELECT id FROM a")).containsExactly(List.of("2"));
      assertThat(rows(other, "SELECT id FROM b ORDER BY id"))
          .containsExactly(List.of("10"), List.of("20"));
      assertThat(snapshots("a")).isEqualTo(1);
      assertThat(snapshots("b")).isEqualTo(1);
    }
  }

  @Test
  void aConflictOnOneTableLeavesEveryTableUnchanged() throws Exception {
    try (Connection c = connect();
        Connection other = connect()) {
      execute(c, "CREATE TABLE a (id INT)");
      execute(c, "CREATE TABLE b (id INT)");
      update(c, "INSERT INTO b VALUES (5)");
      c.setAutoCommit(false);
      update(c, "INSERT INTO a VALUES (1)");
      update(c, "DELETE FROM b WHERE id = 5");
      // Another connection deletes the same row of b first: b conflicts, so a must not publish
      // either, although it sorts first: every table is validated before any is published.
      update(other, "DELETE FROM b WHERE id = 5");
      TreeSet<String> before = files();
      assertThatThrownBy(c::commit)
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"))
          .hasMessageContaining("b");
      assertThat(single(other, "SELECT count(*) FROM a")).isEqualTo("0");
      assertThat(snapshots("a")).isEqualTo(0);
      assertThat(files()).isSubsetOf(before);
    }
  }
}
