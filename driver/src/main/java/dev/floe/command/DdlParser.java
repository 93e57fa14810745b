package dev.floe.command;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Parses Floe's DDL (README, "DDL"), in the Spark/Flink style users' scripts already have: CREATE
 * TABLE with NOT NULL, COMMENT, PARTITIONED BY transforms, WITH table properties and AS query;
 * DROP TABLE [IF EXISTS] [PURGE]; ALTER TABLE ADD / DROP / RENAME / ALTER COLUMN. Unquoted
 * identifiers are lower-cased, double-quoted ones kept as written.
 */
final class DdlParser {
  /** A name as written: its parts and whether each was quoted. */
  record Name(List<String> parts, List<Boolean> quoted) {
    String last() {
      return parts.get(parts.size() - 1);
    }

    @Override
    public String toString() {
      return String.join(".", parts);
    }
  }

  /** A column definition. */
  record Column(String name, Type type, boolean required, String comment) {}

  /** A partition field: a transform of a column. */
  record PartitionField(String transform, String column, int argument) {}

  /** CREATE TABLE. */
  record CreateTable(
      Name name,
      boolean ifNotExists,
      List<Column> columns,
      List<PartitionField> partitioning,
      Map<String, String> properties,
      String query) {}

  /** DROP TABLE. */
  record DropTable(Name name, boolean ifExists, boolean purge) {}

  /** ALTER TABLE, one action. */
  record AlterTable(Name name, String action, Column column, String oldName, String newName) {}

  private final String sql;
  private final List<Token> tokens;
  private int pos;

  private enum Kind {
    WORD,
    QUOTED,
    STRING,
    NUMBER,
    SYMBOL,
    END
  }

  private record Token(Kind kind, String text, int offset) {}

  private DdlParser(String sql) {
    this.sql = sql;
    this.tokens = tokenize(sql);
  }

  /** Parses one DDL statement into one of the records above. */
  static Object parse(String sql) {
    return new DdlParser(sql).statement();
  }

  private Object statement() {
    String verb = word();
    Object result;
    switch (verb) {
      case "create":
        result = create();
        break;
      case "drop":
        result = drop();
        break;
      case "alter":
        result = alter();
        break;
      default:
        throw error("expected CREATE, DROP or ALTER");
    }
    if (peek().kind == Kind.SYMBOL && peek().text.equals(";")) {
      pos++;
    }
    if (result instanceof CreateTable && ((CreateTable) result).query() != null) {
      return result;
    }
    if (peek().kind != Kind.END) {
      throw error("unexpected '" + peek().text + "'");
    }
    return result;
  }

  private CreateTable create() {
    if (isWord("or")) {
      throw FloeError.NOT_SUPPORTED.error("CREATE OR REPLACE TABLE");
    }
    expectWord("table");
    boolean ifNotExists = false;
    if (acceptWord("if")) {
      expectWord("not");
      expectWord("exists");
      ifNotExists = true;
    }
    Name name = name();
    List<Column> columns = new ArrayList<>();
    if (acceptSymbol("(")) {
      do {
        columns.add(column());
      } while (acceptSymbol(","));
      expectSymbol(")");
    }
    List<PartitionField> partitioning = new ArrayList<>();
    Map<String, String> properties = new LinkedHashMap<>();
    String query = null;
    while (peek().kind != Kind.END) {
      if (acceptWord("partitioned")) {
        expectWord("by");
        expectSymbol("(");
        do {
          partitioning.add(partitionField());
        } while (acceptSymbol(","));
        expectSymbol(")");
      } else if (acceptWord("with") || acceptWord("tblproperties")) {
        expectSymbol("(");
        do {
          String key = string();
          expectSymbol("=");
          String value = peek().kind == Kind.STRING ? string() : next().text;
          properties.put(key, value);
        } while (acceptSymbol(","));
        expectSymbol(")");
      } else if (acceptWord("as")) {
        query = sql.substring(peek().offset).trim();
        if (query.endsWith(";")) {
          query = query.substring(0, query.length() - 1);
        }
        break;
      } else if (peek().kind == Kind.SYMBOL && peek().text.equals(";")) {
        break;
      } else {
        throw error("unexpected '" + peek().text + "'");
      }
    }
    if (columns.isEmpty() && query == null) {
      throw error("a table needs columns or AS query");
    }
    return new CreateTable(name, ifNotExists, columns, partitioning, properties, query);
  }

  private PartitionField partitionField() {
    Token first = next();
    String word = first.kind == Kind.QUOTED ? first.text : first.text.toLowerCase(Locale.ROOT);
    if (first.kind == Kind.WORD && acceptSymbol("(")) {
      String transform = word.endsWith("s") && !word.equals("bucket") ? word.substring(0, word.length() - 1) : word;
      PartitionField field;
      switch (transform) {
        case "bucket":
        case "truncate":
          {
            int argument;
            String column;
            if (peek().kind == Kind.NUMBER) {
              argument = Integer.parseInt(next().text);
              expectSymbol(",");
              column = identifier();
            } else {
              column = identifier();
              expectSymbol(",");
              argument = Integer.parseInt(expect(Kind.NUMBER).text);
            }
            field = new PartitionField(transform, column, argument);
            break;
          }
        case "year":
        case "month":
        case "day":
        case "hour":
        case "identity":
          field = new PartitionField(transform, identifier(), 0);
          break;
        default:
          throw error("unknown partition transform " + word);
      }
      expectSymbol(")");
      return field;
    }
    return new PartitionField("identity", word, 0);
  }

  private DropTable drop() {
    expectWord("table");
    boolean ifExists = false;
    if (acceptWord("if")) {
      expectWord("exists");
      ifExists = true;
    }
    Name name = name();
    boolean purge = acceptWord("purge");
    return new DropTable(name, ifExists, purge);
  }

  private AlterTable alter() {
    expectWord("table");
    Name name = name();
    if (acceptWord("add")) {
      acceptWord("column");
      return new AlterTable(name, "add", column(), null, null);
    }
    if (acceptWord("drop")) {
      acceptWord("column");
      return new AlterTable(name, "drop", null, identifier(), null);
    }
    if (acceptWord("rename")) {
      expectWord("column");
      String from = identifier();
      expectWord("to");
      return new AlterTable(name, "rename", null, from, identifier());
    }
    if (acceptWord("alter")) {
      acceptWord("column");
      String column = identifier();
      if (acceptWord("set")) {
        acceptWord("data");
      }
      expectWord("type");
      Type type = type();
      return new AlterTable(name, "type", new Column(column, type, false, null), column, null);
    }
    throw error("expected ADD, DROP, RENAME or ALTER COLUMN");
  }

  private Column column() {
    String name = identifier();
    Type type = type();
    boolean required = false;
    String comment = null;
    while (true) {
      if (acceptWord("not")) {
        expectWord("null");
        required = true;
      } else if (acceptWord("null")) {
        required = false;
      } else if (acceptWord("comment")) {
        comment = string();
      } else {
        break;
      }
    }
    return new Column(name, type, required, comment);
  }

  /** Parses a type: SQL names, Spark/Flink names, and nested ARRAY, MAP, STRUCT / ROW. */
  Type type() {
    String word = word();
    switch (word) {
      case "boolean":
      case "bool":
        return Types.BooleanType.get();
      case "tinyint":
      case "smallint":
      case "int":
      case "integer":
        return Types.IntegerType.get();
      case "bigint":
      case "long":
        return Types.LongType.get();
      case "real":
        return Types.FloatType.get();
      case "float":
        {
          if (acceptSymbol("(")) {
            int p = number();
            expectSymbol(")");
            return p <= 24 ? Types.FloatType.get() : Types.DoubleType.get();
          }
          return Types.FloatType.get();
        }
      case "double":
        acceptWord("precision");
        return Types.DoubleType.get();
      case "decimal":
      case "numeric":
      case "dec":
        {
          int precision = 38;
          int scale = 0;
          if (acceptSymbol("(")) {
            precision = number();
            if (acceptSymbol(",")) {
              scale = number();
            }
            expectSymbol(")");
          }
          if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
            throw error("DECIMAL(" + precision + ", " + scale + ") is out of range");
          }
          return Types.DecimalType.of(precision, scale);
        }
      case "date":
        return Types.DateType.get();
      case "time":
        {
          optionalPrecision();
          if (acceptWord("without")) {
            expectWord("time");
            expectWord("zone");
          }
          return Types.TimeType.get();
        }
      case "timestamp":
        {
          int precision = optionalPrecision();
          boolean utc = false;
          if (acceptWord("with")) {
            acceptWord("local");
            expectWord("time");
            expectWord("zone");
            utc = true;
          } else if (acceptWord("without")) {
            expectWord("time");
            expectWord("zone");
          }
          return timestamp(precision, utc);
        }
      case "timestamp_ltz":
      case "timestamptz":
        return timestamp(optionalPrecision(), true);
      case "timestamp_ntz":
        return timestamp(optionalPrecision(), false);
      case "varchar":
      case "char":
      case "character":
      case "string":
      case "text":
        {
          acceptWord("varying");
          optionalPrecision();
          return Types.StringType.get();
        }
      case "uuid":
        return Types.UUIDType.get();
      case "binary":
        {
          if (acceptSymbol("(")) {
            int length = number();
            expectSymbol(")");
            return Types.FixedType.ofLength(length);
          }
          return Types.BinaryType.get();
        }
      case "fixed":
        {
          expectSymbol("(");
          int length = number();
          expectSymbol(")");
          return Types.FixedType.ofLength(length);
        }
      case "varbinary":
      case "bytes":
      case "blob":
        optionalPrecision();
        return Types.BinaryType.get();
      case "array":
      case "list":
        {
          expectSymbol("<");
          Type element = type();
          expectSymbol(">");
          return Types.ListType.ofOptional(0, element);
        }
      case "map":
        {
          expectSymbol("<");
          Type key = type();
          expectSymbol(",");
          Type value = type();
          expectSymbol(">");
          return Types.MapType.ofOptional(0, 0, key, value);
        }
      case "struct":
      case "row":
        {
          boolean angle = acceptSymbol("<");
          if (!angle) {
            expectSymbol("(");
          }
          List<Types.NestedField> fields = new ArrayList<>();
          do {
            String name = identifier();
            acceptSymbol(":");
            Type type = type();
            boolean required = false;
            if (acceptWord("not")) {
              expectWord("null");
              required = true;
            }
            String doc = acceptWord("comment") ? string() : null;
            fields.add(
                required
                    ? Types.NestedField.required(0, name, type, doc)
                    : Types.NestedField.optional(0, name, type, doc));
          } while (acceptSymbol(","));
          expectSymbol(angle ? ">" : ")");
          return Types.StructType.of(fields);
        }
      default:
        throw error("unknown type " + word.toUpperCase(Locale.ROOT));
    }
  }

  private Type timestamp(int precision, boolean utc) {
    if (precision > 6) {
      return utc ? Types.TimestampNanoType.withZone() : Types.TimestampNanoType.withoutZone();
    }
    return utc ? Types.TimestampType.withZone() : Types.TimestampType.withoutZone();
  }

  private int optionalPrecision() {
    if (acceptSymbol("(")) {
      int p = number();
      expectSymbol(")");
      return p;
    }
    return 6;
  }

  private Name name() {
    List<String> parts = new ArrayList<>();
    List<Boolean> quoted = new ArrayList<>();
    do {
      Token t = next();
      if (t.kind == Kind.QUOTED) {
        parts.add(t.text);
        quoted.add(true);
      } else if (t.kind == Kind.WORD) {
        parts.add(t.text.toLowerCase(Locale.ROOT));
        quoted.add(false);
      } else {
        throw error("expected a name, found '" + t.text + "'");
      }
    } while (acceptSymbol("."));
    return new Name(parts, quoted);
  }

  private String identifier() {
    Token t = next();
    if (t.kind == Kind.QUOTED) {
      return t.text;
    }
    if (t.kind == Kind.WORD) {
      return t.text.toLowerCase(Locale.ROOT);
    }
    throw error("expected a name, found '" + t.text + "'");
  }

  private String word() {
    Token t = next();
    if (t.kind != Kind.WORD) {
      throw error("expected a keyword, found '" + t.text + "'");
    }
    return t.text.toLowerCase(Locale.ROOT);
  }

  private String string() {
    return expect(Kind.STRING).text;
  }

  private int number() {
    return Integer.parseInt(expect(Kind.NUMBER).text);
  }

  private Token expect(Kind kind) {
    Token t = next();
    if (t.kind != kind) {
      throw error("expected " + kind.name().toLowerCase(Locale.ROOT) + ", found '" + t.text + "'");
    }
    return t;
  }

  private boolean isWord(String word) {
    return peek().kind == Kind.WORD && peek().text.equalsIgnoreCase(word);
  }

  private boolean acceptWord(String word) {
    if (isWord(word)) {
      pos++;
      return true;
    }
    return false;
  }

  private void expectWord(String word) {
    if (!acceptWord(word)) {
      throw error("expected " + word.toUpperCase(Locale.ROOT));
    }
  }

  private boolean acceptSymbol(String symbol) {
    if (peek().kind == Kind.SYMBOL && peek().text.equals(symbol)) {
      pos++;
      return true;
    }
    return false;
  }

  private void expectSymbol(String symbol) {
    if (!acceptSymbol(symbol)) {
      throw error("expected '" + symbol + "', found '" + peek().text + "'");
    }
  }

  private Token peek() {
    return tokens.get(pos);
  }

  private Token next() {
    Token t = tokens.get(pos);
    if (t.kind != Kind.END) {
      pos++;
    }
    return t;
  }

  private FloeException error(String what) {
    return FloeError.SYNTAX.error(what + " at position " + (peek().offset + 1) + " in: " + sql);
  }

  private static List<Token> tokenize(String sql) {
    List<Token> tokens = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '"' || c == '\'' || c == '`') {
        int start = i;
        StringBuilder text = new StringBuilder();
        i++;
        while (true) {
          if (i >= n) {
            throw FloeError.SYNTAX.error("unterminated " + (c == '\'' ? "string" : "name") + " in: " + sql);
          }
          char d = sql.charAt(i);
          if (d == c) {
            if (i + 1 < n && sql.charAt(i + 1) == c) {
              text.append(c);
              i += 2;
              continue;
            }
            i++;
            break;
          }
          text.append(d);
          i++;
        }
        tokens.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED, text.toString(), start));
      } else if (Character.isDigit(c)) {
        int start = i;
        while (i < n && Character.isDigit(sql.charAt(i))) {
          i++;
        }
        tokens.add(new Token(Kind.NUMBER, sql.substring(start, i), start));
      } else if (Character.isLetter(c) || c == '_') {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
          i++;
        }
        tokens.add(new Token(Kind.WORD, sql.substring(start, i), start));
      } else {
        tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), i));
        i++;
      }
    }
    tokens.add(new Token(Kind.END, "end of statement", n));
    return tokens;
  }

  /** Whether a statement is DDL that Floe runs itself (CREATE, DROP or ALTER). */
  static boolean isDdl(String sql) {
    List<Token> tokens;
    try {
      tokens = tokenize(sql);
    } catch (FloeException e) {
      return false;
    }
    if (tokens.isEmpty() || tokens.get(0).kind != Kind.WORD) {
      return false;
    }
    String first = tokens.get(0).text.toLowerCase(Locale.ROOT);
    return first.equals("create") || first.equals("drop") || first.equals("alter");
  }
}
