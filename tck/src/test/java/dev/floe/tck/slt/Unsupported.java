package dev.floe.tck.slt;

import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the SQL Logic Test files use that Floe documents as unsupported or that is SQLite-only SQL,
 * each with its reason (docs/testing.md, "SQL Logic Test"). A statement or query covered by one of
 * these is skipped, never run and never counted as passed; {@link LakeExecutor} also skips what
 * depends on a skipped statement. Nothing else may be skipped.
 */
enum Unsupported {
  INDEX(
      matching("(CREATE\\s+(UNIQUE\\s+)?INDEX|DROP\\s+INDEX|REINDEX)\\b.*"),
      "Iceberg tables have no indexes"),
  TEMPORARY_VIEW(
      matching("CREATE\\s+(TEMP|TEMPORARY)\\s+VIEW\\b.*"),
      "no temporary views: a view is stored in the lake"),
  TRIGGER(
      matching("(CREATE\\s+(TEMP\\s+|TEMPORARY\\s+)?TRIGGER|DROP\\s+TRIGGER)\\b.*"), "no triggers"),
  UNIQUE(
      matching("CREATE\\s+TABLE\\b.*\\bUNIQUE\\b.*"),
      "no UNIQUE constraints: Iceberg cannot enforce them"),
  REPLACE(
      matching("(REPLACE|INSERT\\s+OR\\s+REPLACE)\\s+INTO\\b.*"),
      "REPLACE and INSERT OR REPLACE are SQLite-only"),
  EMPTY_IN_LIST(
      Pattern.compile("(?is).*\\bIN\\s*\\(\\s*\\).*").asMatchPredicate(),
      "an empty IN list is SQLite-only: standard SQL needs at least one element"),
  BINARY_IN_NUMBERS(
      Pattern.compile("(?is).*\\bx'[0-9a-f]*'\\s+(NOT\\s+)?IN\\s*\\(\\s*SELECT\\b.*")
          .asMatchPredicate(),
      "comparing a binary string with numbers is a type error in standard SQL (42000); SQLite"
          + " compares any two values"),
  REPEATED_ASSIGNMENT(
      Unsupported::assignsAColumnTwice,
      "an UPDATE assigning one column twice is an error in standard SQL (42000); SQLite keeps"
          + " the last"),
  ARITHMETIC_ON_TEXT(
      Unsupported::computesWithText,
      "arithmetic on a text column: SQLite reads text that is not a number as 0, standard SQL"
          + " refuses it (22018, as a cast of that text to a number)");

  private static final Pattern SET_LIST =
      Pattern.compile("(?is)^\\s*UPDATE\\s+\\w+\\s+SET\\s+(.*?)(\\s+WHERE\\b.*)?$");

  /** A sign or arithmetic operator next to a name; the name is group 1 or group 2. */
  private static final String ARITHMETIC_NEXT_TO =
      "(?is).*(?:[-+*/%%]\\s*(?:\\(\\s*)*(?:\\w+\\.)?(%1$s)\\b"
          + "|(?<![\\w.])(?:\\w+\\.)?(%1$s)\\s*(?:\\)\\s*)*[-+*/%%]).*";

  /** Whether it covers a statement, given the text columns the file's tables declared so far. */
  private final BiPredicate<String, Set<String>> covers;

  private final String reason;

  Unsupported(Predicate<String> covers, String reason) {
    this((sql, textColumns) -> covers.test(sql), reason);
  }

  Unsupported(BiPredicate<String, Set<String>> covers, String reason) {
    this.covers = covers;
    this.reason = reason;
  }

  /** Why this is skipped. */
  String reason() {
    return reason;
  }

  /**
   * The first entry that covers a statement or query, if any, given the names of the text columns
   * that the file's tables declared so far.
   */
  static Optional<Unsupported> covering(String sql, Set<String> textColumns) {
    for (Unsupported u : values()) {
      if (u.covers.test(sql, textColumns)) {
        return Optional.of(u);
      }
    }
    return Optional.empty();
  }

  /** Statements that start with the given words, in any case. */
  private static Predicate<String> matching(String statementRegex) {
    return Pattern.compile("(?is)^\\s*" + statementRegex).asMatchPredicate();
  }

  /** A text column with a sign, or on either side of an arithmetic operator. */
  private static boolean computesWithText(String sql, Set<String> textColumns) {
    if (textColumns.isEmpty()) {
      return false;
    }
    String names =
        textColumns.stream().map(Pattern::quote).reduce((a, b) -> a + "|" + b).orElseThrow();
    return Pattern.compile(String.format(ARITHMETIC_NEXT_TO, names)).matcher(sql).matches();
  }

  private static boolean assignsAColumnTwice(String sql) {
    Matcher update = SET_LIST.matcher(sql);
    if (!update.matches()) {
      return false;
    }
    Set<String> columns = new HashSet<>();
    for (String assignment : update.group(1).split(",")) {
      String column = assignment.split("=")[0].strip().toLowerCase(Locale.ROOT);
      if (!columns.add(column)) {
        return true;
      }
    }
    return false;
  }
}
