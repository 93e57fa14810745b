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
 * @param condition what the scan tests on the rows it decodes, after the filter (rows for which it
 *     is TRUE are kept), its columns numbered as the table's top-level columns; or null
 * @param topN the first rows in an order the scan keeps of its rows, for the top-N directly above
 *     it ({@link LakeTopN}), or null: the scan emits every row
 * @param projection what the scan emits of each row instead of its columns, computing the
 *     projection above it ({@link LakeProjection}), or null: the columns
 */
public record LakeScanSpec(
    LakeSession session,
    List<String> path,
    List<Integer> columns,
    Expression filter,
    long limit,
    boolean rowIds,
    LakeAggregation aggregation,
    TableVersion version,
    ScanExpression condition,
    LakeTopN topN,
    LakeProjection projection) {

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
        session,
        path,
        columns,
        Expressions.alwaysTrue(),
        -1,
        false,
        null,
        version,
        null,
        null,
        null);
  }

  /** This spec with a filter added to the one it has. */
  public LakeScanSpec withFilter(Expression more) {
    return new LakeScanSpec(
        session,
        path,
        columns,
        Expressions.and(filter, more),
        limit,
        rowIds,
        aggregation,
        version,
        condition,
        topN,
        projection);
  }

  /**
   * This spec emitting other columns; not for a top-N or a projection, whose keys and expressions
   * are positions among the columns.
   */
  public LakeScanSpec withColumns(List<Integer> newColumns) {
    if (topN != null || projection != null) {
      throw new IllegalStateException(
          "the columns of a top-N's or a projection's scan cannot change");
    }
    return new LakeScanSpec(
        session,
        path,
        List.copyOf(newColumns),
        filter,
        limit,
        rowIds,
        aggregation,
        version,
        condition,
        topN,
        projection);
  }

  /** This spec stopping after a number of rows. */
  public LakeScanSpec withLimit(long newLimit) {
    return new LakeScanSpec(
        session,
        path,
        columns,
        filter,
        newLimit,
        rowIds,
        aggregation,
        version,
        condition,
        topN,
        projection);
  }

  /** This spec with the trailing file and position values. */
  public LakeScanSpec withRowIds() {
    return new LakeScanSpec(
        session,
        path,
        columns,
        filter,
        limit,
        true,
        aggregation,
        version,
        condition,
        topN,
        projection);
  }

  /** This spec computing an aggregation of its rows instead of emitting them. */
  public LakeScanSpec withAggregation(LakeAggregation newAggregation) {
    return new LakeScanSpec(
        session,
        path,
        columns,
        filter,
        limit,
        rowIds,
        newAggregation,
        version,
        condition,
        topN,
        projection);
  }

  /** This spec testing a condition too, on top of the one it has. */
  public LakeScanSpec withCondition(ScanExpression more) {
    ScanExpression both =
        condition == null
            ? more
            : ScanExpression.call(
                ScanExpression.Op.AND, ScanExpression.Type.BOOLEAN, 0, 0, List.of(condition, more));
    return new LakeScanSpec(
        session,
        path,
        columns,
        filter,
        limit,
        rowIds,
        aggregation,
        version,
        both,
        topN,
        projection);
  }

  /** This spec keeping only its first rows in an order, for a top-N above it. */
  public LakeScanSpec withTopN(LakeTopN newTopN) {
    return new LakeScanSpec(
        session,
        path,
        columns,
        filter,
        limit,
        rowIds,
        aggregation,
        version,
        condition,
        newTopN,
        projection);
  }

  /** This spec emitting a projection of its columns instead of the columns. */
  public LakeScanSpec withProjection(LakeProjection newProjection) {
    return new LakeScanSpec(
        session,
        path,
        columns,
        filter,
        limit,
        rowIds,
        aggregation,
        version,
        condition,
        topN,
        newProjection);
  }

  /** Whether the scan stops short of some of its rows: a LIMIT, or a top-N's first rows. */
  public boolean truncated() {
    return limit >= 0 || topN != null;
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
