package dev.floe.planner.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.parquet.VectorizedReader;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Decodes the flat columns of a Parquet file a batch at a time, page by page, straight into the
 * values Calcite's runtime holds: each dictionary entry is decoded (and boxed) once per column
 * chunk, so dictionary-encoded columns cost one array lookup per value; plain-encoded numbers are
 * read straight from the page buffer. Iceberg's reader drives it ({@link VectorizedReader}): it
 * opens the file, projects columns by field id, skips row groups by statistics, dictionaries and
 * bloom filters, and honours the task's split.
 *
 * <p>Handles booleans, ints, longs, floats, doubles, dates, times, timestamps, strings and decimals
 * of at most 18 digits stored as Parquet INT32 or INT64 (as Iceberg writes them), with Iceberg's
 * promotions (int to long, float to double) and columns missing from older files; any other column
 * makes the reader {@link #decodes() decode nothing}, and the task is read row by row.
 *
 * <p>Definition levels and dictionary ids are decoded a run at a time ({@link HybridDecoder}).
 * Asked {@link #intoVectors()}, the reader fills primitive {@link ColumnVector}s instead of boxed
 * values (dictionaries then decoded whole into primitive arrays), for the aggregating scan.
 */
final class BatchReader implements VectorizedReader<ColumnBatch> {
  /** Rows per batch: enough to amortize the per-batch work, few enough to stay in cache. */
  static final int BATCH_ROWS = 4096;

  private final Column[] columns;
  private long nextPosition;
  private java.util.function.LongConsumer onRowGroup;
  private ColumnVector[] vectors;

  private BatchReader(Column[] columns) {
    this.columns = columns;
  }

  /**
   * A reader for a file with a column this class cannot decode: it reads nothing, and the caller,
   * seeing {@link #decodes()} false, closes the file and reads it row by row. (Failing inside
   * Iceberg's file opening instead would leave the file open.)
   */
  private static final BatchReader UNSUPPORTED = new BatchReader(null);

  /**
   * A reader of {@code readSchema}'s columns from a file whose Parquet schema (with field ids) is
   * {@code fileSchema}; identity-partition values and others that are constant for the task come
   * from {@code constants}, in Iceberg's internal form.
   *
   * <p>Where a column cannot be decoded here, the reader {@link #decodes() decodes} nothing.
   */
  static BatchReader create(Schema readSchema, MessageType fileSchema, Map<Integer, ?> constants) {
    try {
      return columns(readSchema, fileSchema, constants);
    } catch (Unsupported e) {
      return UNSUPPORTED;
    }
  }

  /**
   * Makes {@link #read} fill {@link ColumnBatch#vectors} (primitive arrays, reused from batch to
   * batch: a batch is valid until the next is read) instead of {@link ColumnBatch#columns}.
   */
  BatchReader intoVectors() {
    if (decodes()) {
      vectors = new ColumnVector[columns.length];
      for (int c = 0; c < columns.length; c++) {
        vectors[c] = new ColumnVector(columns[c].kind, columns[c].scale);
        columns[c].vectors = true;
      }
    }
    return this;
  }

  /** Whether this reader decodes the file; false: read it row by row. */
  boolean decodes() {
    return columns != null;
  }

  private static BatchReader columns(
      Schema readSchema, MessageType fileSchema, Map<Integer, ?> constants) {
    List<Types.NestedField> fields = readSchema.columns();
    Column[] columns = new Column[fields.size()];
    for (int i = 0; i < columns.length; i++) {
      Types.NestedField field = fields.get(i);
      Decoding decoding;
      ColumnDescriptor descriptor = null;
      Object constant = null;
      if (constants.containsKey(field.fieldId())) {
        decoding = Decoding.CONSTANT;
        constant = calciteValue(field.type(), constants.get(field.fieldId()));
      } else {
        descriptor = find(fileSchema, field.fieldId());
        if (descriptor == null) {
          decoding = Decoding.CONSTANT;
          constant = calciteValue(field.type(), field.initialDefault());
        } else {
          decoding = Decoding.of(field.type(), descriptor);
        }
      }
      columns[i] =
          new Column(
              decoding,
              descriptor,
              constant,
              ColumnVector.kindOf(field.type()),
              field.type() instanceof Types.DecimalType decimal ? decimal.scale() : 0);
    }
    return new BatchReader(columns);
  }

  private static Object calciteValue(Type type, Object internal) {
    if (internal == null) {
      return null;
    }
    if (Decoding.supportedType(type) == null) {
      throw new Unsupported();
    }
    return ValueConverter.toCalcite(type).convert(internal);
  }

  /** The leaf column of a top-level field, by field id, or null when the file lacks it. */
  private static ColumnDescriptor find(MessageType fileSchema, int fieldId) {
    for (org.apache.parquet.schema.Type field : fileSchema.getFields()) {
      if (field.getId() != null && field.getId().intValue() == fieldId) {
        if (!field.isPrimitive()
            || field.isRepetition(org.apache.parquet.schema.Type.Repetition.REPEATED)) {
          throw new Unsupported();
        }
        return fileSchema.getColumnDescription(new String[] {field.getName()});
      }
    }
    return null;
  }

  /** Whether every column of {@code schema} has a type this reader decodes. */
  static boolean canRead(Schema schema) {
    for (Types.NestedField field : schema.columns()) {
      if (Decoding.supportedType(field.type()) == null) {
        return false;
      }
    }
    return true;
  }

  /** Tells a reader that decodes its file whom to tell of each row group it starts (rows). */
  void onRowGroup(java.util.function.LongConsumer listener) {
    if (!decodes()) {
      throw new IllegalStateException("Cannot watch a reader that does not decode its file");
    }
    this.onRowGroup = listener;
  }

  @Override
  public void setBatchSize(int size) {
    // Iceberg passes the size of every batch to read(); nothing to keep.
  }

  @Override
  public void setRowGroupInfo(PageReadStore pages, Map<ColumnPath, ColumnChunkMetaData> metadata) {
    if (!decodes()) {
      return;
    }
    if (onRowGroup != null) {
      onRowGroup.accept(pages.getRowCount());
    }
    this.nextPosition =
        pages
            .getRowIndexOffset()
            .orElseThrow(
                () -> new IllegalStateException("Cannot read row positions of a row group"));
    for (Column column : columns) {
      column.startRowGroup(pages);
    }
  }

  @Override
  public ColumnBatch read(ColumnBatch reuse, int rows) {
    if (!decodes()) {
      throw new IllegalStateException("Cannot decode this file in batches");
    }
    if (vectors != null) {
      for (int c = 0; c < columns.length; c++) {
        columns[c].read(vectors[c], rows);
      }
      ColumnBatch batch = new ColumnBatch(vectors, rows, nextPosition);
      nextPosition += rows;
      return batch;
    }
    Object[][] values = new Object[columns.length][];
    for (int c = 0; c < columns.length; c++) {
      values[c] = new Object[rows];
      columns[c].read(values[c], rows);
    }
    ColumnBatch batch = new ColumnBatch(values, rows, nextPosition);
    nextPosition += rows;
    return batch;
  }

  @Override
  public void close() {}

  /** Thrown while the columns are set up when one of them cannot be decoded here. */
  private static final class Unsupported extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unsupported() {
      super("column not supported by the batch reader", null, false, false);
    }
  }

  /** How a column's physical values become Calcite's. */
  private enum Decoding {
    CONSTANT,
    BOOLEAN,
    INT,
    INT_TO_LONG,
    LONG,
    MILLIS_TO_MICROS,
    FLOAT,
    FLOAT_TO_DOUBLE,
    DOUBLE,
    STRING,
    /** A DECIMAL stored as INT32 unscaled values. */
    DECIMAL_INT,
    /** A DECIMAL stored as INT64 unscaled values. */
    DECIMAL_LONG;

    /** The Iceberg types this reader produces values for, or null. */
    static Type.TypeID supportedType(Type type) {
      switch (type.typeId()) {
        case BOOLEAN:
        case INTEGER:
        case LONG:
        case FLOAT:
        case DOUBLE:
        case DATE:
        case TIME:
        case TIMESTAMP:
        case TIMESTAMP_NANO:
        case STRING:
          return type.typeId();
        case DECIMAL:
          return ((Types.DecimalType) type).precision() <= ColumnVector.MAX_LONG_PRECISION
              ? type.typeId()
              : null;
        default:
          return null;
      }
    }

    static Decoding of(Type type, ColumnDescriptor descriptor) {
      if (descriptor.getMaxRepetitionLevel() > 0 || supportedType(type) == null) {
        throw new Unsupported();
      }
      PrimitiveType primitive = descriptor.getPrimitiveType();
      LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
      switch (primitive.getPrimitiveTypeName()) {
        case BOOLEAN:
          if (type.typeId() == Type.TypeID.BOOLEAN) {
            return BOOLEAN;
          }
          break;
        case INT32:
          if (decimal(type, logical)) {
            return DECIMAL_INT;
          }
          if (type.typeId() == Type.TypeID.INTEGER || type.typeId() == Type.TypeID.DATE) {
            return INT;
          }
          if (type.typeId() == Type.TypeID.LONG) {
            return INT_TO_LONG;
          }
          break;
        case INT64:
          if (decimal(type, logical)) {
            return DECIMAL_LONG;
          }
          if (type.typeId() == Type.TypeID.LONG) {
            return LONG;
          }
          if (type.typeId() == Type.TypeID.TIME
              && logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation
              && ((LogicalTypeAnnotation.TimeLogicalTypeAnnotation) logical).getUnit()
                  == LogicalTypeAnnotation.TimeUnit.MICROS) {
            return LONG;
          }
          if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
            LogicalTypeAnnotation.TimeUnit unit =
                ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) logical).getUnit();
            if (type.typeId() == Type.TypeID.TIMESTAMP) {
              if (unit == LogicalTypeAnnotation.TimeUnit.MICROS) {
                return LONG;
              }
              if (unit == LogicalTypeAnnotation.TimeUnit.MILLIS) {
                return MILLIS_TO_MICROS;
              }
            } else if (type.typeId() == Type.TypeID.TIMESTAMP_NANO
                && unit == LogicalTypeAnnotation.TimeUnit.NANOS) {
              return LONG;
            }
          }
          break;
        case FLOAT:
          if (type.typeId() == Type.TypeID.FLOAT) {
            return FLOAT;
          }
          if (type.typeId() == Type.TypeID.DOUBLE) {
            return FLOAT_TO_DOUBLE;
          }
          break;
        case DOUBLE:
          if (type.typeId() == Type.TypeID.DOUBLE) {
            return DOUBLE;
          }
          break;
        case BINARY:
          if (type.typeId() == Type.TypeID.STRING
              && (logical == null
                  || logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation)) {
            return STRING;
          }
          break;
        default:
          break;
      }
      throw new Unsupported();
    }

    /** Whether a DECIMAL column's file values are unscaled integers of its scale. */
    private static boolean decimal(Type type, LogicalTypeAnnotation logical) {
      return type instanceof Types.DecimalType decimal
          && logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation annotation
          && annotation.getScale() == decimal.scale()
          && annotation.getPrecision() <= decimal.precision();
    }
  }

  /** One column's decoding state, carried from page to page within a row group. */
  private static final class Column {
    private final Decoding decoding;
    private final ColumnDescriptor descriptor;
    private final Object constant;
    private final ColumnVector.Kind kind;
    private final int scale;
    private final int maxDefinition;
    private boolean vectors;
    private boolean[] dictionaryBooleans;
    private int[] dictionaryInts;
    private long[] dictionaryLongs;
    private float[] dictionaryFloats;
    private double[] dictionaryDoubles;
    private PageReader pages;
    private Object[] dictionary;
    private Dictionary parquetDictionary;
    private int pageRemaining;
    private ValuesReader definitionReader;
    private HybridDecoder levels;
    private HybridDecoder ids;
    private int[] idBuffer;
    private ValuesReader valuesReader;
    private boolean dictionaryPage;
    private ByteBuffer plain;

    Column(
        Decoding decoding,
        ColumnDescriptor descriptor,
        Object constant,
        ColumnVector.Kind kind,
        int scale) {
      this.decoding = decoding;
      this.descriptor = descriptor;
      this.constant = constant;
      this.kind = kind;
      this.scale = scale;
      this.maxDefinition = descriptor == null ? 0 : descriptor.getMaxDefinitionLevel();
    }

    void startRowGroup(PageReadStore store) {
      if (decoding == Decoding.CONSTANT) {
        return;
      }
      this.pages = store.getPageReader(descriptor);
      this.pageRemaining = 0;
      this.dictionary = null;
      this.parquetDictionary = null;
      DictionaryPage page = pages.readDictionaryPage();
      if (page != null) {
        try {
          parquetDictionary = page.getEncoding().initDictionary(descriptor, page);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        // Converted on first use: a LIMIT that reads a few rows decodes few entries.
        dictionary = new Object[parquetDictionary.getMaxId() + 1];
        if (vectors) {
          primitiveDictionary(parquetDictionary.getMaxId() + 1);
        }
      }
    }

    /** Decodes a dictionary's entries into a primitive array, for vectors. */
    private void primitiveDictionary(int size) {
      dictionaryBooleans = null;
      dictionaryInts = null;
      dictionaryLongs = null;
      dictionaryFloats = null;
      dictionaryDoubles = null;
      switch (kind) {
        case BOOLEAN:
          dictionaryBooleans = new boolean[size];
          for (int i = 0; i < size; i++) {
            dictionaryBooleans[i] = (Boolean) fromDictionary(parquetDictionary, i);
          }
          break;
        case INT:
          dictionaryInts = new int[size];
          for (int i = 0; i < size; i++) {
            dictionaryInts[i] = parquetDictionary.decodeToInt(i);
          }
          break;
        case LONG:
          dictionaryLongs = new long[size];
          for (int i = 0; i < size; i++) {
            dictionaryLongs[i] = (Long) fromDictionary(parquetDictionary, i);
          }
          break;
        case DECIMAL:
          dictionaryLongs = new long[size];
          for (int i = 0; i < size; i++) {
            dictionaryLongs[i] =
                decoding == Decoding.DECIMAL_INT
                    ? parquetDictionary.decodeToInt(i)
                    : parquetDictionary.decodeToLong(i);
          }
          break;
        case FLOAT:
          dictionaryFloats = new float[size];
          for (int i = 0; i < size; i++) {
            dictionaryFloats[i] = parquetDictionary.decodeToFloat(i);
          }
          break;
        case DOUBLE:
          dictionaryDoubles = new double[size];
          for (int i = 0; i < size; i++) {
            dictionaryDoubles[i] = (Double) fromDictionary(parquetDictionary, i);
          }
          break;
        default:
          break; // strings: the boxed dictionary, filled on first use
      }
    }

    /** Fills rows {@code [0, rows)} of {@code out} with the next {@code rows} values. */
    void read(ColumnVector out, int rows) {
      out.reset(rows);
      if (decoding == Decoding.CONSTANT) {
        for (int i = 0; i < rows; i++) {
          out.set(i, constant);
        }
        return;
      }
      int filled = 0;
      while (filled < rows) {
        if (pageRemaining == 0) {
          nextPage();
        }
        int take = Math.min(rows - filled, pageRemaining);
        if (maxDefinition == 0) {
          readValues(out, filled, take);
        } else {
          int present = 0;
          boolean[] nulls = out.nulls;
          if (levels != null) {
            present = levels.levels(nulls, filled, take, maxDefinition);
          } else {
            for (int i = 0; i < take; i++) {
              if (definition() == maxDefinition) {
                present++;
              } else {
                nulls[filled + i] = true;
              }
            }
          }
          if (present == take) {
            readValues(out, filled, take);
          } else {
            out.anyNull = true;
            for (int i = 0; i < take; i++) {
              if (!nulls[filled + i]) {
                readValue(out, filled + i);
              }
            }
          }
        }
        filled += take;
        pageRemaining -= take;
      }
    }

    /** The next {@code n} dictionary ids, in a buffer reused from call to call. */
    private int[] ids(int n) {
      if (idBuffer == null || idBuffer.length < n) {
        idBuffer = new int[Math.max(n, BATCH_ROWS)];
      }
      ids.read(idBuffer, 0, n);
      return idBuffer;
    }

    /** Reads {@code n} values (none NULL) into rows {@code from...} of {@code out}. */
    private void readValues(ColumnVector out, int from, int n) {
      if (plain != null) {
        switch (decoding) {
          case INT:
            {
              ByteBuffer in = plain;
              int at = in.position();
              int[] into = out.ints;
              for (int i = 0; i < n; i++) {
                into[from + i] = in.getInt(at + 4 * i);
              }
              in.position(at + 4 * n);
              return;
            }
          case LONG:
          case DECIMAL_LONG:
            {
              ByteBuffer in = plain;
              int at = in.position();
              long[] into = out.longs;
              for (int i = 0; i < n; i++) {
                into[from + i] = in.getLong(at + 8 * i);
              }
              in.position(at + 8 * n);
              return;
            }
          case FLOAT:
            {
              ByteBuffer in = plain;
              int at = in.position();
              float[] into = out.floats;
              for (int i = 0; i < n; i++) {
                into[from + i] = in.getFloat(at + 4 * i);
              }
              in.position(at + 4 * n);
              return;
            }
          case DOUBLE:
            {
              ByteBuffer in = plain;
              int at = in.position();
              double[] into = out.doubles;
              for (int i = 0; i < n; i++) {
                into[from + i] = in.getDouble(at + 8 * i);
              }
              in.position(at + 8 * n);
              return;
            }
          default:
            break;
        }
      } else if (dictionaryPage) {
        switch (kind) {
          case INT:
            {
              int[] values = dictionaryInts;
              int[] into = out.ints;
              int[] read = ids(n);
              for (int i = 0; i < n; i++) {
                into[from + i] = values[read[i]];
              }
              return;
            }
          case LONG:
          case DECIMAL:
            {
              long[] values = dictionaryLongs;
              long[] into = out.longs;
              int[] read = ids(n);
              for (int i = 0; i < n; i++) {
                into[from + i] = values[read[i]];
              }
              return;
            }
          case DOUBLE:
            {
              double[] values = dictionaryDoubles;
              double[] into = out.doubles;
              int[] read = ids(n);
              for (int i = 0; i < n; i++) {
                into[from + i] = values[read[i]];
              }
              return;
            }
          default:
            break;
        }
      }
      for (int i = from, end = from + n; i < end; i++) {
        readValue(out, i);
      }
    }

    /** Reads one value (not NULL) into row {@code row} of {@code out}. */
    private void readValue(ColumnVector out, int row) {
      if (dictionaryPage) {
        int id = ids.next();
        switch (kind) {
          case BOOLEAN:
            out.booleans[row] = dictionaryBooleans[id];
            return;
          case INT:
            out.ints[row] = dictionaryInts[id];
            return;
          case LONG:
          case DECIMAL:
            out.longs[row] = dictionaryLongs[id];
            return;
          case FLOAT:
            out.floats[row] = dictionaryFloats[id];
            return;
          case DOUBLE:
            out.doubles[row] = dictionaryDoubles[id];
            return;
          default:
            {
              Object value = dictionary[id];
              if (value == null) {
                value = fromDictionary(parquetDictionary, id);
                dictionary[id] = value;
              }
              out.objects[row] = value;
              return;
            }
        }
      }
      switch (decoding) {
        case BOOLEAN:
          out.booleans[row] = valuesReader.readBoolean();
          return;
        case INT:
          out.ints[row] = plain != null ? plain.getInt() : valuesReader.readInteger();
          return;
        case INT_TO_LONG:
          out.longs[row] = plain != null ? plain.getInt() : valuesReader.readInteger();
          return;
        case LONG:
          out.longs[row] = plain != null ? plain.getLong() : valuesReader.readLong();
          return;
        case MILLIS_TO_MICROS:
          out.longs[row] =
              Math.multiplyExact(plain != null ? plain.getLong() : valuesReader.readLong(), 1000L);
          return;
        case FLOAT:
          out.floats[row] = plain != null ? plain.getFloat() : valuesReader.readFloat();
          return;
        case FLOAT_TO_DOUBLE:
          out.doubles[row] = plain != null ? plain.getFloat() : valuesReader.readFloat();
          return;
        case DOUBLE:
          out.doubles[row] = plain != null ? plain.getDouble() : valuesReader.readDouble();
          return;
        case STRING:
          out.objects[row] = valuesReader.readBytes().toStringUsingUTF8();
          return;
        case DECIMAL_INT:
          out.longs[row] = plain != null ? plain.getInt() : valuesReader.readInteger();
          return;
        case DECIMAL_LONG:
          out.longs[row] = plain != null ? plain.getLong() : valuesReader.readLong();
          return;
        default:
          throw new IllegalStateException("Cannot decode " + decoding);
      }
    }

    private Object fromDictionary(Dictionary values, int id) {
      switch (decoding) {
        case BOOLEAN:
          return values.decodeToBoolean(id);
        case INT:
          return values.decodeToInt(id);
        case INT_TO_LONG:
          return (long) values.decodeToInt(id);
        case LONG:
          return values.decodeToLong(id);
        case MILLIS_TO_MICROS:
          return Math.multiplyExact(values.decodeToLong(id), 1000L);
        case FLOAT:
          return values.decodeToFloat(id);
        case FLOAT_TO_DOUBLE:
          return (double) values.decodeToFloat(id);
        case DOUBLE:
          return values.decodeToDouble(id);
        case STRING:
          return values.decodeToBinary(id).toStringUsingUTF8();
        case DECIMAL_INT:
          return BigDecimal.valueOf(values.decodeToInt(id), scale);
        case DECIMAL_LONG:
          return BigDecimal.valueOf(values.decodeToLong(id), scale);
        default:
          throw new IllegalStateException("No dictionary for " + decoding);
      }
    }

    /** Fills {@code out[0..rows)} with the next {@code rows} values of the column. */
    void read(Object[] out, int rows) {
      if (decoding == Decoding.CONSTANT) {
        java.util.Arrays.fill(out, 0, rows, constant);
        return;
      }
      int filled = 0;
      while (filled < rows) {
        if (pageRemaining == 0) {
          nextPage();
        }
        int take = Math.min(rows - filled, pageRemaining);
        if (maxDefinition == 0) {
          for (int i = 0; i < take; i++) {
            out[filled + i] = value();
          }
        } else {
          for (int i = 0; i < take; i++) {
            out[filled + i] = definition() == maxDefinition ? value() : null;
          }
        }
        filled += take;
        pageRemaining -= take;
      }
    }

    private int definition() {
      return levels != null ? levels.next() : definitionReader.readInteger();
    }

    private Object value() {
      if (dictionaryPage) {
        int id = ids.next();
        Object value = dictionary[id];
        if (value == null) {
          value = fromDictionary(parquetDictionary, id);
          dictionary[id] = value;
        }
        return value;
      }
      if (plain != null) {
        switch (decoding) {
          case INT:
            {
              int v = plain.getInt();
              return v;
            }
          case INT_TO_LONG:
            return (long) plain.getInt();
          case LONG:
            {
              long v = plain.getLong();
              return v;
            }
          case MILLIS_TO_MICROS:
            return Math.multiplyExact(plain.getLong(), 1000L);
          case FLOAT:
            {
              float v = plain.getFloat();
              return v;
            }
          case FLOAT_TO_DOUBLE:
            return (double) plain.getFloat();
          case DOUBLE:
            {
              double v = plain.getDouble();
              return v;
            }
          case DECIMAL_INT:
            return BigDecimal.valueOf(plain.getInt(), scale);
          case DECIMAL_LONG:
            return BigDecimal.valueOf(plain.getLong(), scale);
          default:
            break;
        }
      }
      switch (decoding) {
        case BOOLEAN:
          return valuesReader.readBoolean();
        case INT:
          return valuesReader.readInteger();
        case INT_TO_LONG:
          return (long) valuesReader.readInteger();
        case LONG:
          return valuesReader.readLong();
        case MILLIS_TO_MICROS:
          return Math.multiplyExact(valuesReader.readLong(), 1000L);
        case FLOAT:
          return valuesReader.readFloat();
        case FLOAT_TO_DOUBLE:
          return (double) valuesReader.readFloat();
        case DOUBLE:
          return valuesReader.readDouble();
        case STRING:
          return valuesReader.readBytes().toStringUsingUTF8();
        case DECIMAL_INT:
          return BigDecimal.valueOf(valuesReader.readInteger(), scale);
        case DECIMAL_LONG:
          return BigDecimal.valueOf(valuesReader.readLong(), scale);
        default:
          throw new IllegalStateException("Cannot decode " + decoding);
      }
    }

    private void nextPage() {
      DataPage page = pages.readPage();
      if (page == null) {
        throw new IllegalStateException(
            "Cannot read " + descriptor + ": the row group has fewer values than rows");
      }
      try {
        page.accept(
            new DataPage.Visitor<Void>() {
              @Override
              public Void visit(DataPageV1 v1) {
                try {
                  startV1(v1);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
                return null;
              }

              @Override
              public Void visit(DataPageV2 v2) {
                try {
                  startV2(v2);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
                return null;
              }
            });
      } catch (UncheckedIOException e) {
        throw e;
      }
      this.pageRemaining = page.getValueCount();
    }

    private void startV1(DataPageV1 page) throws IOException {
      int count = page.getValueCount();
      ByteBufferInputStream in = page.getBytes().toInputStream();
      ValuesReader repetition =
          page.getRlEncoding().getValuesReader(descriptor, ValuesType.REPETITION_LEVEL);
      repetition.initFromPage(count, in);
      levels = null;
      definitionReader = null;
      if (maxDefinition > 0 && page.getDlEncoding() == Encoding.RLE) {
        int length = BytesUtils.readIntLittleEndian(in);
        levels =
            new HybridDecoder(
                BytesUtils.getWidthFromMaxInt(maxDefinition),
                in.slice(length).order(ByteOrder.LITTLE_ENDIAN));
      } else {
        definitionReader =
            page.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
        definitionReader.initFromPage(count, in);
      }
      startValues(page.getValueEncoding(), count, in);
    }

    private void startV2(DataPageV2 page) throws IOException {
      int count = page.getValueCount();
      definitionReader = null;
      levels =
          maxDefinition == 0
              ? null
              : new HybridDecoder(
                  BytesUtils.getWidthFromMaxInt(maxDefinition),
                  page.getDefinitionLevels().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN));
      startValues(page.getDataEncoding(), count, page.getData().toInputStream());
    }

    private void startValues(Encoding encoding, int count, ByteBufferInputStream in)
        throws IOException {
      plain = null;
      dictionaryPage = encoding.usesDictionary();
      if (dictionaryPage) {
        if (parquetDictionary == null) {
          throw new IllegalStateException(
              "Cannot read " + descriptor + ": a dictionary-encoded page without a dictionary");
        }
        valuesReader = null;
        // a page of NULLs only may hold no ids at all: then none is read
        int bitWidth = Math.max(0, in.read());
        ids = new HybridDecoder(bitWidth, in.slice(in.available()));
        return;
      }
      if (encoding == Encoding.PLAIN
          && decoding != Decoding.BOOLEAN
          && decoding != Decoding.STRING) {
        plain = in.slice(in.available()).order(ByteOrder.LITTLE_ENDIAN);
        valuesReader = null;
        return;
      }
      valuesReader = encoding.getValuesReader(descriptor, ValuesType.VALUES);
      valuesReader.initFromPage(count, in);
    }
  }
}
