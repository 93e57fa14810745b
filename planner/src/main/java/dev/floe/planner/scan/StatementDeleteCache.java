package dev.floe.planner.scan;

import dev.floe.planner.session.ScanPlans;
import java.util.function.Supplier;

/**
 * Loaded delete files of one table for the running statement, so that each delete file is read once
 * however many data files it applies to and however often the statement scans the table (a
 * correlated subquery scans it once per outer row). Safe for the scan's worker threads; a load runs
 * outside any lock.
 */
final class StatementDeleteCache {
  private final ScanPlans statement;

  /** Delete files loaded for one scan alone. */
  StatementDeleteCache() {
    this(new ScanPlans("", new ScanPlans.Shared(0)));
  }

  /** The delete files loaded for the running statement's scans of one pinned table. */
  StatementDeleteCache(ScanPlans statement) {
    this.statement = statement;
  }

  <V> V getOrLoad(String key, Supplier<V> loader) {
    return statement.statementValue(key, loader);
  }
}
