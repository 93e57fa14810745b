package dev.floe.planner.name;

import java.util.Collection;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The name a user most likely meant when the one written matches nothing ("did you mean orders?",
 * as PostgreSQL and DuckDB answer): the candidate closest in edit distance, ignoring case, when it
 * is close enough to be a slip of the keyboard (one edit for short names, about a third of the name
 * for long ones).
 */
public final class NearestName {
  private NearestName() {}

  /** The closest candidate, or null when none is close. */
  public static @Nullable String of(String written, Collection<String> candidates) {
    String target = written.toLowerCase(Locale.ROOT);
    int allowed = Math.max(1, Math.min(3, target.length() / 3));
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distance(target, candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance || distance == bestDistance && candidate.compareTo(best) < 0) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return bestDistance <= allowed ? best : null;
  }

  /**
   * The suffix of a not-found message: {@code "; did you mean orders?"}, with the name quoted when
   * it must be ({@code "Orders"}), or empty.
   */
  public static String hint(String written, Collection<String> candidates) {
    String nearest = of(written, candidates);
    if (nearest == null || nearest.equals(written)) {
      return "";
    }
    return "; did you mean " + spelled(nearest) + "?";
  }

  /** A name as it would be typed: plain when lower-case letters, digits and underscores. */
  private static String spelled(String name) {
    return name.matches("[a-z_][a-z0-9_]*") ? name : '"' + name.replace("\"", "\"\"") + '"';
  }

  /** Levenshtein distance, with a transposition of neighbours counting as one edit. */
  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          best = Math.min(best, d[i - 2][j - 2] + 1);
        }
        d[i][j] = best;
      }
    }
    return d[a.length()][b.length()];
  }
}
