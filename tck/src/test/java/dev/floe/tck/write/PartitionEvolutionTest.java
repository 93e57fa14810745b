package dev.floe.tck.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SortDirection;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partition evolution ({@code ALTER TABLE t ADD | DROP | REPLACE PARTITION FIELD}) and the write
 * order ({@code WRITE ORDERED BY}, {@code WRITE UNORDERED}), in Spark's syntax: the specs and
 * orders are read back with Iceberg's own API, and the rows after writes, deletes and updates over
 * files of two specs with Iceberg's generic reader.
 */
class PartitionEvolutionTest {
  @TempDir Path root;
  private Connection c;
  private Statement s;

  @BeforeEach
  void createTable() throws SQLException {
    c = DriverManager.getConnection("jdbc:floe:" + root);
    s = c.createStatement();
    s.execute("CREATE TABLE events (id INT, kind VARCHAR, d DATE) PARTITIONED BY (month(d))");
    s.execute(
        "INSERT INTO events VALUES (1, 'a', DATE '2024-01-05'), (2, 'b', DATE '2024-01-20'),"
            + " (3, 'a', DATE '2024-02-01'), (4, 'c', DATE '2024-03-09')");
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  private Table table() {
    return IcebergView.of(root.resolve("events")).table();
  }

  private static void assertState(ThrowingCallable call, String state, String... words) {
    assertThatThrownBy(call)
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(state))
        .satisfies(
            e -> {
              for (String word : words) {
                assertThat(e.getMessage()).contains(word);
              }
            });
  }

  private List<Integer> ids(String where) throws SQLException {
    List<Integer> ids = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT id FROM events " + where + " ORDER BY id")) {
      while (rs.next()) {
        ids.add(rs.getInt(1));
      }
    }
    return ids;
  }

  private List<Integer> referenceIds() {
    List<Integer> ids = new ArrayList<>();
    for (List<Object> row : IcebergView.of(root.resolve("events")).rows()) {
      ids.add((Integer) row.get(0));
    }
    ids.sort(null);
    return ids;
  }

  private Set<Integer> specsOfFiles() {
    Set<Integer> specs = new HashSet<>();
    for (DataFile file : IcebergView.of(root.resolve("events")).dataFiles()) {
      specs.add(file.specId());
    }
    return specs;
  }

  @Test
  void unknownColumnsTransformsAndFieldsAreRefusedAndChangeNothing() throws Exception {
    PartitionSpec before = table().spec();
    assertState(
        () -> s.execute("ALTER TABLE events ADD PARTITION FIELD bucket(4, nope)"), "42S22", "nope");
    assertState(
        () -> s.execute("ALTER TABLE events DROP PARTITION FIELD day(d)"), "42000", "events");
    assertState(
        () -> s.execute("ALTER TABLE events ADD PARTITION FIELD month(d)"), "42000", "events");
    assertState(
        () -> s.execute("ALTER TABLE events ADD PARTITION FIELD bucket(id)"), "42000", "width");
    // Hive's ADD PARTITION (without FIELD) is no partition evolution: a column named partition.
    assertState(() -> s.execute("ALTER TABLE events ADD PARTITION id"), "42000", "type");
    assertState(() -> s.execute("ALTER TABLE events WRITE ORDERED BY nope"), "42S22", "nope");
    assertState(() -> s.execute("ALTER TABLE nowhere ADD PARTITION FIELD id"), "42S02");
    assertState(() -> s.execute("ALTER TABLE \"events$files\" ADD PARTITION FIELD id"), "42809");
    assertThat(table().spec()).isEqualTo(before);
    assertThat(table().specs()).hasSize(1);
    assertThat(table().sortOrder().isUnsorted()).isTrue();
  }

  @Test
  void addedFieldsPartitionNewFilesWhileOldFilesKeepTheirSpec() throws Exception {
    s.execute("ALTER TABLE events ADD PARTITION FIELD bucket(4, ID) AS shard");
    Table table = table();
    assertThat(table.specs()).hasSize(2);
    assertThat(table.spec().fields())
        .extracting(org.apache.iceberg.PartitionField::name)
        .containsExactly("d_month", "shard");
    assertThat(table.spec().fields().get(1).transform().toString()).isEqualTo("bucket[4]");
    s.execute("INSERT INTO events VALUES (5, 'a', DATE '2024-01-07'), (6, 'b', DATE '2024-04-01')");
    assertThat(specsOfFiles()).containsExactlyInAnyOrder(0, table.spec().specId());
    assertThat(ids("")).containsExactly(1, 2, 3, 4, 5, 6).isEqualTo(referenceIds());
    // Pruning on either spec's fields gives the same rows as the reference reader.
    assertThat(ids("WHERE d < DATE '2024-02-01'")).containsExactly(1, 2, 5);
    assertThat(ids("WHERE id = 5")).containsExactly(5);
    assertThat(ids("WHERE id IN (1, 6) AND d >= DATE '2024-01-01'")).containsExactly(1, 6);
  }

  @Test
  void deleteAndUpdateWorkAcrossFilesOfTwoSpecs() throws Exception {
    s.execute("ALTER TABLE events REPLACE PARTITION FIELD d_month WITH day(d)");
    assertThat(table().spec().fields())
        .extracting(f -> f.transform().toString())
        .containsExactly("day");
    s.execute("INSERT INTO events VALUES (5, 'a', DATE '2024-01-07'), (6, 'b', DATE '2024-03-09')");
    assertThat(specsOfFiles()).hasSize(2);
    assertThat(s.executeUpdate("DELETE FROM events WHERE d = DATE '2024-03-09'")).isEqualTo(2);
    assertThat(s.executeUpdate("UPDATE events SET kind = 'z' WHERE d < DATE '2024-01-10'"))
        .isEqualTo(2);
    assertThat(s.executeUpdate("DELETE FROM events WHERE d >= DATE '2024-02-01'")).isEqualTo(1);
    assertThat(ids("")).containsExactly(1, 2, 5).isEqualTo(referenceIds());
    List<String> kinds = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT kind FROM events ORDER BY id")) {
      while (rs.next()) {
        kinds.add(rs.getString(1));
      }
    }
    assertThat(kinds).containsExactly("z", "b", "z");
  }

  @Test
  void droppingTheLastFieldLeavesNewFilesUnpartitioned() throws Exception {
    s.execute("ALTER TABLE events DROP PARTITION FIELD month(d)");
    assertThat(table().spec().isUnpartitioned()).isTrue();
    s.execute("INSERT INTO events VALUES (5, 'a', DATE '2024-01-07')");
    assertThat(ids("WHERE d < DATE '2024-02-01'")).containsExactly(1, 2, 5);
    assertThat(s.executeUpdate("DELETE FROM events WHERE id <> 3")).isEqualTo(4);
    assertThat(ids("")).containsExactly(3).isEqualTo(referenceIds());
    s.execute("ALTER TABLE events ADD PARTITION FIELD kind");
    assertThat(table().spec().fields())
        .extracting(org.apache.iceberg.PartitionField::name)
        .containsExactly("kind");
    s.execute("ALTER TABLE events DROP PARTITION FIELD KIND");
    assertThat(table().spec().isUnpartitioned()).isTrue();
  }

  @Test
  void writeOrderedByRecordsTheOrderAndWriteUnorderedRemovesIt() throws Exception {
    s.execute("ALTER TABLE events WRITE ORDERED BY kind DESC NULLS FIRST, bucket(8, id), D");
    SortOrder order = table().sortOrder();
    assertThat(order.fields()).hasSize(3);
    assertThat(order.fields().get(0).direction()).isEqualTo(SortDirection.DESC);
    assertThat(order.fields().get(0).nullOrder()).isEqualTo(NullOrder.NULLS_FIRST);
    assertThat(order.fields().get(1).transform().toString()).isEqualTo("bucket[8]");
    assertThat(order.fields().get(2).direction()).isEqualTo(SortDirection.ASC);
    assertThat(order.fields().get(2).nullOrder()).isEqualTo(NullOrder.NULLS_FIRST);
    assertThat(table().properties()).containsEntry("write.distribution-mode", "range");
    s.execute("INSERT INTO events VALUES (5, 'a', DATE '2024-01-07')");
    // Floe does not sort the rows it writes, so its files claim no order.
    for (DataFile file : IcebergView.of(root.resolve("events")).dataFiles()) {
      assertThat(file.sortOrderId()).isIn(null, 0);
    }
    assertThat(ids("")).containsExactly(1, 2, 3, 4, 5).isEqualTo(referenceIds());
    s.execute("ALTER TABLE events WRITE DISTRIBUTED BY PARTITION LOCALLY ORDERED BY id");
    assertThat(table().sortOrder().fields()).hasSize(1);
    assertThat(table().properties()).containsEntry("write.distribution-mode", "hash");
    s.execute("ALTER TABLE events WRITE UNORDERED");
    assertThat(table().sortOrder().isUnsorted()).isTrue();
    assertThat(table().properties()).containsEntry("write.distribution-mode", "none");
  }

  @Test
  void aColumnNamedPartitionCanStillBeDropped() throws Exception {
    s.execute("CREATE TABLE p (id INT, \"partition\" INT)");
    s.execute("ALTER TABLE p DROP COLUMN \"partition\"");
    try (ResultSet rs = s.executeQuery("SELECT * FROM p")) {
      assertThat(rs.getMetaData().getColumnCount()).isEqualTo(1);
    }
  }

  @Test
  void aLayoutChangeInsideATransactionWithPendingWritesToTheTableIs25000() throws Exception {
    c.setAutoCommit(false);
    s.executeUpdate("INSERT INTO events VALUES (5, 'a', DATE '2024-01-07')");
    assertState(() -> s.execute("ALTER TABLE events ADD PARTITION FIELD id"), "25000", "events");
    c.rollback();
    assertThat(table().specs()).hasSize(1);
    try (Connection other = DriverManager.getConnection("jdbc:floe:" + root)) {
      assertThat(other.createStatement().execute("ALTER TABLE events ADD PARTITION FIELD id"))
          .isFalse();
    }
    assertThat(table().specs()).hasSize(2);
  }
}
