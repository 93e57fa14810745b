package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code COUNT(*)} counts a data file from its manifest entry when no delete applies to it and the
 * filter selects it whole, without opening it; a file with position or equality deletes, or that
 * the filter selects only in part, is read. Files are removed from disk to prove which were opened:
 * a query that opened a removed file would fail with 58030.
 */
class CountFromMetadataTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "part", Types.IntegerType.get()),
          Types.NestedField.optional(3, "name", Types.StringType.get()));

  @TempDir Path lake;
  private Table table;
  private DataFile plain;
  private DataFile positionDeleted;
  private DataFile equalityDeleted;
  private DataFile afterTheEqualityDelete;

  @BeforeEach
  void writeTable() {
    table =
        ReferenceWriter.create(
            lake.resolve("events"),
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("part").build(),
            2);
    plain = append(0, 100, 1); // part 1: no delete ever applies
    positionDeleted = append(100, 250, 2); // part 2: 3 rows position-deleted
    ReferenceWriter.positionDelete(table, positionDeleted, 0, 7, 149);
    equalityDeleted = append(250, 300, 3); // part 3: ids 260..269 equality-deleted
    List<Record> keys = new ArrayList<>();
    for (long id = 260; id < 270; id++) {
      keys.add(ReferenceWriter.record(SCHEMA.select("id"), id));
    }
    ReferenceWriter.equalityDelete(
        table, table.spec(), ReferenceWriter.record(SCHEMA, 0L, 3, null), List.of("id"), keys);
    // Written after the equality delete, in its partition: the delete does not apply to it.
    afterTheEqualityDelete = append(265, 285, 3);
  }

  private DataFile append(long from, long to, int part) {
    List<Record> records = new ArrayList<>();
    for (long i = from; i < to; i++) {
      records.add(ReferenceWriter.record(SCHEMA, i, part, "event " + i));
    }
    List<DataFile> files = ReferenceWriter.append(table, records);
    assertThat(files).hasSize(1);
    return files.get(0);
  }

  private static void remove(DataFile file) throws Exception {
    Files.delete(Path.of(java.net.URI.create(file.location())));
  }

  private long count(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      long value = rs.getLong(1);
      assertThat(rs.next()).isFalse();
      return value;
    }
  }

  @Test
  void countStarMatchesTheRowsLeftAfterEveryKindOfDelete() throws Exception {
    long expected = 100 + (150 - 3) + (50 - 10) + 20;
    assertThat(count("SELECT COUNT(*) FROM events")).isEqualTo(expected);
    assertThat(count("SELECT SUM(1) FROM events")).isEqualTo(expected);
    assertThat(count("SELECT COUNT(*) FROM events WHERE part = 3")).isEqualTo(40 + 20);
    assertThat(count("SELECT COUNT(*) FROM events WHERE part = 2 AND id > 200")).isEqualTo(48);
    assertThat(count("SELECT COUNT(*) FROM events WHERE name LIKE 'event 1%'"))
        .isEqualTo(count("SELECT SUM(1) FROM events WHERE name LIKE 'event 1%'"));
  }

  @Test
  void filesNoDeleteAppliesToAreCountedWithoutBeingOpened() throws Exception {
    remove(plain);
    remove(afterTheEqualityDelete);
    long expected = 100 + (150 - 3) + (50 - 10) + 20;
    assertThat(count("SELECT COUNT(*) FROM events")).isEqualTo(expected);
    assertThat(count("SELECT COUNT(*) FROM events WHERE part = 1")).isEqualTo(100);
    // Reading values needs the files: these fail, naming the missing file.
    assertThatThrownBy(() -> count("SELECT SUM(1) FROM events"))
        .isInstanceOf(SQLException.class)
        .hasFieldOrPropertyWithValue("SQLState", "58030")
        .hasMessageContaining(".parquet");
    assertThatThrownBy(() -> count("SELECT COUNT(*) FROM events WHERE part = 1 AND id > 5"))
        .hasFieldOrPropertyWithValue("SQLState", "58030");
  }

  @Test
  void filesWithDeletesAreReadToBeCounted() throws Exception {
    remove(positionDeleted);
    assertThatThrownBy(() -> count("SELECT COUNT(*) FROM events WHERE part = 2"))
        .hasFieldOrPropertyWithValue("SQLState", "58030");
    assertThat(count("SELECT COUNT(*) FROM events WHERE part = 1")).isEqualTo(100);
    remove(equalityDeleted);
    assertThatThrownBy(() -> count("SELECT COUNT(*) FROM events WHERE part = 3"))
        .hasFieldOrPropertyWithValue("SQLState", "58030");
  }

  @Test
  void explainSaysTheScanAggregates() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT COUNT(*) FROM events")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1))
          .contains("aggregate=[[COUNT(*)]]")
          .contains("fromMetadata=[2 of 4]");
    }
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT COUNT(DISTINCT part) FROM events")) {
      // Calcite counts the groups of part; the scan finds them, from metadata where it can.
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1))
          .contains("EnumerableAggregate")
          .contains("aggregate=[groupBy [part]]")
          .contains("fromMetadata=[2 of 4]");
    }
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "EXPLAIN PLAN FOR SELECT COUNT(*) FROM events WHERE CHAR_LENGTH(name) > 3")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).doesNotContain("aggregate=");
    }
  }
}
