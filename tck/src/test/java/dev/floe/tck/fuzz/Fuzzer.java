package dev.floe.tck.fuzz;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The differential fuzzer: seeded random histories, each step checked against DuckDB, Iceberg's
 * reader and Floe itself; every difference shrunk to a minimal history and query and reported as a
 * reproduction. One seed and one history number always give the same history.
 */
final class Fuzzer {
  /** What to run. */
  record Config(
      long seed,
      int histories,
      int steps,
      int queriesPerStep,
      long budgetMillis,
      boolean shrink,
      int maxFailures) {

    /** The settings from system properties ({@code fuzz.*}), with the given defaults. */
    static Config fromSystemProperties(Config defaults) {
      return new Config(
          Long.getLong("fuzz.seed", defaults.seed),
          Integer.getInteger("fuzz.histories", defaults.histories),
          Integer.getInteger("fuzz.steps", defaults.steps),
          Integer.getInteger("fuzz.queries", defaults.queriesPerStep),
          System.getProperty("fuzz.minutes") == null
              ? defaults.budgetMillis
              : Long.getLong("fuzz.minutes") * 60_000,
          Boolean.parseBoolean(
              System.getProperty("fuzz.shrink", Boolean.toString(defaults.shrink))),
          Integer.getInteger("fuzz.maxFailures", defaults.maxFailures));
    }
  }

  /** A difference with its minimal reproduction. */
  record Failure(long historySeed, String signature, String reproduction) {}

  private final Config config;
  private final Path work;
  final List<Failure> failures = new ArrayList<>();
  long histories;
  long cleanHistories;
  long steps;
  long checks;
  long floeStatements;
  long bothRefused;

  Fuzzer(Config config, Path work) {
    this.config = config;
    this.work = work;
  }

  /** The seed of history {@code i} of a run: histories can be replayed one by one. */
  static long historySeed(long seed, int i) {
    return seed * 1_000_003L + i;
  }

  void run() {
    long deadline = System.currentTimeMillis() + config.budgetMillis;
    for (int i = 0; i < config.histories; i++) {
      if (System.currentTimeMillis() > deadline || failures.size() >= config.maxFailures) {
        break;
      }
      runHistory(historySeed(config.seed, i));
    }
  }

  /** Runs one history; a difference ends it (the state after it says nothing more). */
  void runHistory(long seed) {
    Random rnd = new Random(seed);
    HistoryGenerator gen = new HistoryGenerator(rnd);
    List<Step> history = new ArrayList<>();
    histories++;
    try (Runner r = new Runner(work.resolve("h" + seed))) {
      try {
        Step create = gen.create();
        history.add(create);
        create.run(r);
        r.recordVersion(create);
        List<Oracles.Check> last = List.of();
        for (int s = 0; s < config.steps; s++) {
          long rows = count(r);
          Step step = gen.next(r, rows);
          history.add(step);
          steps++;
          boolean ran;
          try {
            ran = step.run(r);
          } catch (Difference d) {
            fail(seed, history, null, d);
            return;
          }
          if (ran) {
            r.recordVersion(step);
          } else {
            bothRefused++;
          }
          List<Oracles.Check> now = new ArrayList<>();
          now.add(new Oracles.TableRows());
          for (int q = 0; q < config.queriesPerStep; q++) {
            now.addAll(gen.queries.checks(r, rows));
          }
          if (step instanceof Step.Optimize) {
            // Before and after optimize: the last step's queries again, on the rewritten files.
            now.addAll(last);
          }
          for (Oracles.Check check : now) {
            checks++;
            try {
              check.run(r);
            } catch (Difference d) {
              fail(seed, history, check, d);
              return;
            }
          }
          last = now;
        }
        cleanHistories++;
      } finally {
        floeStatements += r.floeStatements;
      }
    } catch (SQLException | RuntimeException e) {
      // The harness itself failed (a generator bug or an engine refusing what it must accept
      // outside any oracle): reported like a difference, so it is looked at.
      StringBuilder where = new StringBuilder(String.valueOf(e.getMessage()));
      for (StackTraceElement frame : e.getStackTrace()) {
        where.append("\n    at ").append(frame);
        if (frame.getClassName().startsWith(Fuzzer.class.getName())) {
          break;
        }
      }
      fail(
          seed,
          history,
          null,
          new Difference("harness", e.getClass().getSimpleName(), where.toString(), e));
    }
  }

  private static long count(Runner r) throws SQLException {
    return r
        .duckRows("SELECT COUNT(*) FROM " + TableModel.TABLE, List.of(ColumnType.EXACT))
        .stream()
        .mapToLong(row -> Long.parseLong((String) row.get(0)))
        .sum();
  }

  private void fail(long seed, List<Step> history, Oracles.Check check, Difference d) {
    List<Step> minimal = history;
    Oracles.Check simplest = check;
    int replays = 0;
    if (config.shrink && !d.oracle().equals("harness")) {
      Shrinker shrinker = new Shrinker(work.resolve("shrink-" + seed), 400);
      Difference again = shrinker.replay(history, check);
      if (again != null && again.signature().equals(d.signature())) {
        minimal = shrinker.shrink(history, check, d.signature());
        minimal = shrinker.simplifySteps(minimal, check, d.signature());
        if (check != null) {
          simplest = shrinker.simplify(minimal, check, d.signature());
        }
        d = shrinker.replay(minimal, simplest);
      }
      replays = shrinker.replays();
    }
    failures.add(
        new Failure(
            seed,
            d == null ? "?" : d.signature(),
            reproduction(seed, history.size(), minimal, simplest, d, replays)));
  }

  private static String reproduction(
      long seed,
      int originalSteps,
      List<Step> steps,
      Oracles.Check check,
      Difference d,
      int replays) {
    StringBuilder s = new StringBuilder();
    s.append("Difference in history seed ").append(seed);
    s.append(" (").append(originalSteps).append(" steps, shrunk to ").append(steps.size());
    s.append(" in ").append(replays).append(" replays): ");
    s.append(d == null ? "not reproduced on replay" : d.signature()).append('\n');
    s.append("-- minimal reproduction, on a new lake (jdbc:floe:<folder>?create=true");
    s.append("&maintenance.min-retention=0s):\n");
    for (Step step : steps) {
      s.append(step.sql(SYMBOLIC)).append(";  -- ").append(step.label()).append('\n');
    }
    if (check != null) {
      s.append(check.describe(SYMBOLIC)).append(";\n");
    }
    if (d != null) {
      s.append("-- ").append(d.getMessage().replace("\n", "\n-- ")).append('\n');
    }
    return s.toString();
  }

  /** Names versions by the step that made them, for reproductions read by people. */
  private static final Ast.Render SYMBOLIC =
      new Ast.Render() {
        @Override
        public Dialect dialect() {
          return Dialect.FLOE;
        }

        @Override
        public String snapshotOf(Step step) {
          return "<snapshot id after " + step.label() + ">";
        }

        @Override
        public String copyOf(Step step) {
          return snapshotOf(step);
        }
      };

  String summary() {
    return String.format(
        "Fuzz seed %d: %d histories (%d without a difference), %d steps (%d refused by both"
            + " engines), %d checks, %d statements through Floe, %d differences",
        config.seed,
        histories,
        cleanHistories,
        steps,
        bothRefused,
        checks,
        floeStatements,
        failures.size());
  }
}
