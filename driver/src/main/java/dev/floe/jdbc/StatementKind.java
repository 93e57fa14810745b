package dev.floe.jdbc;

import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;

/**
 * Whether SQL text is a query or a change, from its first keyword: {@code executeQuery} with a
 * change and {@code executeUpdate} with a query are refused before anything runs, so a refused call
 * never commits a row that a retry would then duplicate.
 */
final class StatementKind {
  private static final Set<String> QUERIES =
      Set.of("SELECT", "WITH", "VALUES", "EXPLAIN", "SHOW", "DESCRIBE", "DESC", "TABLE");
  private static final Set<String> CHANGES =
      Set.of(
          "INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "TRUNCATE", "CREATE", "DROP", "ALTER");

  /** ALTER TABLE t EXECUTE procedure(...): table maintenance, which answers a row of counts. */
  private static final java.util.regex.Pattern EXECUTE =
      java.util.regex.Pattern.compile(
          "^\\W*ALTER\\s+TABLE\\s+.*?\\sEXECUTE\\s",
          java.util.regex.Pattern.CASE_INSENSITIVE | java.util.regex.Pattern.DOTALL);

  private StatementKind() {}

  /** Refuses a statement that changes data or tables: it returns no result set. */
  static void refuseUnlessQuery(String sql) throws SQLException {
    String word = firstKeyword(sql);
    if (CHANGES.contains(word) && !EXECUTE.matcher(sql + " ").find()) {
      throw SqlErrors.of(
          FloeError.VALIDATION,
          "executeQuery runs queries only; this "
              + word
              + " returns no result set and was not run (use executeUpdate or execute): "
              + sql);
    }
  }

  /** Refuses a query: it returns a result set, not an update count. */
  static void refuseIfQuery(String sql) throws SQLException {
    String word = firstKeyword(sql);
    if (QUERIES.contains(word)) {
      throw SqlErrors.of(
          FloeError.VALIDATION,
          "executeUpdate runs changes only; this "
              + word
              + " returns a result set and was not run (use executeQuery or execute): "
              + sql);
    }
  }

  /** The first keyword, upper case, after comments, blanks and opening parentheses; or "". */
  static String firstKeyword(String sql) {
    if (sql == null) {
      return "";
    }
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else {
        break;
      }
    }
    int start = i;
    while (i < n && Character.isLetter(sql.charAt(i))) {
      i++;
    }
    return sql.substring(start, i).toUpperCase(Locale.ROOT);
  }
}
