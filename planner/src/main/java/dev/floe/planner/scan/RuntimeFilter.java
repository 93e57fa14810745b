package dev.floe.planner.scan;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A filter a hash join's build side gives the scan on its probe side while the statement runs
 * (docs/performance.md, "Hash joins and run-time filters"): once the build side is read, its join
 * keys are known, and rows of the probe side's table whose key is not among them cannot match. The
 * join publishes the keys ({@link Slot#publish}) before it opens its probe side; the scan, opened
 * after, adds the keys' range (and, for a few keys, the list of them) to the filter it plans and
 * reads with, so Iceberg skips the files and row groups whose statistics exclude every key, and the
 * scan drops the rows that do not match. Only joins that drop unmatched probe rows (inner and
 * semi-joins) publish, and only to a scan whose column reaches the join key unchanged through
 * operators that keep or drop rows by that value alone.
 */
public final class RuntimeFilter {
  /** The most keys pushed into a scan as a list of values (Iceberg tests dictionaries with it). */
  static final int IN_LIST_LIMIT = 256;

  private RuntimeFilter() {}

  /**
   * Where one join of a plan publishes the keys of its build side, for each execution of the plan
   * (keyed by the execution's data context: a kept plan runs in several statements).
   */
  public static final class Slot {
    private final String description;
    private final Map<DataContext, Keys> published =
        Collections.synchronizedMap(new WeakHashMap<>());

    /** A slot described (for EXPLAIN ANALYZE) as the join key it filters on. */
    public Slot(String description) {
      this.description = description;
    }

    /** Publishes an execution's build keys; its probe side's scans, opened next, read them. */
    public void publish(DataContext root, Keys keys) {
      if (root != null) {
        published.put(root, keys);
      }
    }

    /** Forgets an execution's keys (the join closed: they are no longer held for it). */
    public void clear(DataContext root) {
      if (root != null) {
        published.remove(root);
      }
    }

    @Nullable Keys keys(DataContext root) {
      return root == null ? null : published.get(root);
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /**
   * The keys of a build side: the set of them (as the join holds them: {@link #key} applied when
   * the join compares keys of different types), their count, and their least and greatest values
   * when they are numbers of one kind (null otherwise).
   */
  public record Keys(Set<?> values, long count, @Nullable Object min, @Nullable Object max) {}

  /**
   * A filter one scan applies: the slot it reads, the scan's output column that must hold one of
   * the keys, whether values are compared as {@link #key} makes them, and whether the scan also
   * drops the rows whose value is not a key (when joins lie between the scan and the join, rows
   * dropped early save their work; right under the join the probe does the same lookup).
   */
  public record Target(Slot slot, int column, boolean normalized, boolean rows) {}

  /**
   * A join key as joins of keys of different types compare it: integers of every width as {@code
   * Long}, decimals without trailing zeros (so 1.50 and 1.5 are one key), lists element by element;
   * anything else as it is.
   */
  public static @Nullable Object key(@Nullable Object value) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigDecimal decimal) {
      if (decimal.signum() == 0) {
        return BigDecimal.ZERO;
      }
      BigDecimal stripped = decimal.stripTrailingZeros();
      if (stripped.scale() < 0) {
        stripped = stripped.setScale(0);
      }
      // a decimal holding a whole number of a long's range compares equal to that integer
      if (stripped.scale() == 0 && stripped.unscaledValue().bitLength() < 64) {
        return stripped.longValueExact();
      }
      return stripped;
    }
    if (value instanceof List<?> list) {
      List<Object> keys = new ArrayList<>(list.size());
      for (Object element : list) {
        keys.add(key(element));
      }
      return keys;
    }
    return value;
  }

  /** Entry point for generated code: a scan's rows with its run-time filters applied. */
  public static Enumerable<Object[]> enumerable(
      DataContext root, LakeScanSpec spec, Target[] targets) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return open(root, spec, targets);
      }
    };
  }

  /** As {@link #enumerable}, for rows of one column: the bare values. */
  public static Enumerable<Object> scalars(DataContext root, LakeScanSpec spec, Target[] targets) {
    return enumerable(root, spec, targets).select(row -> row[0]);
  }

  private static Enumerator<Object[]> open(DataContext root, LakeScanSpec spec, Target[] targets) {
    LakeScanSpec filtered = spec;
    List<Target> rowTargets = new ArrayList<>();
    List<Keys> rowKeys = new ArrayList<>();
    StringBuilder notes = new StringBuilder();
    Schema schema = null;
    for (Target target : targets) {
      Keys keys = target.slot().keys(root);
      if (keys == null) {
        continue;
      }
      if (schema == null) {
        schema = LakeScan.schemaOf(spec);
      }
      Types.NestedField field = schema.columns().get(spec.columns().get(target.column()));
      Expression pushed = expression(field, keys);
      if (pushed.op() != Expression.Operation.TRUE) {
        filtered = filtered.withFilter(pushed);
      }
      if (target.rows() && pushed.op() != Expression.Operation.FALSE) {
        rowTargets.add(target);
        rowKeys.add(keys);
      }
      notes
          .append(notes.length() == 0 ? "" : "; ")
          .append(field.name())
          .append(" from ")
          .append(target.slot())
          .append(": ")
          .append(keys.count())
          .append(keys.count() == 1 ? " key" : " keys")
          .append(keys.min() != null ? " in [" + keys.min() + ", " + keys.max() + "]" : "")
          .append(keys.count() > 0 && keys.count() <= IN_LIST_LIMIT ? " (as a list)" : "")
          .append(target.rows() ? ", rows tested" : "");
    }
    int before = ScanStats.startedOnThisThread();
    Enumerator<Object[]> rows = LakeScan.rows(root, filtered);
    if (notes.length() > 0 && ScanStats.collecting()) {
      LakeScan.Planned all = LakeScan.plan(spec);
      LakeScan.Planned kept = LakeScan.plan(filtered);
      notes
          .append("; data files kept: ")
          .append(kept.dataFiles())
          .append(" of ")
          .append(all.dataFiles());
      ScanStats.noteRuntimeFilter(before, notes.toString());
    }
    return rowTargets.isEmpty() ? rows : new Tested(rows, rowTargets, rowKeys);
  }

  /**
   * What the scan's filter gains from a build side's keys on one column: nothing left to match for
   * no keys; the range of the keys for integer, date and decimal columns; and the list of the keys
   * when they are few (for those types and strings). TRUE when nothing can be said.
   */
  static Expression expression(Types.NestedField field, Keys keys) {
    if (keys.count() == 0) {
      return Expressions.alwaysFalse();
    }
    Type type = field.type();
    String name = field.name();
    Expression result = Expressions.alwaysTrue();
    if (keys.min() != null && keys.max() != null) {
      BigDecimal min = decimal(keys.min());
      BigDecimal max = decimal(keys.max());
      if (min != null && max != null) {
        Object low = literal(type, min, RoundingMode.CEILING);
        Object high = literal(type, max, RoundingMode.FLOOR);
        if (low == Empty.NONE || high == Empty.NONE) {
          return Expressions.alwaysFalse();
        }
        if (low != null && high != null) {
          result =
              Expressions.and(
                  Expressions.greaterThanOrEqual(name, low),
                  Expressions.lessThanOrEqual(name, high));
        }
      }
    }
    if (keys.count() <= IN_LIST_LIMIT) {
      List<Object> values = new ArrayList<>();
      boolean listable = true;
      for (Object value : keys.values()) {
        Object literal = exact(type, value);
        if (literal == Empty.UNKNOWN) {
          listable = false;
          break;
        }
        if (literal != Empty.NONE) {
          values.add(literal);
        }
      }
      if (listable) {
        if (values.isEmpty()) {
          return Expressions.alwaysFalse();
        }
        result = Expressions.and(result, Expressions.in(name, values));
      }
    }
    return result;
  }

  /** Markers of a value no row of the column can equal, and of one that cannot be told. */
  private enum Empty {
    NONE,
    UNKNOWN
  }

  private static @Nullable BigDecimal decimal(Object value) {
    if (value instanceof Long || value instanceof Integer) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigDecimal decimal) {
      return decimal;
    }
    return null;
  }

  /**
   * The bound of an integer, date or decimal column for a key, rounded inwards ({@code CEILING} for
   * the least key, {@code FLOOR} for the greatest); {@link Empty#NONE} when no value of the column
   * lies beyond it; null for other types.
   */
  private static @Nullable Object literal(Type type, BigDecimal value, RoundingMode rounding) {
    switch (type.typeId()) {
      case INTEGER:
      case DATE:
        {
          BigDecimal whole = value.setScale(0, rounding);
          if (whole.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            return rounding == RoundingMode.CEILING ? Empty.NONE : Integer.MAX_VALUE;
          }
          if (whole.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) < 0) {
            return rounding == RoundingMode.FLOOR ? Empty.NONE : Integer.MIN_VALUE;
          }
          return whole.intValueExact();
        }
      case LONG:
        {
          BigDecimal whole = value.setScale(0, rounding);
          if (whole.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            return rounding == RoundingMode.CEILING ? Empty.NONE : Long.MAX_VALUE;
          }
          if (whole.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
            return rounding == RoundingMode.FLOOR ? Empty.NONE : Long.MIN_VALUE;
          }
          return whole.longValueExact();
        }
      case DECIMAL:
        {
          Types.DecimalType decimal = (Types.DecimalType) type;
          BigDecimal scaled = value.setScale(decimal.scale(), rounding);
          return scaled.precision() > decimal.precision() ? null : scaled;
        }
      default:
        return null;
    }
  }

  /**
   * A key as a literal of the column's type for an IN list: {@link Empty#NONE} when no value of the
   * column equals it, {@link Empty#UNKNOWN} when the type or value is not one handled.
   */
  private static Object exact(Type type, Object value) {
    switch (type.typeId()) {
      case INTEGER:
      case DATE:
      case LONG:
      case DECIMAL:
        {
          BigDecimal number = decimal(value);
          if (number == null) {
            return Empty.UNKNOWN;
          }
          Object low = literal(type, number, RoundingMode.CEILING);
          Object high = literal(type, number, RoundingMode.FLOOR);
          if (low == null || high == null) {
            return Empty.UNKNOWN;
          }
          return low.equals(high) && decimal(low) != null && decimal(low).compareTo(number) == 0
              ? low
              : Empty.NONE;
        }
      case STRING:
        return value instanceof String ? value : Empty.UNKNOWN;
      default:
        return Empty.UNKNOWN;
    }
  }

  /** A scan's rows without those whose value of a filtered column is not a key. */
  private static final class Tested implements Enumerator<Object[]> {
    private final Enumerator<Object[]> rows;
    private final Target[] targets;
    private final Set<?>[] keys;

    Tested(Enumerator<Object[]> rows, List<Target> targets, List<Keys> keys) {
      this.rows = rows;
      this.targets = targets.toArray(new Target[0]);
      this.keys = new Set<?>[keys.size()];
      for (int i = 0; i < this.keys.length; i++) {
        this.keys[i] = keys.get(i).values();
      }
    }

    @Override
    public Object[] current() {
      return rows.current();
    }

    @Override
    public boolean moveNext() {
      while (rows.moveNext()) {
        if (matches(rows.current())) {
          return true;
        }
      }
      return false;
    }

    private boolean matches(Object[] row) {
      for (int i = 0; i < targets.length; i++) {
        Object value = row[targets[i].column()];
        if (value == null) {
          return false;
        }
        if (!keys[i].contains(targets[i].normalized() ? key(value) : value)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public void reset() {
      rows.reset();
    }

    @Override
    public void close() {
      rows.close();
    }
  }
}
