package dev.floe.planner.scan;

import java.util.List;

/**
 * What an aggregating scan computes from the rows it would otherwise emit: one row per group of the
 * group columns (one row in all without them), holding the group values, then each call's result.
 * Positions refer to the scan's own columns ({@link LakeScanSpec#columns()}), then to the computed
 * columns: position {@code columns().size() + i} is {@code computed().get(i)}, computed from each
 * live row.
 *
 * @param groups the positions of the columns grouped by (scan columns only)
 * @param calls the aggregate calls, in output order after the group values
 * @param computed the expressions aggregate calls take as arguments, in position order
 */
public record LakeAggregation(
    List<Integer> groups, List<Call> calls, List<ScanExpression> computed) {
  /** The aggregate functions a scan computes. */
  public enum Kind {
    /** {@code COUNT(*)}: every row. */
    COUNT_ROWS,
    /** {@code COUNT(col)}: the rows whose value is not NULL. */
    COUNT,
    /** {@code SUM(col)}: NULL when no value is not NULL. */
    SUM,
    /** Calcite's {@code $SUM0(col)}: zero when no value is not NULL. */
    SUM0,
    MIN,
    MAX
  }

  /** The Java type a sum adds in: the runtime class of its SQL result type. */
  public enum Adder {
    NONE,
    INT,
    LONG,
    DOUBLE,
    DECIMAL
  }

  /**
   * One aggregate call.
   *
   * @param kind the function
   * @param arg the position of its argument column, or -1 for {@code COUNT(*)}
   * @param adder for sums, the type they add in; {@link Adder#NONE} otherwise
   * @param filter the position of the computed INTEGER column that is 1 for the rows the call takes
   *     (its {@code FILTER (WHERE ...)}), or -1: every row
   */
  public record Call(Kind kind, int arg, Adder adder, int filter) {
    /** A call taking every row. */
    public Call(Kind kind, int arg, Adder adder) {
      this(kind, arg, adder, -1);
    }

    /** This call taking only the rows whose column {@code position} is 1. */
    public Call filtered(int position) {
      return new Call(kind, arg, adder, position);
    }
  }

  public LakeAggregation {
    groups = List.copyOf(groups);
    calls = List.copyOf(calls);
    computed = List.copyOf(computed);
  }

  /** An aggregation of the scan's columns alone. */
  public LakeAggregation(List<Integer> groups, List<Call> calls) {
    this(groups, calls, List.of());
  }

  /**
   * Whether manifest statistics can answer every call (for files no delete applies to and the
   * filter selects whole): counts, minimums and maximums; sums need the values.
   */
  public boolean answerableFromMetadata() {
    if (!computed.isEmpty()) {
      return false;
    }
    for (Call call : calls) {
      if (call.kind() == Kind.SUM || call.kind() == Kind.SUM0 || call.filter() >= 0) {
        return false;
      }
    }
    return true;
  }
}
