package dev.floe.planner.write;

import dev.floe.planner.session.LakeSession;
import dev.floe.planner.session.PinnedTable;
import dev.floe.planner.session.TableChange;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;

/**
 * The rows that a transaction's PreparedStatement batches insert into one table, written into data
 * files kept open across the batches: a load of many batches makes one file per partition (rolled
 * at the table's target file size), staged as one change when the transaction next needs the table.
 * Each batch is assigned completely before any of its rows reaches the files, so a value that
 * cannot be assigned fails its batch with nothing of it written and the earlier batches intact. Not
 * thread-safe.
 */
public final class OpenAppend {
  private final LakeSession session;
  private final List<String> path;
  private final String name;
  private final Table table;
  private final String operationId = UUID.randomUUID().toString();
  private final RowAssigner assigner;
  private final DataFileWriters<AssignedRow> writer;
  private long rows;
  private boolean failed;
  private boolean ended;

  private OpenAppend(WritePlan plan, PinnedTable pinned) {
    this.session = plan.session();
    this.path = List.copyOf(plan.path());
    this.name = pinned.name();
    this.table = pinned.table();
    this.assigner = new RowAssigner(table.schema(), plan.inputTypes());
    this.writer = DataFileWriters.forRows(table, DataFileWriters.outputFiles(table, operationId));
  }

  /**
   * Opens the files of a plain INSERT's rows into the table of {@code plan}, as the session sees it
   * now.
   *
   * @throws dev.floe.error.FloeException READ_ONLY or TABLE_NOT_FOUND
   */
  public static OpenAppend open(WritePlan plan) {
    plan.session().checkWritable(plan.path());
    return new OpenAppend(plan, plan.session().pin(plan.path()));
  }

  /** The table's path under the root. */
  public List<String> path() {
    return path;
  }

  /** The table's name, for messages. */
  public String name() {
    return name;
  }

  /**
   * Adds one batch of rows, each in table column order (an array may be reused between rows): every
   * value is assigned first, so a value that cannot be assigned throws with nothing of the batch
   * written; then the rows are written.
   *
   * @return the number of rows added
   * @throws RuntimeException from assignment (this append is as before), or from writing (then
   *     {@link #failed()}: the files hold part of the batch and must be given up)
   */
  public long add(Iterator<Object[]> batch) {
    session.checkWritable(path);
    List<AssignedRow> assigned = new ArrayList<>();
    while (batch.hasNext()) {
      assigned.add(assigner.assignNew(batch.next()));
    }
    failed = true;
    for (AssignedRow row : assigned) {
      writer.write(row);
    }
    failed = false;
    rows += assigned.size();
    return assigned.size();
  }

  /** Whether writing into the open files failed. */
  public boolean failed() {
    return failed;
  }

  /**
   * Closes the files and stages them in the session as one change to the table. If that fails, the
   * files are deleted and the error propagates.
   */
  public void finish() {
    ended = true;
    TableChange.Builder change = TableChange.builder();
    try {
      for (DataFile file : writer.finish()) {
        change.addData(file);
      }
      if (rows > 0) {
        session.stage(path, change.rows(rows).build());
      }
    } catch (RuntimeException | Error e) {
      LakeWrites.deleteWrittenFiles(table, operationId, change.written());
      throw e;
    }
  }

  /** Gives up the rows: closes the files, if that still works, and deletes them. */
  public void abort() {
    if (ended) {
      return;
    }
    ended = true;
    List<String> written = new ArrayList<>();
    try {
      writer.finish().forEach(file -> written.add(file.location()));
    } catch (RuntimeException e) {
      // The files named with this append's operation id are found and deleted below.
      LakeWrites.deleteWrittenFiles(table, operationId, written);
      return;
    }
    for (String location : written) {
      try {
        table.io().deleteFile(location);
      } catch (RuntimeException e) {
        // Already gone, or the store refuses: nothing references the file.
      }
    }
  }
}
