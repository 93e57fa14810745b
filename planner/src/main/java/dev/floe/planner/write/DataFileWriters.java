package dev.floe.planner.write;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Writes rows as Parquet data files of a table through Iceberg's registry-based file writers, with
 * the table's properties (compression, row-group size, metrics) applied: one file per partition,
 * rolled at the table's target file size. Rows are in Iceberg's internal representation, written by
 * its internal value writer: INSERT's assigned rows and the rows a rewrite reads back from files
 * alike ({@link #forRows}). Not thread-safe.
 *
 * @param <T> the row class
 */
final class DataFileWriters<T> implements Closeable {
  private final PartitionSpec spec;
  private final PartitionKey key;
  private final Function<T, StructLike> internal;
  private final FanoutDataWriter<T> writer;
  private List<DataFile> files;

  private DataFileWriters(
      Table table,
      OutputFileFactory files,
      FileWriterFactory<T> factory,
      Function<T, StructLike> internal) {
    this.spec = table.spec();
    this.key = new PartitionKey(spec, table.schema());
    this.internal = internal;
    long targetSize =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    this.writer = new FanoutDataWriter<>(factory, files, table.io(), targetSize);
  }

  /** Writers of assigned rows, whose values are already in Iceberg's internal representation. */
  static DataFileWriters<AssignedRow> forRows(Table table, OutputFileFactory files) {
    return new DataFileWriters<>(table, files, new AssignedRowWriterFactory(table), row -> row);
  }

  /** Writes one row into the file of its partition. */
  void write(T row) {
    if (spec.isUnpartitioned()) {
      writer.write(row, spec, null);
    } else {
      key.partition(internal.apply(row));
      writer.write(row, spec, key);
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
