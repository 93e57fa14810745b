package dev.floe.planner.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * The changes one statement, or a whole transaction, makes to one table: data and delete files
 * added, data and delete files removed, the data files its position deletes point at, and the
 * predicate its deletes selected rows by. However many statements contributed, it is applied as
 * <em>one</em> Iceberg operation, so a transaction publishes one snapshot per table.
 *
 * <p>Immutable.
 */
public final class TableChange {
  /** The change that changes nothing. */
  public static final TableChange NONE =
      new TableChange(Map.of(), Map.of(), Map.of(), Map.of(), Set.of(), null, 0);

  private final Map<String, DataFile> addedData;
  private final Map<String, DataFile> removedData;
  private final Map<String, DeleteFile> addedDeletes;
  private final Map<String, DeleteFile> removedDeletes;
  private final Set<String> referencedData;
  private final Expression deleteFilter;
  private final long rows;

  private TableChange(
      Map<String, DataFile> addedData,
      Map<String, DataFile> removedData,
      Map<String, DeleteFile> addedDeletes,
      Map<String, DeleteFile> removedDeletes,
      Set<String> referencedData,
      Expression deleteFilter,
      long rows) {
    this.addedData = addedData;
    this.removedData = removedData;
    this.addedDeletes = addedDeletes;
    this.removedDeletes = removedDeletes;
    this.referencedData = referencedData;
    this.deleteFilter = deleteFilter;
    this.rows = rows;
  }

  /** Builds the change of one statement. */
  public static Builder builder() {
    return new Builder();
  }

  /** Rows the statement(s) inserted, deleted or updated. */
  public long rows() {
    return rows;
  }

  /** Whether nothing changes. */
  public boolean isEmpty() {
    return addedData.isEmpty()
        && removedData.isEmpty()
        && addedDeletes.isEmpty()
        && removedDeletes.isEmpty();
  }

  /** Whether any statement deleted rows: the commit then validates against concurrent writes. */
  public boolean deletes() {
    return deleteFilter != null;
  }

  /** The data files this change adds. */
  public java.util.Collection<DataFile> addedDataFiles() {
    return addedData.values();
  }

  /** The locations of every file this change wrote. */
  public List<String> writtenFiles() {
    List<String> files = new ArrayList<>(addedData.keySet());
    addedDeletes.values().forEach(f -> addLocation(files, f));
    return files;
  }

  /**
   * The key of a delete file in this change: its location, plus its offset for a deletion vector,
   * since one Puffin file holds the vectors of many data files and each is a delete file of its
   * own.
   */
  static String key(DeleteFile file) {
    return file.contentOffset() == null
        ? file.location()
        : file.location() + "#" + file.contentOffset();
  }

  private static void addLocation(List<String> files, DeleteFile file) {
    if (!files.contains(file.location())) {
      files.add(file.location());
    }
  }

  /**
   * This change followed by a later one. Files the later change removes that this one added are
   * simply no longer added; their locations are returned by {@link #discardedBy(TableChange)} so
   * they can be deleted once the transaction ends.
   */
  public TableChange then(TableChange later) {
    Map<String, DataFile> data = new LinkedHashMap<>(addedData);
    Map<String, DataFile> removed = new LinkedHashMap<>(removedData);
    for (Map.Entry<String, DataFile> e : later.removedData.entrySet()) {
      if (data.remove(e.getKey()) == null) {
        removed.put(e.getKey(), e.getValue());
      }
    }
    data.putAll(later.addedData);
    Map<String, DeleteFile> deletes = new LinkedHashMap<>(addedDeletes);
    Map<String, DeleteFile> removedDel = new LinkedHashMap<>(removedDeletes);
    for (Map.Entry<String, DeleteFile> e : later.removedDeletes.entrySet()) {
      if (deletes.remove(e.getKey()) == null) {
        removedDel.put(e.getKey(), e.getValue());
      }
    }
    // Deletes of this change that apply to a data file alone, which the later change removes,
    // are no longer added: the file goes, and its deletes with it.
    deletes.keySet().removeAll(orphanedBy(later));
    deletes.putAll(later.addedDeletes);
    Set<String> referenced = new TreeSet<>(referencedData);
    referenced.removeAll(later.removedData.keySet());
    referenced.addAll(later.referencedData);
    Expression filter;
    if (deleteFilter == null) {
      filter = later.deleteFilter;
    } else if (later.deleteFilter == null) {
      filter = deleteFilter;
    } else {
      filter = Expressions.or(deleteFilter, later.deleteFilter);
    }
    return new TableChange(
        Map.copyOf(data),
        Map.copyOf(removed),
        Map.copyOf(deletes),
        Map.copyOf(removedDel),
        Set.copyOf(referenced),
        filter,
        rows + later.rows);
  }

  /** Files this change added that the later change removes again. */
  public List<String> discardedBy(TableChange later) {
    List<String> files = new ArrayList<>();
    for (String location : later.removedData.keySet()) {
      if (addedData.containsKey(location)) {
        files.add(location);
      }
    }
    // A Puffin file is discarded only when none of its vectors is still added.
    Set<String> gone = new TreeSet<>(later.removedDeletes.keySet());
    gone.addAll(orphanedBy(later));
    Map<String, DeleteFile> remaining = new LinkedHashMap<>(addedDeletes);
    remaining.keySet().removeAll(gone);
    remaining.putAll(later.addedDeletes);
    Set<String> stillUsed = new TreeSet<>();
    remaining.values().forEach(f -> stillUsed.add(f.location()));
    for (String key : gone) {
      DeleteFile file = addedDeletes.get(key);
      if (file != null && !stillUsed.contains(file.location())) {
        addLocation(files, file);
      }
    }
    return files;
  }

  /**
   * The keys of this change's added delete files that apply to one data file only (a deletion
   * vector, or a position-delete file of one data file) which the later change removes.
   */
  private Set<String> orphanedBy(TableChange later) {
    Set<String> orphaned = new TreeSet<>();
    if (later.removedData.isEmpty()) {
      return orphaned;
    }
    for (Map.Entry<String, DeleteFile> e : addedDeletes.entrySet()) {
      String referenced = ContentFileUtil.referencedDataFileLocation(e.getValue());
      if (referenced != null && later.removedData.containsKey(referenced)) {
        orphaned.add(e.getKey());
      }
    }
    return orphaned;
  }

  /**
   * Applies this change to a transaction as one Iceberg operation, validated from the snapshot the
   * work was based on: appends alone need no validation; anything that deletes checks that no
   * concurrent commit added data matching its delete predicate or deleted what it deletes, even
   * when the table was empty when the work started.
   *
   * @param baseSnapshotId the snapshot the work read, or null if the table was empty
   * @param serializable whether to also refuse concurrent appends to what was read
   */
  public void applyTo(Transaction txn, Long baseSnapshotId, boolean serializable) {
    if (isEmpty() && deleteFilter == null) {
      return;
    }
    Expression conflictFilter = deleteFilter == null ? Expressions.alwaysTrue() : deleteFilter;
    if (removedData.isEmpty() && addedDeletes.isEmpty() && removedDeletes.isEmpty()) {
      if (addedData.isEmpty()) {
        return;
      }
      if (deleteFilter == null && !serializable) {
        AppendFiles append = txn.newAppend();
        addedData.values().forEach(append::appendFile);
        append.commit();
        return;
      }
    }
    if (addedDeletes.isEmpty() && removedDeletes.isEmpty()) {
      OverwriteFiles overwrite = txn.newOverwrite();
      removedData.values().forEach(overwrite::deleteFile);
      addedData.values().forEach(overwrite::addFile);
      if (baseSnapshotId != null) {
        overwrite.validateFromSnapshot(baseSnapshotId);
      }
      overwrite
          .conflictDetectionFilter(conflictFilter)
          .validateNoConflictingData()
          .validateNoConflictingDeletes()
          .commit();
      return;
    }
    RowDelta delta = txn.newRowDelta();
    addedData.values().forEach(delta::addRows);
    removedData.values().forEach(delta::removeRows);
    addedDeletes.values().forEach(delta::addDeletes);
    removedDeletes.values().forEach(delta::removeDeletes);
    if (baseSnapshotId != null) {
      delta.validateFromSnapshot(baseSnapshotId);
    }
    Set<String> mustExist = new TreeSet<>(referencedData);
    mustExist.removeAll(addedData.keySet());
    delta
        .conflictDetectionFilter(conflictFilter)
        .validateDataFilesExist(mustExist)
        .validateDeletedFiles()
        .validateNoConflictingDataFiles()
        .validateNoConflictingDeleteFiles()
        .commit();
  }

  /** Collects the files and facts of one statement's change. Not thread-safe. */
  public static final class Builder {
    private final Map<String, DataFile> addedData = new LinkedHashMap<>();
    private final Map<String, DataFile> removedData = new LinkedHashMap<>();
    private final Map<String, DeleteFile> addedDeletes = new LinkedHashMap<>();
    private final Map<String, DeleteFile> removedDeletes = new LinkedHashMap<>();
    private final Set<String> referencedData = new TreeSet<>();
    private Expression deleteFilter;
    private long rows;

    private Builder() {}

    public Builder addData(DataFile file) {
      addedData.put(file.location(), file);
      return this;
    }

    public Builder removeData(DataFile file) {
      removedData.put(file.location(), file);
      return this;
    }

    public Builder addDeletes(DeleteFile file) {
      addedDeletes.put(key(file), file);
      return this;
    }

    public Builder removeDeletes(DeleteFile file) {
      removedDeletes.put(key(file), file);
      return this;
    }

    public Builder referenced(CharSequence dataFileLocation) {
      referencedData.add(dataFileLocation.toString());
      return this;
    }

    /** Records the predicate the statement deleted by; null when it deleted nothing at all. */
    public Builder deleteFilter(Expression filter) {
      this.deleteFilter =
          deleteFilter == null || filter == null ? filter : Expressions.or(deleteFilter, filter);
      return this;
    }

    public Builder rows(long count) {
      this.rows = count;
      return this;
    }

    /** Every file written so far, for cleaning up when the statement fails. */
    public List<String> written() {
      List<String> files = new ArrayList<>(addedData.keySet());
      addedDeletes.values().forEach(f -> addLocation(files, f));
      return files;
    }

    public TableChange build() {
      return new TableChange(
          Map.copyOf(addedData),
          Map.copyOf(removedData),
          Map.copyOf(addedDeletes),
          Map.copyOf(removedDeletes),
          Set.copyOf(referencedData),
          deleteFilter,
          rows);
    }
  }

  @Override
  public String toString() {
    return "TableChange(+"
        + addedData.size()
        + " data, -"
        + removedData.size()
        + " data, +"
        + addedDeletes.size()
        + " deletes, -"
        + removedDeletes.size()
        + " deletes, rows="
        + rows
        + ")";
  }
}
