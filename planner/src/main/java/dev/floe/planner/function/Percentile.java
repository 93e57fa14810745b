package dev.floe.planner.function;

import dev.floe.error.FloeError;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The percentile aggregates: {@code percentile_cont(f) WITHIN GROUP (ORDER BY x)} and {@code
 * percentile_disc}, as PostgreSQL computes them, which Calcite parses but cannot run; {@code
 * median}, DuckDB's {@code quantile_cont}/{@code quantile_disc} and Trino's {@code
 * approx_percentile} are written as calls of these ({@link FunctionRewrites}). Each call holds its
 * group's non-null values and sorts them once at the end. Calcite runs them as user-defined
 * aggregates through these classes' {@code init}, {@code add} and {@code result} methods; {@link
 * FloeFunctions} declares their SQL types.
 */
public final class Percentile {
  private Percentile() {}

  /** A group's values, and the fraction and order the call asks for. */
  public static final class Values {
    private final List<Object> values = new ArrayList<>();
    private double fraction = Double.NaN;
    private boolean descending;

    Values() {}

    void add(String function, Object value, Object fraction, Object descending) {
      if (Double.isNaN(this.fraction)) {
        double f = number(fraction);
        if (!(f >= 0 && f <= 1)) {
          throw FloeError.ARGUMENT_OUT_OF_RANGE.error(
              function + "'s fraction " + fraction, "it must be between 0 and 1");
        }
        this.fraction = f;
        this.descending = Boolean.TRUE.equals(descending);
      }
      values.add(value);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    List<Object> sorted() {
      Comparator<Object> order = (a, b) -> ((Comparable) a).compareTo(b);
      values.sort(descending ? order.reversed() : order);
      return values;
    }
  }

  private static double number(Object value) {
    return value instanceof BigDecimal
        ? ((BigDecimal) value).doubleValue()
        : ((Number) value).doubleValue();
  }

  /** {@code percentile_cont}: the value at the fraction, interpolated between two neighbours. */
  public static final class Cont {
    /** Created once per statement by generated code. */
    public Cont() {}

    /** A group's empty state. */
    public Values init() {
      return new Values();
    }

    /** Adds one non-null value (NULLs are skipped before this is called). */
    public Values add(Values values, Object value, Object fraction, Object descending) {
      values.add("percentile_cont", value, fraction, descending);
      return values;
    }

    /** The interpolated value as a DOUBLE, or NULL for a group without values. */
    public Double result(Values values) {
      List<Object> sorted = values.sorted();
      if (sorted.isEmpty()) {
        return null;
      }
      double position = values.fraction * (sorted.size() - 1);
      int below = (int) Math.floor(position);
      int above = (int) Math.ceil(position);
      double low = number(sorted.get(below));
      double high = number(sorted.get(above));
      return below == above ? low : low + (position - below) * (high - low);
    }
  }

  /** {@code percentile_disc}: the first value whose cumulative share reaches the fraction. */
  public static final class Disc {
    /** Created once per statement by generated code. */
    public Disc() {}

    /** A group's empty state. */
    public Values init() {
      return new Values();
    }

    /** Adds one non-null value (NULLs are skipped before this is called). */
    public Values add(Values values, Object value, Object fraction, Object descending) {
      values.add("percentile_disc", value, fraction, descending);
      return values;
    }

    /** The value itself, of the ordering column's type, or NULL for a group without values. */
    public Object result(Values values) {
      List<Object> sorted = values.sorted();
      if (sorted.isEmpty()) {
        return null;
      }
      int index = (int) Math.ceil(values.fraction * sorted.size()) - 1;
      return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
  }
}
