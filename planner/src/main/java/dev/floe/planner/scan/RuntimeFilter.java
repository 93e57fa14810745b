package dev.floe.planner.scan;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
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
 * scan drops the rows that do not match on the batch's column before it makes a row of them ({@link
 * KeyTest}). Only joins that drop unmatched probe rows (inner and semi-joins) publish, and only to
 * a scan whose column reaches the join key unchanged through operators that keep or drop rows by
 * that value alone.
 */
public final class RuntimeFilter {
  /** The most keys pushed into a scan as a list of values (Iceberg tests dictionaries with it). */
  static final int IN_LIST_LIMIT = 256;

  /**
   * The most bytes a key takes in the lookup a scan builds to test rows ({@link LongKeys}): a join
   * that publishes its keys counts them in its memory.
   */
  public static final int LOOKUP_BYTES_PER_KEY = 32;

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
   * the keys, and whether values are compared as {@link #key} makes them.
   */
  public record Target(Slot slot, int column, boolean normalized) {}

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

  /**
   * Entry point for generated code: a scan's rows with its run-time filters applied. The scan opens
   * at its first row, not when its enumerator is made: a join that opens its probe side before it
   * reads its build side ({@code HashJoins}) publishes the keys in between.
   */
  public static Enumerable<Object[]> enumerable(
      DataContext root, LakeScanSpec spec, Target[] targets) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return new OpenedAtFirstRow(root, spec, targets);
      }
    };
  }

  /** The rows of a scan with run-time filters, opened when the first row is asked for. */
  private static final class OpenedAtFirstRow implements Enumerator<Object[]> {
    private final DataContext root;
    private final LakeScanSpec spec;
    private final Target[] targets;
    private @Nullable Enumerator<Object[]> rows;
    private boolean closed;

    OpenedAtFirstRow(DataContext root, LakeScanSpec spec, Target[] targets) {
      this.root = root;
      this.spec = spec;
      this.targets = targets;
    }

    @Override
    public Object[] current() {
      Enumerator<Object[]> opened = rows;
      if (opened == null) {
        throw new java.util.NoSuchElementException();
      }
      return opened.current();
    }

    @Override
    public boolean moveNext() {
      if (closed) {
        return false;
      }
      Enumerator<Object[]> opened = rows;
      if (opened == null) {
        opened = open(root, spec, targets);
        rows = opened;
      }
      return opened.moveNext();
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      closed = true;
      Enumerator<Object[]> opened = rows;
      rows = null;
      if (opened != null) {
        opened.close();
      }
    }
  }

  /** As {@link #enumerable}, for rows of one column: the bare values. */
  public static Enumerable<Object> scalars(DataContext root, LakeScanSpec spec, Target[] targets) {
    return enumerable(root, spec, targets).select(row -> row[0]);
  }

  private static Enumerator<Object[]> open(DataContext root, LakeScanSpec spec, Target[] targets) {
    LakeScanSpec filtered = spec;
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
      int column = spec.columns().get(target.column());
      Types.NestedField field = schema.columns().get(column);
      Expression range = range(field, keys);
      Expression list = range.op() == Expression.Operation.FALSE ? null : list(field, keys);
      Expression pushed = list == null ? range : Expressions.and(range, list);
      if (pushed.op() != Expression.Operation.TRUE) {
        filtered = filtered.withFilter(pushed);
      }
      boolean tested = pushed.op() != Expression.Operation.FALSE && list == null;
      if (tested) {
        // a list is tested exactly by the filter; else each row's value is looked up in the keys
        filtered =
            filtered.withCondition(
                ScanExpression.keyTest(column, new KeyTest(keys.values(), target.normalized())));
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
          .append(list != null ? " (as a list)" : "")
          .append(tested ? ", rows tested" : "");
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
    return rows;
  }

  /**
   * What the scan's filter gains from the range of a build side's keys on one column: nothing left
   * to match for no keys; the keys' least and greatest values for integer, date and decimal
   * columns; TRUE when nothing can be said.
   */
  static Expression range(Types.NestedField field, Keys keys) {
    if (keys.count() == 0) {
      return Expressions.alwaysFalse();
    }
    Type type = field.type();
    String name = field.name();
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
          return Expressions.and(
              Expressions.greaterThanOrEqual(name, low), Expressions.lessThanOrEqual(name, high));
        }
      }
    }
    return Expressions.alwaysTrue();
  }

  /**
   * The list of a build side's keys as the column's values when they are few (for integer, date,
   * decimal and string columns): Iceberg tests dictionaries and rows with it. FALSE when no value
   * of the column equals a key; null when the keys are too many or not all of a type handled.
   */
  static @Nullable Expression list(Types.NestedField field, Keys keys) {
    if (keys.count() > IN_LIST_LIMIT) {
      return null;
    }
    List<Object> values = new ArrayList<>();
    for (Object value : keys.values()) {
      Object literal = exact(field.type(), value);
      if (literal == Empty.UNKNOWN) {
        return null;
      }
      if (literal != Empty.NONE) {
        values.add(literal);
      }
    }
    return values.isEmpty() ? Expressions.alwaysFalse() : Expressions.in(field.name(), values);
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

  /**
   * A build side's keys tested on each decoded row of a scan's column ({@link
   * ScanExpression.Op#IN_KEYS}), the rows whose value is not a key dropped before a row is made of
   * them. A value is looked up as the join looks it up: made a {@link #key} when the join compares
   * keys of different types, else as it is; NULL is no key.
   *
   * <p>On a column of INTEGER, DATE, BIGINT, TIME or TIMESTAMP values the keys are looked up as
   * primitive longs, in a bitmap over their range when it is dense enough and in an open-addressing
   * set otherwise, built once per statement and kind of column (at most {@link
   * #LOOKUP_BYTES_PER_KEY} bytes a key, counted by the join in the statement's memory). Keys that
   * are not of the class the column's values take can equal none of them and are left out.
   *
   * <p>The test stops itself when it keeps most rows: once {@value #SAMPLE} rows were tested and
   * more than four in five were kept, every later batch is passed whole (the join drops the rows
   * all the same; only its work is saved or not).
   */
  static final class KeyTest {
    static final long SAMPLE = 1 << 16;

    private final Set<?> keys;
    private final boolean normalized;
    private final AtomicLong tested = new AtomicLong();
    private final AtomicLong kept = new AtomicLong();
    private volatile boolean off;
    private volatile LongKeys ints;
    private volatile LongKeys longs;

    KeyTest(Set<?> keys, boolean normalized) {
      this.keys = keys;
      this.normalized = normalized;
    }

    /** Whether a value (as Calcite's runtime holds it, not null) is a key. */
    boolean contains(Object value) {
      return keys.contains(normalized ? key(value) : value);
    }

    /** Whether the test no longer pays and batches pass whole. */
    boolean off() {
      return off;
    }

    /** Counts a batch's rows tested and kept; turns the test off once it keeps most rows. */
    void counted(int testedRows, int keptRows) {
      long t = tested.addAndGet(testedRows);
      long k = kept.addAndGet(keptRows);
      if (t >= SAMPLE && k * 5 > t * 4) {
        off = true;
      }
    }

    /**
     * The keys a column of primitive values can equal, as longs: for a column whose values are
     * Integers ({@code intValues}) the Integer keys (Long keys when they are compared as {@link
     * #key}s), else the Long keys.
     */
    LongKeys primitive(boolean intValues) {
      boolean integers = intValues && !normalized;
      LongKeys built = integers ? ints : longs;
      if (built == null) {
        synchronized (this) {
          built = integers ? ints : longs;
          if (built == null) {
            built = LongKeys.of(keys, integers ? Integer.class : Long.class);
            if (integers) {
              ints = built;
            } else {
              longs = built;
            }
          }
        }
      }
      return built;
    }

    @Override
    public String toString() {
      return keys.size() + " build keys";
    }
  }

  /** A set of longs: a bitmap over their range when it is dense enough, else open addressing. */
  abstract static class LongKeys {
    abstract boolean contains(long value);

    static LongKeys of(Set<?> keys, Class<?> kind) {
      int count = 0;
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (Object key : keys) {
        if (kind.isInstance(key)) {
          long value = ((Number) key).longValue();
          min = Math.min(min, value);
          max = Math.max(max, value);
          count++;
        }
      }
      long[] values = new long[count];
      int i = 0;
      for (Object key : keys) {
        if (kind.isInstance(key) && i < count) {
          values[i++] = ((Number) key).longValue();
        }
      }
      if (count == 0) {
        return new Hashed(values, 0);
      }
      // a bit a value of the range when that costs no more than 128 bits a key (16 bytes); else
      // at most 4 slots a key (32 bytes: LOOKUP_BYTES_PER_KEY)
      long span = max - min;
      if (span >= 0 && span < Math.max(128L * count, 1L << 16)) {
        return new Bitmap(values, min, span);
      }
      return new Hashed(values, count);
    }
  }

  private static final class Bitmap extends LongKeys {
    private final long min;
    private final long span;
    private final long[] words;

    Bitmap(long[] values, long min, long span) {
      this.min = min;
      this.span = span;
      this.words = new long[(int) (span >>> 6) + 1];
      for (long value : values) {
        long offset = value - min;
        words[(int) (offset >>> 6)] |= 1L << offset;
      }
    }

    @Override
    boolean contains(long value) {
      long offset = value - min;
      return offset >= 0 && offset <= span && (words[(int) (offset >>> 6)] & (1L << offset)) != 0;
    }
  }

  private static final class Hashed extends LongKeys {
    private final long[] slots;
    private final int mask;
    private final int shift;
    private boolean zero;

    Hashed(long[] values, int count) {
      int capacity = Integer.highestOneBit(Math.max(4, count) * 2 - 1) << 1;
      this.slots = new long[capacity];
      this.mask = capacity - 1;
      this.shift = 64 - Integer.numberOfTrailingZeros(capacity);
      for (long value : values) {
        if (value == 0) {
          zero = true;
          continue;
        }
        int slot = slot(value);
        while (slots[slot] != 0 && slots[slot] != value) {
          slot = (slot + 1) & mask;
        }
        slots[slot] = value;
      }
    }

    private int slot(long value) {
      return (int) ((value * 0x9E3779B97F4A7C15L) >>> shift);
    }

    @Override
    boolean contains(long value) {
      if (value == 0) {
        return zero;
      }
      int slot = slot(value);
      long held;
      while ((held = slots[slot]) != 0) {
        if (held == value) {
          return true;
        }
        slot = (slot + 1) & mask;
      }
      return false;
    }
  }
}
