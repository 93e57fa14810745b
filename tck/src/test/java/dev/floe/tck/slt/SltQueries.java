package dev.floe.tck.slt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.SltTestFile;

/**
 * The queries {@link SqlLogicTest} runs, for programs outside this package: the same files, each on
 * a fresh lake with the same statements run and the same queries skipped ({@link Unsupported}),
 * every other query handed to a {@link Visitor} instead of being run.
 */
public final class SltQueries {
  /** What is done with each query that the SQL Logic Test would run. */
  @FunctionalInterface
  public interface Visitor {
    /** Called with the file's connection, after the statements before the query ran. */
    void visit(Connection connection, String query) throws SQLException;
  }

  /** The queries of one file: visited, skipped as the test skips them, and the failed ones. */
  public record Visited(String file, int visited, int skipped, List<String> failures) {}

  private SltQueries() {}

  /**
   * The files every build's {@link SqlLogicTest} runs, and with {@code more} those the {@code slt}
   * profile adds.
   */
  public static List<String> files(boolean more) {
    return SqlLogicTest.files(more);
  }

  /** Runs the statements of one file on a fresh lake in a folder and visits each query. */
  public static Visited visit(String file, Path lake, Visitor visitor) throws SQLException {
    OptionsParser.SuppliedOptions options =
        new OptionsParser(false, System.out, System.err).getOptions();
    SltTestFile test;
    try {
      test = new SltTestFile(file);
      test.parse(options);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
    LakeExecutor.Outcome outcome = new LakeExecutor(options, lake, visitor).run(test, file);
    return new Visited(
        file, outcome.passed() + outcome.failed(), outcome.skipped(), outcome.failures());
  }
}
