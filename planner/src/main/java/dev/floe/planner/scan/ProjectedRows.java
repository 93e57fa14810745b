package dev.floe.planner.scan;

import java.util.List;

/**
 * Makes the rows of a scan that computes a projection ({@link LakeProjection}) from the rows of its
 * columns: over a decoded batch, each expression is computed once for the batch's live rows into a
 * vector ({@link ExpressionColumn}), and a row takes its values from the vectors; a row read by
 * Iceberg's row reader computes them from its values ({@link ScanExpression#evaluate}). Both give
 * the same values.
 *
 * <p>An expression that fails (an {@link ArithmeticException}: an overflow, a DECIMAL too wide for
 * its type) is computed again row by row for that batch, and each row it fails for holds the
 * failure ({@link LakeProjection.Failed}), thrown when the row is taken. Not thread-safe: one per
 * file being read.
 */
final class ProjectedRows {
  private final int[] outputs;
  private final int width;
  private final ScanExpression[] expressions;
  private final ExpressionColumn[] vectorized;

  /** Each expression's values over the current batch, indexed as its columns are. */
  private final ColumnVector[] computed;

  /** For each expression, the vector it is computed into row by row when its batch fails. */
  private final ColumnVector[] boxed;

  private final ColumnVector[] outputVectors;
  private ColumnVector[] columns;
  private ColumnBatch batch;
  private int[] positions;

  /**
   * @param projection what the scan emits
   * @param width how many columns the scan reads
   */
  ProjectedRows(LakeProjection projection, int width) {
    List<Integer> list = projection.outputs();
    this.outputs = list.stream().mapToInt(Integer::intValue).toArray();
    this.width = width;
    this.expressions = projection.computed().toArray(new ScanExpression[0]);
    this.vectorized = new ExpressionColumn[expressions.length];
    for (int k = 0; k < expressions.length; k++) {
      vectorized[k] = new ExpressionColumn(expressions[k]);
    }
    this.computed = new ColumnVector[expressions.length];
    this.boxed = new ColumnVector[expressions.length];
    this.outputVectors = new ColumnVector[outputs.length];
  }

  /** The row of outputs for a row of the scan's column values (from Iceberg's row reader). */
  Object[] row(Object[] values) {
    // every expression is some output's: each is computed once, in order
    Object[] results = new Object[expressions.length];
    for (int k = 0; k < expressions.length; k++) {
      results[k] = evaluate(expressions[k], c -> values[c]);
    }
    Object[] out = new Object[outputs.length];
    for (int j = 0; j < outputs.length; j++) {
      int o = outputs[j];
      out[j] = o < width ? values[o] : results[o - width];
    }
    return out;
  }

  /**
   * Computes the expressions for rows {@code rows[0..count)} ({@code 0..count)} when null,
   * ascending) of a batch whose scan column {@code i} is its column {@code positions[i]}; {@link
   * #row(int)} and {@link #vectors()} then give those rows.
   */
  void batch(ColumnBatch next, int[] at, int[] rows, int count) {
    this.batch = next;
    this.positions = at;
    if (next.vectors != null) {
      if (columns == null) {
        columns = new ColumnVector[width];
      }
      for (int i = 0; i < width; i++) {
        columns[i] = next.vectors[at[i]];
      }
    }
    for (int k = 0; k < expressions.length; k++) {
      if (next.vectors != null) {
        try {
          computed[k] = vectorized[k].compute(columns, rows, count);
          continue;
        } catch (ArithmeticException e) {
          vectorized[k] = new ExpressionColumn(expressions[k]); // it may hold a half-done batch
        }
      }
      if (boxed[k] == null) {
        boxed[k] = new ColumnVector(ColumnVector.Kind.OBJECT);
      }
      ColumnVector values = boxed[k];
      values.reset(Math.max(next.size, 1));
      ScanExpression expression = expressions[k];
      for (int i = 0; i < count; i++) {
        int r = rows == null ? i : rows[i];
        values.set(r, evaluate(expression, c -> next.value(at[c], r)));
      }
      computed[k] = values;
    }
  }

  /** The outputs of row {@code row} of the batch last given to {@link #batch}. */
  Object[] row(int row) {
    Object[] out = new Object[outputs.length];
    for (int j = 0; j < outputs.length; j++) {
      int o = outputs[j];
      out[j] = o < width ? batch.value(positions[o], row) : computed[o - width].get(row);
    }
    return out;
  }

  /**
   * The outputs of the batch last given to {@link #batch} (decoded into vectors) as vectors indexed
   * as its columns are, for the rows given there: the columns' own vectors and the computed ones
   * (an expression computed row by row holds its failures, {@link LakeProjection.Failed}). Valid
   * until the next batch.
   */
  ColumnVector[] vectors() {
    if (batch.vectors == null) {
      throw new IllegalStateException("the batch was not decoded into vectors");
    }
    for (int j = 0; j < outputs.length; j++) {
      int o = outputs[j];
      outputVectors[j] = o < width ? columns[o] : computed[o - width];
    }
    return outputVectors;
  }

  /** The expression's value for a row, or the failure computing it. */
  private static Object evaluate(ScanExpression expression, ScanExpression.Row row) {
    try {
      return expression.evaluate(row);
    } catch (ArithmeticException e) {
      return new LakeProjection.Failed(e);
    }
  }
}
