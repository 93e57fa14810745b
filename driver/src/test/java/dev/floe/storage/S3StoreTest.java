package dev.floe.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The S3 store and its commit protocol against a real S3 server on 127.0.0.1. */
class S3StoreTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private final S3TestServer server = S3TestServer.get();

  private FolderCatalog catalog(String location) {
    return catalog(location, server.properties());
  }

  private static FolderCatalog catalog(String location, Properties properties) {
    return new FolderCatalog(S3Store.open(LakeLocation.parse(location), properties));
  }

  private static void create(FolderCatalog catalog, String... path) {
    catalog
        .newCreateTableTransaction(
            List.of(path),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of("commit.retry.num-retries", "1000", "commit.retry.min-wait-ms", "1"))
        .commitTransaction();
  }

  @Test
  void createPublishesVersionOneAndTheHintAtExactKeys() {
    String bucket = server.newBucket();
    try (FolderCatalog catalog = catalog("s3://" + bucket + "//my lake/")) {
      create(catalog, "sales", "big orders");
      assertThat(catalog.tableLocation(List.of("sales", "big orders")))
          .isEqualTo("s3://" + bucket + "/my lake/sales/big orders");
      assertThat(server.keys(bucket))
          .contains(
              "my lake/sales/big orders/metadata/v1.metadata.json",
              "my lake/sales/big orders/metadata/version-hint.text")
          .allSatisfy(key -> assertThat(key).doesNotContain("//").doesNotContain("%20"));
      assertThat(catalog.schemaNames(List.of())).containsExactly("sales");
      assertThat(catalog.tableNames(List.of("sales"))).containsExactly("big orders");
      assertThat(catalog.tableNames(List.of())).isEmpty();
      assertThat(catalog.operations(List.of("sales", "big orders")).version()).isEqualTo(1);
    }
  }

  @Test
  void hadoopSchemesNameTheSameLake() {
    String bucket = server.newBucket();
    try (FolderCatalog catalog = catalog("s3a://" + bucket + "/lake")) {
      assertThat(catalog.root()).isEqualTo("s3://" + bucket + "/lake");
      create(catalog, "t");
    }
    try (FolderCatalog catalog = catalog("s3n://" + bucket + "/lake/")) {
      assertThat(catalog.tableNames(List.of())).containsExactly("t");
      Table table = catalog.loadTable(List.of("t"));
      assertThat(
              table
                  .io()
                  .newInputFile("s3a://" + bucket + "/lake/t/metadata/v1.metadata.json")
                  .exists())
          .isTrue();
    }
  }

  @Test
  void writersRacingOnOneTableNeverLoseACommit() throws Exception {
    String bucket = server.newBucket();
    try (FolderCatalog catalog = catalog("s3://" + bucket + "/lake")) {
      create(catalog, "t");
    }
    int writers = 4;
    int commits = 5;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<?>> done = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      done.add(
          pool.submit(
              () -> {
                try (FolderCatalog catalog = catalog("s3://" + bucket + "/lake")) {
                  start.await();
                  for (int i = 0; i < commits; i++) {
                    Table table = catalog.loadTable(List.of("t"));
                    table.updateProperties().set("w" + writer + "-" + i, "x").commit();
                  }
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    try (FolderCatalog catalog = catalog("s3://" + bucket + "/lake")) {
      LakeTableOperations ops = catalog.operations(List.of("t"));
      assertThat(ops.version()).isEqualTo(1 + writers * commits);
      assertThat(ops.current().properties().keySet().stream().filter(k -> k.matches("w\\d+-\\d+")))
          .hasSize(writers * commits);
      for (int v = 1; v <= 1 + writers * commits; v++) {
        assertThat(server.exists(bucket, "lake/t/metadata/v" + v + ".metadata.json")).isTrue();
      }
    }
  }

  @Test
  void theStoreCheckLeavesNoProbeBehind() {
    String bucket = server.newBucket();
    try (FolderCatalog catalog = catalog("s3://" + bucket + "/lake")) {
      catalog.store().checkCanCommit();
      catalog.store().checkCanCommit();
    }
    assertThat(server.keys(bucket)).isEmpty();
  }

  @Test
  void dropDeletesOnlyTheTablesPrefix() {
    String bucket = server.newBucket();
    try (FolderCatalog catalog = catalog("s3://" + bucket + "/lake")) {
      create(catalog, "t");
      create(catalog, "t2");
      catalog.dropTable(List.of("t"), false);
      assertThat(catalog.tableNames(List.of())).containsExactly("t2");
      assertThat(server.keys(bucket)).allSatisfy(k -> assertThat(k).startsWith("lake/t2/"));
    }
  }

  @Test
  void aMissingBucketOrWrongCredentialsAre08001WithoutSecrets() {
    Properties wrong = server.properties();
    wrong.setProperty("s3.secret-access-key", "wrong" + S3TestServer.SECRET_KEY);
    String bucket = server.newBucket();
    assertThatThrownBy(() -> catalog("s3://" + bucket + "/lake", wrong))
        .isInstanceOf(FloeException.class)
        .satisfies(e -> assertThat(((FloeException) e).sqlState()).isEqualTo("08001"))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(S3TestServer.SECRET_KEY))
        .hasMessageContaining("credentials");
    assertThatThrownBy(() -> catalog("s3://no-such-bucket-floe/lake"))
        .satisfies(e -> assertThat(((FloeException) e).sqlState()).isEqualTo("08001"))
        .hasMessageContaining("does not exist");
    Properties unreachable = server.properties();
    unreachable.setProperty("s3.endpoint", "http://127.0.0.1:1");
    long started = System.nanoTime();
    assertThatThrownBy(() -> catalog("s3://" + bucket + "/lake", unreachable))
        .satisfies(e -> assertThat(((FloeException) e).sqlState()).isEqualTo("08001"))
        .hasMessageContaining("cannot be reached")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(S3TestServer.SECRET_KEY));
    assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(10_000);
  }
}
