package dev.floe.planner.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.planner.scan.ScanExpression.Op;
import dev.floe.planner.scan.ScanExpression.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Expressions computed over column vectors give, row for row, the values {@link
 * ScanExpression#evaluate} gives for the same rows: with NULLs, a selection of rows, DECIMAL
 * products past a long (computed as BigDecimal) and a CASE branch that would overflow for the rows
 * that do not take it.
 */
class ExpressionColumnTest {
  private static final int ROWS = 50;

  /** Column 0: INTEGER n; 1: DECIMAL(18, 2) p (large every 7th row); 2: DOUBLE v. */
  private static ColumnVector[] columns() {
    ColumnVector n = new ColumnVector(ColumnVector.Kind.INT);
    ColumnVector p = new ColumnVector(ColumnVector.Kind.DECIMAL, 2);
    ColumnVector v = new ColumnVector(ColumnVector.Kind.DOUBLE);
    n.reset(ROWS);
    p.reset(ROWS);
    v.reset(ROWS);
    for (int r = 0; r < ROWS; r++) {
      n.set(r, r % 5 == 4 ? null : r == 10 ? Integer.MAX_VALUE : r - 20);
      p.set(
          r,
          r % 6 == 1
              ? null
              : r % 7 == 0
                  ? new BigDecimal("9999999999999999.99").negate()
                  : BigDecimal.valueOf(r * 1234L, 2));
      v.set(r, r % 9 == 0 ? Double.NaN : r * 0.5 - 3);
    }
    return new ColumnVector[] {n, p, v};
  }

  private static ScanExpression n() {
    return ScanExpression.column(0, Type.INT, 0, 0);
  }

  private static ScanExpression p() {
    return ScanExpression.column(1, Type.DECIMAL, 18, 2);
  }

  private static ScanExpression v() {
    return ScanExpression.column(2, Type.DOUBLE, 0, 0);
  }

  private static ScanExpression call(
      Op op, Type type, int precision, int scale, ScanExpression... operands) {
    return ScanExpression.call(op, type, precision, scale, List.of(operands));
  }

  private static ScanExpression integer(int value) {
    return ScanExpression.literal(value, Type.INT, 0, 0);
  }

  /** The vector's values at the selected rows, and those {@code evaluate} gives. */
  private static void assertSameAsRowByRow(ScanExpression expression, int[] rows) {
    ColumnVector[] columns = columns();
    int count = rows == null ? ROWS : rows.length;
    ColumnVector computed = new ExpressionColumn(expression).compute(columns, rows, count);
    List<Object> batch = new ArrayList<>();
    List<Object> rowByRow = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int r = rows == null ? i : rows[i];
      batch.add(computed.get(r));
      rowByRow.add(expression.evaluate(c -> columns[c].get(r)));
    }
    assertThat(batch).isEqualTo(rowByRow);
  }

  @Test
  void decimalProductsPastALongAreComputedExactly() {
    // p * (1 - p): past a long where p is large; DECIMAL(38, 4) holds every value
    ScanExpression expression =
        call(
            Op.TIMES,
            Type.DECIMAL,
            38,
            4,
            p(),
            call(Op.MINUS, Type.DECIMAL, 19, 2, integer(1), p()));
    assertSameAsRowByRow(expression, null);
    assertSameAsRowByRow(expression, new int[] {1, 2, 3, 8, 9});
    ColumnVector[] columns = columns();
    assertThat(new ExpressionColumn(expression).compute(columns, null, ROWS).get(14))
        .isEqualTo(
            new BigDecimal("-9999999999999999.99")
                .multiply(new BigDecimal("10000000000000000.99")));
  }

  @Test
  void aDecimalWithMoreDigitsThanItsTypeIsCalcitesError() {
    ScanExpression expression =
        call(Op.TIMES, Type.DECIMAL, 20, 4, p(), p()); // 36 digits where p is large
    assertThatThrownBy(() -> new ExpressionColumn(expression).compute(columns(), null, ROWS))
        .isInstanceOf(ArithmeticException.class)
        .hasMessageContaining("cannot be represented as a DECIMAL(20, 4)");
    assertSameAsRowByRow(expression, new int[] {2, 3, 4, 5});
  }

  @Test
  void aCaseBranchIsComputedOnlyForTheRowsThatTakeIt() {
    // n * 2 overflows at row 10, which takes the ELSE branch
    ScanExpression expression =
        call(
            Op.CASE,
            Type.INT,
            0,
            0,
            call(Op.LESS, Type.BOOLEAN, 0, 0, n(), integer(5)),
            call(Op.TIMES, Type.INT, 0, 0, n(), integer(2)),
            call(
                Op.GREATER,
                Type.BOOLEAN,
                0,
                0,
                v(),
                ScanExpression.literal(10.0, Type.DOUBLE, 0, 0)),
            integer(7),
            integer(-1));
    assertSameAsRowByRow(expression, null);
    ScanExpression unguarded = call(Op.TIMES, Type.INT, 0, 0, n(), integer(2));
    assertThatThrownBy(() -> new ExpressionColumn(unguarded).compute(columns(), null, ROWS))
        .isInstanceOf(ArithmeticException.class);
  }

  @Test
  void doubleArithmeticKeepsNanAndNulls() {
    ScanExpression expression =
        call(
            Op.DIVIDE,
            Type.DOUBLE,
            0,
            0,
            call(Op.PLUS, Type.DOUBLE, 0, 0, v(), n()),
            call(Op.MINUS, Type.DOUBLE, 0, 0, v(), ScanExpression.literal(2.0, Type.DOUBLE, 0, 0)));
    assertSameAsRowByRow(expression, null);
    assertSameAsRowByRow(expression, new int[] {0, 9, 10, 14, 18, 49});
  }

  /** An INTEGER division as Calcite's checked one: truncated, and -2^31 / -1 and / 0 errors. */
  @Test
  void integerDivisionIsCalcitesChecked() {
    ScanExpression byFour = call(Op.DIVIDE, Type.INT, 0, 0, n(), integer(-4));
    assertSameAsRowByRow(byFour, null);
    assertThat(new ExpressionColumn(byFour).compute(columns(), null, ROWS).get(3)).isEqualTo(4);
    ColumnVector least = new ColumnVector(ColumnVector.Kind.INT);
    least.reset(2);
    least.set(0, 7);
    least.set(1, Integer.MIN_VALUE);
    ScanExpression byMinusOne =
        call(Op.DIVIDE, Type.INT, 0, 0, ScanExpression.column(0, Type.INT, 0, 0), integer(-1));
    assertThatThrownBy(
            () -> new ExpressionColumn(byMinusOne).compute(new ColumnVector[] {least}, null, 2))
        .isInstanceOf(ArithmeticException.class)
        .hasMessage("integer overflow");
    assertThatThrownBy(() -> byMinusOne.evaluate(c -> Integer.MIN_VALUE))
        .isInstanceOf(ArithmeticException.class)
        .hasMessage("integer overflow");
    ScanExpression byZero = call(Op.DIVIDE, Type.LONG, 0, 0, n(), integer(0));
    for (int i = 0; i < 20_000; i++) { // hot: the message must stay
      assertThatThrownBy(() -> new ExpressionColumn(byZero).compute(columns(), null, ROWS))
          .isInstanceOf(ArithmeticException.class)
          .hasMessage("/ by zero");
    }
  }

  /** ABS of each kind, Integer.MIN_VALUE staying itself as Java's (and Calcite's) abs leaves it. */
  @Test
  void absIsJavasOfEachKind() {
    assertSameAsRowByRow(call(Op.ABS, Type.INT, 0, 0, n()), null);
    assertSameAsRowByRow(call(Op.ABS, Type.DECIMAL, 18, 2, p()), new int[] {0, 2, 3, 7, 14});
    assertSameAsRowByRow(call(Op.ABS, Type.DOUBLE, 0, 0, v()), null);
    ColumnVector least = new ColumnVector(ColumnVector.Kind.INT);
    least.reset(1);
    least.set(0, Integer.MIN_VALUE);
    ScanExpression abs = call(Op.ABS, Type.INT, 0, 0, ScanExpression.column(0, Type.INT, 0, 0));
    assertThat(new ExpressionColumn(abs).compute(new ColumnVector[] {least}, null, 1).get(0))
        .isEqualTo(Integer.MIN_VALUE);
    assertThat(
            new ExpressionColumn(call(Op.ABS, Type.DECIMAL, 18, 2, p()))
                .compute(columns(), null, ROWS)
                .get(14))
        .isEqualTo(new BigDecimal("9999999999999999.99"));
  }
}
