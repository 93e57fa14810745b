package dev.floe.tck.slt;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.hydromatic.sqllogictest.ISqlTestOperation;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.SltSqlStatement;
import net.hydromatic.sqllogictest.SltTestFile;
import net.hydromatic.sqllogictest.SqlTestQuery;
import net.hydromatic.sqllogictest.TestStatistics;
import net.hydromatic.sqllogictest.executors.JdbcExecutor;

/**
 * Hydromatic's JDBC executor on a fresh Floe lake, through {@link DriverManager}: it runs every
 * statement and query of one test file, skips what {@link Unsupported} lists (and what depends on
 * an object such a statement would have created), and records every failure with its SQLState. The
 * comparison of answers is the runner's own ({@link JdbcExecutor#validate}).
 */
final class LakeExecutor extends JdbcExecutor {
  /** A statement creating a named object, or writing to a table. */
  private static final Pattern MAKES =
      Pattern.compile(
          "(?is)^\\s*(?:CREATE\\s+(?:TEMP\\s+|TEMPORARY\\s+)?(?:VIEW|TRIGGER|TABLE)"
              + "|INSERT(?:\\s+OR\\s+\\w+)?\\s+INTO|REPLACE\\s+INTO|UPDATE|DELETE\\s+FROM)"
              + "\\s+(\\w+)\\b.*");

  /** A column declared with a character type in a CREATE TABLE. */
  private static final Pattern TEXT_COLUMN =
      Pattern.compile("(?i)[(,]\\s*(\\w+)\\s+(?:TEXT|VARCHAR|CHAR|CHARACTER|CLOB)\\b");

  /** The outcome of one file. */
  record Outcome(
      String file,
      int passed,
      int failed,
      int skipped,
      int statements,
      int statementsFailed,
      int statementsSkipped,
      long millis,
      Map<String, Integer> skips,
      List<String> failures) {
    int queries() {
      return passed + failed;
    }

    String summary() {
      return String.format(
          "%-40s %6d passed, %4d failed, %4d skipped; statements %5d run, %3d failed, %3d"
              + " skipped; %8.1f s (%.2f ms a query)",
          file,
          passed,
          failed,
          skipped,
          statements,
          statementsFailed,
          statementsSkipped,
          millis / 1000.0,
          queries() == 0 ? 0.0 : (double) millis / queries());
    }
  }

  /** Objects a skipped statement would have created or changed. */
  private final Set<String> missing = new HashSet<>();

  /** The names of the text columns that the tables created so far declared. */
  private final Set<String> textColumns = new HashSet<>();

  /** How many statements and queries were skipped, by reason. */
  private final Map<String, Integer> skips = new LinkedHashMap<>();

  private final List<String> failures = new ArrayList<>();

  /** What is done with each query instead of running it, or null to run and check it. */
  private final SltQueries.Visitor visitor;

  private int statements;
  private int statementsFailed;
  private int statementsSkipped;

  LakeExecutor(OptionsParser.SuppliedOptions options, Path lake) {
    this(options, lake, null);
  }

  /**
   * An executor that hands each query it would run to a visitor instead of running it (statements
   * still run); a query the visitor fails on is a failure.
   */
  LakeExecutor(OptionsParser.SuppliedOptions options, Path lake, SltQueries.Visitor visitor) {
    super(options, "jdbc:floe:" + lake + "?create=true", "", "");
    this.visitor = visitor;
  }

  @Override
  public void establishConnection() throws SQLException {
    connection = DriverManager.getConnection(dbUrl);
  }

  /** Drops every view with a plain {@code DROP VIEW}, as a user would. */
  @Override
  public void dropAllViews() throws SQLException {
    dropAll("VIEW");
  }

  /** Drops every table with a plain {@code DROP TABLE}, as a user would. */
  @Override
  public void dropAllTables() throws SQLException {
    dropAll("TABLE");
  }

  private void dropAll(String type) throws SQLException {
    List<String> names = new ArrayList<>();
    try (ResultSet rs =
        getConnection().getMetaData().getTables(null, null, "%", new String[] {type})) {
      while (rs.next()) {
        names.add(rs.getString("TABLE_NAME"));
      }
    }
    for (String name : names) {
      try (Statement drop = getConnection().createStatement()) {
        drop.execute("DROP " + type + " \"" + name + "\"");
      }
    }
  }

  /** Runs one parsed file on this executor's lake. */
  Outcome run(SltTestFile file, String name) throws SQLException {
    long start = System.nanoTime();
    TestStatistics statistics = execute(file, options);
    long millis = (System.nanoTime() - start) / 1_000_000;
    return new Outcome(
        name,
        statistics.getPassedTestCount(),
        statistics.getFailedTestCount(),
        statistics.getIgnoredTestCount(),
        statements,
        statementsFailed,
        statementsSkipped,
        millis,
        Map.copyOf(skips),
        List.copyOf(failures));
  }

  @Override
  public TestStatistics execute(SltTestFile file, OptionsParser.SuppliedOptions options)
      throws SQLException {
    establishConnection();
    Recorder statistics = new Recorder(options.verbosity);
    statistics.incFiles();
    for (ISqlTestOperation operation : file.fileContents) {
      SltSqlStatement statement = operation.as(SltSqlStatement.class);
      if (statement != null) {
        if (skipped(statement.statement).isPresent()) {
          statementsSkipped++;
        } else {
          statement(statement);
        }
      } else {
        SqlTestQuery query = operation.to(options.err, SqlTestQuery.class);
        if (skipped(query.getQuery()).isPresent()) {
          statistics.incIgnored();
        } else {
          query(query, statistics);
        }
      }
    }
    dropAllTables();
    closeConnection();
    return statistics;
  }

  /**
   * Why an operation is not run: it is unsupported, or it uses an object that a skipped statement
   * would have created or changed (which then differs from SQLite's).
   */
  private Optional<String> skipped(String sql) {
    Optional<String> reason = Unsupported.covering(sql, textColumns).map(Unsupported::reason);
    if (reason.isEmpty()) {
      for (String object : missing) {
        if (Pattern.compile("(?i)\\b" + Pattern.quote(object) + "\\b").matcher(sql).find()) {
          reason = Optional.of("uses a table or view a skipped statement created or changed");
          break;
        }
      }
    }
    if (reason.isPresent()) {
      Matcher makes = MAKES.matcher(sql);
      if (makes.matches()) {
        missing.add(makes.group(1).toLowerCase(Locale.ROOT));
      }
      skips.merge(reason.get(), 1, Integer::sum);
    }
    return reason;
  }

  @Override
  public void statement(SltSqlStatement statement) {
    statements++;
    try (Statement stmt = getConnection().createStatement()) {
      stmt.execute(statement.statement);
      if (statement.statement.strip().regionMatches(true, 0, "CREATE TABLE", 0, 12)) {
        Matcher text = TEXT_COLUMN.matcher(statement.statement);
        while (text.find()) {
          textColumns.add(text.group(1).toLowerCase(Locale.ROOT));
        }
      }
      if (!statement.shouldPass) {
        statementsFailed++;
        failures.add("statement should have failed: " + statement.statement);
      }
    } catch (SQLException e) {
      if (statement.shouldPass) {
        statementsFailed++;
        failures.add(describe(e) + " in statement: " + statement.statement);
      }
    }
  }

  private void query(SqlTestQuery query, TestStatistics statistics) {
    if (visitor != null) {
      try {
        visitor.visit(getConnection(), query.getQuery());
        statistics.incPassed();
      } catch (Exception e) {
        statistics.addFailure(new TestStatistics.FailedTestDescription(query, null, "", e));
      }
      return;
    }
    try (Statement stmt = getConnection().createStatement();
        ResultSet rs = stmt.executeQuery(query.getQuery())) {
      validate(query, rs, query.outputDescription, statistics);
    } catch (Exception e) {
      statistics.addFailure(new TestStatistics.FailedTestDescription(query, null, "", e));
    }
  }

  /** The runner's statistics, keeping each failure's description for the report. */
  private final class Recorder extends TestStatistics {
    Recorder(int verbosity) {
      super(false, verbosity);
    }

    @Override
    public boolean addFailure(FailedTestDescription failure) {
      String what =
          failure.exception instanceof SQLException e
              ? describe(e)
              : failure.exception != null
                  ? failure.exception.toString()
                  : failure.error + " " + failure.details.strip();
      failures.add(what + " in query: " + failure.query.getQuery());
      return super.addFailure(failure);
    }
  }

  private static String describe(SQLException e) {
    return "SQLState " + e.getSQLState() + " (" + e.getMessage() + ")";
  }
}
