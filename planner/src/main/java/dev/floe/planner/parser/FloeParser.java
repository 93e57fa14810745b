package dev.floe.planner.parser;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.planner.name.TableNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Floe's one SQL parser: Calcite's grammar with Floe's statements ({@link FloeSqlParserImpl},
 * generated at build time). Queries and DML prepared by Calcite and Floe's own statements are
 * parsed with the same {@link #CONFIG}, so keywords, quoting, identifier rules and error positions
 * are the same for every statement.
 */
public final class FloeParser {
  private FloeParser() {}

  /**
   * The longest name (a table, column or schema name part) a statement may use, in characters: the
   * resolver's one limit.
   */
  public static final int IDENTIFIER_MAX_LENGTH = TableNames.MAX_LENGTH;

  /** The parser configuration every statement is parsed with. */
  public static final SqlParser.Config CONFIG =
      SqlParser.config()
          .withParserFactory(FloeSqlParserImpl.FACTORY)
          .withQuoting(Quoting.DOUBLE_QUOTE)
          .withUnquotedCasing(Casing.UNCHANGED)
          .withQuotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(false)
          .withConformance(SqlConformanceEnum.LENIENT)
          .withIdentifierMaxLength(IDENTIFIER_MAX_LENGTH);

  /** The value of Calcite's {@code parserFactory} connection property for this parser. */
  public static final String FACTORY_PROPERTY = FloeSqlParserImpl.class.getName() + "#FACTORY";

  private static final int EXPECTED_SHOWN = 12;

  private static final Pattern QUOTED_CONTROL = Pattern.compile("\"[^\"]*\\p{Cntrl}[^\"]*\"");

  private static final Pattern TOO_LONG =
      Pattern.compile("^Length of identifier '(.*)' must be less than or equal to", Pattern.DOTALL);

  /** JavaCC's {@code Encountered " "KIND" "image "" at}: the image is what the user wrote. */
  private static final Pattern ENCOUNTERED = Pattern.compile("^Encountered \" \\S+ \"(.*?) \"\"");

  /** A write whose target carries a version clause: {@code DELETE FROM t FOR VERSION AS OF 1}. */
  private static final Pattern VERSIONED_TARGET =
      Pattern.compile(
          "\\s*(?:DELETE\\s+FROM|UPDATE|INSERT\\s+(?:INTO|OVERWRITE)|MERGE\\s+INTO|TRUNCATE\\s+TABLE)"
              + "\\s+(?:\"[^\"]*\"|[^\\s(]+)(?:\\s*\\.\\s*(?:\"[^\"]*\"|[^\\s(]+))*"
              + "\\s+FOR\\s+(?:SYSTEM_TIME|SYSTEM_VERSION|VERSION|TIMESTAMP)\\s+AS\\s+OF\\b",
          Pattern.CASE_INSENSITIVE);

  /**
   * The statement {@link #parse} made last on this thread, until Calcite takes it or it is let go.
   */
  private static final ThreadLocal<Parsed> PARSED = new ThreadLocal<>();

  /** A statement's text and the tree {@link #parse} made of it. */
  private record Parsed(String sql, SqlNode node) {}

  /**
   * Offers the tree {@link #parse} made of {@code sql} to this thread's next parse of the same text
   * by Calcite ({@link #takeParsed}), which then need not parse it again. Closing withdraws the
   * offer, taken or not.
   */
  public static Offer offerParsed(String sql, SqlNode node) {
    if (node == null || sql.indexOf(';') >= 0) {
      // A statement list may end with a semicolon, which Calcite's parse of one statement refuses:
      // a text holding one is left to Calcite's parse, so it fails or runs alike every time.
      return () -> {};
    }
    PARSED.set(new Parsed(sql, node));
    return PARSED::remove;
  }

  /** An offer of {@link #offerParsed}, withdrawn when closed. */
  public interface Offer extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * The tree offered for {@code sql} on this thread, once: the first parse of that text takes it,
   * and a later one (the tree is changed as it is validated) parses afresh. Null when none is
   * offered or {@code config} is not {@link #CONFIG}'s settings, with which the tree was parsed.
   */
  public static SqlNode takeParsed(String sql, SqlParser.Config config) {
    Parsed parsed = PARSED.get();
    if (parsed == null || !parsed.sql.equals(sql)) {
      return null;
    }
    PARSED.remove();
    boolean same =
        config.quoting() == CONFIG.quoting()
            && config.quotedCasing() == CONFIG.quotedCasing()
            && config.unquotedCasing() == CONFIG.unquotedCasing()
            && config.caseSensitive() == CONFIG.caseSensitive()
            && config.conformance() == CONFIG.conformance()
            && config.identifierMaxLength() == CONFIG.identifierMaxLength()
            && config.charLiteralStyles().equals(CONFIG.charLiteralStyles())
            && config.parserFactory() == CONFIG.parserFactory();
    return same ? parsed.node : null;
  }

  /**
   * Parses one statement; a trailing semicolon is allowed.
   *
   * @throws FloeException 42000 with the line, column and expected tokens
   */
  public static SqlNode parse(String sql) {
    SqlNodeList list;
    try {
      list = SqlParser.create(sql, CONFIG).parseStmtList();
    } catch (SqlParseException e) {
      // Calcite's lexer ends a quoted name at a line break: the parser stops at its opening quote.
      Matcher control = QUOTED_CONTROL.matcher(sql);
      SqlParserPos pos = e.getPos();
      int at = pos == null ? -1 : offset(sql, pos.getLineNum(), pos.getColumnNum());
      if (at >= 0 && at < sql.length() && control.region(at, sql.length()).lookingAt()) {
        throw FloeError.INVALID_NAME.error(
            e, control.group(), "it holds control characters, which names cannot");
      }
      if (VERSIONED_TARGET.matcher(sql).lookingAt()) {
        // The grammar has no version clause after a write's target: a past version is read-only.
        throw FloeError.NOT_SUPPORTED.error(
            "time travel on the table a statement writes; a past version is read-only");
      }
      FloeException error = syntaxError(e);
      String hint = reserved(sql, e);
      throw hint.isEmpty() ? error : FloeError.SYNTAX.error(e, hint + message(e));
    }
    if (list.size() != 1) {
      throw FloeError.SYNTAX.error(
          list.isEmpty()
              ? "the text holds no statement"
              : "the text holds " + list.size() + " statements; run them one at a time");
    }
    return list.get(0);
  }

  /** The 42000 error for a parse failure, with its position and the tokens that could follow. */
  public static FloeException syntaxError(SqlParseException e) {
    Matcher tooLong = TOO_LONG.matcher(String.valueOf(e.getMessage()));
    if (tooLong.find()) {
      // A name over the one limit is a name Floe refuses, as the resolver refuses it.
      return FloeError.INVALID_NAME.error(
          e,
          tooLong.group(1),
          "a name is at most " + IDENTIFIER_MAX_LENGTH + " characters, the SQL parser's limit");
    }
    return FloeError.SYNTAX.error(e, message(e));
  }

  /**
   * What went wrong, where, and what was expected: {@code Encountered "x" at line 1, column 8;
   * expected one of: FROM, WHERE, ...}.
   */
  public static String message(SqlParseException e) {
    String first =
        ENCOUNTERED.matcher(firstLine(e.getMessage())).replaceFirst("Encountered \"$1\"");
    SqlParserPos pos = e.getPos();
    String where =
        pos == null ? "" : " at line " + pos.getLineNum() + ", column " + pos.getColumnNum();
    if (first.startsWith("Non-query expression encountered in illegal context")) {
      return "the text is not a statement"
          + where
          + "; expected a statement: SELECT, VALUES, WITH, INSERT, UPDATE, DELETE, MERGE, CREATE,"
          + " DROP, ALTER, TRUNCATE, SHOW, DESCRIBE, EXPLAIN";
    }
    if (first.startsWith("Encountered") || first.startsWith("Incorrect syntax")) {
      // Calcite's own text already names the position.
      where = "";
      if (first.endsWith(".")) {
        first = first.substring(0, first.length() - 1);
      }
    } else if (pos != null && first.contains(where.trim())) {
      where = "";
    }
    String expected = expected(e);
    return first + where + (expected.isEmpty() ? "" : "; expected one of: " + expected);
  }

  /** The grammar's keywords, reserved or not. */
  private static final org.apache.calcite.sql.parser.SqlAbstractParserImpl.Metadata KEYWORDS =
      FloeSqlParserImpl.FACTORY.getParser(new java.io.StringReader("")).getMetadata();

  /** Whether a word is reserved: a name only when double-quoted (docs/sql.md, "Reserved words"). */
  public static boolean isReserved(String word) {
    return KEYWORDS.isReservedWord(word.toUpperCase(Locale.ROOT));
  }

  /**
   * When the parser stopped at a reserved word that, written in double quotes, lets it read past
   * the next token (a name stands there), a sentence saying so and showing the quoted form;
   * otherwise empty (a misplaced clause is no name).
   */
  private static String reserved(String sql, SqlParseException e) {
    if (!(e.getCause() instanceof ParseException)) {
      return "";
    }
    Token at = ((ParseException) e.getCause()).currentToken;
    at = at == null ? null : at.next;
    if (at != null && ".".equals(at.image)) {
      // t.user: the parser stops at the dot before a reserved word.
      at = at.next;
    }
    if (at == null
        || at.image == null
        || !at.image.matches("[A-Za-z][A-Za-z0-9_]*")
        || !isReserved(at.image)) {
      return "";
    }
    int start = offset(sql, at.beginLine, at.beginColumn);
    if (start < 0 || !sql.startsWith(at.image, start)) {
      return "";
    }
    String quoted = '"' + at.image + '"';
    String retried = sql.substring(0, start) + quoted + sql.substring(start + at.image.length());
    try {
      SqlParser.create(retried, CONFIG).parseStmtList();
    } catch (SqlParseException again) {
      SqlParserPos pos = again.getPos();
      int stop = pos == null ? -1 : offset(retried, pos.getLineNum(), pos.getColumnNum());
      if (stop <= nextTokenEnd(retried, start + quoted.length())) {
        // Quoted, the word does not take the parser past the token after it: no name stands here.
        return "";
      }
    } catch (RuntimeException again) {
      return "";
    }
    return at.image
        + " is a reserved word; to use it as a name, write it in double quotes: "
        + quoted
        + ". ";
  }

  private static String expected(SqlParseException e) {
    Collection<String> names = e.getExpectedTokenNames();
    if (names == null || names.isEmpty()) {
      return "";
    }
    List<String> shown = new ArrayList<>();
    for (String name : names) {
      String token = name;
      if (token.length() > 2 && token.startsWith("\"") && token.endsWith("\"")) {
        token = token.substring(1, token.length() - 1);
      } else if (token.endsWith("IDENTIFIER>")) {
        token = "a name";
      } else if (token.startsWith("<") && token.endsWith(">")) {
        token = token.substring(1, token.length() - 1).toLowerCase(Locale.ROOT).replace('_', ' ');
      }
      if (!shown.contains(token)) {
        shown.add(token);
      }
    }
    int total = shown.size();
    String text = String.join(", ", shown.subList(0, Math.min(EXPECTED_SHOWN, total)));
    return total > EXPECTED_SHOWN ? text + " (and " + (total - EXPECTED_SHOWN) + " more)" : text;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).trim();
  }

  /**
   * The text of a statement from a position to its end, without a trailing semicolon: the query of
   * {@code CREATE TABLE ... AS query}.
   */
  public static String textFrom(String sql, SqlParserPos start) {
    int offset = offset(sql, start.getLineNum(), start.getColumnNum());
    String text = sql.substring(offset).trim();
    while (text.endsWith(";")) {
      text = text.substring(0, text.length() - 1).trim();
    }
    return text;
  }

  /** Where the token that follows {@code from} (after blanks) ends: a word or one character. */
  private static int nextTokenEnd(String sql, int from) {
    int at = from;
    while (at < sql.length() && Character.isWhitespace(sql.charAt(at))) {
      at++;
    }
    int word = at;
    while (word < sql.length()
        && (Character.isLetterOrDigit(sql.charAt(word)) || sql.charAt(word) == '_')) {
      word++;
    }
    return word > at ? word : Math.min(sql.length(), at + 1);
  }

  /** The character offset of a 1-based line and column. */
  private static int offset(String sql, int line, int column) {
    int at = 0;
    for (int l = 1; l < line; l++) {
      int newline = sql.indexOf('\n', at);
      if (newline < 0) {
        return sql.length();
      }
      at = newline + 1;
    }
    return Math.min(sql.length(), at + column - 1);
  }
}
