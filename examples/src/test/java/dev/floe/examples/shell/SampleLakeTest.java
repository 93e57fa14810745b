package dev.floe.examples.shell;

import static dev.floe.examples.LakeFiles.assertTableLaidOut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.examples.LakeFiles;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Quick start as a user runs it, minus the build: {@code floe} with no arguments and standard
 * input at end of file, in a JVM of its own, writes the sample lake, prints the demo's rows and
 * exits 0.
 */
class SampleLakeTest {
  @TempDir static Path temp;
  static Path lake;
  static String out;
  static String err;
  static int status;

  @BeforeAll
  static void runTheShellWithNoArgumentsAndNoInput() throws Exception {
    lake = temp.resolve("sample lake");
    Path stdout = temp.resolve("stdout.txt");
    Path stderr = temp.resolve("stderr.txt");
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + FloeShell.SAMPLE_LAKE_PROPERTY + "=" + lake,
                "-cp",
                System.getProperty("java.class.path"),
                FloeShell.class.getName())
            .redirectInput(new File("/dev/null"))
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
    status = process.exitValue();
    out = Files.readString(stdout, StandardCharsets.UTF_8);
    err = Files.readString(stderr, StandardCharsets.UTF_8);
  }

  @Test
  void exitsZeroAfterTheDemoAtEndOfInput() {
    assertThat(status).as(err).isZero();
    assertThat(err).contains("Writing the sample lake into " + lake).contains("Sample lake ready");
  }

  @Test
  void theDemoPrintsRealRowsOfAJoinAPlanAndTheRowsLeftAfterDeletes() {
    assertThat(out)
        .contains("Demo: three queries on the sample lake")
        .containsPattern("\\|\\s+name\\s+\\|\\s+country\\s+\\|\\s+orders\\s+\\|\\s+revenue\\s+\\|")
        .contains("5 rows selected")
        .containsPattern("LakeTableScan\\(table=\\[\\[main, orders]].*filter=\\[.*order_date")
        .contains("| delivered |", "| paid ", "| shipped ")
        .doesNotContain("| cancelled");
  }

  @Test
  void theSampleTablesAreIcebergTablesInTheNamedFolder() {
    for (String table : List.of("customers", "products", "orders", "order_items")) {
      assertTableLaidOut(lake, table, temp);
    }
    assertThat(lake.resolve(SampleLake.INCOMPLETE_MARKER)).doesNotExist();
    assertThat(LakeFiles.currentMetadata(lake, "orders").spec().fields())
        .singleElement()
        .satisfies(field -> assertThat(field.transform().toString()).isEqualTo("month"));
  }

  @Test
  void someRowsAreAlreadyDeletedWithPositionDeletesAndWholePartitions() throws Exception {
    assertThat(LakeFiles.currentMetadata(lake, "orders").currentSnapshot().summary())
        .hasEntrySatisfying(
            "total-position-deletes", n -> assertThat(Long.parseLong(n)).isPositive());
    try (Connection connection = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement statement = connection.createStatement()) {
      assertThat(count(statement, "SELECT COUNT(*) FROM orders WHERE status = 'cancelled'"))
          .isZero();
      assertThat(
              count(statement, "SELECT COUNT(*) FROM orders WHERE order_date < DATE '2024-01-01'"))
          .isZero();
      assertThat(count(statement, "SELECT COUNT(*) FROM orders"))
          .isBetween(300L, SampleLake.ORDERS - 1L);
      assertThat(
              count(
                  statement,
                  "SELECT COUNT(*) FROM order_items i LEFT JOIN orders o ON o.id = i.order_id"
                      + " WHERE o.id IS NULL"))
          .isZero();
      assertThat(count(statement, "SELECT COUNT(*) FROM customers"))
          .isEqualTo(SampleLake.CUSTOMERS);
    }
  }

  @Test
  void aSecondRunOpensTheExistingLakeWithoutWritingIt() throws Exception {
    long version = LakeWatcher.currentVersion(lake.resolve("orders").resolve("metadata"));

    FloeShellTest.Run run = runOnSampleLake("-e", "SELECT COUNT(*) AS products FROM products");

    assertThat(run.status()).isZero();
    assertThat(run.err()).doesNotContain("Writing the sample lake");
    assertThat(run.out()).contains("| 12       |");
    assertThat(LakeWatcher.currentVersion(lake.resolve("orders").resolve("metadata")))
        .isEqualTo(version);
  }

  private static FloeShellTest.Run runOnSampleLake(String... args) throws Exception {
    String before = System.getProperty(FloeShell.SAMPLE_LAKE_PROPERTY);
    System.setProperty(FloeShell.SAMPLE_LAKE_PROPERTY, lake.toString());
    try {
      return FloeShellTest.shell(args);
    } finally {
      if (before == null) {
        System.clearProperty(FloeShell.SAMPLE_LAKE_PROPERTY);
      } else {
        System.setProperty(FloeShell.SAMPLE_LAKE_PROPERTY, before);
      }
    }
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
