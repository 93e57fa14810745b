package dev.floe.jdbc.meta;

import java.util.regex.Pattern;

/**
 * A name pattern of a {@link java.sql.DatabaseMetaData} call: {@code %} matches any run of
 * characters, {@code _} any one character, and the search-string escape {@code \} makes the next
 * character literal. A null pattern matches every name. Matching is exact: metadata reports names
 * as they are stored (folder names), and clients pass them back as they got them.
 */
public final class MetadataPattern {
  /** What {@link java.sql.DatabaseMetaData#getSearchStringEscape()} reports. */
  static final String ESCAPE = "\\";

  private static final MetadataPattern ANY = new MetadataPattern(null);

  private final Pattern regex;

  private MetadataPattern(Pattern regex) {
    this.regex = regex;
  }

  /** The pattern of a JDBC argument; null (or {@code %}) matches everything. */
  public static MetadataPattern of(String pattern) {
    if (pattern == null || pattern.equals("%")) {
      return ANY;
    }
    StringBuilder regex = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        literal.append(pattern.charAt(++i));
      } else if (c == '%' || c == '_') {
        if (literal.length() > 0) {
          regex.append(Pattern.quote(literal.toString()));
          literal.setLength(0);
        }
        regex.append(c == '%' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    if (literal.length() > 0) {
      regex.append(Pattern.quote(literal.toString()));
    }
    return new MetadataPattern(Pattern.compile(regex.toString(), Pattern.DOTALL));
  }

  /** Whether a name matches. */
  public boolean matches(String name) {
    return regex == null || regex.matcher(name).matches();
  }
}
