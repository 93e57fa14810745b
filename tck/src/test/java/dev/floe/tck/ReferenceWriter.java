package dev.floe.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;

/**
 * Writes reference tables with Iceberg's own Java API over Hadoop's local file system, so the TCK
 * compares Floe with an independent party: nothing here shares code with Floe's writer or storage.
 * Table locations are {@code file:} URIs, as Hadoop-based engines write them.
 */
final class ReferenceWriter {
  private static final HadoopTables TABLES = new HadoopTables(new Configuration());

  private ReferenceWriter() {}

  /** The two-column shape many read-path tests use: {@code (id BIGINT NOT NULL, name VARCHAR)}. */
  static final Schema ID_NAME =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  /**
   * Rows {@code (id, 'name <id>')} of {@link #ID_NAME} for ids {@code from} (incl.) to {@code to}.
   */
  static List<Record> idNameRows(long from, long to) {
    List<Record> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(record(ID_NAME, id, "name " + id));
    }
    return rows;
  }

  /** The Hadoop location of a folder. */
  static String location(Path folder) {
    return "file:" + folder.toAbsolutePath();
  }

  /** Creates a table in a folder with the given format version. */
  static Table create(Path folder, Schema schema, PartitionSpec spec, int formatVersion) {
    return create(
        folder,
        schema,
        spec,
        Map.of(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion)));
  }

  /** Creates a table in a folder with the given table properties. */
  static Table create(
      Path folder, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    return TABLES.create(schema, spec, properties, location(folder));
  }

  /**
   * Creates a table at a location spelled exactly as given (a plain path, or a {@code file:} URI),
   * which is how Iceberg then spells its metadata, manifest and data file locations.
   */
  static Table createAt(
      String location, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    return TABLES.create(schema, spec, properties, location);
  }

  /** Loads the table in a folder as Iceberg's own file-system tables see it. */
  static Table load(Path folder) {
    return TABLES.load(location(folder));
  }

  /** A record of a schema with the given values, in field order. */
  static Record record(Schema schema, Object... values) {
    return record(schema.asStruct(), values);
  }

  /** A struct record of a struct type with the given values, in field order. */
  static Record record(Types.StructType struct, Object... values) {
    GenericRecord record = GenericRecord.create(struct);
    for (int i = 0; i < values.length; i++) {
      record.set(i, values[i]);
    }
    return record;
  }

  /**
   * Writes records as Parquet data files, one per partition of the table's current spec, in the
   * order given, and returns them without committing.
   */
  static List<DataFile> writeData(Table table, List<Record> records) {
    PartitionSpec spec = table.spec();
    Map<PartitionKey, List<Record>> byPartition = partition(table, spec, records);
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, System.nanoTime())
            .format(FileFormat.PARQUET)
            .build();
    List<DataFile> result = new ArrayList<>();
    for (Map.Entry<PartitionKey, List<Record>> entry : byPartition.entrySet()) {
      StructLike partition = spec.isUnpartitioned() ? null : entry.getKey();
      DataWriter<Record> writer =
          factory.newDataWriter(files.newOutputFile(spec, partition), spec, partition);
      closing(writer, w -> entry.getValue().forEach(w::write));
      result.add(writer.toDataFile());
    }
    return result;
  }

  /** Writes and appends records in one commit; returns the data files. */
  static List<DataFile> append(Table table, List<Record> records) {
    List<DataFile> files = writeData(table, records);
    var append = table.newAppend();
    files.forEach(append::appendFile);
    append.commit();
    return files;
  }

  /** Writes and appends records in one commit. */
  static List<DataFile> append(Table table, Record... records) {
    return append(table, List.of(records));
  }

  /**
   * Writes an equality-delete file keyed on the named columns, in the partition of the given spec
   * that {@code partitionOf} falls in (unpartitioned specs: a global delete), and commits it.
   */
  static DeleteFile equalityDelete(
      Table table,
      PartitionSpec spec,
      Record partitionOf,
      List<String> columns,
      List<Record> keys) {
    Schema deleteSchema = table.schema().select(columns);
    int[] ids = deleteSchema.columns().stream().mapToInt(Types.NestedField::fieldId).toArray();
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table)
            .deleteFileFormat(FileFormat.PARQUET)
            .equalityFieldIds(ids)
            .equalityDeleteRowSchema(deleteSchema)
            .build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 2, System.nanoTime())
            .format(FileFormat.PARQUET)
            .suffix("eq-deletes")
            .build();
    StructLike partition = partitionKey(table, spec, partitionOf);
    EqualityDeleteWriter<Record> writer =
        factory.newEqualityDeleteWriter(files.newOutputFile(spec, partition), spec, partition);
    closing(writer, w -> keys.forEach(w::write));
    DeleteFile file = writer.toDeleteFile();
    table.newRowDelta().addDeletes(file).commit();
    return file;
  }

  /** A global equality delete under the table's current (unpartitioned) spec. */
  static DeleteFile equalityDelete(Table table, List<String> columns, List<Record> keys) {
    return equalityDelete(table, table.spec(), null, columns, keys);
  }

  /** Writes a position-delete file (format v2) for rows of one data file and commits it. */
  static DeleteFile positionDelete(Table table, DataFile data, long... positions) {
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table).deleteFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 3, System.nanoTime())
            .format(FileFormat.PARQUET)
            .suffix("pos-deletes")
            .build();
    PartitionSpec spec = table.specs().get(data.specId());
    StructLike partition = spec.isUnpartitioned() ? null : data.partition();
    PositionDeleteWriter<Record> writer =
        factory.newPositionDeleteWriter(files.newOutputFile(spec, partition), spec, partition);
    closing(
        writer,
        w -> {
          for (long position : positions) {
            PositionDelete<Record> delete = PositionDelete.create();
            w.write(delete.set(data.location(), position));
          }
        });
    DeleteFile file = writer.toDeleteFile();
    table.newRowDelta().addDeletes(file).commit();
    return file;
  }

  /**
   * Writes one position-delete file (format v2, unpartitioned) naming each data file exactly as the
   * keys of {@code deletes} spell it, in path and position order as the spec asks, and commits it.
   */
  static DeleteFile positionDeletes(Table table, Map<String, List<Long>> deletes) {
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table).deleteFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 5, System.nanoTime())
            .format(FileFormat.PARQUET)
            .suffix("pos-deletes")
            .build();
    PartitionSpec spec = table.spec();
    PositionDeleteWriter<Record> writer =
        factory.newPositionDeleteWriter(files.newOutputFile(spec, null), spec, null);
    closing(
        writer,
        w -> {
          for (Map.Entry<String, List<Long>> entry : new TreeMap<>(deletes).entrySet()) {
            for (long position : entry.getValue().stream().sorted().toList()) {
              PositionDelete<Record> delete = PositionDelete.create();
              w.write(delete.set(entry.getKey(), position));
            }
          }
        });
    DeleteFile file = writer.toDeleteFile();
    table.newRowDelta().addDeletes(file).commit();
    return file;
  }

  /** Writes a deletion vector (format v3) for rows of one data file and commits it. */
  static List<DeleteFile> deletionVector(Table table, DataFile data, long... positions) {
    return replaceDeletionVector(table, data, null, positions);
  }

  /**
   * Writes a deletion vector (format v3) for rows of one data file and commits it, replacing the
   * file's previous vector (when not null) in the same commit.
   */
  static List<DeleteFile> replaceDeletionVector(
      Table table, DataFile data, DeleteFile previous, long... positions) {
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 4, System.nanoTime()).format(FileFormat.PUFFIN).build();
    PartitionSpec spec = table.specs().get(data.specId());
    BaseDVFileWriter writer = new BaseDVFileWriter(files, path -> null);
    try {
      for (long position : positions) {
        writer.delete(data.location(), position, spec, data.partition());
      }
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DeleteWriteResult result = writer.result();
    var rowDelta = table.newRowDelta();
    if (previous != null) {
      // Validate from the current snapshot, so the vector being replaced is not seen as a
      // concurrently added one.
      rowDelta.removeDeletes(previous).validateFromSnapshot(table.currentSnapshot().snapshotId());
    }
    result.deleteFiles().forEach(rowDelta::addDeletes);
    rowDelta.commit();
    return result.deleteFiles();
  }

  /** Position deletes in the form the table's format version calls for: files (v2) or DVs (v3). */
  static void deleteRows(Table table, DataFile data, long... positions) {
    if (formatVersion(table) >= 3) {
      deletionVector(table, data, positions);
    } else {
      positionDelete(table, data, positions);
    }
  }

  static int formatVersion(Table table) {
    return ((org.apache.iceberg.HasTableOperations) table).operations().current().formatVersion();
  }

  private static StructLike partitionKey(Table table, PartitionSpec spec, Record row) {
    if (spec.isUnpartitioned()) {
      return null;
    }
    PartitionKey key = new PartitionKey(spec, table.schema());
    key.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(row));
    return key;
  }

  private static Map<PartitionKey, List<Record>> partition(
      Table table, PartitionSpec spec, List<Record> records) {
    Map<PartitionKey, List<Record>> result = new LinkedHashMap<>();
    PartitionKey key = new PartitionKey(spec, table.schema());
    InternalRecordWrapper wrapper = new InternalRecordWrapper(table.schema().asStruct());
    for (Record record : records) {
      key.partition(wrapper.wrap(record));
      result.computeIfAbsent(key.copy(), k -> new ArrayList<>()).add(record);
    }
    return result;
  }

  private static <W extends java.io.Closeable> void closing(W writer, Consumer<W> body) {
    try (writer) {
      body.accept(writer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
