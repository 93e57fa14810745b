package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input gets the SQLState ARCHITECTURE.md, "Errors", promises and a message naming what is wrong; reading never
 * changes a single file of the lake.
 */
class BadInputTest {
  @TempDir Path temp;

  private static List<Record> rows() {
    return List.of(
        ReferenceWriter.record(ReferenceLake.LETTERS, java.time.LocalDate.of(2024, 1, 1), 1, "a"),
        ReferenceWriter.record(ReferenceLake.LETTERS, java.time.LocalDate.of(2024, 1, 2), 2, "b"));
  }

  private Table smallTable(Path root, String name, int version) {
    Table table =
        ReferenceWriter.create(
            root.resolve(name), ReferenceLake.LETTERS, PartitionSpec.unpartitioned(), version);
    ReferenceWriter.append(table, rows());
    return ReferenceWriter.load(root.resolve(name));
  }

  /** The failure of a query, reading every row: some failures only show while reading. */
  private static SQLException queryFails(String url, String sql) {
    SQLException failure =
        catchThrowableOfType(
            SQLException.class,
            () -> {
              try (Connection c = DriverManager.getConnection(url);
                  Statement s = c.createStatement();
                  ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                  rs.getObject(1);
                }
              }
            });
    assertThat((Throwable) failure).as("the failure of " + sql).isNotNull();
    return failure;
  }

  @Test
  void aMissingRootIs08001NamingTheLocation() {
    Path missing = temp.resolve("no such lake");
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:floe:" + missing))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("no such lake")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("08001");
    assertThat(missing).doesNotExist();
  }

  @Test
  void anUnknownTableIs42S02NamingTheTable() {
    SQLException e = queryFails(ReferenceLake.shared().url(), "SELECT * FROM no_such_table");
    assertThat(e.getSQLState()).isEqualTo("42S02");
    assertThat(e.getMessage()).containsIgnoringCase("no_such_table");
  }

  @Test
  void anUnknownColumnIs42S22NamingTheColumn() {
    SQLException e =
        queryFails(ReferenceLake.shared().url(), "SELECT no_such_column FROM stacked_deletes_v2");
    assertThat(e.getSQLState()).isEqualTo("42S22");
    assertThat(e.getMessage()).containsIgnoringCase("no_such_column");
  }

  @Test
  void aCorruptMetadataFileIs58030NamingTheFile() throws Exception {
    smallTable(temp, "t", 2);
    Path latest = temp.resolve("t/metadata/v2.metadata.json");
    assertThat(latest).isRegularFile();
    Files.writeString(latest, "{ this is not table metadata");
    SQLException e = queryFails("jdbc:floe:" + temp, "SELECT * FROM t");
    assertThat(e.getSQLState()).isEqualTo("58030");
    assertThat(e.getMessage()).contains("v2.metadata.json");
  }

  @Test
  void aDeletedDataFileIs58030NamingTheFile() throws Exception {
    Table table = smallTable(temp, "t", 2);
    DataFile data = table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
    Path file = Path.of(java.net.URI.create(data.location()));
    Files.delete(file);
    SQLException e = queryFails("jdbc:floe:" + temp, "SELECT * FROM t");
    assertThat(e.getSQLState()).isEqualTo("58030");
    assertThat(e.getMessage()).contains(file.getFileName().toString());
  }

  @Test
  void aDeletedDeleteFileIs58030NamingTheFile() throws Exception {
    Table table = smallTable(temp, "t", 2);
    DataFile data = table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
    DeleteFile deletes = ReferenceWriter.positionDelete(table, data, 0);
    Path file = Path.of(java.net.URI.create(deletes.location()));
    Files.delete(file);
    SQLException e = queryFails("jdbc:floe:" + temp, "SELECT * FROM t");
    assertThat(e.getSQLState()).isEqualTo("58030");
    assertThat(e.getMessage()).contains(file.getFileName().toString());
  }

  @Test
  void aTruncatedDataFileIs58030NamingTheFile() throws Exception {
    Table table = smallTable(temp, "t", 2);
    DataFile data = table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
    Path file = Path.of(java.net.URI.create(data.location()));
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
    SQLException e = queryFails("jdbc:floe:" + temp, "SELECT * FROM t");
    assertThat(e.getSQLState()).isEqualTo("58030");
    assertThat(e.getMessage()).contains(file.getFileName().toString());
  }

  @Test
  void readingEveryReferenceTableChangesNoFileOfTheLake() throws Exception {
    ReferenceLake lake = ReferenceLake.shared();
    TreeMap<String, String> before = Sql.snapshotOfFiles(lake.root());
    try (Connection c = DriverManager.getConnection(lake.url());
        Statement s = c.createStatement()) {
      for (ReferenceTable table : lake.tables()) {
        try (ResultSet rs = s.executeQuery("SELECT * FROM " + table.sql())) {
          while (rs.next()) {
            rs.getObject(1);
          }
        }
        Sql.explain(c, "SELECT count(*) FROM " + table.sql() + " WHERE 1 = 1");
      }
      try (ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
        while (rs.next()) {
          rs.getString("TABLE_NAME");
        }
      }
      try (ResultSet rs = c.getMetaData().getColumns(null, null, "%", "%")) {
        while (rs.next()) {
          rs.getString("COLUMN_NAME");
        }
      }
    }
    assertThat(Sql.snapshotOfFiles(lake.root())).isEqualTo(before);
  }
}
