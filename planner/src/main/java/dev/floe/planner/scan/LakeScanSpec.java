package dev.floe.planner.scan;

import dev.floe.planner.spi.LakeSession;
import java.util.List;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * What one scan reads: the table, the top-level columns in output order, the filter pushed into
 * Iceberg, an optional row limit, and whether each row carries its file and position (for
 * DELETE and UPDATE).
 *
 * @param session the connection's session
 * @param path the table's path under the root
 * @param columns the indexes of the table's top-level columns to emit, in order
 * @param filter the Iceberg filter; rows not matching it are not emitted
 * @param limit the most rows to emit, or -1 for all
 * @param rowIds whether two trailing values, file location and row position, follow the columns
 * @param countOnly whether only the number of rows matters (a {@code COUNT(*)} directly above):
 *     a file no delete applies to and the filter selects whole is counted from its metadata,
 *     without reading it, and its rows carry NULLs
 */
public record LakeScanSpec(
    LakeSession session,
    List<String> path,
    List<Integer> columns,
    Expression filter,
    long limit,
    boolean rowIds,
    boolean countOnly) {

  /** A spec reading every column of a table, unfiltered. */
  public static LakeScanSpec all(LakeSession session, List<String> path, int columnCount) {
    List<Integer> columns = new java.util.ArrayList<>();
    for (int i = 0; i < columnCount; i++) {
      columns.add(i);
    }
    return new LakeScanSpec(session, path, columns, Expressions.alwaysTrue(), -1, false, false);
  }

  /** This spec with a filter added to the one it has. */
  public LakeScanSpec withFilter(Expression more) {
    return new LakeScanSpec(
        session, path, columns, Expressions.and(filter, more), limit, rowIds, countOnly);
  }

  /** This spec emitting other columns. */
  public LakeScanSpec withColumns(List<Integer> newColumns) {
    return new LakeScanSpec(
        session, path, List.copyOf(newColumns), filter, limit, rowIds, countOnly);
  }

  /** This spec stopping after a number of rows. */
  public LakeScanSpec withLimit(long newLimit) {
    return new LakeScanSpec(session, path, columns, filter, newLimit, rowIds, countOnly);
  }

  /** This spec with the trailing file and position values. */
  public LakeScanSpec withRowIds() {
    return new LakeScanSpec(session, path, columns, filter, limit, true, countOnly);
  }

  /** This spec for a scan whose rows are only counted. */
  public LakeScanSpec withCountOnly() {
    return new LakeScanSpec(session, path, columns, filter, limit, rowIds, true);
  }

  /** Whether a filter was pushed. */
  public boolean filtered() {
    return filter.op() != Expression.Operation.TRUE;
  }
}
