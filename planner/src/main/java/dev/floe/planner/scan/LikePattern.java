package dev.floe.planner.scan;

import java.util.ArrayList;
import java.util.List;

/**
 * A SQL {@code LIKE} pattern of literal text and {@code %} (no {@code _}, no escape), matched
 * without a regular expression: the text between the {@code %}s must appear in order, the first
 * piece at the start unless the pattern starts with {@code %}, the last at the end unless it ends
 * with one. The answer is that of Calcite's runtime, which matches the pattern translated to a Java
 * regular expression ({@code %} as {@code (?s:.*)}, every other character literal).
 */
public final class LikePattern {
  private final String pattern;
  private final String[] pieces;
  private final boolean anchoredStart;
  private final boolean anchoredEnd;

  private LikePattern(String pattern, String[] pieces, boolean anchoredStart, boolean anchoredEnd) {
    this.pattern = pattern;
    this.pieces = pieces;
    this.anchoredStart = anchoredStart;
    this.anchoredEnd = anchoredEnd;
  }

  /**
   * The pattern, or null when it is not one of literal text and {@code %}: one with {@code _}, or
   * with a surrogate character (a regular expression matches code points, not chars).
   */
  public static LikePattern of(String pattern) {
    List<String> pieces = new ArrayList<>();
    StringBuilder piece = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '_' || Character.isSurrogate(c)) {
        return null;
      }
      if (c == '%') {
        pieces.add(piece.toString());
        piece.setLength(0);
      } else {
        piece.append(c);
      }
    }
    pieces.add(piece.toString());
    boolean anchoredStart = !pattern.startsWith("%");
    boolean anchoredEnd = !pattern.endsWith("%") || pattern.isEmpty();
    return new LikePattern(pattern, pieces.toArray(new String[0]), anchoredStart, anchoredEnd);
  }

  /** The pattern as written. */
  public String pattern() {
    return pattern;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LikePattern like && like.pattern.equals(pattern);
  }

  @Override
  public int hashCode() {
    return pattern.hashCode();
  }

  @Override
  public String toString() {
    return "'" + pattern.replace("'", "''") + "'";
  }

  /** Whether {@code s} (not null) matches the pattern. */
  public boolean matches(String s) {
    int last = pieces.length - 1;
    if (last == 0) {
      return s.equals(pieces[0]); // no %
    }
    int from = 0;
    int end = s.length();
    if (anchoredStart) {
      if (!s.startsWith(pieces[0])) {
        return false;
      }
      from = pieces[0].length();
    }
    if (anchoredEnd) {
      String tail = pieces[last];
      if (end - from < tail.length() || !s.endsWith(tail)) {
        return false;
      }
      end -= tail.length();
    }
    for (int p = 1; p < last; p++) {
      String middle = pieces[p];
      if (middle.isEmpty()) {
        continue;
      }
      int at = s.indexOf(middle, from);
      if (at < 0 || at + middle.length() > end) {
        return false;
      }
      from = at + middle.length();
    }
    return true;
  }
}
