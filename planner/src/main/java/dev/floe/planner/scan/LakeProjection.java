package dev.floe.planner.scan;

import java.util.ArrayList;
import java.util.List;

/**
 * What a scan emits instead of its columns when it computes the projection above it: one value per
 * output, each a scan column's value or an expression the scan computes from the row's columns over
 * the decoded batch ({@link ExpressionColumn}). Positions follow {@link LakeAggregation}'s rule:
 * output {@code j} is the scan's column {@code outputs[j]} when that is below {@code
 * columns().size()}, else the computed expression {@code outputs[j] - columns().size()}.
 *
 * <p>An expression that fails for a row (an overflow, a DECIMAL too wide for its type) fails the
 * statement only when that row is taken, as Calcite's projection would fail: a row beyond a LIMIT
 * fails nothing.
 *
 * @param outputs for each output, the position of its value among the scan's columns then the
 *     computed expressions
 * @param computed the expressions computed, their columns numbered as the scan's columns
 */
public record LakeProjection(List<Integer> outputs, List<ScanExpression> computed) {
  public LakeProjection {
    outputs = List.copyOf(outputs);
    computed = List.copyOf(computed);
  }

  /** The outputs as text, columns by their names. */
  public String describe(List<String> names) {
    List<String> terms = new ArrayList<>();
    for (int output : outputs) {
      terms.add(
          output < names.size()
              ? names.get(output)
              : computed.get(output - names.size()).describe(names));
    }
    return terms.toString();
  }

  /**
   * The value an expression takes for a row where computing it failed: the failure, thrown when the
   * row is taken ({@link #check}).
   */
  record Failed(RuntimeException error) {}

  /** Whether output {@code j} is computed (not a column's own value) in a scan of {@code width}. */
  boolean computed(int j, int width) {
    return outputs.get(j) >= width;
  }

  /**
   * {@code row} of a scan reading {@code width} columns, after throwing the failure of the first
   * output (in output order) that could not be computed for it.
   */
  Object[] check(Object[] row, int width) {
    for (int j = 0; j < row.length; j++) {
      if (computed(j, width) && row[j] instanceof Failed failed) {
        throw failed.error();
      }
    }
    return row;
  }
}
