package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ALTER TABLE t SET PROPERTIES} (Trino), {@code SET TBLPROPERTIES} and {@code UNSET
 * TBLPROPERTIES} (Spark) change a table's properties after CREATE under CREATE's rules, in one
 * commit; a refused change leaves the table's metadata as it was. Read back with Iceberg's own API.
 */
class TablePropertiesTest {
  @TempDir Path root;
  private Connection c;
  private Statement s;

  @BeforeEach
  void createTable() throws SQLException {
    c = DriverManager.getConnection("jdbc:floe:" + root);
    s = c.createStatement();
    s.execute("CREATE TABLE t (id INT, name VARCHAR)");
    s.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  }

  @org.junit.jupiter.api.AfterEach
  void close() throws SQLException {
    c.close();
  }

  private Table table() {
    return ReferenceWriter.load(root.resolve("t"));
  }

  private Map<String, String> properties() {
    return table().properties();
  }

  private long metadataFiles() throws IOException {
    try (Stream<Path> files = Files.list(root.resolve("t").resolve("metadata"))) {
      return files.filter(f -> f.toString().endsWith(".metadata.json")).count();
    }
  }

  private static void assertState(Throwable e, String state) {
    assertThat(e).isInstanceOf(SQLException.class);
    assertThat(((SQLException) e).getSQLState()).isEqualTo(state);
  }

  @Test
  void setTblPropertiesChangesHowTheNextWriteWorks() throws SQLException {
    assertThat(properties()).containsEntry("write.delete.mode", "merge-on-read");
    s.execute(
        "ALTER TABLE t SET TBLPROPERTIES ('write.delete.mode' = 'copy-on-write',"
            + " 'write.parquet.compression-codec' = 'zstd', 'owner' = 'sales')");
    assertThat(properties())
        .containsEntry("write.delete.mode", "copy-on-write")
        .containsEntry("write.parquet.compression-codec", "zstd")
        .containsEntry("owner", "sales");
    s.executeUpdate("DELETE FROM t WHERE id = 2");
    assertThat(table().currentSnapshot().summary()).containsEntry("total-delete-files", "0");
    assertThat(Sql.lines(c, "SELECT id FROM t ORDER BY id")).containsExactly("1", "3");
  }

  @Test
  void trinosSetPropertiesTakesItsOwnPropertyNames() throws SQLException {
    s.execute("ALTER TABLE t SET PROPERTIES format_version = 3");
    assertThat(((HasTableOperations) table()).operations().current().formatVersion()).isEqualTo(3);
    s.execute("ALTER TABLE t SET PROPERTIES ('write.update.mode' = 'copy-on-write')");
    assertThat(properties()).containsEntry("write.update.mode", "copy-on-write");
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM t")).containsExactly("3");
  }

  @Test
  void trinosIcebergConnectorPropertiesBecomeIcebergsOwn() throws SQLException {
    s.execute(
        "CREATE TABLE tr (id INT, name VARCHAR) WITH (format = 'PARQUET', format_version = 2,"
            + " object_store_layout_enabled = false, max_commit_retry = 7,"
            + " parquet_bloom_filter_columns = ARRAY['id', 'name'],"
            + " extra_properties = MAP(ARRAY['owner', 'write.target-file-size-bytes'],"
            + " ARRAY['sales', '1048576']))");
    Table tr = ReferenceWriter.load(root.resolve("tr"));
    assertThat(((HasTableOperations) tr).operations().current().formatVersion()).isEqualTo(2);
    assertThat(tr.properties())
        .containsEntry("write.format.default", "parquet")
        .containsEntry("write.object-storage.enabled", "false")
        .containsEntry("commit.retry.num-retries", "7")
        .containsEntry("write.parquet.bloom-filter-enabled.column.id", "true")
        .containsEntry("write.parquet.bloom-filter-enabled.column.name", "true")
        .containsEntry("owner", "sales")
        .containsEntry("write.target-file-size-bytes", "1048576")
        .doesNotContainKeys("format", "format_version", "extra_properties", "max_commit_retry");
    s.execute(
        "ALTER TABLE t SET PROPERTIES parquet_bloom_filter_columns = ARRAY['name'],"
            + " extra_properties = MAP(ARRAY['team'], ARRAY['data'])");
    assertThat(properties())
        .containsEntry("write.parquet.bloom-filter-enabled.column.name", "true")
        .containsEntry("team", "data");
    s.execute("ALTER TABLE t SET TBLPROPERTIES ('write.parquet.compression-codec' = 'zstd')");
    assertThat(properties()).containsEntry("write.parquet.compression-codec", "zstd");
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM t")).containsExactly("3");
  }

  @Test
  void trinosPropertiesFloeTakesAnotherWayOrNotAtAllAre0A000NamingThem()
      throws IOException, SQLException {
    long before = metadataFiles();
    for (String property :
        List.of(
            "partitioning = ARRAY['bucket(id, 4)']",
            "sorted_by = ARRAY['id']",
            "location = '/tmp/elsewhere'",
            "data_location = 's3://bucket/data'",
            "orc_bloom_filter_columns = ARRAY['id']",
            "orc_bloom_filter_fpp = 0.05")) {
      String name = property.substring(0, property.indexOf(' '));
      assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PROPERTIES " + property))
          .hasMessageContaining(name)
          .satisfies(e -> assertState(e, "0A000"));
      assertThatThrownBy(() -> s.execute("CREATE TABLE refused (id INT) WITH (" + property + ")"))
          .hasMessageContaining(name)
          .satisfies(e -> assertState(e, "0A000"));
    }
    assertThat(metadataFiles()).isEqualTo(before);
    assertThat(root.resolve("refused")).doesNotExist();
    assertThatThrownBy(
            () ->
                s.execute(
                    "ALTER TABLE t SET PROPERTIES extra_properties = MAP(ARRAY['a', 'b'],"
                        + " ARRAY['x'])"))
        .hasMessageContaining("extra_properties")
        .satisfies(e -> assertState(e, "42000"));
  }

  @Test
  void unsetRemovesAPropertyAndSaysWhenItIsMissing() throws SQLException {
    s.execute("ALTER TABLE t SET TBLPROPERTIES ('owner' = 'sales')");
    s.execute("ALTER TABLE t UNSET TBLPROPERTIES ('owner')");
    assertThat(properties()).doesNotContainKey("owner");
    assertThatThrownBy(() -> s.execute("ALTER TABLE t UNSET TBLPROPERTIES ('owner')"))
        .hasMessageContaining("owner")
        .satisfies(e -> assertState(e, "22023"));
    s.execute("ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('owner', 'nothing')");
    assertThatThrownBy(() -> s.execute("ALTER TABLE t UNSET TBLPROPERTIES ('format-version')"))
        .satisfies(e -> assertState(e, "22023"));
  }

  @Test
  void aValueCreateWouldRefuseIsRefusedAndNothingIsWritten() throws IOException, SQLException {
    long before = metadataFiles();
    Map<String, String> was = properties();
    assertThatThrownBy(
            () ->
                s.execute(
                    "ALTER TABLE t SET TBLPROPERTIES ('owner' = 'x', 'write.delete.mode' ="
                        + " 'sometimes')"))
        .hasMessageContaining("write.delete.mode")
        .satisfies(e -> assertState(e, "22023"));
    assertThatThrownBy(
            () ->
                s.execute(
                    "ALTER TABLE t SET TBLPROPERTIES ('write.parquet.compression-codec' ="
                        + " 'lzo')"))
        .satisfies(e -> assertState(e, "0A000"));
    assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PROPERTIES format_version = 1"))
        .as("a format version is never lowered")
        .satisfies(e -> assertState(e, "22023"));
    assertThatThrownBy(() -> s.execute("ALTER TABLE t SET PROPERTIES format_version = 9"))
        .satisfies(e -> assertState(e, "22023"));
    assertThat(metadataFiles()).isEqualTo(before);
    assertThat(properties()).isEqualTo(was);
  }

  @Test
  void aPathOutsideTheLakeIsRefused() throws IOException, SQLException {
    long before = metadataFiles();
    Path elsewhere = Files.createTempDirectory("floe-outside");
    assertThatThrownBy(
            () ->
                s.execute(
                    "ALTER TABLE t SET TBLPROPERTIES ('write.data.path' = '"
                        + elsewhere.toUri()
                        + "')"))
        .satisfies(e -> assertState(e, "42602"));
    assertThat(metadataFiles()).isEqualTo(before);
    try (Stream<Path> files = Files.list(elsewhere)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void insideATransactionWithChangesToTheTableItIsRefused() throws SQLException {
    c.setAutoCommit(false);
    s.executeUpdate("INSERT INTO t VALUES (4, 'd')");
    assertThatThrownBy(
            () ->
                s.execute(
                    "ALTER TABLE t SET TBLPROPERTIES ('write.delete.mode' = 'copy-on-write')"))
        .satisfies(e -> assertState(e, "25000"));
    c.commit();
    assertThat(properties()).containsEntry("write.delete.mode", "merge-on-read");
    assertThat(Sql.lines(c, "SELECT COUNT(*) FROM t")).containsExactly("4");
  }

  @Test
  void anUnknownTableIsNamedAndAPreparedAlterRuns() throws SQLException {
    assertThatThrownBy(() -> s.execute("ALTER TABLE tt SET TBLPROPERTIES ('owner' = 'x')"))
        .satisfies(e -> assertState(e, "42S02"));
    try (PreparedStatement p =
        c.prepareStatement("ALTER TABLE t SET TBLPROPERTIES ('owner' = 'prepared')")) {
      assertThat(p.execute()).isFalse();
    }
    assertThat(properties()).containsEntry("owner", "prepared");
  }
}
