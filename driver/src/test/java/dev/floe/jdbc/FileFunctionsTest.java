package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** read_parquet and read_csv through JDBC, on real files; loads checked with Iceberg's reader. */
class FileFunctionsTest extends LakeFixture {
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

  private static SQLException failure(Connection c, String sql) {
    try {
      rows(c, sql);
    } catch (SQLException e) {
      return e;
    }
    throw new AssertionError("expected a failure: " + sql);
  }

  private Path csv(Path folder, String name, String... lines) throws Exception {
    Files.createDirectories(folder);
    Path file = folder.resolve(name);
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    return file;
  }

  /** A Parquet file as other tools write it: no Iceberg field ids. */
  private Path plainParquet(Path file) throws Exception {
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message m { required int64 id; optional binary name (UTF8); optional double amount;"
                + " optional int32 dt (DATE); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file)).withType(schema).build()) {
      writer.write(
          groups
              .newGroup()
              .append("id", 1L)
              .append("name", "a")
              .append("amount", 1.5)
              .append("dt", 19877));
      Group second = groups.newGroup().append("id", 2L).append("amount", 2.5);
      writer.write(second);
    }
    return file;
  }

  @Test
  void missingFilesAre58030NamingThem() throws Exception {
    try (Connection c = connect()) {
      Path missing = outside.resolve("nope.csv");
      SQLException e = failure(c, "SELECT * FROM read_csv('" + missing + "')");
      assertThat(e.getSQLState()).isEqualTo("58030");
      assertThat(e.getMessage()).contains(missing.toString());
      e = failure(c, "SELECT * FROM read_parquet('" + outside + "/none/*.parquet')");
      assertThat(e.getSQLState()).isEqualTo("58030");
      assertThat(e.getMessage()).contains("none/*.parquet").contains("no file matches");
      // a file that is not Parquet
      Path text = csv(outside, "text.parquet", "hello");
      e = failure(c, "SELECT * FROM read_parquet('" + text + "')");
      assertThat(e.getSQLState()).isEqualTo("58030");
      assertThat(e.getMessage()).contains("text.parquet");
    }
  }

  @Test
  void aValueThatDoesNotFitNamesFileLineAndColumn() throws Exception {
    Path file = csv(outside, "bad.csv", "id,d", "1,2024-06-03", "2,2024-06-04", "x,2024-06-05");
    try (Connection c = connect()) {
      // the sample (first row only) says BIGINT; line 4 holds 'x'
      SQLException e = failure(c, "SELECT * FROM read_csv('" + file + "', sample_size => 1)");
      assertThat(e.getSQLState()).isEqualTo("22018");
      assertThat(e.getMessage()).contains("bad.csv").contains("line 4").contains("column id");
      Path dates = csv(outside, "dates.csv", "id,d", "1,2024-06-03", "2,2024-13-45");
      e = failure(c, "SELECT * FROM read_csv('" + dates + "', columns => 'id INT, d DATE')");
      assertThat(e.getSQLState()).isEqualTo("22007");
      assertThat(e.getMessage()).contains("dates.csv").contains("line 3");
      Path big = csv(outside, "big.csv", "n", "99999999999");
      e = failure(c, "SELECT * FROM read_csv('" + big + "', columns => 'n INT')");
      assertThat(e.getSQLState()).isEqualTo("22003");
      Path ragged = csv(outside, "ragged.csv", "a,b", "1,2", "3");
      e = failure(c, "SELECT * FROM read_csv('" + ragged + "')");
      assertThat(e.getSQLState()).isEqualTo("22018");
      assertThat(e.getMessage()).contains("line 3");
      // options: unknown, of the wrong type, not a literal
      assertThat(failure(c, "SELECT * FROM read_csv('" + file + "', nope => 1)").getSQLState())
          .isEqualTo("42000");
      assertThat(
              failure(c, "SELECT * FROM read_csv('" + file + "', header => 'yes')").getSQLState())
          .isEqualTo("42000");
      assertThat(failure(c, "SELECT * FROM read_csv(upper('x'))").getSQLState()).isEqualTo("42000");
      assertThat(
              failure(c, "SELECT * FROM read_parquet('" + file + "', header => true)")
                  .getSQLState())
          .isEqualTo("42000");
    }
  }

  @Test
  void externalAccessOffRefusesEveryPathOutsideTheLake() throws Exception {
    Path file = csv(outside, "a.csv", "id", "1");
    Path inside = csv(root.resolve("landing"), "b.csv", "id", "2");
    try (Connection c = connect("externalAccess=false")) {
      assertThat(failure(c, "SELECT * FROM read_csv('" + file + "')").getSQLState())
          .isEqualTo("42602");
      assertThat(failure(c, "SELECT * FROM read_csv('" + outside + "/*.csv')").getSQLState())
          .isEqualTo("42602");
      assertThat(failure(c, "SELECT * FROM read_csv('" + root + "/../x.csv')").getSQLState())
          .isEqualTo("42602");
      // a link inside the lake that leads out of it
      Files.createSymbolicLink(root.resolve("landing/link.csv"), file);
      assertThat(failure(c, "SELECT * FROM read_csv('landing/link.csv')").getSQLState())
          .isEqualTo("42602");
      // inside the lake it reads, by absolute or lake-relative path
      assertThat(rows(c, "SELECT id FROM read_csv('" + inside + "')"))
          .containsExactly(List.of("2"));
      assertThat(rows(c, "SELECT id FROM read_csv('landing/b.csv')")).containsExactly(List.of("2"));
    }
    try (Connection c = connect()) {
      assertThat(rows(c, "SELECT id FROM read_csv('" + file + "')")).containsExactly(List.of("1"));
    }
  }

  @Test
  void readCsvInfersTypesAndLoadsAGlobWithInsertSelect() throws Exception {
    Path day = outside.resolve("in/day=2024-06-03");
    csv(
        day,
        "part-1.csv",
        "id,name,amount,flag,d,ts",
        "1,Ann,10.5,true,2024-06-03,2024-06-03 10:00:00",
        "2,\"Bob, Jr.\",,false,2024-06-03,2024-06-03T11:30:00.123456");
    csv(day, "part-2.csv", "id,name,amount,flag,d,ts", "3,,7,true,2024-06-04,2024-06-04 00:00:00");
    csv(day, "notes.txt", "not matched");
    try (Connection c = connect()) {
      List<List<String>> types =
          rows(
              c,
              "SELECT id + 1, upper(name), amount * 2, NOT flag, d + INTERVAL '1' DAY, ts FROM"
                  + " read_csv('"
                  + day
                  + "/*.csv') AS r ORDER BY id");
      assertThat(types)
          .containsExactly(
              List.of("2", "ANN", "21.0", "false", "2024-06-04", "2024-06-03 10:00:00"),
              java.util.Arrays.asList(
                  "3", "BOB, JR.", null, "true", "2024-06-04", "2024-06-03 11:30:00.123456"),
              java.util.Arrays.asList(
                  "4", null, "14.0", "false", "2024-06-05", "2024-06-04 00:00:00"));
      execute(
          c,
          "CREATE TABLE t (id BIGINT, name VARCHAR, amount DOUBLE, flag BOOLEAN, d DATE, ts"
              + " TIMESTAMP)");
      assertThat(update(c, "INSERT INTO t SELECT * FROM read_csv('" + outside + "/in/*/*.csv')"))
          .isEqualTo(3);
      assertThat(icebergRows(table("t")))
          .containsExactly(
              "1|Ann|10.5|true|2024-06-03|2024-06-03T10:00",
              "2|Bob, Jr.|null|false|2024-06-03|2024-06-03T11:30:00.123456",
              "3|null|7.0|true|2024-06-04|2024-06-04T00:00");
      // joined with a table
      assertThat(
              rows(
                  c,
                  "SELECT t.id, r.name FROM t JOIN read_csv('"
                      + day
                      + "/part-1.csv') r ON t.id = r.id WHERE r.flag"))
          .containsExactly(List.of("1", "Ann"));
    }
  }

  @Test
  void readCsvOptionsAndAColumnList() throws Exception {
    Path file = csv(outside, "semi.csv", "# exported", "1;x;2024-06-03", "2;y;2024-06-04");
    try (Connection c = connect()) {
      assertThat(
              rows(
                  c,
                  "SELECT * FROM read_csv('"
                      + file
                      + "', header => false, skip_rows => 1, delimiter => ';') ORDER BY 1"))
          .containsExactly(List.of("1", "x", "2024-06-03"), List.of("2", "y", "2024-06-04"));
      execute(
          c,
          "CREATE TABLE typed AS SELECT * FROM read_csv('"
              + file
              + "', header => false, skip_rows => 1, delimiter => ';', columns => 'id INT, code"
              + " VARCHAR, d DATE')");
      Table typed = table("typed");
      assertThat(typed.schema().findField("id").type()).isEqualTo(Types.IntegerType.get());
      assertThat(typed.schema().findField("d").type()).isEqualTo(Types.DateType.get());
      assertThat(icebergRows(typed)).containsExactly("1|x|2024-06-03", "2|y|2024-06-04");
    }
  }

  @Test
  void csvHeaderCaseTwinsAndBlanksGetNamesNoOtherColumnBears() throws Exception {
    Path file = csv(outside, "twins.csv", "column2,a,A,,column1_2,a", "1,2,3,4,5,6");
    try (Connection c = connect();
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT * FROM read_csv('" + file + "')")) {
      List<String> labels = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        labels.add(rs.getMetaData().getColumnLabel(i));
      }
      assertThat(labels)
          .containsExactly("column2", "a", "column2_2", "column3", "column1_2", "column5");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("column2_2")).isEqualTo("3");
    }
  }

  @Test
  void aCsvColumnListNamingOneColumnTwiceInAnyCaseIs42S21() throws Exception {
    Path file = csv(outside, "two.csv", "1,2");
    try (Connection c = connect()) {
      SQLException e =
          failure(
              c,
              "SELECT * FROM read_csv('" + file + "', header => false, columns => 'x INT, X INT')");
      assertThat(e.getSQLState()).isEqualTo("42S21");
      assertThat(e.getMessage()).contains("\"X\"", "\"x\"", "read_csv columns");
    }
  }

  @Test
  void aCsvColumnListNamesTypesAsCreateTableNamesThem() throws Exception {
    Path file = csv(outside, "one.csv", "1");
    List<String> names =
        List.of(
            "BOOLEAN",
            "BOOL",
            "TINYINT",
            "INT",
            "BIGINT",
            "LONG",
            "REAL",
            "FLOAT",
            "FLOAT(53)",
            "DOUBLE PRECISION",
            "DECIMAL",
            "NUMERIC(10, 2)",
            "DATE",
            "TIMESTAMP",
            "VARCHAR(5)",
            "CHARACTER VARYING",
            "STRING",
            "TEXT");
    try (Connection c = connect()) {
      for (int i = 0; i < names.size(); i++) {
        String type = names.get(i);
        execute(c, "CREATE TABLE d" + i + " (c " + type + ")");
        execute(
            c,
            "CREATE TABLE f"
                + i
                + " AS SELECT * FROM read_csv('"
                + file
                + "', header => false, columns => 'c "
                + type
                + "') WHERE FALSE");
        assertThat(table("f" + i).schema().findField("c").type())
            .as(type)
            .isEqualTo(table("d" + i).schema().findField("c").type());
      }
      assertThat(table("d8").schema().findField("c").type()).isEqualTo(Types.DoubleType.get());
      assertThat(table("d7").schema().findField("c").type()).isEqualTo(Types.FloatType.get());
    }
  }

  @Test
  void aCsvColumnListRefusesTypesItCannotHoldOrRead() throws Exception {
    Path file = csv(outside, "one.csv", "1");
    try (Connection c = connect()) {
      for (String[] refused :
          List.of(
              new String[] {"DECIMAL(40, 2)", "out of range"},
              new String[] {"DECIMAL(5, 7)", "out of range"},
              new String[] {"DECIMAL(99999999999, 2)", "out of range"},
              new String[] {"TIME", "cannot read type TIME"},
              new String[] {"UUID", "cannot read type UUID"},
              new String[] {"TIMESTAMP WITH LOCAL TIME ZONE", "cannot read type"},
              new String[] {"NOSUCH", "unknown type NOSUCH"})) {
        SQLException e =
            failure(
                c,
                "SELECT * FROM read_csv('"
                    + file
                    + "', header => false, columns => 'c "
                    + refused[0]
                    + "')");
        assertThat(e.getSQLState()).as(refused[0]).isEqualTo("42000");
        assertThat(e.getMessage()).as(refused[0]).contains(refused[1]);
      }
    }
  }

  @Test
  void readParquetTakesTheSchemaFromTheFooterAndLoadsWithCreateTableAs() throws Exception {
    plainParquet(outside.resolve("plain.parquet"));
    try (Connection c = connect()) {
      assertThat(
              rows(
                  c,
                  "SELECT id, name, amount, dt FROM read_parquet('"
                      + outside
                      + "/*.parquet') ORDER BY id"))
          .containsExactly(
              List.of("1", "a", "1.5", "2024-06-03"),
              java.util.Arrays.asList("2", null, "2.5", null));
      assertThat(
              update(
                  c,
                  "CREATE TABLE p AS SELECT * FROM read_parquet('" + outside + "/plain.parquet')"))
          .isEqualTo(2);
      Table p = table("p");
      Schema schema = p.schema();
      assertThat(schema.findField("id").type()).isEqualTo(Types.LongType.get());
      assertThat(schema.findField("dt").type()).isEqualTo(Types.DateType.get());
      assertThat(icebergRows(p)).containsExactly("1|a|1.5|2024-06-03", "2|null|2.5|null");
      // Floe's own data files (with Iceberg field ids) read back the same
      assertThat(single(c, "SELECT sum(id) FROM read_parquet('" + root + "/p/data/**.parquet')"))
          .isEqualTo("3");
      // into an existing table, converted by the one assignment function
      execute(c, "CREATE TABLE q (id INT, name VARCHAR)");
      assertThat(
              update(
                  c,
                  "INSERT INTO q SELECT id, name FROM read_parquet('"
                      + outside
                      + "/plain.parquet')"))
          .isEqualTo(2);
      assertThat(icebergRows(table("q"))).containsExactly("1|a", "2|null");
    }
  }
}
