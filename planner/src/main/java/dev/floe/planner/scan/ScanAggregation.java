package dev.floe.planner.scan;

import dev.floe.planner.scan.LakeAggregation.Call;
import dev.floe.planner.session.PinnedTable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.calcite.DataContext;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The runtime of an aggregating scan ({@link LakeScanSpec#aggregation()}). The data files of the
 * pinned snapshot (the transaction's own writes included) are planned whole; a file that no delete
 * applies to, that the pushed filter selects whole and whose manifest entry holds every statistic
 * the aggregation needs is answered from that entry without being opened. The other files are split
 * at row groups and read on the scan workers (piece {@code i} on worker {@code i mod n}), each
 * piece aggregated straight from the decoded column batches into a {@link GroupTable} of its own;
 * the tables are merged in piece order on the statement's thread, so groups come out as one pass
 * would list them.
 *
 * <p>What manifests answer: {@code COUNT(*)} (the record count), {@code COUNT(col)} (value count
 * less null count), {@code MIN}/{@code MAX} of BOOLEAN, numeric, DATE, TIME and TIMESTAMP columns
 * (the lower and upper bounds, which Iceberg keeps whole for these types; for REAL and DOUBLE only
 * when the file's NaN count is zero and the bound is not a zero, whose sign bounds may not keep),
 * and group values of identity-partition columns. String and binary bounds may be truncated, so
 * their MIN/MAX read the file.
 */
final class ScanAggregation {
  private static final int QUEUED_PIECES = 2;

  private final LakeScanSpec spec;
  private final LakeAggregation aggregation;
  private final Type[] columnTypes;
  private final int[] fieldIds;

  private ScanAggregation(LakeScanSpec spec, Schema schema) {
    this.spec = spec;
    this.aggregation = spec.aggregation();
    List<Types.NestedField> all = schema.columns();
    this.columnTypes = new Type[spec.columns().size()];
    this.fieldIds = new int[columnTypes.length];
    for (int i = 0; i < columnTypes.length; i++) {
      Types.NestedField field = all.get(spec.columns().get(i));
      columnTypes[i] = field.type();
      fieldIds[i] = field.fieldId();
    }
  }

  /** The result rows of an aggregating scan. */
  static List<Object[]> rows(DataContext root, LakeScanSpec spec) {
    LakeScan.Target target = LakeScan.target(spec);
    ScanAggregation scan = new ScanAggregation(spec, target.schema());
    if (target.snapshotId() == null) {
      return scan.newTable().rows();
    }
    PinnedTable pinned = target.pinned();
    Table table = pinned.table();
    List<FileScanTask> files = LakeScan.tasks(target, spec.filter(), true);
    ScanStats stats = ScanStats.start(pinned.name(), target.snapshotId());
    long splitSize =
        PropertyUtil.propertyAsLong(
            table.properties(), TableProperties.SPLIT_SIZE, TableProperties.SPLIT_SIZE_DEFAULT);
    // Pieces in scan order: a table answered from a manifest entry, or a piece of a file to read.
    List<Object> pieces = new ArrayList<>();
    List<FileScanTask> toRead = new ArrayList<>();
    for (FileScanTask file : files) {
      GroupTable answered = scan.fromMetadata(file);
      if (answered != null) {
        pieces.add(answered);
        if (stats != null) {
          stats.fileFromMetadata();
        }
      } else {
        for (FileScanTask piece : file.split(splitSize)) {
          pieces.add(piece);
          toRead.add(piece);
        }
      }
    }
    TaskReader reader =
        new TaskReader(
            table.io(),
            target.schema(),
            spec.columns(),
            false,
            new StatementDeleteCache(pinned.plans()));
    LakeScan.applyNameMapping(reader, table);
    reader.condition(spec.condition());
    reader.recordInto(stats);
    LakeScan.CancelCheck cancel = new LakeScan.CancelCheck(root);
    long start = System.nanoTime();
    try {
      int workers = LakeScan.workers(spec, toRead);
      GroupTable total = null;
      if (workers > 1) {
        total =
            scan.parallel(pieces, toRead, reader, workers, spec.session().scanExecutor(), cancel);
        // A REAL/DOUBLE MAX that met NaN: only one pass in scan order gives Calcite's answer.
        total = total.ordered() ? total : null;
      }
      if (total == null) {
        total = scan.serial(pieces, reader, cancel);
      }
      List<Object[]> rows = total.rows();
      if (stats != null) {
        stats.rowsReturned(rows.size());
      }
      return rows;
    } finally {
      if (stats != null) {
        stats.time(System.nanoTime() - start);
      }
    }
  }

  private GroupTable newTable() {
    return new GroupTable(aggregation, columnTypes);
  }

  /** Reads every piece on the statement's thread, in order, into one table. */
  private GroupTable serial(List<Object> pieces, TaskReader reader, LakeScan.CancelCheck cancel) {
    GroupTable total = newTable();
    for (Object piece : pieces) {
      cancel.check();
      if (piece instanceof GroupTable answered) {
        total.merge(answered);
      } else {
        read(reader, (FileScanTask) piece, total, cancel);
      }
    }
    return total;
  }

  private static void read(
      TaskReader reader, FileScanTask task, GroupTable into, LakeScan.CancelCheck cancel) {
    try {
      reader.read(task, into, cancel::check);
    } catch (ArithmeticException e) {
      throw e; // 22003: a sum that does not fit its type
    } catch (IOException | RuntimeException e) {
      throw LakeScan.Failures.translate(e, task, reader.io());
    }
  }

  /** A piece read by a worker: its table, or why it could not be read. */
  private record Piece(GroupTable table, RuntimeException failure) {}

  /**
   * Reads the pieces to read on {@code workers} threads ({@link ScanWorkers}), each piece into a
   * table of its own, and merges every piece's table in scan order.
   */
  private GroupTable parallel(
      List<Object> pieces,
      List<FileScanTask> toRead,
      TaskReader reader,
      int workers,
      ExecutorService executor,
      LakeScan.CancelCheck cancel) {
    try (ScanWorkers<Piece> read =
        new ScanWorkers<>(
            toRead.size(),
            workers,
            QUEUED_PIECES,
            executor,
            (t, out) -> {
              Piece piece;
              try {
                GroupTable table = newTable();
                reader.read(toRead.get(t), table, out::check);
                piece = new Piece(table, null);
              } catch (ScanWorkers.Stopped e) {
                return false;
              } catch (ArithmeticException e) {
                piece = new Piece(null, e);
              } catch (Throwable e) {
                piece = new Piece(null, LakeScan.Failures.translate(e, toRead.get(t), reader.io()));
              }
              return out.put(piece) && piece.failure() == null;
            })) {
      GroupTable total = newTable();
      int next = 0;
      for (Object piece : pieces) {
        if (piece instanceof GroupTable answered) {
          total.merge(answered);
          continue;
        }
        Piece done = read.take(next++, cancel);
        if (done.failure() != null) {
          throw done.failure();
        }
        total.merge(done.table());
      }
      return total;
    }
  }

  /** How many of the files a scan plans its manifests can answer, for EXPLAIN. */
  static long answerableFiles(LakeScanSpec spec, Iterable<FileScanTask> files, Schema schema) {
    ScanAggregation scan = new ScanAggregation(spec, schema);
    long answerable = 0;
    for (FileScanTask file : files) {
      if (scan.fromMetadata(file) != null) {
        answerable++;
      }
    }
    return answerable;
  }

  /**
   * The aggregation of a whole file from its manifest entry, or null when the file must be read: a
   * delete applies to it, the filter selects only part of it, or a statistic is missing or not
   * exact.
   */
  GroupTable fromMetadata(FileScanTask task) {
    DataFile file = task.file();
    if (!aggregation.answerableFromMetadata()
        || spec.condition() != null
        || !task.deletes().isEmpty()
        || !isTrue(task.residual())
        || task.start() != 0
        || task.length() != file.fileSizeInBytes()) {
      return null;
    }
    if (file.recordCount() == 0) {
      return newTable(); // no rows: no group, nothing counted
    }
    List<Integer> groups = aggregation.groups();
    Object[] groupValues = new Object[groups.size()];
    for (int g = 0; g < groupValues.length; g++) {
      int position = identityPosition(task.spec(), fieldIds[groups.get(g)]);
      if (position < 0) {
        return null;
      }
      Object value = file.partition().get(position, Object.class);
      groupValues[g] =
          value == null
              ? null
              : ValueConverter.toCalcite(columnTypes[groups.get(g)]).convert(value);
    }
    List<Call> calls = aggregation.calls();
    for (Call call : calls) {
      if (call.arg() >= fieldIds.length) {
        return null; // a computed argument: the values are needed
      }
    }
    GroupTable table = newTable();
    Accumulator[] accumulators = table.group(table.key(groupValues));
    for (int c = 0; c < calls.size(); c++) {
      if (!answer(calls.get(c), file, accumulators[c])) {
        return null;
      }
    }
    return table;
  }

  private boolean answer(Call call, DataFile file, Accumulator accumulator) {
    switch (call.kind()) {
      case COUNT_ROWS:
        accumulator.addCount(file.recordCount());
        return true;
      case COUNT:
        {
          long values = nonNullValues(file, fieldIds[call.arg()]);
          if (values < 0) {
            return false;
          }
          accumulator.addCount(values);
          return true;
        }
      case MIN:
      case MAX:
        return bound(call, file, accumulator);
      default:
        return false;
    }
  }

  /** The non-NULL values of a column in a file, or -1 when the file's entry does not say. */
  private static long nonNullValues(DataFile file, int fieldId) {
    Map<Integer, Long> values = file.valueCounts();
    Map<Integer, Long> nulls = file.nullValueCounts();
    Long count = values == null ? null : values.get(fieldId);
    Long nullCount = nulls == null ? null : nulls.get(fieldId);
    if (count == null || nullCount == null) {
      return -1;
    }
    return count - nullCount;
  }

  private boolean bound(Call call, DataFile file, Accumulator accumulator) {
    int fieldId = fieldIds[call.arg()];
    Type type = columnTypes[call.arg()];
    switch (type.typeId()) {
      case BOOLEAN:
      case INTEGER:
      case LONG:
      case FLOAT:
      case DOUBLE:
      case DECIMAL:
      case DATE:
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        break;
      default:
        return false; // strings and binaries: bounds may be truncated
    }
    long values = nonNullValues(file, fieldId);
    if (values < 0) {
      return false;
    }
    boolean floating = type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE;
    if (floating) {
      Map<Integer, Long> nans = file.nanValueCounts();
      Long nanCount = nans == null ? null : nans.get(fieldId);
      if (nanCount == null || nanCount != 0) {
        return false;
      }
    }
    if (values == 0) {
      return true; // only NULLs: nothing to compare
    }
    Map<Integer, ByteBuffer> bounds =
        call.kind() == LakeAggregation.Kind.MIN ? file.lowerBounds() : file.upperBounds();
    ByteBuffer bound = bounds == null ? null : bounds.get(fieldId);
    if (bound == null) {
      return false;
    }
    Object value = Conversions.fromByteBuffer(type, bound.duplicate());
    if (value == null || floating && ((Number) value).doubleValue() == 0d) {
      return false;
    }
    accumulator.add(ValueConverter.toCalcite(type).convert(value));
    return true;
  }

  /** The position of an identity partition field of a column in a spec, or -1. */
  private static int identityPosition(PartitionSpec spec, int fieldId) {
    List<PartitionField> fields = spec.fields();
    for (int i = 0; i < fields.size(); i++) {
      PartitionField field = fields.get(i);
      if (field.sourceId() == fieldId && field.transform().isIdentity()) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isTrue(Expression residual) {
    return residual == null || residual.op() == Expression.Operation.TRUE;
  }
}
