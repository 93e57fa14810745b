package dev.floe.tck.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;

/**
 * The benchmark table: {@code (id BIGINT, k INT, name VARCHAR, v DOUBLE, d DATE, ts TIMESTAMP)},
 * written with Iceberg's own generic writer as a few zstd Parquet files, so every engine reads the
 * same bytes.
 */
final class BenchLake {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "k", Types.IntegerType.get()),
          Types.NestedField.optional(3, "name", Types.StringType.get()),
          Types.NestedField.optional(4, "v", Types.DoubleType.get()),
          Types.NestedField.optional(5, "d", Types.DateType.get()),
          Types.NestedField.optional(6, "ts", Types.TimestampType.withoutZone()));

  private BenchLake() {}

  /** The i-th row, the same in every run. */
  static Record row(Record reuse, long i) {
    reuse.set(0, i);
    reuse.set(1, (int) (i % 1000));
    reuse.set(2, "name-" + (i % 100_000));
    reuse.set(3, i * 0.25);
    reuse.set(4, LocalDate.of(2020, 1, 1).plusDays(i % 1500));
    reuse.set(
        5,
        LocalDateTime.of(2020, 1, 1, 0, 0)
            .plusNanos((i * 1_000_003L) % 86_400_000_000_000L / 1000 * 1000));
    return reuse;
  }

  /** An empty benchmark table at {@code folder}. */
  static Table create(Path folder) {
    return new HadoopTables(new Configuration())
        .create(
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of("format-version", "2", "write.parquet.compression-codec", "zstd"),
            folder.toString());
  }

  /** Creates the table at {@code folder} with {@code rows} rows in {@code files} files. */
  static Table write(Path folder, long rows, int files) {
    Table table = create(folder);
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table)
            .dataFileFormat(FileFormat.PARQUET)
            .dataSchema(SCHEMA)
            .build();
    AppendFiles append = table.newAppend();
    long perFile = rows / files;
    Record record = GenericRecord.create(SCHEMA);
    for (int f = 0; f < files; f++) {
      String location = folder.resolve("data").resolve("part-" + f + ".parquet").toString();
      DataWriter<Record> writer =
          factory.newDataWriter(
              EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location)),
              PartitionSpec.unpartitioned(),
              null);
      long start = f * perFile;
      long end = f == files - 1 ? rows : start + perFile;
      try (writer) {
        for (long i = start; i < end; i++) {
          writer.write(row(record, i));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      DataFile file = writer.toDataFile();
      append.appendFile(file);
    }
    append.commit();
    return table;
  }

  /**
   * A new table at {@code folder} holding byte-identical copies of {@code source}'s data files (its
   * current snapshot), so scans of both read the same bytes.
   */
  static Table copy(Table source, Path folder) throws IOException {
    Table table = create(folder);
    Files.createDirectories(folder.resolve("data"));
    AppendFiles append = table.newAppend();
    for (DataFile file : source.currentSnapshot().addedDataFiles(source.io())) {
      Path from = Path.of(file.location());
      Path to = folder.resolve("data").resolve(from.getFileName());
      Files.copy(from, to);
      append.appendFile(
          DataFiles.builder(PartitionSpec.unpartitioned())
              .copy(file)
              .withPath(to.toString())
              .build());
    }
    append.commit();
    return table;
  }

  /**
   * Deletes every {@code every}-th row position of every data file with position-delete files
   * written by Iceberg's own writer, in one commit. Returns the number of rows deleted.
   */
  static long deletePositions(Table table, int every) throws IOException {
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table).deleteFileFormat(FileFormat.PARQUET).build();
    RowDelta delta = table.newRowDelta();
    long deleted = 0;
    int n = 0;
    for (DataFile data : table.currentSnapshot().addedDataFiles(table.io())) {
      String location = data.location().replace(".parquet", "-pos-deletes-" + n++ + ".parquet");
      PositionDeleteWriter<Record> writer =
          factory.newPositionDeleteWriter(
              EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location)),
              PartitionSpec.unpartitioned(),
              null);
      try (writer) {
        PositionDelete<Record> delete = PositionDelete.create();
        for (long p = 0; p < data.recordCount(); p += every) {
          writer.write(delete.set(data.location(), p));
          deleted++;
        }
      }
      DeleteFile file = writer.toDeleteFile();
      delta.addDeletes(file);
    }
    delta.commit();
    return deleted;
  }

  /** Deletes the rows with the given ids with one equality-delete file on {@code id}. */
  static void deleteIds(Table table, long[] ids) throws IOException {
    Schema deleteSchema = table.schema().select("id");
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table)
            .deleteFileFormat(FileFormat.PARQUET)
            .equalityFieldIds(new int[] {1})
            .equalityDeleteRowSchema(deleteSchema)
            .build();
    String location = table.location() + "/data/eq-deletes.parquet";
    EqualityDeleteWriter<Record> writer =
        factory.newEqualityDeleteWriter(
            EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location)),
            PartitionSpec.unpartitioned(),
            null);
    Record key = GenericRecord.create(deleteSchema);
    try (writer) {
      for (long id : ids) {
        key.set(0, id);
        writer.write(key);
      }
    }
    table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
  }

  /** The Parquet data files of the table, for engines that read files directly. */
  static List<String> dataFiles(Path folder) throws IOException {
    List<String> files = new ArrayList<>();
    try (Stream<Path> list = Files.list(folder.resolve("data"))) {
      list.filter(p -> p.toString().endsWith(".parquet"))
          .sorted()
          .forEach(p -> files.add(p.toString()));
    }
    return files;
  }

  /** The total size in bytes of the files under a folder. */
  static long bytesUnder(Path folder) throws IOException {
    try (Stream<Path> walk = Files.walk(folder)) {
      return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  static void deleteTree(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
