package dev.floe.planner.scan;

import dev.floe.planner.scan.LakeAggregation.Call;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.types.Type;

/**
 * The aggregate values of part of a scan's rows, one set of {@link Accumulator}s per group. Groups
 * are told apart by {@code equals} of the values Calcite's runtime holds (as Calcite's hash
 * aggregate does: NaN is one group, -0.0 and 0.0 two), and are kept in the order first met, so
 * tables merged in scan order list groups as one pass would.
 *
 * <p>Not thread-safe: each worker fills its own tables.
 */
final class GroupTable implements TaskReader.RowSink {
  private final List<Call> calls;
  private final Type[] argTypes;
  private final int[] groups;
  private final Accumulator[] single;
  private final Map<Object, Accumulator[]> byGroup;

  /**
   * An empty table.
   *
   * @param aggregation what to compute
   * @param columnTypes the Iceberg types of the scan's columns
   */
  GroupTable(LakeAggregation aggregation, Type[] columnTypes) {
    this.calls = aggregation.calls();
    this.argTypes = new Type[calls.size()];
    for (int i = 0; i < argTypes.length; i++) {
      int arg = calls.get(i).arg();
      argTypes[i] = arg < 0 ? null : columnTypes[arg];
    }
    this.groups = aggregation.groups().stream().mapToInt(Integer::intValue).toArray();
    this.single = groups.length == 0 ? newAccumulators() : null;
    this.byGroup = groups.length == 0 ? null : new LinkedHashMap<>();
  }

  private Accumulator[] newAccumulators() {
    Accumulator[] accumulators = new Accumulator[calls.size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = Accumulator.of(calls.get(i), argTypes[i]);
    }
    return accumulators;
  }

  /** The accumulators of a group, created when first met. */
  Accumulator[] group(Object key) {
    if (single != null) {
      return single;
    }
    Accumulator[] accumulators = byGroup.get(key);
    if (accumulators == null) {
      accumulators = newAccumulators();
      byGroup.put(key, accumulators);
    }
    return accumulators;
  }

  /** The key of a row's group: the value itself for one group column, else a list of them. */
  private Object key(Object[][] columns, int row) {
    if (groups.length == 1) {
      return columns[groups[0]][row];
    }
    Object[] values = new Object[groups.length];
    for (int g = 0; g < groups.length; g++) {
      values[g] = columns[groups[g]][row];
    }
    return Arrays.asList(values);
  }

  /** The key of a group given its values, in the order of the group columns. */
  Object key(Object[] values) {
    return values.length == 1 ? values[0] : Arrays.asList(values.clone());
  }

  @Override
  public void batch(Object[][] columns, int[] rows, int count) {
    if (single != null) {
      for (int c = 0; c < single.length; c++) {
        int arg = calls.get(c).arg();
        single[c].addAll(arg < 0 ? null : columns[arg], rows, count);
      }
      return;
    }
    int width = calls.size();
    for (int i = 0; i < count; i++) {
      int row = rows == null ? i : rows[i];
      Accumulator[] accumulators = group(key(columns, row));
      for (int c = 0; c < width; c++) {
        int arg = calls.get(c).arg();
        accumulators[c].add(arg < 0 ? null : columns[arg][row]);
      }
    }
  }

  @Override
  public void row(Object[] row) {
    Object key;
    if (single != null) {
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
    Accumulator[] accumulators = group(key);
    for (int c = 0; c < accumulators.length; c++) {
      int arg = calls.get(c).arg();
      accumulators[c].add(arg < 0 ? null : row[arg]);
    }
  }

  /** Merges the values of the rows that follow this table's in the scan. */
  void merge(GroupTable later) {
    if (single != null) {
      for (int c = 0; c < single.length; c++) {
        single[c].merge(later.single[c]);
      }
      return;
    }
    for (Map.Entry<Object, Accumulator[]> entry : later.byGroup.entrySet()) {
      Accumulator[] accumulators = byGroup.get(entry.getKey());
      if (accumulators == null) {
        byGroup.put(entry.getKey(), entry.getValue());
      } else {
        for (int c = 0; c < accumulators.length; c++) {
          accumulators[c].merge(entry.getValue()[c]);
        }
      }
    }
  }

  /** Whether merging pieces in order gave the one-pass values (see {@link Accumulator}). */
  boolean ordered() {
    for (Accumulator[] accumulators :
        single != null ? java.util.Collections.singletonList(single) : byGroup.values()) {
      for (Accumulator accumulator : accumulators) {
        if (!accumulator.ordered()) {
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
    List<Object[]> rows = new ArrayList<>();
    if (single != null) {
      rows.add(results(new Object[0], single));
      return rows;
    }
    for (Map.Entry<Object, Accumulator[]> entry : byGroup.entrySet()) {
      Object[] values =
          groups.length == 1 ? new Object[] {entry.getKey()} : ((List<?>) entry.getKey()).toArray();
      rows.add(results(values, entry.getValue()));
    }
    return rows;
  }

  private static Object[] results(Object[] groupValues, Accumulator[] accumulators) {
    Object[] row = Arrays.copyOf(groupValues, groupValues.length + accumulators.length);
    for (int c = 0; c < accumulators.length; c++) {
      row[groupValues.length + c] = accumulators[c].result();
    }
    return row;
  }
}
