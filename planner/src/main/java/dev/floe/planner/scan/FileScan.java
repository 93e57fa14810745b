package dev.floe.planner.scan;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.planner.session.LakeSession;
import dev.floe.planner.spi.ExternalFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.parquet.InternalReader;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.MessageType;

/**
 * The table functions {@code read_parquet('<path or glob>')} and {@code read_csv('<path or glob>'
 * [, option => value ...])}: the files a path names, read as one table. The columns are fixed when
 * the statement is planned (a Parquet file's footer, or a CSV file's header and a sample of its
 * rows, or the column list given); the files are listed again when the statement runs.
 */
public final class FileScan {
  /** The table function. */
  public enum Kind {
    PARQUET("read_parquet"),
    CSV("read_csv");

    private final String functionName;

    Kind(String functionName) {
      this.functionName = functionName;
    }

    /** The SQL name. */
    public String functionName() {
      return functionName;
    }

    /** The function a name calls, ignoring case, or null. */
    public static Kind of(String name) {
      for (Kind kind : values()) {
        if (kind.functionName.equalsIgnoreCase(name)) {
          return kind;
        }
      }
      return null;
    }
  }

  /**
   * What one table-function call reads: the files of a path or glob, with the columns found when
   * the statement was planned.
   */
  public record Spec(
      LakeSession session, Kind kind, String pattern, CsvFormat csv, Schema schema, Schema read) {
    /** A call whose columns are those of its files. */
    Spec(LakeSession session, Kind kind, String pattern, CsvFormat csv, Schema schema) {
      this(session, kind, pattern, csv, schema, schema);
    }
  }

  private FileScan() {}

  /**
   * Plans a call: checks the options and finds the columns.
   *
   * @param options the named arguments, names in lower case, values as literals give them (String,
   *     Boolean, BigDecimal)
   */
  public static Spec plan(
      LakeSession session, Kind kind, String pattern, Map<String, Object> options) {
    ExternalFiles files = session.catalog().externalFiles();
    List<String> listed = files.list(pattern);
    if (kind == Kind.PARQUET) {
      if (!options.isEmpty()) {
        throw FloeError.VALIDATION.error(
            "read_parquet takes no option (" + String.join(", ", options.keySet()) + ")");
      }
      return new Spec(session, kind, pattern, null, parquetSchema(files, listed.get(0)));
    }
    CsvFormat format = CsvFormat.of(options);
    Schema read = format.schema(files, listed.get(0));
    return new Spec(session, kind, pattern, format, format.output(read), read);
  }

  /** The columns of a Parquet file, from its footer, every one nullable. */
  private static Schema parquetSchema(ExternalFiles files, String location) {
    MessageType type = footer(files.open(location), location);
    // every column nullable: a later file of the glob may hold nulls where the first has none
    List<Types.NestedField> columns = new ArrayList<>();
    for (Types.NestedField field : ParquetSchemaUtil.convert(type).columns()) {
      columns.add(field.asOptional());
    }
    return new Schema(columns);
  }

  /**
   * The Parquet schema in a file's footer.
   *
   * @throws FloeException IO (58030) naming the file when it is not a readable Parquet file
   */
  public static MessageType footer(InputFile input, String location) {
    try (ParquetFileReader reader = ParquetFileReader.open(ParquetCodecs.parquetInput(input))) {
      ParquetCodecs.check(reader.getFooter(), location);
      return reader.getFooter().getFileMetaData().getSchema();
    } catch (IOException | RuntimeException e) {
      if (e instanceof FloeException) {
        throw (FloeException) e;
      }
      throw FloeError.IO.error(
          e, location, "it is not a readable Parquet file: " + String.valueOf(e.getMessage()));
    }
  }

  /** Entry point for generated code. */
  public static Enumerable<Object[]> enumerable(DataContext root, Spec spec) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return new Rows(spec);
      }
    };
  }

  /** Entry point for generated code when rows have one column: the bare values. */
  public static Enumerable<Object> scalars(DataContext root, Spec spec) {
    return enumerable(root, spec).select(row -> row[0]);
  }

  /** The rows of every file in turn, read lazily, one file open at a time. */
  private static final class Rows implements Enumerator<Object[]> {
    private final Spec spec;
    private final ExternalFiles files;
    private final Iterator<String> locations;
    private final ValueConverter converter;
    private CloseableIterable<StructLike> parquet;
    private CloseableIterator<StructLike> parquetRows;
    private CsvFormat.Rows csvRows;
    private String file;
    private Object[] current;

    Rows(Spec spec) {
      this.spec = spec;
      this.files = spec.session().catalog().externalFiles();
      this.locations = files.list(spec.pattern()).iterator();
      this.converter = ValueConverter.toCalcite(spec.schema().asStruct());
    }

    @Override
    public Object[] current() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return current;
    }

    @Override
    public boolean moveNext() {
      try {
        while (true) {
          if (parquetRows != null && parquetRows.hasNext()) {
            current = (Object[]) converter.convert(parquetRows.next());
            return true;
          }
          if (csvRows != null) {
            Object[] row = csvRows.next();
            if (row != null) {
              current = row;
              return true;
            }
          }
          closeFile();
          if (!locations.hasNext()) {
            current = null;
            return false;
          }
          open(locations.next());
        }
      } catch (FloeException e) {
        throw e;
      } catch (RuntimeException e) {
        throw FloeError.IO.error(e, file, "it cannot be read: " + String.valueOf(e.getMessage()));
      }
    }

    private void open(String location) {
      file = location;
      InputFile input = files.open(location);
      if (spec.kind() == Kind.CSV) {
        csvRows = spec.csv().open(input, spec.read());
        return;
      }
      Schema schema = spec.schema();
      NameMapping mapping = MappingUtil.create(schema);
      parquet =
          Parquet.read(input)
              .project(schema)
              .withNameMapping(mapping)
              .createReaderFunc(fileSchema -> InternalReader.create(schema, fileSchema))
              .build();
      parquetRows = parquet.iterator();
    }

    private void closeFile() {
      try {
        if (parquetRows != null) {
          parquetRows.close();
        }
        if (parquet != null) {
          parquet.close();
        }
        if (csvRows != null) {
          csvRows.close();
        }
      } catch (IOException e) {
        // a file read to its end; nothing is lost by a failed close
      } finally {
        parquetRows = null;
        parquet = null;
        csvRows = null;
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      closeFile();
    }
  }

  /** A lower-case option name. */
  static String optionName(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  /** The column names of a schema, for messages. */
  static List<String> names(Schema schema) {
    List<String> names = new ArrayList<>();
    for (Types.NestedField field : schema.columns()) {
      names.add(field.name());
    }
    return names;
  }
}
