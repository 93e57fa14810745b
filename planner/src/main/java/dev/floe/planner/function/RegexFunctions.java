package dev.floe.planner.function;

import dev.floe.error.FloeError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.calcite.linq4j.function.Strict;

/**
 * Trino's regular-expression functions that Calcite's libraries lack or spell differently: {@code
 * regexp_extract}, {@code regexp_extract_all} and {@code regexp_count}, with Java's pattern syntax
 * (Trino's, close to PostgreSQL's and DuckDB's for common patterns). NULL in, NULL out. Generated
 * code makes one instance per statement, which keeps the statement's compiled patterns.
 */
@Strict
public final class RegexFunctions {
  /** The most patterns one statement keeps compiled; a pattern taken from a column may vary. */
  private static final int KEPT = 256;

  private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

  /** Creates the functions of one statement. */
  public RegexFunctions() {}

  /** The first match of {@code regex} in {@code s}, or NULL when there is none. */
  public String regexpExtract(String s, String regex) {
    Matcher matcher = pattern("regexp_extract", regex).matcher(s);
    return matcher.find() ? matcher.group() : null;
  }

  /** The given capturing group of the first match (0: the whole match), or NULL. */
  public String regexpExtract(String s, String regex, long group) {
    Matcher matcher = pattern("regexp_extract", regex).matcher(s);
    int g = group("regexp_extract", regex, matcher, group);
    return matcher.find() ? matcher.group(g) : null;
  }

  /** Every match of {@code regex} in {@code s}, in order. */
  public List<String> regexpExtractAll(String s, String regex) {
    return regexpExtractAll(s, regex, 0);
  }

  /** The given capturing group of every match, in order. */
  public List<String> regexpExtractAll(String s, String regex, long group) {
    Matcher matcher = pattern("regexp_extract_all", regex).matcher(s);
    int g = group("regexp_extract_all", regex, matcher, group);
    List<String> found = new ArrayList<>();
    while (matcher.find()) {
      found.add(matcher.group(g));
    }
    return found;
  }

  /** How many times {@code regex} matches in {@code s}. */
  public long regexpCount(String s, String regex) {
    Matcher matcher = pattern("regexp_count", regex).matcher(s);
    long count = 0;
    while (matcher.find()) {
      count++;
    }
    return count;
  }

  private static int group(String function, String regex, Matcher matcher, long group) {
    if (group < 0 || group > matcher.groupCount()) {
      throw FloeError.INVALID_FUNCTION_ARGUMENT.error(
          function,
          "the pattern '"
              + regex
              + "' has "
              + matcher.groupCount()
              + " capturing groups; there is no group "
              + group);
    }
    return (int) group;
  }

  private Pattern pattern(String function, String regex) {
    Pattern pattern = patterns.get(regex);
    if (pattern != null) {
      return pattern;
    }
    try {
      pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw FloeError.INVALID_REGEX.error(e, "'" + regex + "'", e.getDescription());
    }
    if (patterns.size() >= KEPT) {
      patterns.clear();
    }
    patterns.put(regex, pattern);
    return pattern;
  }
}
