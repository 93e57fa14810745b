package dev.floe.tck.write;

import static dev.floe.tck.write.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where the data is (docs/connecting.md, "URL forms"): whatever spelling of a location a user
 * writes in the URL, a table lands at exactly {@code <that place>/<table>}, its metadata names that
 * place in the canonical {@code file:/abs/path} form, nothing is escaped twice or left unescaped,
 * and nothing is written anywhere else.
 */
class WriteLocationTest {
  /** Folder names that a percent-escaping or URI bug would move or mangle. */
  private static final List<String> LAKE_NAMES =
      List.of("lake", "my lake", "données 湖", "100% sure");

  @TempDir Path sandbox;

  /** One way of writing a local location in a JDBC URL. */
  enum Spelling {
    ABSOLUTE_PATH,
    ABSOLUTE_PATH_WITH_TRAILING_SLASH,
    ABSOLUTE_PATH_WITH_DOT_SEGMENTS,
    FILE_ONE_SLASH,
    FILE_THREE_SLASHES,
    FILE_LOCALHOST,
    FILE_THREE_SLASHES_UNESCAPED;

    String of(Path place) {
      String p = place.toString();
      switch (this) {
        case ABSOLUTE_PATH:
          return p;
        case ABSOLUTE_PATH_WITH_TRAILING_SLASH:
          return p + "/";
        case ABSOLUTE_PATH_WITH_DOT_SEGMENTS:
          return place.getParent() + "/./nowhere/../" + place.getFileName();
        case FILE_ONE_SLASH:
          return "file:" + percentEscaped(p);
        case FILE_THREE_SLASHES:
          return "file://" + percentEscaped(p);
        case FILE_LOCALHOST:
          return "file://localhost" + percentEscaped(p);
        default:
          return "file://" + p;
      }
    }

    /** An unescaped {@code %} is not a URI; the raw spelling is only tried without one. */
    boolean appliesTo(String lakeName) {
      return this != FILE_THREE_SLASHES_UNESCAPED || !lakeName.contains("%");
    }
  }

  static Stream<Arguments> placesAndSpellings() {
    List<Arguments> cases = new ArrayList<>();
    for (String name : LAKE_NAMES) {
      for (Spelling spelling : Spelling.values()) {
        if (spelling.appliesTo(name)) {
          cases.add(Arguments.of(name, spelling));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("placesAndSpellings")
  void writesLandUnderExactlyTheFolderTheUrlNames(String lakeName, Spelling spelling)
      throws Exception {
    Path lake = Files.createDirectories(sandbox.resolve(lakeName));
    String location = spelling.of(lake);

    try (Connection c = Sql.connect(location)) {
      Sql.run(
          c,
          "CREATE TABLE t (id INT NOT NULL, name VARCHAR) PARTITIONED BY (bucket(2, id))",
          "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')",
          "DELETE FROM t WHERE id = 1",
          "UPDATE t SET name = 'z' WHERE id = 2");
      assertThat(Sql.rows(c, "SELECT id, name FROM t"))
          .containsExactly(row(2, "z"), row(3, "c"), row(4, "d"));
    }

    Path table = lake.resolve("t");
    assertThat(table.resolve("metadata/v1.metadata.json")).isRegularFile();
    assertThat(IcebergView.versions(table)).containsExactly(1, 2, 3, 4);
    assertTableIsWhollyInside(table, lake);
    assertThat(IcebergView.of(table).rows()).containsExactly(row(2, "z"), row(3, "c"), row(4, "d"));
    assertNothingMangledOrOutside(lake);
  }

  @Test
  void everySpellingOfOnePlaceOpensTheSameTables() throws Exception {
    Path lake = Files.createDirectories(sandbox.resolve("my lake").resolve("données 湖"));
    Sql.run(lake, "CREATE TABLE t (spelling VARCHAR)");
    List<String> written = new ArrayList<>();
    for (Spelling spelling : Spelling.values()) {
      try (Connection c = Sql.connect(spelling.of(lake))) {
        assertThat(Sql.update(c, "INSERT INTO t VALUES ('" + spelling + "')")).isEqualTo(1);
      }
      written.add(spelling.toString());
    }
    for (Spelling spelling : Spelling.values()) {
      try (Connection c = Sql.connect(spelling.of(lake))) {
        assertThat(Sql.rows(c, "SELECT spelling FROM t"))
            .as("rows seen through %s", spelling.of(lake))
            .hasSize(written.size());
      }
    }
    assertThat(FolderListing.entries(sandbox).stream().filter(e -> e.endsWith("/metadata/")))
        .containsExactly("my lake/données 湖/t/metadata/");
    assertThat(IcebergView.versions(lake.resolve("t"))).hasSize(1 + Spelling.values().length);
    assertTableIsWhollyInside(lake.resolve("t"), lake);
    assertNothingMangledOrOutside(lake);
  }

  @Test
  void tablesLandInFoldersNamedExactlyAsTheTableNames() throws Exception {
    Path lake = Files.createDirectories(sandbox.resolve("my lake"));
    try (Connection c = Sql.connect(lake)) {
      Sql.run(
          c,
          "CREATE TABLE \"My Table\" (id INT)",
          "INSERT INTO \"My Table\" VALUES (1)",
          "CREATE TABLE Sales.Orders (id INT)",
          "INSERT INTO sales.orders VALUES (2)",
          "CREATE TABLE \"Données\".\"Été 2024\" (id INT)",
          "INSERT INTO \"Données\".\"Été 2024\" VALUES (3)",
          "DELETE FROM \"My Table\" WHERE id = 1",
          "INSERT INTO \"My Table\" VALUES (4)");
      assertThat(Sql.rows(c, "SELECT id FROM \"My Table\"")).containsExactly(row(4));
    }
    for (String table : List.of("My Table", "sales/orders", "Données/Été 2024")) {
      assertTableIsWhollyInside(lake.resolve(table), lake.resolve(table).getParent());
    }
    assertThat(IcebergView.of(lake.resolve("sales/orders")).rows()).containsExactly(row(2));
    assertThat(IcebergView.of(lake.resolve("Données/Été 2024")).rows()).containsExactly(row(3));
    assertNothingMangledOrOutside(lake);
  }

  @Test
  void aRelativeLocationResolvesAgainstTheWorkingDirectoryOfTheProgram() throws Exception {
    Path workingDirectory = Files.createDirectories(sandbox.resolve("work dir"));
    Files.createDirectories(workingDirectory.resolve("rel lake"));
    ChildJvm child =
        ChildJvm.start(
            workingDirectory,
            logFolder(),
            SqlRunner.class,
            List.of(
                "jdbc:floe:rel lake",
                "CREATE TABLE t (id INT)",
                "INSERT INTO t VALUES (1)",
                "jdbc:floe:./rel lake",
                "INSERT INTO t VALUES (2)",
                "jdbc:floe:nowhere/../rel lake/",
                "INSERT INTO t VALUES (3)",
                "DELETE FROM t WHERE id = 3",
                "SELECT count(*) FROM t"));
    assertThat(child.await(120)).as(child.output()).isZero();
    assertThat(child.lines()).contains("row: 2");

    Path lake = workingDirectory.resolve("rel lake");
    Path table = lake.resolve("t");
    assertThat(IcebergView.versions(table)).containsExactly(1, 2, 3, 4, 5);
    assertTableIsWhollyInside(table, lake);
    assertThat(IcebergView.of(table).rows()).containsExactly(row(1), row(2));
    assertThat(Sql.rows(lake, "SELECT id FROM t")).containsExactly(row(1), row(2));
    assertNothingMangledOrOutside(lake);
  }

  /**
   * The table's metadata names its folder in canonical form, and every data and delete file of
   * every snapshot is a file under {@code <table>/data/} at the literal path the metadata names.
   */
  private static void assertTableIsWhollyInside(Path table, Path lake) {
    IcebergView view = IcebergView.of(table);
    assertThat(view.table().location()).isEqualTo("file:" + table);
    List<Path> files = new ArrayList<>();
    for (DataFile file : view.dataFiles()) {
      files.add(IcebergView.pathOf(file));
    }
    for (DeleteFile file : view.deleteFiles()) {
      files.add(IcebergView.pathOf(file));
    }
    assertThat(files).isNotEmpty();
    assertThat(files)
        .allSatisfy(f -> assertThat(f).startsWith(table.resolve("data")).isRegularFile());
    view.snapshots()
        .forEach(
            s ->
                assertThat(PlainFileIO.toFile(s.manifestListLocation()).toPath())
                    .startsWith(table.resolve("metadata"))
                    .isRegularFile());
    assertThat(view.table().properties()).doesNotContainKey("write.data.path");
    assertThat(lake.relativize(table).getNameCount()).isEqualTo(1);
  }

  /**
   * No folder named {@code file:} and no name with an escape sequence appear anywhere in the
   * sandbox or the test's working directory, and the sandbox holds nothing but the lake.
   */
  private void assertNothingMangledOrOutside(Path lake) {
    SortedSet<String> names = FolderListing.names(sandbox);
    assertThat(names).noneMatch(n -> n.startsWith("file:"));
    assertThat(names).noneMatch(n -> n.contains("%20") || n.contains("%C3") || n.contains("%25"));
    assertThat(names).noneMatch(n -> !isValidUtf8Name(n));
    String lakePrefix = sandbox.relativize(lake) + "/";
    assertThat(FolderListing.entries(sandbox))
        .allSatisfy(
            e ->
                assertThat(lakePrefix.startsWith(e) || e.startsWith(lakePrefix))
                    .as("%s is the lake, a folder on the way to it, or inside it", e)
                    .isTrue());
    assertThat(Path.of(System.getProperty("user.dir"), "file:")).doesNotExist();
  }

  private static boolean isValidUtf8Name(String name) {
    return new String(name.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(name)
        && name.indexOf('\uFFFD') < 0;
  }

  /** Escapes every byte of a path's UTF-8 form except unreserved characters and slashes. */
  static String percentEscaped(String path) {
    StringBuilder out = new StringBuilder();
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '/'
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return out.toString();
  }

  static Path logFolder() {
    return Path.of(System.getProperty("user.dir"), "target", "child-logs");
  }
}
