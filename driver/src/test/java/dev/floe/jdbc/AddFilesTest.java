package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.collect.Lists;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ALTER TABLE t EXECUTE add_files on real Parquet files written without Iceberg. */
class AddFilesTest extends LakeFixture {
  @TempDir Path outside;

  private Table table(String name) {
    return new FolderCatalog(LakeLocation.parse(root.toString())).loadTable(List.of(name));
  }

  private static List<String> icebergRows(Table table) throws Exception {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < table.schema().columns().size(); i++) {
          values.add(String.valueOf(record.get(i)));
        }
        rows.add(String.join("|", values));
      }
    }
    rows.sort(null);
    return rows;
  }

  private static String state(Connection c, String sql) {
    try {
      execute(c, sql);
    } catch (SQLException e) {
      return e.getSQLState();
    }
    return null;
  }

  /** Writes rows (id, name) as a plain Parquet file, as other tools do. */
  private static Path parquet(Path file, String schemaText, long... ids) throws Exception {
    Files.createDirectories(file.getParent());
    MessageType schema = MessageTypeParser.parseMessageType(schemaText);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file)).withType(schema).build()) {
      for (long id : ids) {
        Group row = groups.newGroup();
        if (schemaText.contains("int32 id")) {
          row.append("id", (int) id);
        } else {
          row.append("id", id);
        }
        if (schema.containsField("name")) {
          row.append("name", "n" + id);
        }
        writer.write(row);
      }
    }
    return file;
  }

  private static final String ID_NAME =
      "message m { optional int64 id; optional binary name (UTF8); }";

  @Test
  void badInputAddsNothing() throws Exception {
    parquet(outside.resolve("wrong/a.parquet"), "message m { optional int32 id; }", 1);
    parquet(
        outside.resolve("extra/a.parquet"),
        "message m { optional int64 id; optional int64 other; }",
        1);
    parquet(outside.resolve("good/a.parquet"), ID_NAME, 1);
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id BIGINT, name VARCHAR)");
      execute(c, "CREATE TABLE req (id BIGINT NOT NULL, name VARCHAR)");
      execute(c, "CREATE TABLE part (id BIGINT, name VARCHAR) PARTITIONED BY (name)");
      String add = "ALTER TABLE t EXECUTE add_files(location => '";
      assertThat(state(c, add + outside + "/wrong', format => 'PARQUET')")).isEqualTo("42804");
      assertThat(state(c, add + outside + "/extra')")).isEqualTo("42804");
      assertThat(state(c, "ALTER TABLE req EXECUTE add_files(location => '" + outside + "/good')"))
          .isEqualTo("42804");
      assertThat(state(c, add + outside + "/good', format => 'ORC')")).isEqualTo("42000");
      assertThat(state(c, add + outside + "/missing')")).isEqualTo("58030");
      assertThat(state(c, "ALTER TABLE part EXECUTE add_files(location => '" + outside + "/good')"))
          .isEqualTo("0A000");
      assertThat(state(c, "ALTER TABLE t EXECUTE add_files(format => 'PARQUET')"))
          .isEqualTo("42000");
      assertThat(table("t").currentSnapshot()).isNull();
    }
    try (Connection c = connect("readOnly=true")) {
      assertThat(state(c, "ALTER TABLE t EXECUTE add_files(location => '" + outside + "/good')"))
          .isEqualTo("25006");
    }
    try (Connection c = connect("externalAccess=false")) {
      assertThat(state(c, "ALTER TABLE t EXECUTE add_files(location => '" + outside + "/good')"))
          .isEqualTo("42602");
    }
  }

  @Test
  void registersFilesWithoutRewritingThem() throws Exception {
    Path a = parquet(outside.resolve("in/a.parquet"), ID_NAME, 1, 2);
    Path b = parquet(outside.resolve("in/sub/b.parquet"), ID_NAME, 3);
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id BIGINT, name VARCHAR, extra INT)");
      update(c, "INSERT INTO t VALUES (0, 'zero', 7)");
      List<List<String>> counts =
          rows(
              c,
              "ALTER TABLE t EXECUTE add_files(location => '"
                  + outside
                  + "/in', format => 'PARQUET')");
      assertThat(counts).containsExactly(List.of("2", "3"));
      Table t = table("t");
      List<String> paths = new ArrayList<>();
      for (DataFile f : t.currentSnapshot().addedDataFiles(t.io())) {
        paths.add(f.location());
      }
      assertThat(paths).containsExactlyInAnyOrder("file:" + a, "file:" + b);
      assertThat(Lists.newArrayList(t.snapshots())).hasSize(2);
      // read through the table's name mapping, by Floe and by Iceberg's reader
      assertThat(rows(c, "SELECT id, name, extra FROM t ORDER BY id"))
          .containsExactly(
              List.of("0", "zero", "7"),
              java.util.Arrays.asList("1", "n1", null),
              java.util.Arrays.asList("2", "n2", null),
              java.util.Arrays.asList("3", "n3", null));
      assertThat(single(c, "SELECT count(*) FROM t WHERE name = 'n2'")).isEqualTo("1");
      assertThat(icebergRows(t)).containsExactly("0|zero|7", "1|n1|null", "2|n2|null", "3|n3|null");
      // the same files again are refused
      assertThat(state(c, "ALTER TABLE t EXECUTE add_files(location => '" + a + "')"))
          .isEqualTo("42000");
      // rewrites read the files by the mapping too: compaction, and copy-on-write updates
      rows(c, "ALTER TABLE t EXECUTE optimize");
      assertThat(icebergRows(table("t")))
          .containsExactly("0|zero|7", "1|n1|null", "2|n2|null", "3|n3|null");
      execute(
          c,
          "CREATE TABLE cow (id BIGINT, name VARCHAR) WITH ('write.update.mode' ="
              + " 'copy-on-write', 'write.delete.mode' = 'copy-on-write')");
      rows(c, "ALTER TABLE cow EXECUTE add_files(location => '" + a + "')");
      update(c, "UPDATE cow SET name = 'x' WHERE id = 1");
      assertThat(icebergRows(table("cow"))).containsExactly("1|x", "2|n2");
    }
  }
}
