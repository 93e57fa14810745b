package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * File locations inside metadata come in every spelling other engines write ({@code /x/y}, {@code
 * file:/x/y}, {@code file:///x/y}, raw spaces) and all open; position deletes name data files
 * exactly as their manifests spell them, compared as strings, as Iceberg's rule is.
 */
class LocationSpellingTest {
  private static final Schema SCHEMA = ReferenceWriter.ID_NAME;

  @TempDir Path lake;

  private static List<Record> rows(long from, long to) {
    return ReferenceWriter.idNameRows(from, to);
  }

  private List<List<String>> floeRows(String sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + lake)) {
      return Sql.rows(c, sql, List.of(Types.LongType.get(), Types.StringType.get()));
    }
  }

  private static List<List<String>> canonical(List<Long> ids) {
    return ids.stream().map(id -> List.of(Long.toString(id), "'name " + id + "'")).toList();
  }

  @Test
  void positionDeletesMatchDataFilesExactlyAsTheirManifestsSpellThem() throws Exception {
    Path folder = lake.resolve("spelled");
    Table table = ReferenceWriter.create(folder, SCHEMA, PartitionSpec.unpartitioned(), 2);
    // Three data files of ten rows, added under three spellings of their locations.
    List<String> spelled = new ArrayList<>();
    var append = table.newAppend();
    for (int f = 0; f < 3; f++) {
      DataFile written = ReferenceWriter.writeData(table, rows(f * 10L, f * 10L + 10)).get(0);
      String absolute = Path.of(java.net.URI.create(written.location())).toString();
      String location =
          switch (f) {
            case 0 -> "file:" + absolute;
            case 1 -> "file://" + absolute;
            default -> absolute;
          };
      spelled.add(location);
      append.appendFile(DataFiles.builder(table.spec()).copy(written).withPath(location).build());
    }
    append.commit();
    String a = spelled.get(0);
    String b = spelled.get(1);
    String c = spelled.get(2);
    String absoluteA = a.substring("file:".length());
    String absoluteB = b.substring("file://".length());
    // One delete file: one row of each data file named as its manifest spells it, and rows named
    // in other spellings of the same files, which must not delete anything.
    Map<String, List<Long>> deletes = new LinkedHashMap<>();
    deletes.put(a, List.of(0L));
    deletes.put(b, List.of(1L));
    deletes.put(c, List.of(2L));
    deletes.put("file://" + absoluteA, List.of(5L));
    deletes.put(absoluteA, List.of(6L));
    deletes.put("file:" + absoluteB, List.of(7L));
    deletes.put("file:" + c, List.of(8L));
    deletes.put("file://" + c, List.of(9L));
    ReferenceWriter.positionDeletes(table, deletes);

    List<Long> expected = new ArrayList<>();
    for (long id = 0; id < 30; id++) {
      if (id != 0 && id != 11 && id != 22) {
        expected.add(id);
      }
    }
    ReferenceTable reference =
        new ReferenceTable("spelled", "spelled", folder, () -> ReferenceWriter.load(folder));
    assertThat(reference.expected())
        .as("Iceberg's own reader")
        .containsExactlyInAnyOrderElementsOf(canonical(expected));
    assertThat(floeRows("SELECT id, name FROM spelled"))
        .containsExactlyInAnyOrderElementsOf(canonical(expected));
  }

  @ParameterizedTest(name = "{0} in folder ''{1}''")
  @CsvSource({
    "'/x/y', plain_path",
    "'file:/x/y', short_uri",
    "'file:///x/y', long_uri",
    "'/x/y', plain path with space",
    "'file:/x/y', short uri with space",
    "'file:///x/y', long uri with space"
  })
  void tablesWhoseMetadataSpellsLocationsInAnyFormOpenAndRead(String spelling, String name)
      throws Exception {
    Path folder = lake.resolve(name);
    String absolute = folder.toAbsolutePath().toString();
    String location =
        switch (spelling) {
          case "/x/y" -> absolute;
          case "file:/x/y" -> "file:" + absolute;
          case "file:///x/y" -> "file://" + absolute;
          default -> throw new IllegalArgumentException(spelling);
        };
    ReferenceWriter.createAt(
        spelling.equals("/x/y") ? absolute : "file:" + absolute,
        SCHEMA,
        PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "2"));
    // Hadoop qualifies the locations it writes (file:/x/y); add the data files under the
    // spelling of the case, and respell the metadata JSON the same way.
    DataFile second = null;
    for (long from : List.of(0L, 5L)) {
      Table table = ReferenceWriter.load(folder);
      DataFile written = ReferenceWriter.writeData(table, rows(from, from + 5)).get(0);
      second =
          DataFiles.builder(table.spec())
              .copy(written)
              .withPath(
                  location + written.location().substring(written.location().indexOf("/data/")))
              .build();
      table.newAppend().appendFile(second).commit();
    }
    ReferenceWriter.positionDelete(ReferenceWriter.load(folder), second, 0, 4);
    if (!spelling.equals("file:/x/y")) {
      respellMetadata(folder, "file:" + absolute, location);
    }

    // The table really spells its locations that way: metadata and data files.
    String metadata = newestMetadata(folder);
    assertThat(metadata).contains("\"location\":\"" + location + "\"");
    assertThat(metadata).contains("\"manifest-list\":\"" + location + "/metadata/");
    try (CloseableIterable<FileScanTask> tasks =
        ReferenceWriter.load(folder).newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        assertThat(task.file().location()).startsWith(location + "/data/");
      }
    }

    List<Long> expected = List.of(0L, 1L, 2L, 3L, 4L, 6L, 7L, 8L);
    ReferenceTable reference =
        new ReferenceTable(name, name, folder, () -> ReferenceWriter.load(folder));
    assertThat(reference.expected())
        .as("Iceberg's own reader")
        .containsExactlyInAnyOrderElementsOf(canonical(expected));
    assertThat(floeRows("SELECT id, name FROM \"" + name + "\""))
        .containsExactlyInAnyOrderElementsOf(canonical(expected));
  }

  /**
   * Rewrites every metadata JSON file of a table so that locations spelled {@code from} read {@code
   * to}, and drops Hadoop's checksum sidecars of the rewritten files.
   */
  private static void respellMetadata(Path folder, String from, String to) throws IOException {
    try (Stream<Path> files = Files.list(folder.resolve("metadata"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".metadata.json")).toList()) {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(
            file,
            text.replace(from + "/", to + "/").replace("\"" + from + "\"", "\"" + to + "\""),
            StandardCharsets.UTF_8);
        Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
      }
    }
  }

  private static String newestMetadata(Path folder) throws IOException {
    Path metadata = folder.resolve("metadata");
    int version = 1;
    while (Files.exists(metadata.resolve("v" + (version + 1) + ".metadata.json"))) {
      version++;
    }
    return Files.readString(metadata.resolve("v" + version + ".metadata.json"));
  }
}
