package dev.floe.command;

import dev.floe.error.FloeError;
import dev.floe.txn.FloeSession;
import java.util.List;
import org.apache.calcite.sql.SqlNode;
import org.apache.iceberg.Table;

/** Bin-packing of small data files, applying their deletes. */
final class Compaction {
  private final Table table;
  private final String name;

  Compaction(FloeSession session, Table table, String name, List<String> schemaPath) {
    this.table = table;
    this.name = name;
  }

  Maintenance.Result run(long fileSizeThreshold, SqlNode where, boolean dryRun) {
    throw FloeError.NOT_SUPPORTED.error("optimize on " + name + " in this version");
  }
}
