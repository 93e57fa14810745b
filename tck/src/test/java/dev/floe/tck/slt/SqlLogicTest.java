package dev.floe.tck.slt;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.SltTestFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SQLite's SQL Logic Test files, each on a fresh lake through the shaded driver: every query that
 * runs must answer exactly what SQLite answered, and every statement must succeed or fail as the
 * file says. A line per file reports passed, failed and skipped queries and the time taken.
 *
 * <p>Every build runs {@code test/select1.test} and every file in {@code test/evidence/}; the Maven
 * profile {@code slt} ({@code -Dslt.more=true}) adds the larger files below. {@code
 * -Dslt.files=test/a.test,test/b.test} runs other files of the suite instead.
 */
class SqlLogicTest {
  /** The files every build runs besides {@code test/evidence/}. */
  private static final List<String> CORE = List.of("test/select1.test");

  /** The files of the {@code slt} profile: about 41,000 queries. */
  private static final List<String> MORE =
      List.of(
          "test/select3.test",
          "test/random/aggregates/slt_good_0.test",
          "test/random/expr/slt_good_0.test",
          "test/random/groupby/slt_good_0.test",
          "test/random/select/slt_good_0.test");

  @TempDir Path lake;

  static Stream<String> files() {
    String chosen = System.getProperty("slt.files", "");
    if (!chosen.isBlank()) {
      return Stream.of(chosen.split(",")).map(String::strip);
    }
    return files(Boolean.getBoolean("slt.more")).stream();
  }

  /** The files every build runs, and with {@code more} those of the {@code slt} profile. */
  static List<String> files(boolean more) {
    List<String> files = new ArrayList<>(CORE);
    files.addAll(evidenceFiles());
    if (more) {
      files.addAll(MORE);
    }
    return files;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void everyRunnableQueryAnswersAsSqliteDoes(String file) throws Exception {
    OptionsParser.SuppliedOptions options =
        new OptionsParser(false, System.out, System.err).getOptions();
    SltTestFile test = new SltTestFile(file);
    test.parse(options);
    LakeExecutor.Outcome outcome = new LakeExecutor(options, lake).run(test, file);

    PrintStream out = System.out;
    out.println("SQL Logic Test " + outcome.summary());
    outcome.skips().forEach((why, count) -> out.println("  skipped " + count + ": " + why));
    outcome.failures().stream().limit(30).forEach(f -> out.println("  FAILED " + f));

    assertThat(outcome.failures()).as(file).isEmpty();
    // A file may be skipped whole (slt_lang_replace.test needs PRIMARY KEY and REPLACE), but
    // every file has something the runner read.
    assertThat(
            outcome.passed()
                + outcome.skipped()
                + outcome.statements()
                + outcome.statementsSkipped())
        .as("statements and queries read from " + file)
        .isPositive();
  }

  /** Every file in the suite's {@code test/evidence/} folder, read from the runner's jar. */
  static List<String> evidenceFiles() {
    URL folder =
        Objects.requireNonNull(
            Thread.currentThread().getContextClassLoader().getResource("test/evidence"));
    try (FileSystem jar = FileSystems.newFileSystem(jarOf(folder), Map.of());
        Stream<Path> list = Files.list(jar.getPath("test/evidence"))) {
      return list.map(Path::toString).map(p -> p.replaceFirst("^/", "")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static URI jarOf(URL resource) {
    String uri = resource.toString();
    try {
      return new URI(uri.substring(0, uri.indexOf("!/")));
    } catch (URISyntaxException e) {
      throw new IllegalStateException(uri, e);
    }
  }
}
