package dev.floe.tck.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rows stream to the {@code ResultSet} with bounded memory: a table whose decoded rows are more
 * than ten times the heap of a child JVM is read to the end there, every value through its typed
 * getter, with the shaded driver jar as the child's only library.
 */
class ScanMemoryTest {
  private static final String HEAP = "-Xmx64m";
  private static final long ROWS = 1_400_000;
  private static final int FILES = 14;

  @TempDir static Path temp;

  private static BigTable.Written written;
  private static Path classes;

  @BeforeAll
  static void writeATableTenTimesTheChildsHeap() throws Exception {
    written = BigTable.write(temp.resolve("lake").resolve("big"), ROWS, FILES);
    classes = temp.resolve("classes");
    Path target = classes.resolve(FullScan.class.getName().replace('.', '/') + ".class");
    Files.createDirectories(target.getParent());
    try (InputStream in = FullScan.class.getResourceAsStream("FullScan.class")) {
      Files.copy(in, target);
    }
  }

  @ParameterizedTest(name = "scanThreads={0}")
  @ValueSource(strings = {"default", "1"})
  void aTableTenTimesTheHeapIsScannedToTheLastRowInASmallHeap(String scanThreads) throws Exception {
    String url =
        "jdbc:floe:"
            + temp.resolve("lake")
            + (scanThreads.equals("default") ? "" : "?scanThreads=" + scanThreads);
    Path log = temp.resolve("child-" + scanThreads + ".log");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                HEAP,
                "-XX:+ExitOnOutOfMemoryError",
                "-Duser.timezone=UTC",
                "-cp",
                System.getProperty("floe.driver.jar") + File.pathSeparator + classes,
                FullScan.class.getName(),
                url)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean ended = child.waitFor(120, TimeUnit.SECONDS);
    if (!ended) {
      child.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(ended).as("the child ended; output:%n%s", output).isTrue();
    assertThat(child.exitValue()).as("exit status; output:%n%s", output).isZero();
    assertThat(output).doesNotContain("OutOfMemoryError");

    long maxMemory = number(output, "maxMemory (\\d+)");
    assertThat(written.decodedBytes()).isGreaterThanOrEqualTo(10 * maxMemory);
    assertThat(written.files()).isGreaterThan(1);
    assertThat(number(output, "rows (\\d+)")).isEqualTo(written.rows());
    assertThat(number(output, "checksum (-?\\d+)")).isEqualTo(written.checksum());
    System.out.printf(
        "ScanMemoryTest scanThreads=%s: heap %d bytes, %d rows, %d decoded bytes, %d bytes on"
            + " disk; %s%n",
        scanThreads, maxMemory, written.rows(), written.decodedBytes(), bytesOnDisk(), output);
  }

  private static long number(String output, String pattern) {
    Matcher m = Pattern.compile(pattern).matcher(output);
    assertThat(m.find()).as("%s in%n%s", pattern, output).isTrue();
    return Long.parseLong(m.group(1));
  }

  private static long bytesOnDisk() throws Exception {
    try (Stream<Path> walk = Files.walk(temp.resolve("lake"))) {
      return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
