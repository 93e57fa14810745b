package dev.floe.planner.write;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.core.TableModify;

/**
 * The INSERT rows of one PreparedStatement batch, collected per statement plan, so that the batch
 * is written as one statement: one set of data files and one staged change for the whole batch,
 * instead of a data file and a staged change per batch entry. Not thread-safe.
 */
public final class InsertBatch {
  private final Map<WritePlan, List<Object[]>> rows = new LinkedHashMap<>();

  /** Whether a statement's rows can wait for the end of the batch: INSERT rows only. */
  static boolean collects(WritePlan plan) {
    return plan.operation() == TableModify.Operation.INSERT;
  }

  /** Keeps one batch entry's rows (copied: the runtime may reuse arrays); returns their count. */
  long add(WritePlan plan, Enumerable<Object[]> entryRows) {
    List<Object[]> kept = rows.computeIfAbsent(plan, p -> new ArrayList<>());
    long count = 0;
    try (Enumerator<Object[]> enumerator = entryRows.enumerator()) {
      while (enumerator.moveNext()) {
        kept.add(enumerator.current().clone());
        count++;
      }
    }
    return count;
  }

  /** Writes and stages the rows of each collected statement, in the order they first came. */
  public void flush() {
    for (Map.Entry<WritePlan, List<Object[]>> entry : rows.entrySet()) {
      LakeWrites.run(entry.getKey(), entry.getValue().iterator());
    }
    rows.clear();
  }
}
