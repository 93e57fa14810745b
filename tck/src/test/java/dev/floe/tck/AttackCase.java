package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One case of the attack corpus: an input, the SQLState it must get (or none: it must succeed), and
 * what the lake may look like afterwards. Running a case prints the input, the outcome and what
 * changed on disk, and records the outcome for the summary by category.
 */
final class AttackCase {
  /** Something done to a lake; may throw anything, which the case then judges. */
  interface Step {
    void run(AttackLake lake) throws Exception;
  }

  /** Outcome counts per category, for the summary printed at the end of the run. */
  static final Map<String, AtomicInteger[]> OUTCOMES = new ConcurrentSkipListMap<>();

  final String category;
  final String input;
  private String expected;
  private Step setup = lake -> {};
  private Step attack;
  private Step check = lake -> {};
  private final List<String> named = new ArrayList<>();
  private final List<String> hidden = new ArrayList<>();
  private boolean lakeMayChange;

  private AttackCase(String category, String input) {
    this.category = category;
    this.input = input;
    this.attack = lake -> lake.sql(input);
  }

  /** A case whose input is one SQL statement run on a new connection unless {@link #attack}. */
  static AttackCase of(String category, String input) {
    return new AttackCase(category, input);
  }

  AttackCase setup(String... statements) {
    Step previous = setup;
    setup =
        lake -> {
          previous.run(lake);
          lake.sql(statements);
        };
    return this;
  }

  AttackCase setup(Step step) {
    Step previous = setup;
    setup =
        lake -> {
          previous.run(lake);
          step.run(lake);
        };
    return this;
  }

  AttackCase attack(Step step) {
    attack = step;
    return this;
  }

  /** The SQLState the input must fail with; the lake and everything beside it stay unchanged. */
  AttackCase fails(String sqlState, String... mustName) {
    expected = sqlState;
    named.addAll(List.of(mustName));
    return this;
  }

  /** The input must succeed, write only inside the lake, and pass the check. */
  AttackCase succeeds(Step check) {
    expected = null;
    lakeMayChange = true;
    this.check = check;
    return this;
  }

  /** The input must succeed and leave the lake exactly as it was (a rollback, a read). */
  AttackCase succeedsWithoutChange(Step check) {
    expected = null;
    lakeMayChange = false;
    this.check = check;
    return this;
  }

  /** A further check once the input has run as expected (after a failure too). */
  AttackCase check(Step check) {
    this.check = check;
    return this;
  }

  /** Text that no message may contain (a secret). */
  AttackCase neverShows(String... text) {
    hidden.addAll(List.of(text));
    return this;
  }

  String expectation() {
    return expected == null ? "succeeds" : expected;
  }

  String displayName() {
    String shown = input.length() > 110 ? input.substring(0, 107) + "..." : input;
    return shown + " -> " + expectation();
  }

  void run(Path folder) throws Throwable {
    AttackLake lake = new AttackLake(Files.createDirectories(folder));
    try {
      setup.run(lake);
    } catch (Throwable t) {
      System.out.printf("[%s] %s%n    setup failed: %s%n", category, input, t);
      count(false);
      throw t;
    }
    TreeMap<String, String> before = lake.listing();
    Throwable failure = null;
    try {
      attack.run(lake);
    } catch (Throwable t) {
      failure = t;
    }
    TreeMap<String, String> after = lake.listing();
    String outcome =
        failure == null
            ? "succeeded"
            : failure instanceof SQLException e
                ? e.getSQLState() + " " + firstLine(e.getMessage())
                : "raw " + failure;
    System.out.printf(
        "[%s] %s%n    expected: %s%n    actual:   %s%n    listing:  %d entries before, %d after,"
            + " changes %s%n",
        category,
        input.length() > 200 ? input.substring(0, 197) + "..." : input,
        expectation(),
        outcome,
        before.size(),
        after.size(),
        AttackLake.diff(before, after));
    boolean passed = false;
    try {
      judge(lake, failure, before, after);
      passed = true;
    } finally {
      count(passed);
    }
  }

  private void count(boolean passed) {
    AtomicInteger[] counts =
        OUTCOMES.computeIfAbsent(
            category, c -> new AtomicInteger[] {new AtomicInteger(), new AtomicInteger()});
    counts[passed ? 0 : 1].incrementAndGet();
  }

  private void judge(
      AttackLake lake,
      Throwable failure,
      TreeMap<String, String> before,
      TreeMap<String, String> after)
      throws Throwable {
    assertThat(AttackLake.diff(AttackLake.outsidePart(before), AttackLake.outsidePart(after)))
        .as("changes outside the lake")
        .isEmpty();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      for (String secret : hidden) {
        assertThat(String.valueOf(t.getMessage()))
            .as("a message shows a secret")
            .doesNotContain(secret);
        assertThat(String.valueOf(t)).as("a message shows a secret").doesNotContain(secret);
      }
    }
    if (expected == null) {
      if (failure != null) {
        throw new AssertionError("expected success, got " + failure, failure);
      }
      if (!lakeMayChange) {
        assertThat(AttackLake.diff(before, after)).as("changes in the lake").isEmpty();
      }
      check.run(lake);
      return;
    }
    if (!(failure instanceof SQLException e)) {
      throw new AssertionError("expected SQLState " + expected + ", got " + failure, failure);
    }
    assertThat(e.getSQLState()).as("SQLState of: " + e.getMessage()).isEqualTo(expected);
    for (String name : named) {
      assertThat(e.getMessage()).as("the message names " + name).containsIgnoringCase(name);
    }
    if (!lakeMayChange) {
      assertThat(AttackLake.diff(before, after)).as("changes in the lake").isEmpty();
    }
    check.run(lake);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline);
    return line.length() > 300 ? line.substring(0, 297) + "..." : line;
  }
}
