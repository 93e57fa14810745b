package dev.floe.planner.prepare;

import java.math.BigInteger;

/**
 * The runtime of a BIGINT sum that generated code calls ({@link CheckedSums}): the sum is kept as a
 * wrapped {@code long} and a count of the times it wrapped, so it is exact whatever order the rows
 * come in (a total that passes 2^63 on the way and comes back is right, as in the scan's own sums),
 * and a total that does not fit is an error, never a negative number.
 */
public final class ExactSum {
  private static final BigInteger WRAP = BigInteger.ONE.shiftLeft(64);

  private ExactSum() {}

  /** The count of wraps after adding {@code value} to {@code sum}. */
  public static long carry(long carry, long sum, long value) {
    long result = sum + value;
    if (((sum ^ result) & (value ^ result)) < 0) {
      return value < 0 ? carry - 1 : carry + 1;
    }
    return carry;
  }

  /** The sum, or an error when it does not fit a BIGINT. */
  public static long result(long sum, long carry) {
    if (carry == 0) {
      return sum;
    }
    BigInteger total = BigInteger.valueOf(sum).add(WRAP.multiply(BigInteger.valueOf(carry)));
    throw new ArithmeticException("the sum " + total + " does not fit type BIGINT");
  }
}
