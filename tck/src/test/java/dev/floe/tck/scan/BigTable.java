package dev.floe.tck.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;

/**
 * A large table {@code big (id BIGINT, k INT, s VARCHAR, v DOUBLE, d DATE, ts TIMESTAMP)} written
 * with Iceberg's own generic writer over Hadoop's local file system, one Parquet file per slice of
 * ids. Every text value is distinct (so Parquet cannot keep it in a dictionary) but is cut from one
 * shared passage, so zstd keeps the files small while a reader still decodes every byte.
 */
final class BigTable {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "k", Types.IntegerType.get()),
          Types.NestedField.optional(3, "s", Types.StringType.get()),
          Types.NestedField.optional(4, "v", Types.DoubleType.get()),
          Types.NestedField.optional(5, "d", Types.DateType.get()),
          Types.NestedField.optional(6, "ts", Types.TimestampType.withoutZone()));

  private static final String PASSAGE = passage();
  private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

  /** What the writer wrote, computed from the values it generated. */
  record Written(long rows, long checksum, long decodedBytes, int files) {}

  private BigTable() {}

  /** The text of row {@code i}, or null. */
  static String text(long i) {
    if (i % 97 == 0) {
      return null;
    }
    int offset = (int) ((i * 7919) % (PASSAGE.length() - 1000));
    int length = 300 + (int) (i % 400);
    return "row " + i + ": " + PASSAGE.substring(offset, offset + length);
  }

  /** Fills {@code record} with row {@code i}; the same values in every run. */
  static Record row(Record record, long i) {
    record.set(0, i);
    record.set(1, i % 101 == 0 ? null : (int) ((i * 31) % 1_000_003));
    record.set(2, text(i));
    record.set(3, i % 89 == 0 ? null : i * 0.25 - 1e6);
    record.set(4, i % 83 == 0 ? null : LocalDate.ofEpochDay(18_000 + i % 3_000));
    record.set(
        5, i % 79 == 0 ? null : EPOCH.plusNanos(1_600_000_000_000_000L + i * 1_000_003_000L));
    return record;
  }

  /** The hash {@link FullScan#hash} of row {@code i}, from the values {@link #row} writes. */
  static long hash(Record r) {
    LocalDate d = (LocalDate) r.get(4);
    LocalDateTime ts = (LocalDateTime) r.get(5);
    return FullScan.hash(
        (Long) r.get(0),
        (Integer) r.get(1),
        (String) r.get(2),
        (Double) r.get(3),
        d == null ? null : d.toEpochDay(),
        ts == null ? null : ts.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + ts.getNano() / 1_000);
  }

  /** The bytes row {@code r} holds once decoded: fixed widths plus the text's UTF-8 bytes. */
  static long decodedBytes(Record r) {
    String text = (String) r.get(2);
    return 8 + 4 + 8 + 4 + 8 + (text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length);
  }

  /** Writes {@code rows} rows as {@code files} data files (on two threads) and commits them. */
  static Written write(Path folder, long rows, int files) throws Exception {
    Table table =
        new HadoopTables(new Configuration())
            .create(
                SCHEMA,
                PartitionSpec.unpartitioned(),
                Map.of("format-version", "2", "write.parquet.compression-codec", "zstd"),
                "file:" + folder.toAbsolutePath());
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table)
            .dataFileFormat(FileFormat.PARQUET)
            .dataSchema(SCHEMA)
            .build();
    long perFile = rows / files;
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Slice>> slices = new ArrayList<>();
      for (int f = 0; f < files; f++) {
        long start = f * perFile;
        long end = f == files - 1 ? rows : start + perFile;
        String location = folder.resolve("data").resolve("part-" + f + ".parquet").toString();
        slices.add(pool.submit(() -> writeSlice(table, factory, location, start, end)));
      }
      AppendFiles append = table.newAppend();
      long checksum = 0;
      long bytes = 0;
      for (Future<Slice> slice : slices) {
        append.appendFile(slice.get().file());
        checksum += slice.get().checksum();
        bytes += slice.get().decodedBytes();
      }
      append.commit();
      return new Written(rows, checksum, bytes, files);
    } finally {
      pool.shutdownNow();
    }
  }

  private record Slice(DataFile file, long checksum, long decodedBytes) {}

  private static Slice writeSlice(
      Table table, GenericFileWriterFactory factory, String location, long start, long end) {
    DataWriter<Record> writer =
        factory.newDataWriter(
            EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location)),
            PartitionSpec.unpartitioned(),
            null);
    Record record = GenericRecord.create(SCHEMA);
    long checksum = 0;
    long bytes = 0;
    try (writer) {
      for (long i = start; i < end; i++) {
        row(record, i);
        checksum += hash(record);
        bytes += decodedBytes(record);
        writer.write(record);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Slice(writer.toDataFile(), checksum, bytes);
  }

  /** Some thousands of characters of words, the same in every run. */
  private static String passage() {
    String[] words = {
      "iceberg", "parquet", "snapshot", "manifest", "lake", "delete", "row", "group", "page",
      "column", "schema", "partition", "bucket", "stream", "heap", "scan", "file", "table"
    };
    Random random = new Random(42);
    StringBuilder text = new StringBuilder();
    while (text.length() < 8_000) {
      text.append(words[random.nextInt(words.length)]);
      text.append(random.nextInt(7) == 0 ? ", " : " ");
      if (random.nextInt(5) == 0) {
        text.append(random.nextInt(100_000));
        text.append(' ');
      }
    }
    return text.toString();
  }
}
