package dev.floe.planner.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The batch reader returns exactly the rows the generated data says, and the same rows as Iceberg's
 * row reader, over Parquet files with v1 and v2 pages, dictionary and plain encodings (with
 * fallback from one to the other inside a column chunk), many pages and row groups per file, NULLs
 * in every optional column, position deletes spread over the row groups, equality deletes on a
 * string (a NULL key among them) and on an integer column, a residual filter, and tasks split at
 * row groups.
 */
class BatchReaderTest {
  private static final int ROWS = 6000;
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "i", Types.IntegerType.get()),
          Types.NestedField.optional(3, "f", Types.FloatType.get()),
          Types.NestedField.optional(4, "d", Types.DoubleType.get()),
          Types.NestedField.optional(5, "b", Types.BooleanType.get()),
          Types.NestedField.optional(6, "s", Types.StringType.get()),
          Types.NestedField.optional(7, "dt", Types.DateType.get()),
          Types.NestedField.optional(8, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(9, "tz", Types.TimestampType.withZone()),
          Types.NestedField.optional(10, "t", Types.TimeType.get()),
          Types.NestedField.optional(11, "m", Types.DecimalType.of(15, 2)),
          Types.NestedField.optional(12, "n", Types.DecimalType.of(7, 3)));

  @ParameterizedTest(name = "pages {0}, dictionary bytes {1}, filtered {2}")
  @CsvSource({
    "v1, 2097152, false",
    "v1, 2097152, true",
    "v1, 600, false",
    "v2, 2097152, false",
    "v2, 600, true",
    "v2, 600, false"
  })
  void batchesReturnTheRowsTheRowReaderReturns(String pages, int dictionaryBytes, boolean filtered)
      throws IOException {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of());
    catalog.createNamespace(Namespace.of("db"));
    Table table =
        catalog
            .buildTable(TableIdentifier.of("db", "t"), SCHEMA)
            .withProperties(
                Map.of(
                    "format-version", "2",
                    "write.parquet.page-version", pages,
                    "write.parquet.dict-size-bytes", Integer.toString(dictionaryBytes),
                    "write.parquet.page-row-limit", "300",
                    "write.parquet.row-group-size-bytes", "16384",
                    "read.split.target-size", "16384",
                    "read.split.open-file-cost", "1"))
            .create();
    List<Record> written = IntStream.range(0, ROWS).mapToObj(BatchReaderTest::row).toList();
    DataFile data = writeData(table, written);
    table.newAppend().appendFile(data).commit();
    long[] deleted = IntStream.range(0, ROWS).filter(i -> i % 13 == 5).asLongStream().toArray();
    table.newRowDelta().addDeletes(positionDeletes(table, data, deleted)).commit();
    Schema byText = SCHEMA.select("s");
    table
        .newRowDelta()
        .addDeletes(
            equalityDeletes(
                table, byText, Arrays.asList(record(byText, "k4 日本 😀"), record(byText, null))))
        .commit();
    Schema byNumber = SCHEMA.select("i");
    table
        .newRowDelta()
        .addDeletes(equalityDeletes(table, byNumber, List.of(record(byNumber, 90))))
        .commit();
    table.refresh();
    Predicate<Record> equalityDeleted =
        r ->
            r.getField("s") == null
                || "k4 日本 😀".equals(r.getField("s"))
                || Integer.valueOf(90).equals(r.getField("i"));

    Expression filter = filtered ? Expressions.greaterThan("i", 1000) : Expressions.alwaysTrue();
    Predicate<Record> matches =
        r -> !filtered || (r.getField("i") != null && (Integer) r.getField("i") > 1000);
    List<List<Object>> expected = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      if (i % 13 != 5 && !equalityDeleted.test(written.get(i)) && matches.test(written.get(i))) {
        expected.add(calcite(written.get(i)));
      }
    }

    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().filter(filter).planFiles()) {
      planned.forEach(task -> task.split(16384).forEach(tasks::add));
    }
    tasks.sort(Comparator.comparingLong(FileScanTask::start));
    assertThat(tasks)
        .as("the file is split at row groups into several tasks")
        .hasSizeGreaterThan(1);

    List<Integer> columns = IntStream.range(0, SCHEMA.columns().size()).boxed().toList();
    List<List<Object>> batched = read(table, tasks, columns, true);
    List<List<Object>> rowByRow = read(table, tasks, columns, false);
    assertThat(batched).hasSize(expected.size()).isEqualTo(expected);
    assertThat(rowByRow).isEqualTo(expected);
    // The aggregating scans' path: primitive vectors, the residual compiled where it can be.
    assertThat(readVectors(table, tasks, columns)).isEqualTo(expected);
    // Reading only the key: the columns the equality deletes compare are decoded all the same.
    assertThat(read(table, tasks, List.of(0), true))
        .isEqualTo(expected.stream().map(row -> row.subList(0, 1)).toList());
  }

  private static Record record(Schema schema, Object value) {
    Record record = GenericRecord.create(schema);
    record.set(0, value);
    return record;
  }

  private static DeleteFile equalityDeletes(Table table, Schema keys, List<Record> deleted) {
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table)
            .deleteFileFormat(FileFormat.PARQUET)
            .equalityFieldIds(new int[] {keys.columns().get(0).fieldId()})
            .equalityDeleteRowSchema(keys)
            .build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 3, System.nanoTime())
            .format(FileFormat.PARQUET)
            .suffix("eq-deletes")
            .build();
    EqualityDeleteWriter<Record> writer =
        factory.newEqualityDeleteWriter(files.newOutputFile(), PartitionSpec.unpartitioned(), null);
    try (EqualityDeleteWriter<Record> closing = writer) {
      deleted.forEach(closing::write);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  @Test
  void aColumnStoredInAFormTheBatchReaderDoesNotDecodeIsLeftToTheRowReader() {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(8, "ts", Types.TimestampType.withoutZone()));
    MessageType int96 =
        org.apache.parquet.schema.Types.buildMessage()
            .required(PrimitiveType.PrimitiveTypeName.INT64)
            .id(1)
            .named("id")
            .optional(PrimitiveType.PrimitiveTypeName.INT96)
            .id(8)
            .named("ts")
            .named("table");
    MessageType micros =
        org.apache.parquet.schema.Types.buildMessage()
            .required(PrimitiveType.PrimitiveTypeName.INT64)
            .id(1)
            .named("id")
            .optional(PrimitiveType.PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS))
            .id(8)
            .named("ts")
            .named("table");
    assertThat(BatchReader.create(schema, int96, Map.of()).decodes()).isFalse();
    assertThat(BatchReader.create(schema, micros, Map.of()).decodes()).isTrue();
    // DECIMAL: up to 18 digits stored as INT32 or INT64; wider, or stored as bytes, row by row
    assertThat(
            BatchReader.canRead(
                new Schema(Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)))))
        .isTrue();
    assertThat(
            BatchReader.canRead(
                new Schema(Types.NestedField.optional(3, "amount", Types.DecimalType.of(20, 2)))))
        .isFalse();
    Schema amount =
        new Schema(Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)));
    MessageType fixed =
        org.apache.parquet.schema.Types.buildMessage()
            .optional(PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
            .length(5)
            .as(LogicalTypeAnnotation.decimalType(2, 10))
            .id(3)
            .named("amount")
            .named("table");
    MessageType int64 =
        org.apache.parquet.schema.Types.buildMessage()
            .optional(PrimitiveType.PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.decimalType(2, 10))
            .id(3)
            .named("amount")
            .named("table");
    assertThat(BatchReader.create(amount, fixed, Map.of()).decodes()).isFalse();
    assertThat(BatchReader.create(amount, int64, Map.of()).decodes()).isTrue();
  }

  private static List<List<Object>> read(
      Table table, List<FileScanTask> tasks, List<Integer> columns, boolean batches)
      throws IOException {
    TaskReader reader =
        new TaskReader(
            table.io(), table.schema(), columns, false, new StatementDeleteCache(), batches);
    List<List<Object>> rows = new ArrayList<>();
    for (FileScanTask task : tasks) {
      try (CloseableIterable<Object[]> opened = reader.open(task)) {
        assertThat(opened instanceof TaskReader.BatchedTask).isEqualTo(batches);
        for (Object[] row : opened) {
          rows.add(Arrays.asList(row));
        }
        if (batches) {
          assertThat(((TaskReader.BatchedTask) opened).readRowByRow())
              .as("the batch reader decoded the file itself")
              .isFalse();
        }
      }
    }
    return rows;
  }

  /** The live rows of the tasks as an aggregating scan sees them: column vectors. */
  private static List<List<Object>> readVectors(
      Table table, List<FileScanTask> tasks, List<Integer> columns) throws IOException {
    TaskReader reader =
        new TaskReader(table.io(), table.schema(), columns, false, new StatementDeleteCache());
    List<List<Object>> rows = new ArrayList<>();
    TaskReader.RowSink sink =
        new TaskReader.RowSink() {
          @Override
          public void batch(ColumnVector[] vectors, int[] selected, int count) {
            for (int i = 0; i < count; i++) {
              int row = selected == null ? i : selected[i];
              List<Object> values = new ArrayList<>();
              for (ColumnVector vector : vectors) {
                values.add(vector.get(row));
              }
              rows.add(values);
            }
          }

          @Override
          public void row(Object[] row) {
            throw new AssertionError("the file was read row by row");
          }
        };
    for (FileScanTask task : tasks) {
      reader.read(task, sink, () -> {});
    }
    return rows;
  }

  /** Row i: NULLs at different strides per column, repeating and unique values, non-ASCII text. */
  private static Record row(int i) {
    Record r = GenericRecord.create(SCHEMA);
    r.setField("id", (long) i * 1_000_003L - 7);
    r.setField("i", i % 7 == 3 ? null : (i % 3 == 0 ? i : -i) * 3);
    r.setField("f", i % 11 == 0 ? null : i % 5 == 0 ? -0.0f : i / 8.0f);
    r.setField("d", i % 17 == 0 ? null : i % 19 == 0 ? Double.NaN : i * 0.001 - 1);
    r.setField("b", i % 4 == 1 ? null : i % 3 == 0);
    r.setField(
        "s",
        i % 9 == 2
            ? null
            : i % 2 == 0 ? "k" + (i % 40) + " 日本 😀" : "unique-" + i + "-x".repeat(i % 5));
    r.setField("dt", i % 23 == 0 ? null : LocalDate.of(1969, 12, 1).plusDays(i % 400));
    r.setField(
        "ts",
        i % 29 == 0
            ? null
            : LocalDateTime.of(1960, 1, 1, 0, 0).plusNanos(i * 86_399_999_999_001L / 1000 * 1000));
    r.setField(
        "tz",
        i % 31 == 0
            ? null
            : OffsetDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000, ZoneOffset.UTC)
                .plusSeconds(i * 37L));
    r.setField(
        "t",
        i % 37 == 0 ? null : LocalTime.ofNanoOfDay((i * 14_400_000_001L) % 86_400_000_000L * 1000));
    r.setField("m", i % 43 == 0 ? null : BigDecimal.valueOf(i * 123_457L - 400_000_000L, 2));
    r.setField("n", i % 41 == 0 ? null : BigDecimal.valueOf(i % 500 - 250, 3));
    return r;
  }

  /** A record in Calcite's runtime form: days, micros and boxed numbers. */
  private static List<Object> calcite(Record r) {
    List<Object> values = new ArrayList<>();
    values.add(r.getField("id"));
    values.add(r.getField("i"));
    values.add(r.getField("f"));
    values.add(r.getField("d"));
    values.add(r.getField("b"));
    values.add(r.getField("s"));
    LocalDate date = (LocalDate) r.getField("dt");
    values.add(date == null ? null : (int) date.toEpochDay());
    LocalDateTime ts = (LocalDateTime) r.getField("ts");
    values.add(ts == null ? null : micros(ts));
    OffsetDateTime tz = (OffsetDateTime) r.getField("tz");
    values.add(
        tz == null ? null : micros(tz.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()));
    LocalTime time = (LocalTime) r.getField("t");
    values.add(time == null ? null : time.toNanoOfDay() / 1000);
    values.add(r.getField("m"));
    values.add(r.getField("n"));
    return values;
  }

  private static long micros(LocalDateTime value) {
    return value.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + value.getNano() / 1000;
  }

  private static DataFile writeData(Table table, List<Record> records) {
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build();
    DataWriter<Record> writer =
        factory.newDataWriter(files.newOutputFile(), PartitionSpec.unpartitioned(), null);
    try (DataWriter<Record> closing = writer) {
      records.forEach(closing::write);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDataFile();
  }

  private static DeleteFile positionDeletes(Table table, DataFile data, long[] positions) {
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table).deleteFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 2, 2)
            .format(FileFormat.PARQUET)
            .suffix("deletes")
            .build();
    PositionDeleteWriter<Record> writer =
        factory.newPositionDeleteWriter(files.newOutputFile(), PartitionSpec.unpartitioned(), null);
    try (PositionDeleteWriter<Record> closing = writer) {
      for (long position : positions) {
        PositionDelete<Record> delete = PositionDelete.create();
        closing.write(delete.set(data.location(), position));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }
}
