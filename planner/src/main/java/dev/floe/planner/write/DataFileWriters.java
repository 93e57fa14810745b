package dev.floe.planner.write;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Writes records as Parquet data files of a table through Iceberg's registry-based generic writer,
 * with the table's properties (compression, row-group size, metrics) applied: one file per
 * partition, rolled at the table's target file size. Not thread-safe.
 */
final class DataFileWriters implements Closeable {
  private final PartitionSpec spec;
  private final PartitionKey key;
  private final InternalRecordWrapper wrapper;
  private final FanoutDataWriter<Record> writer;
  private List<DataFile> files;

  DataFileWriters(Table table, OutputFileFactory files) {
    this.spec = table.spec();
    this.key = new PartitionKey(spec, table.schema());
    this.wrapper = new InternalRecordWrapper(table.schema().asStruct());
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table)
            .dataFileFormat(FileFormat.PARQUET)
            .dataSchema(table.schema())
            .dataSortOrder(table.sortOrder())
            .build();
    long targetSize =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    this.writer = new FanoutDataWriter<>(factory, files, table.io(), targetSize);
  }

  /** Writes one record into the file of its partition. */
  void write(Record record) {
    if (spec.isUnpartitioned()) {
      writer.write(record, spec, null);
    } else {
      key.partition(wrapper.wrap(record));
      writer.write(record, spec, key);
    }
  }

  /** Closes the open files and returns every data file written. */
  List<DataFile> finish() {
    close();
    return files;
  }

  @Override
  public void close() {
    if (files != null) {
      return;
    }
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    files = writer.result().dataFiles();
  }

  /** The factory of output files for one statement: its operation id names every file. */
  static OutputFileFactory outputFiles(Table table, String operationId) {
    return OutputFileFactory.builderFor(table, 1, 0)
        .format(FileFormat.PARQUET)
        .operationId(operationId)
        .build();
  }
}
