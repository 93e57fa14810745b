package dev.floe.planner.write;

import dev.floe.error.FloeError;
import dev.floe.planner.scan.InternalRows;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.PinnedTable;
import dev.floe.planner.session.TableChange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.rel.core.TableModify;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FanoutPositionOnlyDeleteWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.PropertyUtil;

/**
 * DELETE and UPDATE: collects the file and position of every matching row (and, for UPDATE, the new
 * row), then for each affected data file either removes it whole (every live row matched, whatever
 * deletes it had before: a metadata-only delete), rewrites it (copy-on-write tables), or records
 * the positions as position deletes (v2) or a deletion vector (v3).
 */
final class RowLevelChange {
  private final PinnedTable pinned;
  private final Table table;
  private final WritePlan plan;
  private final String operationId;
  private final TableChange.Builder change;
  private final OutputFileFactory outputFiles;

  /** Reads the files this change counts or rewrites; each delete file is loaded once. */
  private final InternalRows reader;

  RowLevelChange(
      PinnedTable pinned, WritePlan plan, String operationId, TableChange.Builder change) {
    this.pinned = pinned;
    this.table = pinned.table();
    this.reader = new InternalRows(table);
    this.plan = plan;
    this.operationId = operationId;
    this.change = change;
    this.outputFiles = DataFileWriters.outputFiles(table, operationId);
  }

  void apply(Iterator<Object[]> rows) {
    Schema schema = table.schema();
    int columns = schema.columns().size();
    boolean update = plan.operation() == TableModify.Operation.UPDATE;
    boolean merge = plan.operation() == TableModify.Operation.MERGE;
    Map<String, Positions> deleted = new TreeMap<>();
    List<org.apache.iceberg.DataFile> written = new ArrayList<>();
    long count = 0;
    DataFileWriters<AssignedRow> newRows = null;
    try {
      RowAssigner assigner = null;
      List<MergeAssigner> clauses = new ArrayList<>();
      int inputs = plan.inputTypes().size() - 3;
      if (merge) {
        for (WritePlan.MergeClause clause : plan.mergeClauses()) {
          clauses.add(new MergeAssigner(schema, plan.inputTypes(), clause));
        }
        newRows = DataFileWriters.forRows(table, outputFiles);
      } else if (update) {
        List<WritePlan.SourceType> sources = new ArrayList<>(plan.inputTypes().subList(0, columns));
        for (int j = 0; j < plan.updateColumns().size(); j++) {
          sources.set(plan.updateColumns().get(j), plan.inputTypes().get(columns + j));
        }
        assigner = new RowAssigner(schema, sources);
        newRows = DataFileWriters.forRows(table, outputFiles);
      }
      Cancellation cancel = Cancellation.current();
      while (rows.hasNext()) {
        cancel.check();
        Object[] row = rows.next();
        if (merge) {
          MergeAssigner clause = clauses.get(((Number) row[inputs]).intValue());
          String file = (String) row[inputs + 1];
          if (clause.action != WritePlan.MERGE_INSERT && file != null) {
            deleted.computeIfAbsent(file, f -> new Positions()).add((Long) row[inputs + 2]);
          }
          if (clause.action != WritePlan.MERGE_DELETE) {
            newRows.write(clause.assign(row));
          }
          count++;
          continue;
        }
        int n = row.length;
        String file = (String) row[n - 2];
        long pos = (Long) row[n - 1];
        deleted.computeIfAbsent(file, f -> new Positions()).add(pos);
        if (update) {
          Object[] values = Arrays.copyOf(row, columns);
          for (int j = 0; j < plan.updateColumns().size(); j++) {
            values[plan.updateColumns().get(j)] = row[columns + j];
          }
          newRows.write(assigner.assign(values));
        }
        count++;
      }
      if (newRows != null) {
        written.addAll(newRows.finish());
        written.forEach(change::addData);
      }
    } finally {
      if (newRows != null) {
        newRows.close();
      }
    }
    change.rows(count);
    Map<String, FileScanTask> tasks =
        deleted.isEmpty() ? Map.of() : LakeWrites.tasksByFile(pinned, plan.deleteFilter());
    if (merge) {
      // MERGE's conflicts are checked in the partitions it touched: where it deletes and adds.
      Expression filter = Expressions.alwaysFalse();
      for (String file : deleted.keySet()) {
        FileScanTask task = tasks.get(file);
        if (task != null) {
          filter = Expressions.or(filter, LakeWrites.partitionFilter(table, task.file()));
        }
      }
      for (org.apache.iceberg.DataFile file : written) {
        filter = Expressions.or(filter, LakeWrites.partitionFilter(table, file));
      }
      change.deleteFilter(count == 0 ? null : filter);
    } else {
      change.deleteFilter(plan.deleteFilter());
    }
    if (deleted.isEmpty()) {
      return;
    }
    boolean copyOnWrite = LakeWrites.copyOnWrite(table, plan.operation());
    Map<FileScanTask, long[]> rowLevel =
        new TreeMap<>((a, b) -> a.file().location().compareTo(b.file().location()));
    for (Map.Entry<String, Positions> entry : deleted.entrySet()) {
      FileScanTask task = tasks.get(entry.getKey());
      if (task == null) {
        throw FloeError.IO.error(
            entry.getKey(), "the data file is not in snapshot " + pinned.snapshotId());
      }
      long[] positions = entry.getValue().sorted();
      if (positions.length == liveRows(task)) {
        // Every live row of the file goes: a metadata-only delete of the whole file, with the
        // delete files that applied to it alone, whether or not it had deletes before.
        change.removeData(task.file());
        for (DeleteFile delete : task.deletes()) {
          if (ContentFileUtil.isFileScoped(delete)) {
            change.removeDeletes(delete);
          }
        }
      } else if (copyOnWrite) {
        rewrite(task, positions);
      } else {
        rowLevel.put(task, positions);
      }
    }
    if (!rowLevel.isEmpty()) {
      if (TableUtil.formatVersion(table) >= 3) {
        writeDeletionVectors(rowLevel);
      } else {
        writePositionDeletes(rowLevel);
      }
    }
  }

  /**
   * The rows of a task's data file that its delete files leave live: the record count less the
   * positions its position deletes and deletion vectors remove; with equality deletes, counted by
   * reading the file through Iceberg's delete filter.
   */
  private long liveRows(FileScanTask task) {
    long records = task.file().recordCount();
    if (task.deletes().isEmpty()) {
      return records;
    }
    List<DeleteFile> positional = new ArrayList<>();
    for (DeleteFile delete : task.deletes()) {
      if (delete.content() == org.apache.iceberg.FileContent.EQUALITY_DELETES) {
        return countLive(task);
      }
      positional.add(delete);
    }
    BaseDeleteLoader loader =
        new BaseDeleteLoader(deleteFile -> table.io().newInputFile(deleteFile.location()));
    long[] deleted = {0};
    loader
        .loadPositionDeletes(positional, task.file().location())
        .forEachInRange(0, records, position -> deleted[0]++);
    return records - deleted[0];
  }

  /** The live rows of a task's data file, read with every delete applied. */
  private long countLive(FileScanTask task) {
    long live = 0;
    try (CloseableIterable<StructLike> rows = reader.read(task, false, false)) {
      for (StructLike ignored : rows) {
        live++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return live;
  }

  private void writePositionDeletes(Map<FileScanTask, long[]> rowLevel) {
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table)
            .dataFileFormat(FileFormat.PARQUET)
            .deleteFileFormat(FileFormat.PARQUET)
            .build();
    long targetSize =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.DELETE_TARGET_FILE_SIZE_BYTES,
            TableProperties.DELETE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    // Position-delete files are named so ("...-deletes.parquet", as Spark names them): whoever
    // looks at the folder (the shell's progress report) can tell them from data files.
    OutputFileFactory deleteFiles =
        OutputFileFactory.builderFor(table, 1, 0)
            .format(FileFormat.PARQUET)
            .operationId(operationId)
            .suffix("deletes")
            .build();
    FanoutPositionOnlyDeleteWriter<Record> writer =
        new FanoutPositionOnlyDeleteWriter<>(
            factory, deleteFiles, table.io(), targetSize, DeleteGranularity.FILE);
    try (writer) {
      PositionDelete<Record> delete = PositionDelete.create();
      for (Map.Entry<FileScanTask, long[]> entry : rowLevel.entrySet()) {
        FileScanTask task = entry.getKey();
        for (long pos : entry.getValue()) {
          writer.write(
              delete.set(task.file().location(), pos),
              table.specs().get(task.file().specId()),
              task.file().partition());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    record(writer.result());
  }

  private void writeDeletionVectors(Map<FileScanTask, long[]> rowLevel) {
    Map<String, FileScanTask> byPath = new TreeMap<>();
    rowLevel.keySet().forEach(task -> byPath.put(task.file().location(), task));
    BaseDeleteLoader loader =
        new BaseDeleteLoader(deleteFile -> table.io().newInputFile(deleteFile.location()));
    // Deletion vectors are Puffin files, and are named so.
    OutputFileFactory puffinFiles =
        OutputFileFactory.builderFor(table, 1, 0)
            .format(FileFormat.PUFFIN)
            .operationId(operationId)
            .build();
    BaseDVFileWriter writer =
        new BaseDVFileWriter(
            puffinFiles,
            path -> {
              List<DeleteFile> previous = new ArrayList<>();
              for (DeleteFile delete : byPath.get(path.toString()).deletes()) {
                if (delete.content() == org.apache.iceberg.FileContent.POSITION_DELETES) {
                  previous.add(delete);
                }
              }
              return previous.isEmpty() ? null : loader.loadPositionDeletes(previous, path);
            });
    try (writer) {
      for (Map.Entry<FileScanTask, long[]> entry : rowLevel.entrySet()) {
        FileScanTask task = entry.getKey();
        for (long pos : entry.getValue()) {
          writer.delete(
              task.file().location(),
              pos,
              table.specs().get(task.file().specId()),
              task.file().partition());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    record(writer.result());
  }

  private void record(DeleteWriteResult result) {
    result.deleteFiles().forEach(change::addDeletes);
    result.rewrittenDeleteFiles().forEach(change::removeDeletes);
    result.referencedDataFiles().forEach(change::referenced);
  }

  /** Copy-on-write: writes the file's surviving rows to new files and removes the old one. */
  private void rewrite(FileScanTask task, long[] positions) {
    LakeWrites.writeLiveRows(table, reader, List.of(task), t -> positions, outputFiles)
        .forEach(change::addData);
    change.removeData(task.file());
    for (DeleteFile delete : task.deletes()) {
      if (ContentFileUtil.isFileScoped(delete)) {
        change.removeDeletes(delete);
      }
    }
  }

  /** A growing list of row positions. */
  private static final class Positions {
    private long[] values = new long[16];
    private int size;

    void add(long pos) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = pos;
    }

    long[] sorted() {
      long[] result = Arrays.copyOf(values, size);
      Arrays.sort(result);
      int unique = 0;
      for (int i = 0; i < result.length; i++) {
        if (i == 0 || result[i] != result[i - 1]) {
          result[unique++] = result[i];
        }
      }
      return Arrays.copyOf(result, unique);
    }
  }

  /**
   * The assignment of one MERGE clause: the input values it names, each assigned to its column from
   * the SQL type of its own expression, as an INSERT or UPDATE assigns them.
   */
  private static final class MergeAssigner {
    private final int action;
    private final int[] inputs;
    private final Object[] values;
    private final RowAssigner assigner;

    MergeAssigner(Schema schema, List<WritePlan.SourceType> types, WritePlan.MergeClause clause) {
      this.action = clause.action();
      int columns = schema.columns().size();
      this.inputs = new int[columns];
      this.values = new Object[columns];
      List<WritePlan.SourceType> sources = new ArrayList<>();
      for (int i = 0; i < columns; i++) {
        int input = i < clause.columns().size() ? clause.columns().get(i) : -1;
        inputs[i] = input;
        sources.add(input < 0 ? null : types.get(input));
      }
      this.assigner = action == WritePlan.MERGE_DELETE ? null : new RowAssigner(schema, sources);
    }

    AssignedRow assign(Object[] row) {
      for (int i = 0; i < inputs.length; i++) {
        values[i] = inputs[i] < 0 ? null : row[inputs[i]];
      }
      return assigner.assign(values);
    }
  }
}
