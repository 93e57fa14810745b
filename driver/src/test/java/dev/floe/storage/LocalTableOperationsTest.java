package dev.floe.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalTableOperationsTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @TempDir Path root;

  private FolderCatalog catalog() {
    return new FolderCatalog(LakeLocation.parse(root.toString()));
  }

  private Table create(String name) {
    // Generous retries: the protocol test is about never losing a commit, not about contention.
    catalog()
        .newCreateTableTransaction(
            List.of(name),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of("commit.retry.num-retries", "1000", "commit.retry.min-wait-ms", "1"))
        .commitTransaction();
    return catalog().loadTable(List.of(name));
  }

  private static void setProperty(Table table, String key, String value) {
    table.updateProperties().set(key, value).commit();
  }

  @Test
  void createPublishesVersionOneAndTheHintAtTheExactPath() throws Exception {
    create("t");
    assertThat(root.resolve("t/metadata/v1.metadata.json")).isRegularFile();
    assertThat(Files.readString(root.resolve("t/metadata/version-hint.text")).trim())
        .isEqualTo("1");
    assertThat(catalog().operations(List.of("t")).version()).isEqualTo(1);
  }

  @Test
  void aMetadataFileIsParsedOnceAndAFileWrittenAgainUnderItsNameIsParsedAgain() throws Exception {
    Table table = create("t");
    TableMetadata first = catalog().operations(List.of("t")).current();
    assertThat(catalog().operations(List.of("t")).current()).isSameAs(first);
    setProperty(table, "a", "1");
    TableMetadata second = catalog().operations(List.of("t")).current();
    assertThat(second).isNotSameAs(first);
    assertThat(second.properties()).containsEntry("a", "1");
    assertThat(catalog().operations(List.of("t")).current()).isSameAs(second);

    // Another process rewrites v2 under the same name (a table dropped and created anew).
    Path v2 = root.resolve("t/metadata/v2.metadata.json");
    String text = Files.readString(v2);
    Files.delete(v2);
    String rewritten = text.replaceFirst("\"a\"\\s*:\\s*\"1\"", "\"a\":\"22\"");
    assertThat(rewritten).isNotEqualTo(text);
    Files.writeString(v2, rewritten);
    assertThat(catalog().operations(List.of("t")).current().properties()).containsEntry("a", "22");
  }

  @Test
  void droppingATableForgetsItsParsedMetadata() {
    create("t");
    TableMetadata before = catalog().operations(List.of("t")).current();
    catalog().dropTable(List.of("t"), false);
    create("t");
    TableMetadata after = catalog().operations(List.of("t")).current();
    assertThat(after).isNotSameAs(before);
    assertThat(after.uuid()).isNotEqualTo(before.uuid());
  }

  @Test
  void aStaleHintIsProbedForwardPastIt() throws Exception {
    Table table = create("t");
    setProperty(table, "a", "1");
    setProperty(table, "b", "2");
    Files.writeString(root.resolve("t/metadata/version-hint.text"), "1\n");
    LakeTableOperations ops = catalog().operations(List.of("t"));
    assertThat(ops.version()).isEqualTo(3);
    assertThat(ops.current().properties()).containsEntry("b", "2");
  }

  @Test
  void withoutAHintTheHighestNumericVersionWins() throws Exception {
    Table table = create("t");
    for (int i = 0; i < 10; i++) {
      setProperty(table, "k", Integer.toString(i));
    }
    Files.delete(root.resolve("t/metadata/version-hint.text"));
    LakeTableOperations ops = catalog().operations(List.of("t"));
    assertThat(ops.version()).isEqualTo(11); // v11 > v9, not the last in name order
    assertThat(ops.current().properties()).containsEntry("k", "9");
  }

  @Test
  void numberedUuidMetadataFilesAreUnderstood() throws Exception {
    Table table = create("t");
    setProperty(table, "k", "v");
    Path metadata = root.resolve("t/metadata");
    Files.move(
        metadata.resolve("v1.metadata.json"),
        metadata.resolve("00001-7b0f1a52-3c3e-4a43-9c31-0d0e9a2b8c11.metadata.json"));
    Files.move(
        metadata.resolve("v2.metadata.json"),
        metadata.resolve("00002-0b3a5d7e-1f2a-4c5d-8e9f-a1b2c3d4e5f6.metadata.json"));
    Files.delete(metadata.resolve("version-hint.text"));
    LakeTableOperations ops = catalog().operations(List.of("t"));
    assertThat(ops.version()).isEqualTo(2);
    assertThat(ops.current().properties()).containsEntry("k", "v");
  }

  @Test
  void gzipCompressedMetadataFilesAreReadAsIcebergNamesThem() throws Exception {
    // write.metadata.compression-codec = gzip: Iceberg's file-system tables name version N
    // vN.gz.metadata.json (older releases vN.metadata.json.gz), and the hint still says N.
    Table table = create("t");
    setProperty(table, "k", "v");
    setProperty(table, "k", "w");
    Path metadata = root.resolve("t/metadata");
    gzip(metadata.resolve("v2.metadata.json"), metadata.resolve("v2.metadata.json.gz"));
    gzip(metadata.resolve("v3.metadata.json"), metadata.resolve("v3.gz.metadata.json"));
    LakeTableOperations ops = catalog().operations(List.of("t"));
    assertThat(ops.version()).isEqualTo(3);
    assertThat(ops.current().properties()).containsEntry("k", "w");
    assertThat(ops.current().metadataFileLocation()).endsWith("/t/metadata/v3.gz.metadata.json");

    Files.delete(metadata.resolve("version-hint.text"));
    assertThat(catalog().operations(List.of("t")).version()).isEqualTo(3);
    assertThat(LakeTableOperations.versionOf("00007-0b3a5d7e-1f2a-4c5d.gz.metadata.json"))
        .isEqualTo(7);
    assertThat(LakeTableOperations.versionOf("v7.gz.metadata.json.gz")).isEqualTo(-1);
    assertThat(LakeTableOperations.versionOf("v7.metadata.json.zst")).isEqualTo(-1);

    // the next commit publishes v4 beside them, and reads on from it
    setProperty(catalog().loadTable(List.of("t")), "k", "x");
    assertThat(metadata.resolve("v4.metadata.json")).isRegularFile();
    assertThat(catalog().operations(List.of("t")).current().properties()).containsEntry("k", "x");
  }

  private static void gzip(Path from, Path to) throws Exception {
    try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(to))) {
      out.write(Files.readAllBytes(from));
    }
    Files.delete(from);
  }

  @Test
  void crcSidecarsTempFilesAndBackupsAreIgnored() throws Exception {
    create("t");
    Path metadata = root.resolve("t/metadata");
    Files.writeString(metadata.resolve(".v7.metadata.json.crc"), "x");
    Files.writeString(metadata.resolve("v9.metadata.json~"), "x");
    Files.writeString(metadata.resolve(".0f1e-uuid.metadata.json.tmp"), "{");
    Files.writeString(root.resolve("t/_SUCCESS"), "");
    assertThat(catalog().operations(List.of("t")).version()).isEqualTo(1);
    assertThat(catalog().tableNames(List.of())).containsExactly("t");
  }

  @Test
  void corruptMetadataIsAnIoErrorNamingTheFile() throws Exception {
    create("t");
    Files.writeString(root.resolve("t/metadata/v1.metadata.json"), "{ not json");
    assertThatThrownBy(() -> catalog().operations(List.of("t")).current())
        .isInstanceOf(FloeException.class)
        .hasMessageContaining("v1.metadata.json")
        .extracting(e -> ((FloeException) e).sqlState())
        .isEqualTo("58030");
  }

  @Test
  void aWriterWithStaleMetadataCannotReplaceAPublishedVersion() throws Exception {
    create("t");
    LakeTableOperations first = catalog().operations(List.of("t"));
    LakeTableOperations second = catalog().operations(List.of("t"));
    TableMetadata base1 = first.current();
    TableMetadata base2 = second.current();
    first.commit(base1, TableMetadata.buildFrom(base1).setProperties(Map.of("w", "1")).build());
    assertThatThrownBy(
            () ->
                second.commit(
                    base2, TableMetadata.buildFrom(base2).setProperties(Map.of("w", "2")).build()))
        .isInstanceOf(CommitFailedException.class);
    LakeTableOperations reader = catalog().operations(List.of("t"));
    assertThat(reader.version()).isEqualTo(2);
    assertThat(reader.current().properties()).containsEntry("w", "1");
    try (Stream<Path> files = Files.list(root.resolve("t/metadata"))) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")))
          .isEmpty();
    }
  }

  @Test
  void manyConcurrentWritersNeverLoseACommit() throws Exception {
    create("t");
    int writers = 8;
    int commitsEach = 10;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      futures.add(
          pool.submit(
              () -> {
                start.await();
                Table table = catalog().loadTable(List.of("t"));
                for (int i = 0; i < commitsEach; i++) {
                  table.updateProperties().set("w" + writer + "-" + i, "x").commit();
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    LakeTableOperations ops = catalog().operations(List.of("t"));
    assertThat(ops.version()).isEqualTo(1 + writers * commitsEach);
    for (int v = 1; v <= ops.version(); v++) {
      assertThat(root.resolve("t/metadata/v" + v + ".metadata.json")).isRegularFile();
    }
    long written =
        ops.current().properties().keySet().stream().filter(k -> k.matches("w\\d+-\\d+")).count();
    assertThat(written).isEqualTo(writers * commitsEach);
  }
}
