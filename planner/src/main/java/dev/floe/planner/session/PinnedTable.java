package dev.floe.planner.session;

import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * A table as one statement or transaction sees it: the snapshot pinned at its first use, or the
 * transaction's own view when the transaction has written to it.
 *
 * @param path the table's path under the root
 * @param table the Iceberg table to plan scans on
 * @param snapshotId the snapshot to read, or null when the table has none yet
 * @param plans the scans already planned on it during the running statement
 */
public record PinnedTable(List<String> path, Table table, Long snapshotId, ScanPlans plans) {
  /** The pinned snapshot, or null for an empty table. */
  public Snapshot snapshot() {
    return snapshotId == null ? null : table.snapshot(snapshotId);
  }

  /** The dotted SQL name, for messages. */
  public String name() {
    return String.join(".", path);
  }
}
