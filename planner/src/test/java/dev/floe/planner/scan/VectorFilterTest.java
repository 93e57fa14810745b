package dev.floe.planner.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * A residual filter compiled for column vectors keeps exactly the rows Iceberg's own {@link
 * Evaluator} keeps, over NULLs, the extremes of each type, NaN, infinities and both zeros, strings
 * repeated and more of them than the answers a filter keeps, whether it is tested row by row or as
 * a range in one loop. Every one of these filters compiles.
 */
class VectorFilterTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.optional(1, "l", Types.LongType.get()),
          Types.NestedField.optional(2, "i", Types.IntegerType.get()),
          Types.NestedField.optional(3, "d", Types.DoubleType.get()),
          Types.NestedField.optional(4, "f", Types.FloatType.get()),
          Types.NestedField.optional(5, "dt", Types.DateType.get()),
          Types.NestedField.required(6, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(7, "s", Types.StringType.get()),
          Types.NestedField.optional(8, "w", Types.StringType.get()));

  private static final long[] LONGS = {
    Long.MIN_VALUE, Long.MIN_VALUE + 1, -5000, -1, 0, 1, 999, 1000, 1001, 5000, 5001, Long.MAX_VALUE
  };
  private static final int[] INTS = {
    Integer.MIN_VALUE, -1000, -1, 0, 1, 7, 1000, 1001, Integer.MAX_VALUE - 1, Integer.MAX_VALUE
  };
  private static final double[] DOUBLES = {
    Double.NEGATIVE_INFINITY,
    -1.5,
    -0.0,
    0.0,
    Double.MIN_VALUE,
    2.5,
    Double.MAX_VALUE,
    Double.POSITIVE_INFINITY,
    Double.NaN
  };

  @Test
  void compiledFiltersKeepTheRowsIcebergsEvaluatorKeeps() {
    int rows = 600;
    ColumnBatch batch = batch(rows);
    List<Expression> filters =
        List.of(
            Expressions.and(
                Expressions.greaterThanOrEqual("l", 1000L),
                Expressions.lessThanOrEqual("l", 5000L)),
            Expressions.and(Expressions.greaterThan("l", -1L), Expressions.lessThan("l", 1001L)),
            Expressions.lessThan("l", Long.MIN_VALUE + 1),
            Expressions.greaterThan("l", Long.MAX_VALUE - 1),
            Expressions.lessThanOrEqual("l", Long.MIN_VALUE),
            Expressions.greaterThanOrEqual("l", Long.MAX_VALUE),
            Expressions.equal("l", 0L),
            Expressions.notEqual("l", 999L),
            Expressions.and(Expressions.equal("i", 7), Expressions.greaterThan("i", 8)),
            Expressions.and(Expressions.greaterThan("i", 0), Expressions.lessThan("i", 1001)),
            Expressions.lessThan("i", Integer.MIN_VALUE + 1),
            Expressions.greaterThanOrEqual("i", Integer.MAX_VALUE),
            Expressions.or(Expressions.lessThan("i", 0), Expressions.greaterThan("l", 1000L)),
            Expressions.not(Expressions.greaterThan("i", 1)),
            Expressions.isNull("i"),
            Expressions.notNull("l"),
            Expressions.not(Expressions.isNull("d")),
            Expressions.lessThan("d", 0.0),
            Expressions.lessThanOrEqual("d", -0.0),
            Expressions.greaterThan("d", -0.0),
            Expressions.equal("d", 0.0),
            Expressions.equal("d", -0.0),
            Expressions.notEqual("d", 2.5),
            Expressions.greaterThan("d", Double.MAX_VALUE),
            Expressions.greaterThanOrEqual("f", -0.0f),
            Expressions.lessThan("f", Float.POSITIVE_INFINITY),
            Expressions.and(Expressions.greaterThan("dt", 0), Expressions.lessThan("dt", 1001)),
            Expressions.and(
                Expressions.greaterThanOrEqual("ts", 1000L), Expressions.lessThan("ts", 5001L)),
            Expressions.and(
                Expressions.greaterThanOrEqual("l", 0L), Expressions.lessThan("i", 1000)),
            Expressions.in("l", 0L, 1000L),
            Expressions.equal("s", "x3"),
            Expressions.notEqual("s", "x3"),
            Expressions.lessThan("s", "x2"),
            Expressions.in("s", "x1", "x2", "y"),
            Expressions.notIn("s", "x1", "x2"),
            Expressions.startsWith("w", "w1"),
            Expressions.notStartsWith("w", "w9"),
            Expressions.in("w", "w7", "w77", "w777", "w0"),
            Expressions.greaterThanOrEqual("w", "w500"),
            Expressions.and(Expressions.startsWith("w", "w2"), Expressions.notEqual("s", "x0")),
            Expressions.in("i", 0, 7, Integer.MIN_VALUE, Integer.MAX_VALUE),
            Expressions.notIn("i", 1, 1000),
            Expressions.in("dt", 7, -1),
            Expressions.in("l", Long.MIN_VALUE, Long.MAX_VALUE, -5000L),
            Expressions.notIn("ts", 0L, 1000L),
            Expressions.isNaN("d"),
            Expressions.notNaN("f"),
            Expressions.in("d", 2.5, -0.0),
            // more than eight values close together: a run-time filter's bitmap of their range
            Expressions.in("l", -5000L, -1L, 0L, 1L, 999L, 1000L, 5001L, 2L, 3L, 4L),
            Expressions.notIn("i", -1000, -1, 0, 1, 7, 1000, 1001, 3, 4, 5, 6),
            Expressions.in("dt", 1, 7, 1000, 1001, 20, 21, 22, 23, 24, 25),
            // as many, too far apart for a bitset: a hash set (whose empty slot is not
            // Long.MIN_VALUE)
            Expressions.in("l", Long.MIN_VALUE, Long.MAX_VALUE, 0L, 1L, 2L, 3L, 4L, 5L, 6L, 999L),
            Expressions.in(
                "l",
                Long.MIN_VALUE,
                Long.MIN_VALUE + 1,
                Long.MIN_VALUE + 2,
                -5000L,
                -1L,
                0L,
                1L,
                999L,
                1001L,
                5001L,
                Long.MAX_VALUE),
            Expressions.notIn("i", Integer.MIN_VALUE, Integer.MAX_VALUE, 0, 1, 2, 3, 4, 5, 6, 7),
            Expressions.in(
                "l",
                Long.MAX_VALUE,
                Long.MAX_VALUE - 1,
                Long.MAX_VALUE - 2,
                Long.MAX_VALUE - 3,
                Long.MAX_VALUE - 4,
                Long.MAX_VALUE - 5,
                Long.MAX_VALUE - 6,
                Long.MAX_VALUE - 7,
                Long.MAX_VALUE - 8),
            Expressions.alwaysTrue(),
            Expressions.alwaysFalse());
    int compiled = 0;
    int[] someRows = new int[rows / 3];
    for (int i = 0; i < someRows.length; i++) {
      someRows[i] = i * 3 + 1;
    }
    for (Expression filter : filters) {
      Evaluator evaluator = new Evaluator(SCHEMA.asStruct(), filter, true);
      ColumnBatch.RowView view = new ColumnBatch.RowView();
      List<Integer> expected = new ArrayList<>();
      for (int row = 0; row < rows; row++) {
        if (evaluator.eval(view.at(batch, row))) {
          expected.add(row);
        }
      }
      VectorFilter vector = VectorFilter.compile(filter, SCHEMA.asStruct());
      if (vector == null) {
        continue; // every row goes to the evaluator
      }
      compiled++;
      int[] live = new int[rows];
      int count = vector.select(batch, null, rows, live, evaluator, view);
      assertThat(rowsOf(live, count)).as("%s", filter).isEqualTo(expected);
      int[] kept = someRows.clone();
      count = vector.select(batch, kept, kept.length, kept, evaluator, view);
      assertThat(rowsOf(kept, count))
          .as("%s over a selection", filter)
          .isEqualTo(expected.stream().filter(r -> r % 3 == 1).toList());
    }
    assertThat(compiled).as("filters compiled").isEqualTo(filters.size());
  }

  private static List<Integer> rowsOf(int[] rows, int count) {
    List<Integer> list = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      list.add(rows[i]);
    }
    return list;
  }

  /** Rows combining the values above at different strides, NULLs in every optional column. */
  private static ColumnBatch batch(int rows) {
    ColumnVector l = new ColumnVector(ColumnVector.Kind.LONG);
    ColumnVector i = new ColumnVector(ColumnVector.Kind.INT);
    ColumnVector d = new ColumnVector(ColumnVector.Kind.DOUBLE);
    ColumnVector f = new ColumnVector(ColumnVector.Kind.FLOAT);
    ColumnVector dt = new ColumnVector(ColumnVector.Kind.INT);
    ColumnVector ts = new ColumnVector(ColumnVector.Kind.LONG);
    ColumnVector s = new ColumnVector(ColumnVector.Kind.OBJECT);
    ColumnVector w = new ColumnVector(ColumnVector.Kind.OBJECT);
    ColumnVector[] vectors = {l, i, d, f, dt, ts, s, w};
    for (ColumnVector vector : vectors) {
      vector.reset(rows);
    }
    for (int r = 0; r < rows; r++) {
      l.set(r, r % 13 == 4 ? null : LONGS[r % LONGS.length]);
      i.set(r, r % 7 == 2 ? null : INTS[r % INTS.length]);
      d.set(r, r % 11 == 5 ? null : DOUBLES[r % DOUBLES.length]);
      f.set(r, r % 17 == 3 ? null : (float) DOUBLES[(r / 2) % DOUBLES.length]);
      dt.set(r, r % 19 == 0 ? null : INTS[(r / 3) % INTS.length]);
      ts.set(r, LONGS[(r / 5) % LONGS.length]);
      s.set(r, r % 5 == 0 ? null : "x" + r % 4);
      // more distinct strings than the answers kept, each repeated as another object
      w.set(r, r % 23 == 1 ? null : "w" + (r * 7919) % 1000);
    }
    return new ColumnBatch(vectors, rows, 0);
  }
}
