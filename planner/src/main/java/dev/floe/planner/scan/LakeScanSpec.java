package dev.floe.planner.scan;

import dev.floe.planner.name.TableVersion;
import dev.floe.planner.session.LakeSession;
import java.util.List;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * What one scan reads: the table, the top-level columns in output order, the filter pushed into
 * Iceberg, an optional row limit, and whether each row carries its file and position (for DELETE
 * and UPDATE).
 *
 * @param session the connection's session
 * @param path the table's path under the root
 * @param columns the indexes of the table's top-level columns to emit, in order
 * @param filter the Iceberg filter; rows not matching it are not emitted
 * @param limit the most rows to emit, or -1 for all
 * @param rowIds whether two trailing values, file location and row position, follow the columns
 * @param aggregation what the scan computes from its rows instead of emitting them (an aggregate
 *     directly above it), or null: the scan emits its rows
 * @param version the past version to read (time travel), or null for the snapshot pinned for the
 *     statement
 */
public record LakeScanSpec(
    LakeSession session,
    List<String> path,
    List<Integer> columns,
    Expression filter,
    long limit,
    boolean rowIds,
    LakeAggregation aggregation,
    TableVersion version) {

  /** A spec reading every column of a table, unfiltered. */
  public static LakeScanSpec all(LakeSession session, List<String> path, int columnCount) {
    return all(session, path, columnCount, null);
  }

  /** A spec reading every column of a table at a version (null: the pinned snapshot). */
  public static LakeScanSpec all(
      LakeSession session, List<String> path, int columnCount, TableVersion version) {
    List<Integer> columns = new java.util.ArrayList<>();
    for (int i = 0; i < columnCount; i++) {
      columns.add(i);
    }
    return new LakeScanSpec(
        session, path, columns, Expressions.alwaysTrue(), -1, false, null, version);
  }

  /** This spec with a filter added to the one it has. */
  public LakeScanSpec withFilter(Expression more) {
    return new LakeScanSpec(
        session, path, columns, Expressions.and(filter, more), limit, rowIds, aggregation, version);
  }

  /** This spec emitting other columns. */
  public LakeScanSpec withColumns(List<Integer> newColumns) {
    return new LakeScanSpec(
        session, path, List.copyOf(newColumns), filter, limit, rowIds, aggregation, version);
  }

  /** This spec stopping after a number of rows. */
  public LakeScanSpec withLimit(long newLimit) {
    return new LakeScanSpec(session, path, columns, filter, newLimit, rowIds, aggregation, version);
  }

  /** This spec with the trailing file and position values. */
  public LakeScanSpec withRowIds() {
    return new LakeScanSpec(session, path, columns, filter, limit, true, aggregation, version);
  }

  /** This spec computing an aggregation of its rows instead of emitting them. */
  public LakeScanSpec withAggregation(LakeAggregation newAggregation) {
    return new LakeScanSpec(session, path, columns, filter, limit, rowIds, newAggregation, version);
  }

  /** Whether the scan aggregates its rows. */
  public boolean aggregated() {
    return aggregation != null;
  }

  /** Whether a filter was pushed. */
  public boolean filtered() {
    return filter.op() != Expression.Operation.TRUE;
  }
}
