package dev.floe.planner.scan;

import dev.floe.planner.scan.LakeAggregation.Call;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.types.Type;

/**
 * The aggregate values of part of a scan's rows, one set of {@link Accumulator}s per group. Groups
 * are told apart by {@code equals} of the values Calcite's runtime holds (as Calcite's hash
 * aggregate does: NaN is one group, -0.0 and 0.0 two), and are kept in the order first met, so
 * tables merged in scan order list groups as one pass would.
 *
 * <p>A batch is aggregated a column at a time: each row's group number is found first (for one
 * BOOLEAN, numeric, DATE, TIME or TIMESTAMP group column, from its primitive value through a hash
 * table of primitives, without boxing: two values are one group when their bits are equal, which is
 * what {@code equals} of their boxes compares), then each call adds its argument column into the
 * groups' accumulators in one loop.
 *
 * <p>Not thread-safe: each worker fills its own tables.
 */
final class GroupTable implements TaskReader.RowSink {
  private final List<Call> calls;
  private final int[] args;
  private final Type[] argTypes;
  private final int[] groups;

  /** For one group column held in a primitive vector, its kind; else null. */
  private final ColumnVector.Kind primitiveKey;

  /** The groups' keys in the order first met: the value for one group column, else a list. */
  private Object[] keys = new Object[16];

  private int size;

  /** {@code accumulators[c][g]}: call {@code c}'s accumulator for group {@code g}. */
  private final Accumulator[][] accumulators;

  private final Map<Object, Integer> byKey;
  private final PrimitiveGroups byBits;

  /**
   * Each row's group number, for the batch at hand; allocated by the first batch, since a table
   * answered from a file's statistics (one a file, for a correlated subquery once per outer row)
   * never reads one.
   */
  private int[] groupOf = new int[0];

  /**
   * An empty table.
   *
   * @param aggregation what to compute
   * @param columnTypes the Iceberg types of the scan's columns
   */
  GroupTable(LakeAggregation aggregation, Type[] columnTypes) {
    this.calls = aggregation.calls();
    this.args = new int[calls.size()];
    this.argTypes = new Type[calls.size()];
    for (int i = 0; i < argTypes.length; i++) {
      args[i] = calls.get(i).arg();
      argTypes[i] = args[i] < 0 ? null : columnTypes[args[i]];
    }
    this.groups = aggregation.groups().stream().mapToInt(Integer::intValue).toArray();
    this.accumulators = new Accumulator[calls.size()][];
    for (int c = 0; c < accumulators.length; c++) {
      accumulators[c] = new Accumulator[keys.length];
    }
    ColumnVector.Kind kind =
        groups.length == 1 ? ColumnVector.kindOf(columnTypes[groups[0]]) : ColumnVector.Kind.OBJECT;
    this.primitiveKey = kind == ColumnVector.Kind.OBJECT ? null : kind;
    this.byBits = primitiveKey == null ? null : new PrimitiveGroups();
    this.byKey = groups.length == 0 || primitiveKey != null ? null : new HashMap<>();
    if (groups.length == 0) {
      add(null); // one group, whether or not a row comes
    }
  }

  /** Adds a new group with key {@code key}, returning its number. */
  private int add(Object key) {
    if (size == keys.length) {
      int capacity = size * 2;
      keys = Arrays.copyOf(keys, capacity);
      for (int c = 0; c < accumulators.length; c++) {
        accumulators[c] = Arrays.copyOf(accumulators[c], capacity);
      }
    }
    keys[size] = key;
    for (int c = 0; c < accumulators.length; c++) {
      accumulators[c][size] = Accumulator.of(calls.get(c), argTypes[c]);
    }
    return size++;
  }

  /** The number of the group with key {@code key}, created when first met. */
  private int number(Object key) {
    if (groups.length == 0) {
      return 0;
    }
    if (byBits != null) {
      if (key == null) {
        return byBits.nullGroup >= 0 ? byBits.nullGroup : (byBits.nullGroup = add(null));
      }
      long bits = bits(key);
      int g = byBits.find(bits);
      return g >= 0 ? g : byBits.put(bits, add(key));
    }
    Integer g = byKey.get(key);
    if (g == null) {
      g = add(key);
      byKey.put(key, g);
    }
    return g;
  }

  /** The bits a primitive group value is told apart by, as its box's {@code equals} does. */
  private long bits(Object key) {
    switch (primitiveKey) {
      case BOOLEAN:
        return (Boolean) key ? 1 : 0;
      case INT:
        return (Integer) key;
      case LONG:
        return (Long) key;
      case FLOAT:
        return Float.floatToIntBits((Float) key);
      default:
        return Double.doubleToLongBits((Double) key);
    }
  }

  /** The accumulators of a group, created when first met. */
  Accumulator[] group(Object key) {
    int g = number(key);
    Accumulator[] result = new Accumulator[accumulators.length];
    for (int c = 0; c < result.length; c++) {
      result[c] = accumulators[c][g];
    }
    return result;
  }

  /** The key of a group given its values, in the order of the group columns. */
  Object key(Object[] values) {
    return values.length == 1 ? values[0] : Arrays.asList(values.clone());
  }

  @Override
  public void batch(ColumnVector[] columns, int[] rows, int count) {
    if (count == 0) {
      // A batch none of whose rows is live (deleted, or left out by the filter): nothing to add,
      // and with group columns no group may exist yet to add it to.
      return;
    }
    if (groups.length == 0) {
      for (int c = 0; c < accumulators.length; c++) {
        accumulators[c][0].addAll(args[c] < 0 ? null : columns[args[c]], rows, count);
      }
      return;
    }
    if (groupOf.length < count) {
      groupOf = new int[Math.max(count, BatchReader.BATCH_ROWS)];
    }
    if (byBits != null) {
      primitiveGroups(columns[groups[0]], rows, count);
    } else {
      for (int i = 0; i < count; i++) {
        int row = rows == null ? i : rows[i];
        Object key;
        if (groups.length == 1) {
          key = columns[groups[0]].get(row);
        } else {
          Object[] values = new Object[groups.length];
          for (int g = 0; g < groups.length; g++) {
            values[g] = columns[groups[g]].get(row);
          }
          key = Arrays.asList(values);
        }
        groupOf[i] = number(key);
      }
    }
    for (int c = 0; c < accumulators.length; c++) {
      Accumulator[] column = accumulators[c];
      column[0].addGrouped(column, groupOf, args[c] < 0 ? null : columns[args[c]], rows, count);
    }
  }

  /** Numbers the rows' groups of one primitive group column. */
  private void primitiveGroups(ColumnVector key, int[] rows, int count) {
    int[] into = groupOf;
    PrimitiveGroups map = byBits;
    if (key.kind == ColumnVector.Kind.INT && !key.anyNull) {
      int[] ints = key.ints;
      for (int i = 0; i < count; i++) {
        int row = rows == null ? i : rows[i];
        int g = map.find(ints[row]);
        into[i] = g >= 0 ? g : newGroup(key, row, ints[row]);
      }
      return;
    }
    for (int i = 0; i < count; i++) {
      int row = rows == null ? i : rows[i];
      if (key.isNull(row)) {
        into[i] = number(null);
        continue;
      }
      long bits;
      switch (key.kind) {
        case INT:
          bits = key.ints[row];
          break;
        case LONG:
          bits = key.longs[row];
          break;
        case DOUBLE:
          bits = Double.doubleToLongBits(key.doubles[row]);
          break;
        case FLOAT:
          bits = Float.floatToIntBits(key.floats[row]);
          break;
        default:
          bits = key.booleans[row] ? 1 : 0;
          break;
      }
      int g = map.find(bits);
      into[i] = g >= 0 ? g : newGroup(key, row, bits);
    }
  }

  /** Adds the group of row {@code row}'s value, whose bits are {@code bits}. */
  private int newGroup(ColumnVector key, int row, long bits) {
    return byBits.put(bits, add(key.get(row)));
  }

  @Override
  public void row(Object[] row) {
    Object key;
    if (groups.length == 0) {
      key = null;
    } else if (groups.length == 1) {
      key = row[groups[0]];
    } else {
      Object[] values = new Object[groups.length];
      for (int g = 0; g < groups.length; g++) {
        values[g] = row[groups[g]];
      }
      key = Arrays.asList(values);
    }
    int g = number(key);
    for (int c = 0; c < accumulators.length; c++) {
      accumulators[c][g].add(args[c] < 0 ? null : row[args[c]]);
    }
  }

  /** Merges the values of the rows that follow this table's in the scan. */
  void merge(GroupTable later) {
    for (int lg = 0; lg < later.size; lg++) {
      Object key = later.keys[lg];
      int g;
      if (groups.length == 0) {
        g = 0;
      } else if (byBits != null) {
        g = key == null ? byBits.nullGroup : byBits.find(bits(key));
      } else {
        Integer found = byKey.get(key);
        g = found == null ? -1 : found;
      }
      if (g < 0) {
        g = number(key);
        for (int c = 0; c < accumulators.length; c++) {
          accumulators[c][g] = later.accumulators[c][lg];
        }
      } else {
        for (int c = 0; c < accumulators.length; c++) {
          accumulators[c][g].merge(later.accumulators[c][lg]);
        }
      }
    }
  }

  /** Whether merging pieces in order gave the one-pass values (see {@link Accumulator}). */
  boolean ordered() {
    for (Accumulator[] column : accumulators) {
      for (int g = 0; g < size; g++) {
        if (!column[g].ordered()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The result rows: group values then call results; without group columns one row even when no row
   * was added (counts 0, other results NULL), with them one row per group met.
   */
  List<Object[]> rows() {
    List<Object[]> rows = new ArrayList<>(size);
    for (int g = 0; g < size; g++) {
      Object[] values;
      if (groups.length == 0) {
        values = new Object[0];
      } else if (groups.length == 1) {
        values = new Object[] {keys[g]};
      } else {
        values = ((List<?>) keys[g]).toArray();
      }
      Object[] row = Arrays.copyOf(values, values.length + accumulators.length);
      for (int c = 0; c < accumulators.length; c++) {
        row[values.length + c] = accumulators[c][g].result();
      }
      rows.add(row);
    }
    return rows;
  }

  /** Group numbers by the bits of a primitive value: open addressing, linear probing. */
  private static final class PrimitiveGroups {
    private long[] bits = new long[64];
    private int[] numbers = new int[64]; // group number + 1; 0: empty slot
    private int count;
    int nullGroup = -1;

    private static int slot(long key, int mask) {
      long h = key * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32)) & mask;
    }

    /** The group number of {@code key}, or -1. */
    int find(long key) {
      int mask = numbers.length - 1;
      for (int s = slot(key, mask); ; s = (s + 1) & mask) {
        int n = numbers[s];
        if (n == 0) {
          return -1;
        }
        if (bits[s] == key) {
          return n - 1;
        }
      }
    }

    /** Records {@code key} (not yet present) as group {@code number}; returns the number. */
    int put(long key, int number) {
      if ((count + 1) * 2 > numbers.length) {
        grow();
      }
      insert(key, number);
      count++;
      return number;
    }

    private void insert(long key, int number) {
      int mask = numbers.length - 1;
      int s = slot(key, mask);
      while (numbers[s] != 0) {
        s = (s + 1) & mask;
      }
      bits[s] = key;
      numbers[s] = number + 1;
    }

    private void grow() {
      long[] oldBits = bits;
      int[] oldNumbers = numbers;
      bits = new long[oldBits.length * 2];
      numbers = new int[oldNumbers.length * 2];
      for (int s = 0; s < oldNumbers.length; s++) {
        if (oldNumbers[s] != 0) {
          insert(oldBits[s], oldNumbers[s] - 1);
        }
      }
    }
  }
}
