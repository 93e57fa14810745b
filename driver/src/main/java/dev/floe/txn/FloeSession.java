package dev.floe.txn;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.error.SqlErrors;
import dev.floe.planner.session.PhaseTimes;
import dev.floe.planner.session.PinnedTable;
import dev.floe.planner.session.PlanCache;
import dev.floe.planner.session.ScanPlans;
import dev.floe.planner.session.TableChange;
import dev.floe.planner.spi.LakeCatalog;
import dev.floe.planner.write.BatchingSession;
import dev.floe.planner.write.InsertBatch;
import dev.floe.planner.write.OpenAppend;
import dev.floe.planner.write.WritePlan;
import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeTableOperations;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.BaseTransaction;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.Transactions;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * The connection-bounded transaction: tables pinned at first use, the pending change per table
 * (with a preview so later statements read their own writes), and publishing at commit: every
 * changed table validated first, then published one by one in name order, each as one snapshot.
 * Rollback deletes every file the work wrote.
 *
 * <p>Inside a transaction, the rows of PreparedStatement batches of a plain INSERT go into files
 * kept open per table across batches ({@link #append}); they are closed and staged as one change
 * when the connection's lock is next taken for anything else ({@link #exclusive()}), so no
 * statement, commit or DDL ever sees the table without them. If writing or closing those files
 * fails, the rows of the earlier batches are lost with them: the transaction is then aborted, and
 * everything but a rollback fails until it is rolled back.
 *
 * <p>Used by one connection, which may be shared by several threads: every statement, batch, commit
 * and rollback runs holding {@link #exclusive()}, so their changes to the transaction's state never
 * interleave (as pgjdbc serialises a connection's work).
 */
public final class FloeSession implements BatchingSession {
  private static final int PUBLISH_ATTEMPTS = 30;

  /** How many planned file tasks a connection keeps across statements, over all its tables. */
  private static final long KEPT_TASKS = 100_000;

  private final FolderCatalog catalog;
  private final TimeZone timeZone;
  private boolean readOnly;
  private final ExecutorService executor;
  private final int parallelism;

  private final ReentrantLock work = new ReentrantLock();
  private final Map<List<String>, TableState> tables = new LinkedHashMap<>();
  private final PlanCache planCache = new PlanCache(PlanCache.CAPACITY);
  private final ScanPlans.Shared scanPlans = new ScanPlans.Shared(KEPT_TASKS);
  private InsertBatch insertBatch;
  private final Map<List<String>, OpenAppend> appends = new LinkedHashMap<>();

  /** Why the transaction is aborted (the table whose open files failed, and how), or null. */
  private String aborted;

  private boolean autoCommit = true;
  private int isolation = Connection.TRANSACTION_REPEATABLE_READ;

  public FloeSession(
      FolderCatalog catalog,
      TimeZone timeZone,
      boolean readOnly,
      ExecutorService executor,
      int parallelism) {
    this.catalog = catalog;
    this.timeZone = timeZone;
    this.readOnly = readOnly;
    this.executor = executor;
    this.parallelism = parallelism;
  }

  /** Holds the session's lock until closed; a thread may take it again while holding it. */
  public interface Exclusive extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Takes the session's lock: the calling thread waits while another thread runs a statement,
   * batch, commit or rollback on the same connection. Then the open files of INSERT batches are
   * closed and staged, so what runs next sees the transaction's every row: this is the one place
   * they are flushed.
   *
   * @throws SQLException TRANSACTION_ABORTED when the transaction is aborted, or IO when flushing
   *     fails (which aborts it); the lock is then not held
   */
  public Exclusive exclusive() throws SQLException {
    work.lock();
    try {
      checkNotAborted("run the statement");
      flushAppends();
    } catch (RuntimeException e) {
      work.unlock();
      throw SqlErrors.toSql(e);
    } catch (Error e) {
      work.unlock();
      throw e;
    }
    return work::unlock;
  }

  /**
   * Takes the session's lock and leaves the open files of INSERT batches open: for what neither
   * reads nor changes a table's rows (preparing a statement), what adds to them (another batch) and
   * what gives them up (rollback, close).
   */
  public Exclusive exclusiveKeepingAppends() {
    work.lock();
    return work::unlock;
  }

  /**
   * Adds a batch of a plain INSERT, inside a transaction, to the files open for its table (opened
   * now if none are). Its rows are assigned first: a value that cannot be assigned fails the batch
   * with nothing of it written. Open files of other tables stay open.
   *
   * @param rows each row in table column order (an array may be reused between rows)
   * @return the number of rows added
   * @throws FloeException IO when writing fails: the transaction is then aborted
   */
  public long append(WritePlan plan, Iterator<Object[]> rows) {
    if (autoCommit) {
      throw FloeError.INTERNAL.error("an open append in auto-commit mode");
    }
    checkNotAborted("insert into " + String.join(".", plan.path()));
    List<String> key = List.copyOf(plan.path());
    OpenAppend open = appends.get(key);
    if (open == null) {
      open = OpenAppend.open(plan);
      appends.put(key, open);
    }
    try {
      return open.add(rows);
    } catch (RuntimeException | Error e) {
      if (!open.failed()) {
        throw e;
      }
      throw abort(open, e);
    }
  }

  /** Closes and stages every table's open files, in the order they were opened. */
  private void flushAppends() {
    while (!appends.isEmpty()) {
      OpenAppend open = appends.values().iterator().next();
      appends.remove(open.path());
      try {
        open.finish();
      } catch (RuntimeException | Error e) {
        throw abort(open, e);
      }
    }
  }

  /**
   * Aborts the transaction after an open append failed: gives up every open file and keeps the
   * reason, so that everything but a rollback fails from now on.
   */
  private RuntimeException abort(OpenAppend failed, Throwable e) {
    appends.remove(failed.path());
    failed.abort();
    appends.values().forEach(OpenAppend::abort);
    appends.clear();
    Throwable cause = e instanceof FloeException && e.getCause() != null ? e.getCause() : e;
    String reason =
        cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    aborted = failed.name() + " (" + reason + ")";
    if (e instanceof Error) {
      throw (Error) e;
    }
    return FloeError.IO.error(
        e,
        failed.name(),
        reason
            + "; the rows of this transaction's INSERT batches into it are lost, and the"
            + " transaction is aborted: roll it back");
  }

  private void checkNotAborted(String action) {
    if (aborted != null) {
      throw FloeError.TRANSACTION_ABORTED.error(action, aborted);
    }
  }

  /** A table in the transaction: its pinned base and what the transaction changed. */
  private static final class TableState {
    final List<String> path;
    final LakeTableOperations ops;
    final Table base;
    final TableMetadata baseMetadata;
    final Long baseSnapshotId;
    final ScanPlans plans;
    TableChange pending = TableChange.NONE;
    Table preview;
    List<String> previewFiles = List.of();
    final List<String> orphans = new ArrayList<>();
    final List<PublishOperations> publishing = new ArrayList<>();

    TableState(List<String> path, LakeTableOperations ops, ScanPlans.Shared scanPlans) {
      this.path = path;
      this.ops = ops;
      this.baseMetadata = ops.current();
      this.plans =
          new ScanPlans(
              baseMetadata.uuid() != null ? baseMetadata.uuid() : baseMetadata.location(),
              scanPlans);
      this.base = new BaseTable(ops, String.join(".", path));
      Snapshot snapshot = baseMetadata.currentSnapshot();
      this.baseSnapshotId = snapshot == null ? null : snapshot.snapshotId();
    }

    String name() {
      return String.join(".", path);
    }
  }

  @Override
  public LakeCatalog catalog() {
    return catalog;
  }

  /** The folder catalog. */
  public FolderCatalog folders() {
    return catalog;
  }

  @Override
  public PinnedTable pin(List<String> path) {
    TableState state = state(path);
    if (state.preview != null) {
      Snapshot snapshot = state.preview.currentSnapshot();
      return new PinnedTable(
          path, state.preview, snapshot == null ? null : snapshot.snapshotId(), state.plans);
    }
    return new PinnedTable(path, state.base, state.baseSnapshotId, state.plans);
  }

  private TableState state(List<String> path) {
    List<String> key = List.copyOf(path);
    TableState state = tables.get(key);
    if (state == null) {
      PhaseTimes.Phase before = PhaseTimes.enter(PhaseTimes.Phase.METADATA);
      try {
        LakeTableOperations ops = catalog.operations(key);
        if (ops.current() == null) {
          throw FloeError.TABLE_NOT_FOUND.error(String.join(".", key) + " at " + ops.location());
        }
        state = new TableState(key, ops, scanPlans);
      } finally {
        PhaseTimes.restore(before);
      }
      tables.put(key, state);
    }
    return state;
  }

  @Override
  public void checkWritable(List<String> path) {
    if (readOnly) {
      throw FloeError.READ_ONLY.error("change " + String.join(".", path));
    }
    catalog.store().checkCanCommit();
  }

  @Override
  public void stage(List<String> path, TableChange change) {
    TableState state = state(path);
    TableChange combined = state.pending.then(change);
    if (!autoCommit) {
      PreviewOperations previewOps = new PreviewOperations(state.ops, state.baseMetadata);
      Transaction txn = Transactions.newTransaction(state.name(), previewOps);
      try {
        combined.applyTo(txn, state.baseSnapshotId, serializable());
      } catch (RuntimeException e) {
        deleteQuietly(previewOps.written());
        throw translate(e, state.name());
      }
      deleteQuietly(state.previewFiles);
      state.previewFiles = previewOps.written();
      TableMetadata previewMetadata = ((BaseTransaction) txn).currentMetadata();
      state.preview =
          new BaseTable(new PreviewOperations(state.ops, previewMetadata), state.name());
    }
    state.orphans.addAll(state.pending.discardedBy(change));
    state.pending = combined;
  }

  @Override
  public InsertBatch insertBatch() {
    return insertBatch;
  }

  /**
   * Starts (or, with null, ends) collecting the INSERT rows of a PreparedStatement batch, so they
   * are written once at its end.
   */
  public void collectInserts(InsertBatch batch) {
    this.insertBatch = batch;
  }

  @Override
  public boolean serializable() {
    return isolation == Connection.TRANSACTION_SERIALIZABLE;
  }

  @Override
  public TimeZone timeZone() {
    return timeZone;
  }

  @Override
  public ExecutorService scanExecutor() {
    return executor;
  }

  @Override
  public int scanParallelism() {
    return parallelism;
  }

  @Override
  public PlanCache planCache() {
    return planCache;
  }

  public boolean autoCommit() {
    return autoCommit;
  }

  /** Switches auto-commit; turning it on commits pending work, as JDBC asks. */
  public void setAutoCommit(boolean on) {
    if (on && !autoCommit) {
      commit();
    }
    autoCommit = on;
  }

  public int isolation() {
    return isolation;
  }

  public void setIsolation(int level) {
    this.isolation = level;
  }

  public boolean readOnly() {
    return readOnly;
  }

  public void setReadOnly(boolean readOnly) {
    this.readOnly = readOnly;
  }

  /** Whether the transaction has uncommitted changes to a table. */
  public boolean hasPendingChange(List<String> path) {
    TableState state = tables.get(List.copyOf(path));
    return state != null && (!state.pending.isEmpty() || state.pending.deletes());
  }

  /** The transaction's uncommitted change to a table, {@link TableChange#NONE} when none. */
  public TableChange pendingChange(List<String> path) {
    TableState state = tables.get(List.copyOf(path));
    return state == null ? TableChange.NONE : state.pending;
  }

  /** Whether the transaction has any uncommitted change. */
  public boolean hasPendingWork() {
    return tables.values().stream().anyMatch(s -> !s.pending.isEmpty());
  }

  /**
   * Called before each statement: in auto-commit mode every statement sees the latest data; in a
   * transaction the tables stay pinned, and the scans planned by the last statement are let go.
   */
  public void beginStatement() {
    if (autoCommit) {
      discard();
    } else {
      tables.values().forEach(state -> state.plans.clear());
    }
  }

  /** Called after each statement: in auto-commit mode its change is published now. */
  public void endStatement(boolean succeeded) {
    if (!autoCommit) {
      return;
    }
    if (succeeded) {
      commit();
    } else {
      rollback();
    }
  }

  /**
   * Publishes every changed table: validates all of them against their latest versions first, then
   * publishes them one by one in name order.
   *
   * @throws FloeException COMMIT_CONFLICT (rolled back), or COMMIT_STATE_UNKNOWN (files kept)
   */
  public void commit() {
    checkNotAborted("commit");
    flushAppends();
    List<TableState> changed = new ArrayList<>();
    for (TableState state : tables.values()) {
      if (!state.pending.isEmpty()) {
        changed.add(state);
      }
    }
    changed.sort((a, b) -> a.name().compareTo(b.name()));
    List<Transaction> prepared = new ArrayList<>();
    try {
      for (TableState state : changed) {
        prepared.add(prepare(state));
      }
    } catch (RuntimeException | Error e) {
      // nothing is published yet: the statement's files go, whatever failed (a class missing from
      // the jar, memory running out)
      changed.forEach(this::discardPrepared);
      rollback();
      if (e instanceof Error error) {
        throw error;
      }
      throw translate(
          (RuntimeException) e, changed.isEmpty() ? "" : changed.get(prepared.size()).name());
    }
    List<String> published = new ArrayList<>();
    for (int i = 0; i < changed.size(); i++) {
      TableState state = changed.get(i);
      try {
        publish(state, prepared.get(i));
        published.add(state.name());
      } catch (CommitStateUnknownException e) {
        tables.clear();
        throw FloeError.COMMIT_STATE_UNKNOWN.error(e, state.name(), e.getMessage());
      } catch (Error e) {
        // Publishing stopped part way (memory ran out, a class could not load): whether the new
        // version became current is unknown, so its files are kept, as for an unknown commit.
        for (TableState done : changed.subList(0, i)) {
          cleanUpAfterPublish(done);
        }
        tables.clear();
        throw FloeError.COMMIT_STATE_UNKNOWN.error(
            e, state.name(), "publishing failed with " + e + "; its files are kept");
      } catch (RuntimeException e) {
        for (int j = i; j < changed.size(); j++) {
          discardPrepared(changed.get(j));
          discardFiles(changed.get(j));
        }
        for (TableState done : changed.subList(0, i)) {
          cleanUpAfterPublish(done);
        }
        tables.clear();
        FloeException failure = translate(e, state.name());
        if (published.isEmpty()) {
          throw failure;
        }
        throw FloeError.COMMIT_CONFLICT.error(
            e,
            state.name(),
            failure.getMessage()
                + "; these tables were already committed: "
                + String.join(", ", published)
                + "; these were not: "
                + String.join(
                    ", ",
                    changed.subList(i, changed.size()).stream().map(TableState::name).toList()));
      }
    }
    for (TableState state : changed) {
      cleanUpAfterPublish(state);
    }
    tables.clear();
  }

  /**
   * A transaction on the table's latest version with the pending change applied, which runs
   * Iceberg's validations against everything committed since the work's base snapshot.
   */
  private Transaction prepare(TableState state) {
    LakeTableOperations ops = catalog.operations(state.path);
    if (ops.current() == null) {
      throw FloeError.COMMIT_CONFLICT.error(state.name(), "the table was dropped meanwhile");
    }
    PublishOperations recording = new PublishOperations(ops);
    state.publishing.add(recording);
    Transaction txn = Transactions.newTransaction(state.name(), recording);
    state.pending.applyTo(txn, state.baseSnapshotId, serializable());
    return txn;
  }

  /** Deletes the manifests of commits that were prepared but never published. */
  private void discardPrepared(TableState state) {
    for (PublishOperations ops : state.publishing) {
      deleteQuietly(ops.written());
    }
    state.publishing.clear();
  }

  /**
   * Publishes one prepared transaction. Iceberg already retries a lost race a few times; under
   * heavy contention Floe keeps going, bounded, with jittered back-off: each retry re-reads the
   * table and re-applies the change with its validations, so a real conflict still fails.
   */
  private void publish(TableState state, Transaction prepared) {
    Transaction txn = prepared;
    long backoff = 5;
    for (int attempt = 1; ; attempt++) {
      try {
        txn.commitTransaction();
        return;
      } catch (CommitFailedException e) {
        if (attempt >= PUBLISH_ATTEMPTS) {
          throw e;
        }
      }
      try {
        Thread.sleep(
            backoff + java.util.concurrent.ThreadLocalRandom.current().nextLong(backoff + 1));
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw FloeError.CANCELLED.error("interrupted while committing " + state.name());
      }
      backoff = Math.min(backoff * 2, 1000);
      txn = prepare(state);
    }
  }

  /** Discards pending work and deletes every file it wrote. */
  public void rollback() {
    appends.values().forEach(OpenAppend::abort);
    appends.clear();
    aborted = null;
    for (TableState state : tables.values()) {
      discardFiles(state);
    }
    tables.clear();
  }

  /** Ends the session: discards pending work and its files, then releases the store's client. */
  public void close() {
    try {
      rollback();
    } finally {
      catalog.close();
    }
  }

  /** Forgets pins; only legal when nothing is pending. */
  private void discard() {
    if (hasPendingWork()) {
      rollback();
    } else {
      for (TableState state : tables.values()) {
        deleteQuietly(state.previewFiles);
      }
      tables.clear();
    }
  }

  private void discardFiles(TableState state) {
    deleteQuietly(state.pending.writtenFiles());
    deleteQuietly(state.orphans);
    deleteQuietly(state.previewFiles);
  }

  private void cleanUpAfterPublish(TableState state) {
    deleteQuietly(state.orphans);
    deleteQuietly(state.previewFiles);
  }

  private void deleteQuietly(List<String> locations) {
    for (String location : locations) {
      try {
        catalog.io().deleteFile(location);
      } catch (RuntimeException e) {
        // unreferenced either way
      }
    }
  }

  /** Iceberg's conflict exceptions become 40001; Floe's own pass through. */
  static FloeException translate(RuntimeException e, String table) {
    if (e instanceof FloeException) {
      return (FloeException) e;
    }
    if (e instanceof ValidationException || e instanceof CommitFailedException) {
      return FloeError.COMMIT_CONFLICT.error(e, table, e.getMessage());
    }
    if (e instanceof CommitStateUnknownException) {
      return FloeError.COMMIT_STATE_UNKNOWN.error(e, table, e.getMessage());
    }
    return FloeError.IO.error(e, table, String.valueOf(e.getMessage()));
  }
}
