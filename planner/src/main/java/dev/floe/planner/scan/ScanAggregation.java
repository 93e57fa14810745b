package dev.floe.planner.scan;

import dev.floe.planner.scan.LakeAggregation.Call;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.PinnedTable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerator;
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
 * <p>Every table's groups count against the statement's memory budget while the scan runs ({@link
 * GroupTable.Memory}). Once a worker's table is refused, the workers stop and the statement's
 * thread reads that piece and the rest itself into the total; once the total is refused, the rows
 * of keys it does not hold go to spill files ({@link GroupTable.Spill}), and the result is the
 * total's groups, then each file's, aggregated a file at a time ({@link Groups}); groups then no
 * longer come in the order one pass would list them (an aggregate promises no order).
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
  private final GroupTable.Memory memory;

  /** The scan's spill files; replaced when the scan starts over on one thread. */
  private GroupTable.Spill spill;

  private ScanAggregation(LakeScanSpec spec, Schema schema, GroupTable.Memory memory) {
    this.spec = spec;
    this.memory = memory;
    this.spill = new GroupTable.Spill(memory);
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

  /**
   * The result rows of an aggregating scan: its files are read (and what did not fit the budget
   * written to spill files) before this returns; the files are aggregated as the rows are asked
   * for. Closing the enumerator, or its failure, deletes the files and gives the memory back.
   */
  static Enumerator<Object[]> enumerator(DataContext root, LakeScanSpec spec) {
    LakeScan.Target target = LakeScan.target(spec);
    GroupTable.Memory memory =
        new GroupTable.Memory(
            Cancellation.current().memory(),
            "the aggregate in the scan of " + target.pinned().name());
    ScanAggregation scan = new ScanAggregation(spec, target.schema(), memory);
    LakeScan.CancelCheck cancel = new LakeScan.CancelCheck(root);
    ScanStats stats =
        target.snapshotId() == null
            ? null
            : ScanStats.start(target.pinned().name(), target.snapshotId());
    try {
      GroupTable total = scan.total(target, stats, cancel);
      return scan.new Groups(total, stats, cancel);
    } catch (RuntimeException | Error e) {
      scan.end();
      throw e;
    }
  }

  /** Deletes the spill files and gives back the memory: the scan ended, failed or was cancelled. */
  private void end() {
    try {
      spill.delete();
    } finally {
      memory.close();
    }
  }

  /** A piece answered from a file's manifest entry: its table, and the file to read instead. */
  private record Answered(GroupTable table, FileScanTask file) {}

  /** Reads the scan's files into the total: the groups that fit, the rest in spill files. */
  private GroupTable total(LakeScan.Target target, ScanStats stats, LakeScan.CancelCheck cancel) {
    if (target.snapshotId() == null) {
      return newTotal(0);
    }
    PinnedTable pinned = target.pinned();
    Table table = pinned.table();
    List<FileScanTask> files = LakeScan.tasks(target, spec.filter(), true);
    long splitSize =
        PropertyUtil.propertyAsLong(
            table.properties(), TableProperties.SPLIT_SIZE, TableProperties.SPLIT_SIZE_DEFAULT);
    // Pieces in scan order: a table answered from a manifest entry, or a piece of a file to read.
    List<Object> pieces = new ArrayList<>();
    List<FileScanTask> toRead = new ArrayList<>();
    for (FileScanTask file : files) {
      GroupTable answered = fromMetadata(file);
      if (answered != null) {
        pieces.add(new Answered(answered, file));
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
    TaskReader reader = LakeScan.reader(target, spec);
    reader.recordInto(stats);
    long start = System.nanoTime();
    try {
      int workers = LakeScan.workers(spec, toRead);
      GroupTable total = null;
      if (workers > 1) {
        total = parallel(pieces, toRead, reader, workers, spec.session().scanExecutor(), cancel);
        // A REAL/DOUBLE MAX that met NaN: only one pass in scan order gives Calcite's answer.
        if (!total.ordered()) {
          total.release();
          total = null;
          spill.delete();
          spill = new GroupTable.Spill(memory);
        }
      }
      if (total == null) {
        total = newTotal(0);
        serial(total, pieces, 0, reader, cancel);
      }
      total.finishSpill();
      total.reserve();
      return total;
    } finally {
      if (stats != null) {
        stats.time(System.nanoTime() - start);
      }
    }
  }

  /** A table answered from a manifest entry (unaccounted: one group). */
  private GroupTable newTable() {
    return new GroupTable(aggregation, columnTypes);
  }

  /** A table of the statement's thread, which spills what does not fit. */
  private GroupTable newTotal(int level) {
    return new GroupTable(aggregation, columnTypes, memory, spill, false, level);
  }

  /** A worker's table, which gives up past the budget. */
  private GroupTable newWorkerTable() {
    return new GroupTable(aggregation, columnTypes, memory, null, true, 0);
  }

  /** Reads the pieces from {@code from} on the statement's thread, in order, into {@code total}. */
  private void serial(
      GroupTable total,
      List<Object> pieces,
      int from,
      TaskReader reader,
      LakeScan.CancelCheck cancel) {
    for (Object piece : pieces.subList(from, pieces.size())) {
      cancel.check();
      if (piece instanceof Answered answered) {
        if (!total.full() || total.holdsAll(answered.table())) {
          total.merge(answered.table());
        } else {
          // a key the total, full, does not hold: its rows go to the files, so the file is read
          read(reader, answered.file(), total, cancel);
        }
      } else {
        read(reader, (FileScanTask) piece, total, cancel);
      }
    }
  }

  /**
   * The groups of an aggregating scan, asked for one at a time: the total's, then each spill
   * file's, a file aggregated into a table of its own when the groups before are read (its keys
   * still past the budget written to files again, aggregated next). A table's memory is given back
   * once its groups are read. Reading to the end, closing or a failure deletes the files.
   */
  private final class Groups implements Enumerator<Object[]> {
    private static final int CHECK_EVERY = 256;

    private final ScanStats stats;
    private final LakeScan.CancelCheck cancel;
    private GroupTable table;
    private int next;
    private int steps;
    private Object[] current;
    private boolean closed;

    Groups(GroupTable total, ScanStats stats, LakeScan.CancelCheck cancel) {
      this.table = total;
      this.stats = stats;
      this.cancel = cancel;
      if (stats != null) {
        stats.rowsReturned(total.groups());
      }
    }

    @Override
    public Object[] current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      if (closed) {
        return false;
      }
      try {
        while (true) {
          if (table != null && next < table.groups()) {
            tick();
            current = table.row(next++);
            return true;
          }
          if (table != null) {
            table.release();
            table = null;
          }
          GroupTable.Pending file = spill.next();
          if (file == null) {
            break;
          }
          long start = System.nanoTime();
          try {
            table = aggregate(file);
          } finally {
            if (stats != null) {
              stats.time(System.nanoTime() - start);
            }
          }
          next = 0;
          if (stats != null) {
            stats.rowsReturned(table.groups());
          }
        }
      } catch (RuntimeException | Error e) {
        close();
        throw e;
      }
      close();
      return false;
    }

    /** Aggregates one spill file into a table of its own, its new keys past the budget to files. */
    private GroupTable aggregate(GroupTable.Pending file) {
      GroupTable into = newTotal(file.level());
      try (Enumerator<Object[]> rows = file.file().<Object[]>rows(file.index()).enumerator()) {
        while (rows.moveNext()) {
          tick();
          into.computedRow(rows.current());
        }
      } finally {
        file.file().delete(file.index());
      }
      into.finishSpill();
      into.reserve();
      return into;
    }

    private void tick() {
      if (++steps == CHECK_EVERY) {
        steps = 0;
        cancel.check();
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        table = null;
        current = null;
        end();
      }
    }
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
              GroupTable table = newWorkerTable();
              try {
                reader.read(toRead.get(t), table, out::check);
                table.reserveOrRefuse();
                piece = new Piece(table, null);
              } catch (ScanWorkers.Stopped e) {
                table.release();
                return false;
              } catch (GroupTable.Refused e) {
                // the statement's thread reads this piece and the rest itself
                table.release();
                out.put(new Piece(null, null));
                return false;
              } catch (ArithmeticException e) {
                piece = new Piece(null, e);
              } catch (Throwable e) {
                piece = new Piece(null, LakeScan.Failures.translate(e, toRead.get(t), reader.io()));
              }
              return out.put(piece) && piece.failure() == null;
            })) {
      GroupTable total = newTotal(0);
      int next = 0;
      int refusedAt = -1;
      for (int p = 0; p < pieces.size(); p++) {
        Object piece = pieces.get(p);
        if (piece instanceof Answered answered) {
          total.merge(answered.table());
          continue;
        }
        Piece done = read.take(next++, cancel);
        if (done.failure() != null) {
          throw done.failure();
        }
        if (done.table() == null) {
          refusedAt = p; // a worker's groups did not fit
          break;
        }
        total.merge(done.table());
      }
      if (refusedAt >= 0) {
        read.close(); // the workers stop, and their tables are dropped
        memory.releaseWorkers();
        serial(total, pieces, refusedAt, reader, cancel);
      }
      return total;
    }
  }

  /** How many of the files a scan plans its manifests can answer, for EXPLAIN. */
  static long answerableFiles(LakeScanSpec spec, Iterable<FileScanTask> files, Schema schema) {
    ScanAggregation scan =
        new ScanAggregation(
            spec,
            schema,
            // tables of a file each, dropped at once: nothing to reserve, no file written
            new GroupTable.Memory(
                dev.floe.planner.session.MemoryBudget.UNLIMITED, "the aggregate in a scan"));
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
