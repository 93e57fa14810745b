package dev.floe.examples.shell;

import static dev.floe.examples.LakeFiles.assertTableLaidOut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.examples.LakeFiles;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FloeShellTest {
  private static final Pattern COMMITTED =
      Pattern.compile("t: committed snapshot (-?\\d+) \\(append: 2 rows inserted; ");

  @TempDir Path temp;
  Path lake;

  @BeforeEach
  void makeLake() throws Exception {
    lake = temp.resolve("shell lake");
    Files.createDirectories(lake);
  }

  @Test
  void executeModePrintsRowsAffectedAndTheSnapshotCommitted() throws Exception {
    Run run =
        shell(
            lake.toString(),
            "-e",
            "CREATE TABLE t (id BIGINT NOT NULL, d DATE) PARTITIONED BY (month(d))",
            "-e",
            "INSERT INTO t VALUES (1, DATE '2024-01-31'), (2, DATE '2024-02-01')",
            "-e",
            "SELECT id, d FROM t ORDER BY id");

    assertThat(run.status).isZero();
    assertThat(run.err)
        .contains("t: created (metadata v1, no snapshot yet)")
        .contains("2 rows affected");
    Matcher committed = COMMITTED.matcher(run.err);
    assertThat(committed.find()).as(run.err).isTrue();
    long snapshot = LakeFiles.currentMetadata(lake, "t").currentSnapshot().snapshotId();
    assertThat(Long.parseLong(committed.group(1))).isEqualTo(snapshot);
    assertThat(run.err).contains("2 data files added; metadata v2)");
    assertThat(run.out).contains("| 1  | 2024-01-31 |").contains("| 2  | 2024-02-01 |");
    assertTableLaidOut(lake, "t", temp);
  }

  @Test
  void deletesAndUpdatesReportWhatTheirSnapshotChanged() throws Exception {
    shell(
        lake.toString(),
        "-e",
        "CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR) WITH ('format-version' = '2')",
        "-e",
        "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");

    Run run =
        shell(
            lake.toString(),
            "-e",
            "DELETE FROM t WHERE id = 2",
            "-e",
            "UPDATE t SET name = 'z' WHERE id = 3");

    assertThat(run.status).isZero();
    assertThat(run.err)
        .containsPattern(
            "t: committed snapshot -?\\d+ \\(\\w+: 1 row deleted; 1 delete file added; metadata v3\\)")
        .containsPattern(
            "t: committed snapshot -?\\d+ \\(\\w+: 1 row updated; 1 data file added, 1 delete file"
                + " added; metadata v4\\)");
    assertThat(run.err).contains("1 row affected").doesNotContain("data files added; metadata v3");
    assertTableLaidOut(lake, "t", temp);
  }

  @Test
  void scriptModeRunsEveryStatementOfTheFile() throws Exception {
    Path script = temp.resolve("load script.sql");
    Files.writeString(
        script,
        String.join(
            "\n",
            "-- a script as users write them",
            "CREATE TABLE sales.orders (id BIGINT NOT NULL, total DECIMAL(8, 2));",
            "INSERT INTO sales.orders VALUES (1, 10.00),",
            "  (2, 20.50);",
            "SELECT SUM(total) AS revenue FROM sales.orders;",
            ""));

    Run run = shell(lake.toString(), "-f", script.toString());

    assertThat(run.status).as(run.err).isZero();
    assertThat(run.out).contains("| 30.50   |");
    assertThat(run.err)
        .containsPattern("sales\\.orders: committed snapshot -?\\d+ \\(append: 2 rows inserted");
    assertTableLaidOut(lake, "sales.orders", temp);
  }

  @Test
  void aFailingStatementMakesTheExitStatusTwoAndNamesTheSqlState() throws Exception {
    Run run = shell(lake.toString(), "-e", "SELECT * FROM missing");

    assertThat(run.status).isEqualTo(2);
    assertThat(run.err).contains("42S02");
  }

  @Test
  void everyExecuteStatementRunsButOneFailureFailsTheRun() throws Exception {
    Run run =
        shell(
            lake.toString(),
            "-e",
            "SELECT * FROM missing",
            "-e",
            "CREATE TABLE after_the_failure (id BIGINT NOT NULL)");

    assertThat(run.status).isEqualTo(2);
    assertThat(run.err).contains("state=42S02").contains("after_the_failure: created");
  }

  @Test
  void aScriptStopsAtItsFirstFailingStatement() throws Exception {
    Path script = temp.resolve("failing.sql");
    Files.writeString(script, "SELECT * FROM missing;\nCREATE TABLE never (id BIGINT NOT NULL);\n");

    Run run = shell(lake.toString(), "-f", script.toString());

    assertThat(run.status).isEqualTo(2);
    assertThat(lake.resolve("never")).doesNotExist();
  }

  @Test
  void statementsFromStandardInputRunAsAScript() throws Exception {
    String statements =
        "CREATE TABLE piped (id BIGINT NOT NULL);\n"
            + "INSERT INTO piped VALUES (7);\n"
            + "SELECT id FROM piped;\n";

    Run run =
        shell(
            new java.io.ByteArrayInputStream(statements.getBytes(StandardCharsets.UTF_8)),
            lake.toString());

    assertThat(run.status).as(run.err).isZero();
    assertThat(run.out).contains("| 7  |");
    assertThat(run.err)
        .contains("3/3")
        .containsPattern("piped: committed snapshot -?\\d+ \\(append: 1 row inserted");
    assertTableLaidOut(lake, "piped", temp);
  }

  @Test
  void aLongInsertSelectReportsItsProgress() throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:floe:" + lake);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE source (id BIGINT NOT NULL, label VARCHAR)");
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO source VALUES (?, ?)")) {
        for (int i = 0; i < 200_000; i++) {
          insert.setLong(1, i);
          insert.setString(2, "row " + i);
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
    String before = System.getProperty(FloeShell.PROGRESS_PROPERTY);
    System.setProperty(FloeShell.PROGRESS_PROPERTY, "20");
    Run run;
    try {
      run =
          shell(
              lake.toString(),
              "-e",
              "CREATE TABLE copy (id BIGINT NOT NULL, label VARCHAR)",
              "-e",
              "INSERT INTO copy SELECT id, label FROM source");
    } finally {
      if (before == null) {
        System.clearProperty(FloeShell.PROGRESS_PROPERTY);
      } else {
        System.setProperty(FloeShell.PROGRESS_PROPERTY, before);
      }
    }

    assertThat(run.status).isZero();
    assertThat(run.err).contains("... INSERT running for ").contains("200,000 rows affected");
    assertTableLaidOut(lake, "copy", temp);
  }

  @Test
  void optimizeReportsProgressAndEachCommittedGroup() throws Exception {
    shell(
        lake.toString(),
        "-e",
        "CREATE TABLE t (id BIGINT NOT NULL, p INT) PARTITIONED BY (p)",
        "-e",
        "INSERT INTO t VALUES (1, 1), (2, 2)",
        "-e",
        "INSERT INTO t VALUES (3, 1), (4, 2)");
    String before = System.getProperty(FloeShell.PROGRESS_PROPERTY);
    System.setProperty(FloeShell.PROGRESS_PROPERTY, "1");
    Run run;
    try {
      run = shell(lake.toString(), "-e", "ALTER TABLE t EXECUTE optimize");
    } finally {
      if (before == null) {
        System.clearProperty(FloeShell.PROGRESS_PROPERTY);
      } else {
        System.setProperty(FloeShell.PROGRESS_PROPERTY, before);
      }
    }

    assertThat(run.status).as(run.err).isZero();
    assertThat(run.err).contains("... optimize running for ");
    assertThat(run.out + run.err)
        .contains("optimize t: group 1 of 2 (p=1) committed: 2 files")
        .contains("optimize t: group 2 of 2 (p=2) committed: 2 files");
  }

  @Test
  void optimizeOfFourPartitionsPrintsEachGroupsWarningOnce() throws Exception {
    shell(
        lake.toString(),
        "-e",
        "CREATE TABLE t (id BIGINT NOT NULL, p INT) PARTITIONED BY (p)",
        "-e",
        "INSERT INTO t VALUES (1, 1), (2, 2), (3, 3), (4, 4)",
        "-e",
        "INSERT INTO t VALUES (5, 1), (6, 2), (7, 3), (8, 4)");
    Run run = shell(lake.toString(), "-e", "ALTER TABLE t EXECUTE optimize");

    assertThat(run.status).as(run.err).isZero();
    String printed = run.out + run.err;
    for (int i = 1; i <= 4; i++) {
      for (String part : List.of("optimize t: group " + i + " of 4 (", "(p=" + i + ") committed")) {
        assertThat(printed.split(Pattern.quote(part), -1))
            .as("printed once: " + part + "\n" + printed)
            .hasSize(2);
      }
    }
  }

  @Test
  void aMetadataOnlyDeleteReportsTheRowsJdbcCounts() throws Exception {
    shell(
        lake.toString(),
        "-e",
        "CREATE TABLE t (id BIGINT NOT NULL, d DATE) PARTITIONED BY (d)",
        "-e",
        "INSERT INTO t VALUES (1, DATE '2024-01-01'), (2, DATE '2024-01-01'), (3, DATE '2024-01-02')");

    Run run = shell(lake.toString(), "-e", "DELETE FROM t WHERE d = DATE '2024-01-01'");

    assertThat(run.status).as(run.err).isZero();
    assertThat(run.err)
        .contains("2 rows affected")
        .containsPattern(
            "t: committed snapshot -?\\d+ \\(delete: 2 rows deleted; 1 data file removed; metadata"
                + " v3\\)")
        .doesNotContain("no data file written yet");
  }

  @Test
  void nullIsNullAndTimestampsKeepTheirDigits() throws Exception {
    Run run =
        shell(
            lake.toString(),
            "-e",
            "SELECT CAST(NULL AS VARCHAR) AS s, CAST(NULL AS INTEGER) AS n,"
                + " TIMESTAMP '2024-01-01 09:15:30.123456' AS ts, TIMESTAMP '2024-01-01 08:00:00'"
                + " AS whole, TIME '08:00:00' AS tm");

    assertThat(run.status).as(run.err).isZero();
    assertThat(run.out)
        .containsPattern(
            "\\| NULL +\\| NULL +\\| 2024-01-01 09:15:30.123456 +\\| 2024-01-01 08:00:00 +\\|"
                + " 08:00:00 +\\|")
        .doesNotContain("08:00:00.0");
  }

  @Test
  void explainAndShowCreateTablePrintWholeWhateverTheWidth() throws Exception {
    shell(
        lake.toString(),
        "-e",
        "CREATE TABLE t (id BIGINT NOT NULL, d DATE) PARTITIONED BY (month(d))");

    Run run =
        shell(
            lake.toString(),
            "--maxWidth=30",
            "-e",
            "SHOW CREATE TABLE t",
            "-e",
            "EXPLAIN PLAN FOR SELECT id FROM t WHERE id > 1 ORDER BY id");

    assertThat(run.status).as(run.err).isZero();
    assertThat(run.out)
        .contains("| CREATE TABLE \"t\" (")
        .containsPattern("\\| PARTITIONED BY \\(month\\(\"d\"\\)\\) +\\|")
        .containsPattern("\\|   'write.update.mode' = 'merge-on-read' +\\|")
        .containsPattern("\\| \\) +\\|")
        .containsPattern("\\| EnumerableSort\\(.*\\) +\\|")
        .containsPattern("\\|   LakeTableScan\\(.*filter=\\[id > 1\\]\\) +\\|");
    for (String line : run.out.split("\n")) {
      if (line.startsWith("|")) {
        assertThat(line).as("every line of a cell inside its box").endsWith(" |");
      }
    }
  }

  @Test
  void csvQuotesWithDoubleQuotesAsRfc4180Does() throws Exception {
    Run run =
        shell(
            lake.toString(),
            "--outputFormat=csv",
            "-e",
            "SELECT 1 AS a, 'x,y' AS c, 'q\"r' AS d, 'it''s' AS e");

    assertThat(run.status).as(run.err).isZero();
    assertThat(run.out)
        .contains("\"a\",\"c\",\"d\",\"e\"")
        .contains("\"1\",\"x,y\",\"q\"\"r\",\"it's\"");
  }

  @Test
  void anEmptyOptionValueIsTakenAsEmpty() throws Exception {
    Run run =
        shell(lake.toString(), "--nullValue=", "-e", "SELECT CAST(NULL AS INTEGER) AS n, 'a' AS s");

    assertThat(run.status).as(run.err).isZero();
    assertThat(run.out).containsPattern("\\| +\\| a \\|").doesNotContain("NULL");
    assertThat(run.err).doesNotContain("Usage");
    Run refused = shell(lake.toString(), "--maxWidth=", "-e", "SELECT 1");
    assertThat(refused.status).isEqualTo(1);
  }

  @Test
  void aMissingFolderSaysHowToCreateIt() throws Exception {
    Path missing = temp.resolve("new lake");

    Run run = shell(missing.toString(), "-e", "SELECT 1");

    assertThat(run.status).isEqualTo(1);
    assertThat(run.err).contains("does not exist").contains(missing + "?create=true");
    assertThat(missing).doesNotExist();
    Run created = shell(missing + "?create=true", "-e", "SELECT 1");
    assertThat(created.status).as(created.err).isZero();
    assertThat(missing).isDirectory();
  }

  @Test
  void anUnknownOptionPrintsFloesUsage() throws Exception {
    Run run = shell(lake.toString(), "--bogus");

    assertThat(run.status).isEqualTo(1);
    assertThat(run.err).contains("unknown option --bogus").contains("usage: floe [LOCATION]");
    assertThat(shell(lake.toString(), "-x", "y").err).contains("unknown option -x");
  }

  @Test
  void helpPrintsTheUsage() throws Exception {
    Run run = shell("--help");

    assertThat(run.status).isZero();
    assertThat(run.out).startsWith("usage: floe [LOCATION] [-e SQL]... [-f FILE]");
  }

  @Test
  void theCommandLineSplitsIntoLocationBatchAndSqllineOptions() {
    FloeShell.Arguments arguments =
        FloeShell.Arguments.parse(
            new String[] {
              "/data/lake", "-e", "SELECT 1", "--outputFormat=csv", "-f", "x.sql", "-n", "me"
            });

    assertThat(arguments.location()).isEqualTo("/data/lake");
    assertThat(arguments.batch()).isTrue();
    assertThat(arguments.help()).isFalse();
    assertThat(arguments.sqlline())
        .containsExactly("-e", "SELECT 1", "--outputFormat=csv", "-f", "x.sql", "-n", "me");
    assertThat(FloeShell.Arguments.parse(new String[] {"--nullValue=", "-e", "x"}).emptied())
        .containsExactly("nullValue");
    assertThat(FloeShell.Arguments.parse(new String[0]).location()).isNull();
    assertThat(FloeShell.Arguments.parse(new String[] {"a", "b"}).help()).isTrue();
  }

  @Test
  void theWatcherFindsTheLocalFolderOfEveryUrlSpelling() {
    Path here = Path.of("").toAbsolutePath();

    assertThat(WatchingDriver.localRoot("jdbc:floe:/data/my lake?readOnly=true"))
        .isEqualTo(Path.of("/data/my lake"));
    assertThat(WatchingDriver.localRoot("jdbc:floe:file:///data/my%20lake"))
        .isEqualTo(Path.of("/data/my lake"));
    assertThat(WatchingDriver.localRoot("jdbc:floe:file://localhost/data/lake"))
        .isEqualTo(Path.of("/data/lake"));
    assertThat(WatchingDriver.localRoot("jdbc:floe:./lake")).isEqualTo(here.resolve("./lake"));
    assertThat(WatchingDriver.localRoot("jdbc:floe:s3://bucket/lake")).isNull();
  }

  /** What one shell run printed, and its exit status. */
  record Run(int status, String out, String err) {}

  static Run shell(String... args) throws Exception {
    return shell(java.io.InputStream.nullInputStream(), args);
  }

  static Run shell(java.io.InputStream in, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = FloeShell.run(args, in, o, e);
    }
    return new Run(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
