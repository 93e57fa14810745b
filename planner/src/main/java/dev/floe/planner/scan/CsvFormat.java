package dev.floe.planner.scan;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.spi.ExternalFiles;
import dev.floe.planner.type.LakeTypes;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Schema;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * How {@code read_csv} reads a CSV file: its options, the columns (from a header and a sample of
 * rows, or a column list), and each value converted to its column's type. An empty field is NULL. A
 * value that does not fit its column is 22018 (22007 for dates and timestamps, 22003 for numbers
 * out of range), naming the file, the line and the column.
 */
public final class CsvFormat {
  /** The options read_csv takes, for messages. */
  static final List<String> OPTIONS =
      List.of(
          "header",
          "delimiter",
          "quote",
          "escape_char",
          "columns",
          "sample_size",
          "skip_rows",
          "ignore_errors",
          "rejects");

  /**
   * The columns of {@code read_csv(..., rejects => true)}: one row for each value that does not fit
   * its column, or for each line with another number of values than the columns (column and value
   * NULL), with the SQLState and the message reading it without {@code ignore_errors} would fail
   * with (docs/etl.md, "Loading files").
   */
  static final Schema REJECTS =
      new Schema(
          Types.NestedField.optional(1, "file_name", Types.StringType.get()),
          Types.NestedField.optional(2, "line", Types.LongType.get()),
          Types.NestedField.optional(3, "column_name", Types.StringType.get()),
          Types.NestedField.optional(4, "csv_value", Types.StringType.get()),
          Types.NestedField.optional(5, "sql_state", Types.StringType.get()),
          Types.NestedField.optional(6, "error_message", Types.StringType.get()));

  private static final CsvMapper MAPPER = new CsvMapper();

  private static final DateTimeFormatter TIMESTAMP =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .optionalStart()
          .appendLiteral('T')
          .optionalEnd()
          .optionalStart()
          .appendLiteral(' ')
          .optionalEnd()
          .appendPattern("HH:mm")
          .optionalStart()
          .appendPattern(":ss")
          .optionalEnd()
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .toFormatter(Locale.ROOT);

  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d{1,18}");
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
  private static final Pattern DATE_TEXT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final Pattern DATETIME =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?");
  private static final Pattern COLUMN =
      Pattern.compile(
          "\\s*(\"[^\"]+\"|[A-Za-z_][A-Za-z0-9_$]*)\\s+([A-Za-z_ ]+?)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?\\s*");

  private final boolean header;
  private final char delimiter;
  private final char quote;
  private final int escape;
  private final Schema columns;
  private final int sampleSize;
  private final int skip;
  private final boolean ignoreErrors;
  private final boolean rejects;

  private CsvFormat(
      boolean header,
      char delimiter,
      char quote,
      int escape,
      Schema columns,
      int sampleSize,
      int skip,
      boolean ignoreErrors,
      boolean rejects) {
    this.header = header;
    this.delimiter = delimiter;
    this.quote = quote;
    this.escape = escape;
    this.columns = columns;
    this.sampleSize = sampleSize;
    this.skip = skip;
    this.ignoreErrors = ignoreErrors;
    this.rejects = rejects;
  }

  /** The format the options of a call describe. */
  static CsvFormat of(Map<String, Object> options) {
    boolean header = true;
    char delimiter = ',';
    char quote = '"';
    int escape = -1;
    Schema columns = null;
    int sampleSize = 10_000;
    int skip = 0;
    boolean ignoreErrors = false;
    boolean rejects = false;
    for (Map.Entry<String, Object> option : options.entrySet()) {
      String name = option.getKey();
      Object value = option.getValue();
      switch (name) {
        case "header" -> header = bool(name, value);
        case "delimiter", "delim", "sep" -> delimiter = character(name, value);
        case "quote" -> quote = character(name, value);
        case "escape", "escape_char" -> escape = character(name, value);
        case "columns" -> columns = columns(string(name, value));
        case "sample_size" -> sampleSize = count(name, value, 1);
        case "skip", "skip_rows" -> skip = count(name, value, 0);
        case "ignore_errors" -> ignoreErrors = bool(name, value);
        case "rejects" -> rejects = bool(name, value);
        default ->
            throw FloeError.VALIDATION.error(
                "read_csv has no option "
                    + name
                    + "; its options are "
                    + String.join(", ", OPTIONS));
      }
    }
    return new CsvFormat(
        header, delimiter, quote, escape, columns, sampleSize, skip, ignoreErrors, rejects);
  }

  private static boolean bool(String name, Object value) {
    if (value instanceof Boolean) {
      return (Boolean) value;
    }
    throw optionType(name, "true or false", value);
  }

  private static char character(String name, Object value) {
    String text = string(name, value);
    String unescaped = text.equals("\\t") ? "\t" : text;
    if (unescaped.length() != 1) {
      throw optionType(name, "one character", value);
    }
    return unescaped.charAt(0);
  }

  private static String string(String name, Object value) {
    if (value instanceof String) {
      return (String) value;
    }
    throw optionType(name, "a string", value);
  }

  private static int count(String name, Object value, int min) {
    if (value instanceof BigDecimal) {
      try {
        int n = ((BigDecimal) value).intValueExact();
        if (n >= min) {
          return n;
        }
      } catch (ArithmeticException e) {
        // falls through to the error
      }
    }
    throw optionType(name, "a whole number of at least " + min, value);
  }

  private static FloeException optionType(String name, String expected, Object value) {
    return FloeError.VALIDATION.error(
        "read_csv option " + name + " must be " + expected + ", not " + value);
  }

  /** A column list such as {@code id INT, name VARCHAR, amount DECIMAL(10, 2)}. */
  static Schema columns(String list) {
    List<Types.NestedField> fields = new ArrayList<>();
    List<String> names = new ArrayList<>();
    int id = 1;
    for (String item : splitTopLevel(list)) {
      Matcher m = COLUMN.matcher(item);
      if (!m.matches()) {
        throw FloeError.VALIDATION.error(
            "read_csv columns must read 'name TYPE, ...', not '" + item.trim() + "'");
      }
      String name = m.group(1);
      name = name.startsWith("\"") ? name.substring(1, name.length() - 1) : name;
      ColumnNames.checkNew(names, name, "read_csv columns");
      names.add(name);
      Type type = type(m.group(2).trim().toUpperCase(Locale.ROOT), m.group(3), m.group(4));
      fields.add(Types.NestedField.optional(id++, name, type));
    }
    if (fields.isEmpty()) {
      throw FloeError.VALIDATION.error("read_csv columns name no column");
    }
    return new Schema(fields);
  }

  private static List<String> splitTopLevel(String list) {
    List<String> items = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        items.add(list.substring(start, i));
        start = i + 1;
      }
    }
    if (!list.substring(start).isBlank()) {
      items.add(list.substring(start));
    }
    return items;
  }

  /**
   * A type of read_csv's column list, named as CREATE TABLE names it ({@link LakeTypes}); read_csv
   * reads booleans, numbers, dates, timestamps without time zone (in microseconds) and text.
   */
  private static Type type(String name, String precision, String scale) {
    Type type = LakeTypes.icebergType(name, size(precision), size(scale));
    if (type == null || !(type instanceof Types.DecimalType || READ.contains(type))) {
      throw FloeError.VALIDATION.error(
          "read_csv columns: "
              + (type == null ? "unknown type " : "cannot read type ")
              + name
              + " (BOOLEAN, INT, BIGINT, REAL, DOUBLE, DECIMAL(p, s), DATE, TIMESTAMP, VARCHAR)");
    }
    return type;
  }

  /** A precision or scale as written (digits), or -1; one of more than nine digits is too large. */
  private static int size(String digits) {
    if (digits == null) {
      return -1;
    }
    return digits.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(digits);
  }

  /** The types other than DECIMAL that read_csv reads from text. */
  private static final Set<Type> READ =
      Set.of(
          Types.BooleanType.get(),
          Types.IntegerType.get(),
          Types.LongType.get(),
          Types.FloatType.get(),
          Types.DoubleType.get(),
          Types.DateType.get(),
          Types.TimestampType.withoutZone(),
          Types.StringType.get());

  /**
   * The columns a call answers: those of the files, or {@link #REJECTS} when it lists the values
   * that do not fit.
   */
  Schema output(Schema read) {
    return rejects ? REJECTS : read;
  }

  /** The columns of the files: the column list, else the first file's header and sample. */
  Schema schema(ExternalFiles files, String location) {
    if (columns != null) {
      return columns;
    }
    List<String> names = null;
    List<Kind> kinds = new ArrayList<>();
    try (Reader reader = open(files.open(location).newStream(), location)) {
      MappingIterator<String[]> lines = lines(reader, location);
      int sampled = 0;
      while (lines.hasNextValue() && sampled < sampleSize + (header ? 1 : 0)) {
        String[] line = lines.nextValue();
        if (names == null) {
          names = new ArrayList<>();
          for (int i = 0; i < line.length; i++) {
            names.add(header ? line[i].trim() : "column" + i);
            kinds.add(Kind.NONE);
          }
          if (header) {
            continue;
          }
        }
        sampled++;
        for (int i = 0; i < Math.min(line.length, kinds.size()); i++) {
          kinds.set(i, kinds.get(i).widen(line[i]));
        }
      }
    } catch (IOException | RuntimeException e) {
      throw failure(e, location, -1);
    }
    if (names == null) {
      throw FloeError.IO.error(location, "the file is empty: read_csv finds no columns in it");
    }
    List<Types.NestedField> fields = new ArrayList<>();
    List<String> unique = ColumnNames.fromHeader(names);
    for (int i = 0; i < unique.size(); i++) {
      fields.add(Types.NestedField.optional(i + 1, unique.get(i), kinds.get(i).type()));
    }
    return new Schema(fields);
  }

  private Reader open(InputStream stream, String location) throws IOException {
    Reader reader =
        new java.io.BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8), 1 << 16);
    reader.mark(1);
    if (reader.read() != '\uFEFF') {
      reader.reset();
    }
    return reader;
  }

  private MappingIterator<String[]> lines(Reader reader, String location) throws IOException {
    CsvSchema schema =
        CsvSchema.emptySchema().withColumnSeparator(delimiter).withQuoteChar(quote).withoutHeader();
    if (escape >= 0) {
      schema = schema.withEscapeChar((char) escape);
    }
    MappingIterator<String[]> lines =
        MAPPER
            .readerFor(String[].class)
            .with(schema)
            .with(CsvParser.Feature.WRAP_AS_ARRAY)
            .without(CsvParser.Feature.SKIP_EMPTY_LINES)
            .readValues(reader);
    for (int i = 0; i < skip && lines.hasNextValue(); i++) {
      lines.nextValue();
    }
    return lines;
  }

  /** Opens a file for reading rows of a schema. */
  Rows open(InputFile input, Schema schema) {
    String location = input.location();
    try {
      java.io.Reader text = open(input.newStream(), location);
      MappingIterator<String[]> lines = lines(text, location);
      if (header && lines.hasNextValue()) {
        lines.nextValue();
      }
      return new Rows(location, lines, text, schema);
    } catch (IOException | RuntimeException e) {
      throw failure(e, location, -1);
    }
  }

  private static FloeException failure(Exception e, String location, long line) {
    if (e instanceof FloeException) {
      return (FloeException) e;
    }
    if (e instanceof org.apache.iceberg.exceptions.NotFoundException
        || e instanceof java.io.FileNotFoundException
        || e instanceof java.io.UncheckedIOException && e.getCause() != null) {
      return FloeError.IO.error(e, location, "it cannot be read: " + e.getMessage());
    }
    return FloeError.IO.error(
        e,
        location + (line > 0 ? " line " + line : ""),
        "it is not readable CSV: " + String.valueOf(e.getMessage()));
  }

  /** The rows of one file, each value of its column's type in Calcite's runtime form. */
  final class Rows implements java.io.Closeable {
    private final String location;
    private final MappingIterator<String[]> lines;
    private final java.io.Reader text;
    private final Types.NestedField[] fields;
    private final java.util.ArrayDeque<Object[]> pending = new java.util.ArrayDeque<>();

    Rows(String location, MappingIterator<String[]> lines, java.io.Reader text, Schema schema) {
      this.location = location;
      this.lines = lines;
      this.text = text;
      this.fields = schema.columns().toArray(new Types.NestedField[0]);
    }

    /**
     * The next row, or null at the end: a row of the file's values, or with {@code rejects} a row
     * of {@link #REJECTS}. With {@code ignore_errors} a line whose values do not fit is skipped.
     */
    Object[] next() {
      while (true) {
        if (!pending.isEmpty()) {
          return pending.poll();
        }
        String[] line;
        long lineNumber;
        try {
          if (!lines.hasNextValue()) {
            return null;
          }
          lineNumber = lines.getCurrentLocation().getLineNr();
          line = lines.nextValue();
        } catch (IOException | RuntimeException e) {
          throw failure(e, location, lines.getCurrentLocation().getLineNr());
        }
        if (line.length == 1 && line[0].isEmpty() && fields.length > 1) {
          continue; // an empty line
        }
        if (line.length != fields.length) {
          FloeException wrong =
              FloeError.INVALID_CAST.error(
                  "line " + lineNumber + " of " + location,
                  "it has " + line.length + " values, and the file " + fields.length + " columns");
          if (rejects) {
            return reject(lineNumber, null, null, wrong);
          }
          if (ignoreErrors) {
            continue;
          }
          throw wrong;
        }
        Object[] row = new Object[fields.length];
        boolean fits = true;
        for (int i = 0; i < fields.length; i++) {
          try {
            row[i] = value(line[i], fields[i], lineNumber);
          } catch (FloeException e) {
            if (!rejects && !ignoreErrors) {
              throw e;
            }
            fits = false;
            if (!rejects) {
              break;
            }
            pending.add(reject(lineNumber, fields[i].name(), line[i], e));
          }
        }
        if (fits && !rejects) {
          return row;
        }
      }
    }

    private Object[] reject(long line, String column, String text, FloeException e) {
      return new Object[] {
        location, line, column, text, e.sqlState(), String.valueOf(e.getMessage())
      };
    }

    private Object value(String text, Types.NestedField field, long line) {
      if (text.isEmpty()) {
        return null;
      }
      String where =
          "'" + shorten(text) + "' in " + location + " line " + line + " column " + field.name();
      String trimmed = text.trim();
      try {
        switch (field.type().typeId()) {
          case BOOLEAN:
            if (trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("t")) {
              return Boolean.TRUE;
            }
            if (trimmed.equalsIgnoreCase("false") || trimmed.equalsIgnoreCase("f")) {
              return Boolean.FALSE;
            }
            throw FloeError.INVALID_CAST.error(where, "it is not a BOOLEAN");
          case INTEGER:
            return (int) integer(trimmed, where, Integer.MIN_VALUE, Integer.MAX_VALUE, "INT");
          case LONG:
            return integer(trimmed, where, Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
          case FLOAT:
            return Float.parseFloat(trimmed);
          case DOUBLE:
            return Double.parseDouble(trimmed);
          case DECIMAL:
            {
              Types.DecimalType decimal = (Types.DecimalType) field.type();
              BigDecimal value =
                  new BigDecimal(trimmed).setScale(decimal.scale(), RoundingMode.HALF_UP);
              if (value.precision() > decimal.precision()) {
                throw FloeError.NUMERIC_OUT_OF_RANGE.error(where, "it does not fit " + decimal);
              }
              return value;
            }
          case DATE:
            try {
              return (int) LocalDate.parse(trimmed).toEpochDay();
            } catch (DateTimeParseException e) {
              throw FloeError.INVALID_DATETIME.error(e, where, "it is not a DATE (YYYY-MM-DD)");
            }
          case TIMESTAMP:
            try {
              LocalDateTime time = LocalDateTime.parse(trimmed, TIMESTAMP);
              return ChronoUnit.MICROS.between(
                  LocalDateTime.ofEpochSecond(0, 0, ZoneOffset.UTC), time);
            } catch (DateTimeParseException | ArithmeticException e) {
              throw FloeError.INVALID_DATETIME.error(
                  e, where, "it is not a TIMESTAMP (YYYY-MM-DD HH:MM:SS[.fraction])");
            }
          default:
            return text;
        }
      } catch (NumberFormatException e) {
        throw FloeError.INVALID_CAST.error(e, where, "it is not a number of type " + field.type());
      }
    }

    private long integer(String text, String where, long min, long max, String type) {
      long value;
      try {
        value = Long.parseLong(text);
      } catch (NumberFormatException e) {
        if (DECIMAL.matcher(text).matches()) {
          throw FloeError.NUMERIC_OUT_OF_RANGE.error(where, "it does not fit " + type);
        }
        throw FloeError.INVALID_CAST.error(e, where, "it is not an integer");
      }
      if (value < min || value > max) {
        throw FloeError.NUMERIC_OUT_OF_RANGE.error(where, "it does not fit " + type);
      }
      return value;
    }

    @Override
    public void close() throws IOException {
      try {
        lines.close();
      } finally {
        text.close();
      }
    }
  }

  private static String shorten(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "...";
  }

  /** What a sample of a column's values fits, narrowest first. */
  private enum Kind {
    NONE,
    BOOLEAN,
    BIGINT,
    DOUBLE,
    DATE,
    TIMESTAMP,
    VARCHAR;

    Kind widen(String value) {
      if (value.isEmpty() || this == VARCHAR) {
        return this;
      }
      Kind kind = of(value.trim());
      if (this == NONE || this == kind) {
        return kind;
      }
      if ((this == BIGINT && kind == DOUBLE) || (this == DOUBLE && kind == BIGINT)) {
        return DOUBLE;
      }
      return VARCHAR;
    }

    private static Kind of(String value) {
      if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
        return BOOLEAN;
      }
      if (INTEGER.matcher(value).matches()) {
        return BIGINT;
      }
      if (DECIMAL.matcher(value).matches()) {
        return DOUBLE;
      }
      if (DATE_TEXT.matcher(value).matches()) {
        return DATE;
      }
      if (DATETIME.matcher(value).matches()) {
        return TIMESTAMP;
      }
      return VARCHAR;
    }

    Type type() {
      return switch (this) {
        case BOOLEAN -> Types.BooleanType.get();
        case BIGINT -> Types.LongType.get();
        case DOUBLE -> Types.DoubleType.get();
        case DATE -> Types.DateType.get();
        case TIMESTAMP -> Types.TimestampType.withoutZone();
        default -> Types.StringType.get();
      };
    }
  }
}
