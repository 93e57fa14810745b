package dev.floe.planner.scan;

import dev.floe.error.FloeError;
import dev.floe.planner.scan.LakeAggregation.Call;
import dev.floe.planner.session.MemoryBudget;
import dev.floe.planner.session.Sizes;
import dev.floe.planner.session.SpillFiles;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
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
 * <p>Each new group of a worker's table or of the scan's total counts against the statement's
 * memory budget ({@link Memory}) with its estimated size: its key (measured for the first groups,
 * then for every 16th, the last measure standing for the groups between), its accumulators ({@link
 * Accumulator#bytes}), its slots in the arrays of keys and accumulators, and its entry in the table
 * that finds it. When the budget refuses a group, a worker's table gives up ({@link Refused}: the
 * scan goes on on the statement's thread), and a table that may spill ({@link Spill}) keeps
 * aggregating the groups it holds while it writes the rows of every key it does not hold to {@value
 * #FANOUT} files by a hash of the key (their values, the computed columns' included); each file is
 * aggregated later by a table of its own, split again when it still does not fit, at most {@value
 * #LEVELS} levels deep. A key's rows thus all go to one table, in scan order.
 *
 * <p>Not thread-safe: each worker fills its own tables.
 */
final class GroupTable implements TaskReader.RowSink {
  private final List<Call> calls;

  /** The number of the scan's columns; computed columns follow them. */
  private final int width;

  private final ScanExpression[] expressions;

  /** Each computed column's vector evaluator, created by the first batch. */
  private final ExpressionColumn[] computers;

  /** The scan's columns then the computed ones, for the batch at hand. */
  private ColumnVector[] extended;

  private final int[] args;

  /** Each call's FILTER column (1 for the rows it takes), or -1 ({@link Call#filter}). */
  private final int[] filters;

  /** The rows of the batch at hand a FILTER takes, and their groups ({@link #filtered}). */
  private int[] filteredRows = new int[0];

  private int[] filteredGroups = new int[0];
  private final Type[] argTypes;
  private final int[] groups;

  /** For one group column held in a primitive vector, its kind; else null. */
  private final ColumnVector.Kind primitiveKey;

  /** For one DECIMAL group column held in a primitive vector, its scale. */
  private final int keyScale;

  /** The groups' keys in the order first met: the value for one group column, else a list. */
  private Object[] keys = new Object[16];

  private int size;

  /** {@code accumulators[c][g]}: call {@code c}'s accumulator for group {@code g}. */
  private final Accumulator[][] accumulators;

  private Map<Object, Integer> byKey;

  /**
   * Group numbers of keys of two columns (neither NULL), each of integers or of strings, by {@link
   * #pair}; else null.
   */
  private PrimitiveGroups byPair;

  /**
   * For a key {@link #byPair} finds: each column's strings numbered ({@link Codes}), or null for a
   * column of integers.
   */
  private Codes[] codes;

  private PrimitiveGroups byBits;

  /**
   * Each row's group number, for the batch at hand; allocated by the first batch, since a table
   * answered from a file's statistics (one a file, for a correlated subquery once per outer row)
   * never reads one.
   */
  private int[] groupOf = new int[0];

  /** The files a table that spills writes its new keys' rows to. */
  static final int FANOUT = 64;

  /** The most times a row is written: each level splits a file's keys by another hash. */
  static final int LEVELS = 6;

  private final Memory memory;

  /** Where the rows of keys past the budget go, or null: the table does not spill. */
  private final Spill spill;

  /** Whether this is a worker's table, which gives up ({@link Refused}) past the budget. */
  private final boolean worker;

  /** How many times the rows this table reads were written to files before (0: the scan's). */
  private final int level;

  /** The estimated bytes of a group besides its key's. */
  private final long groupBytes;

  /** The estimated bytes of groups added since the last reservation, and those reserved. */
  private long pending;

  private long reserved;

  /** Groups whose key was measured or stood for by the last measure, and that measure. */
  private long sized;

  private long keyBytes;

  /** Whether the budget refused a group: from then on the rows of new keys go to files. */
  private boolean full;

  /** Whether groups merged in are counted in the table merged ({@link #merge}), not again. */
  private boolean merging;

  /** The files this table writes the rows of keys it does not hold to, once full. */
  private SpillFiles.Partitions spilling;

  /** The live rows of the batch at hand once full ({@link #keepHeld}). */
  private int[] kept = new int[0];

  /**
   * An empty table that holds its groups unaccounted: one answered from a file's statistics (a
   * group), or one for EXPLAIN.
   *
   * @param aggregation what to compute
   * @param scanColumnTypes the Iceberg types of the scan's columns
   */
  GroupTable(LakeAggregation aggregation, Type[] scanColumnTypes) {
    this(aggregation, scanColumnTypes, null, null, false, 0);
  }

  /**
   * An empty table.
   *
   * @param aggregation what to compute
   * @param scanColumnTypes the Iceberg types of the scan's columns
   * @param memory the statement's memory, which the table's groups count against; null: they do not
   * @param spill where rows of keys past the budget go; null when the table does not spill
   * @param worker whether the table is a worker's, which throws {@link Refused} past the budget
   * @param level how many times the rows the table reads were written to files before
   */
  GroupTable(
      LakeAggregation aggregation,
      Type[] scanColumnTypes,
      Memory memory,
      Spill spill,
      boolean worker,
      int level) {
    this.memory = memory;
    this.spill = spill;
    this.worker = worker;
    this.level = level;
    this.width = scanColumnTypes.length;
    List<ScanExpression> computed = aggregation.computed();
    this.expressions = computed.toArray(new ScanExpression[0]);
    this.computers = new ExpressionColumn[expressions.length];
    Type[] columnTypes = Arrays.copyOf(scanColumnTypes, width + expressions.length);
    for (int i = 0; i < expressions.length; i++) {
      columnTypes[width + i] = icebergType(expressions[i]);
    }
    this.calls = aggregation.calls();
    this.filters = calls.stream().mapToInt(Call::filter).toArray();
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
    this.keyScale =
        kind == ColumnVector.Kind.DECIMAL
            ? ((org.apache.iceberg.types.Types.DecimalType) columnTypes[groups[0]]).scale()
            : 0;
    this.byBits = primitiveKey == null ? null : new PrimitiveGroups();
    this.byKey = groups.length == 0 || primitiveKey != null ? null : new HashMap<>();
    boolean pairs =
        groups.length == 2 && pairable(columnTypes[groups[0]]) && pairable(columnTypes[groups[1]]);
    this.byPair = pairs ? new PrimitiveGroups() : null;
    this.codes =
        pairs
            ? new Codes[] {
              integral(columnTypes[groups[0]]) ? null : new Codes(),
              integral(columnTypes[groups[1]]) ? null : new Codes()
            }
            : null;
    // a slot in the keys and in each call's accumulators, arrays that grow by doubling
    long bytes = 8L * (1 + calls.size());
    for (int c = 0; c < calls.size(); c++) {
      bytes += Accumulator.of(calls.get(c), argTypes[c]).bytes();
    }
    // the entry that finds the group: two slots of a table of primitives kept at most half full, or
    // a HashMap node, its slot and the boxed group number
    this.groupBytes =
        bytes
            + (byBits != null || byPair != null ? 32 : byKey != null ? 56 : 0)
            // a string column's number: a HashMap node, its slot and the boxed number
            + (codes == null ? 0 : (codes[0] != null ? 56 : 0) + (codes[1] != null ? 56 : 0));
    if (groups.length == 0) {
      merging = true; // one group, whether or not a row comes, whatever the budget
      add(null);
      merging = false;
    }
  }

  /** Thrown by a worker's table when the budget refuses a group: the statement's thread goes on. */
  static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused() {
      super("the aggregate's groups do not fit the statement's memory budget", null, false, false);
    }
  }

  /**
   * The statement's memory an aggregating scan's tables hold, reserved in its {@link MemoryBudget}:
   * each table adds up its new groups' estimated bytes and reserves them some at a time ({@link
   * #chunk}: a 64th of a small budget, 64 KiB of a large one), the workers' tables and the tables
   * of the statement's thread alike, up to the scan's share: half of what the budget had free when
   * the scan started, as a sort, a hash join's build side and Calcite's aggregate take, so that the
   * operators its groups flow into (an aggregate over them, a join) find room while they do. A
   * worker's table merged into the total hands its bytes over; a table dropped gives them back;
   * whatever is still held is given back when the scan ends, whether it answered or failed.
   * Thread-safe.
   */
  static final class Memory {
    private final MemoryBudget budget;
    private final String operator;
    private final long chunk;
    private final long share;
    private long held;
    private long byWorkers;
    private boolean closed;

    /**
     * @param budget the statement's budget
     * @param operator the aggregate as a 53200 message names it
     */
    Memory(MemoryBudget budget, String operator) {
      this.budget = budget;
      this.operator = operator;
      long limit = budget.limit();
      this.chunk =
          limit == Long.MAX_VALUE ? 64L << 10 : Math.max(1, Math.min(64L << 10, limit / 64));
      this.share = budget.share();
    }

    MemoryBudget budget() {
      return budget;
    }

    String operator() {
      return operator;
    }

    /**
     * Reserves {@code bytes} for a table, false when the budget refuses them; true and nothing
     * reserved once the scan ended (a worker still stopping).
     */
    synchronized boolean reserve(long bytes, boolean worker) {
      if (closed) {
        return true;
      }
      if (held + bytes > share) {
        return false;
      }
      try {
        budget.reserve(bytes, operator);
      } catch (RuntimeException refused) {
        return false;
      }
      held += bytes;
      if (worker) {
        byWorkers += bytes;
      }
      return true;
    }

    synchronized void release(long bytes, boolean worker) {
      if (!closed) {
        budget.release(bytes);
        held -= bytes;
        if (worker) {
          byWorkers -= bytes;
        }
      }
    }

    /** A worker's table's bytes now held by the statement's thread's table it was merged into. */
    synchronized void handOver(long bytes) {
      if (!closed) {
        byWorkers -= bytes;
      }
    }

    /**
     * Gives back what the workers' tables still hold: the workers stopped, their tables dropped.
     */
    synchronized void releaseWorkers() {
      if (!closed) {
        budget.release(byWorkers);
        held -= byWorkers;
        byWorkers = 0;
      }
    }

    /** Gives back everything the scan's tables hold: the scan ended. */
    synchronized void close() {
      if (!closed) {
        closed = true;
        budget.release(held);
        held = 0;
        byWorkers = 0;
      }
    }

    /** The failure of a scan whose aggregate cannot go on within the budget. */
    RuntimeException failure(String why) {
      return FloeError.OUT_OF_MEMORY.error(
          operator
              + " needs more than the statement's memory budget of "
              + budget.limitText()
              + why
              + " (connection property memoryBudget; docs/limits.md, \"Known limits\")");
    }
  }

  /** A file of rows whose keys no table held, still to aggregate. */
  record Pending(SpillFiles.Partitions file, int index, int level) {}

  /**
   * The spill files of one aggregating scan: a {@code floe-agg-*} folder under {@code
   * java.io.tmpdir} ({@link SpillFiles}), created at the first row written, and the files still to
   * aggregate, first first. Used on the statement's thread only.
   */
  static final class Spill {
    private final SpillFiles.Folder folder;
    private final Deque<Pending> todo = new ArrayDeque<>();
    private final List<SpillFiles.Partitions> writing = new ArrayList<>();
    private final MemoryBudget budget;

    Spill(Memory memory) {
      this.budget = memory.budget();
      this.folder = new SpillFiles.Folder("floe-agg-", budget, memory.operator());
    }

    /** The next file to aggregate, or null. */
    Pending next() {
      return todo.pollFirst();
    }

    /** Deletes every file: the scan ended, failed or was cancelled. */
    void delete() {
      try {
        for (SpillFiles.Partitions files : writing) {
          files.deleteAll();
        }
        for (Pending pending : todo) {
          pending.file().delete(pending.index());
        }
      } finally {
        writing.clear();
        todo.clear();
        folder.delete();
      }
    }
  }

  /** Reserves the bytes of the groups added since the last reservation, when the budget lets it. */
  void reserve() {
    if (pending > 0 && memory != null && memory.reserve(pending, worker)) {
      reserved += pending;
      pending = 0;
    }
  }

  /**
   * Reserves the bytes of the groups added since the last reservation, as a worker does when its
   * piece is read.
   *
   * @throws Refused when the budget refuses them
   */
  void reserveOrRefuse() {
    reserve();
    if (pending > 0 && memory != null) {
      throw new Refused();
    }
  }

  /** Gives back the bytes this table reserved: it was read to the end, or dropped. */
  void release() {
    if (memory != null) {
      memory.release(reserved, worker);
    }
    reserved = 0;
    pending = 0;
  }

  /** Whether the budget refused a group: rows of keys the table does not hold go to files. */
  boolean full() {
    return full;
  }

  /** The number of groups. */
  int groups() {
    return size;
  }

  /**
   * Counts a new group's bytes, reserving them with those pending once they reach a chunk: false
   * when the budget refuses them (the group is not added; {@link #refused} says what then).
   */
  private boolean admit(Object key) {
    if (memory == null || merging) {
      return true;
    }
    if (sized < 1024 || (sized & 15) == 0) {
      keyBytes = Sizes.of(key);
    }
    sized++;
    long bytes = pending + groupBytes + keyBytes;
    if (bytes < memory.chunk) {
      pending = bytes;
      return true;
    }
    if (memory.reserve(bytes, worker)) {
      reserved += bytes;
      pending = 0;
      return true;
    }
    return false;
  }

  /**
   * The budget refused a new group: a worker's table gives up, a table that may spill writes the
   * rows of new keys to files from now on, and one that may not, or holds no group, or whose rows
   * were split {@link #LEVELS} times already, fails the statement with 53200.
   */
  private void refused() {
    if (worker) {
      throw new Refused();
    }
    if (spill == null) {
      throw memory.failure(" for the " + size + " groups it holds");
    }
    if (size == 0) {
      throw memory.failure(" for one group");
    }
    if (level >= LEVELS) {
      throw memory.failure(
          ": its groups still do not fit after splitting its rows " + LEVELS + " times");
    }
    full = true;
  }

  /** Adds a new group with key {@code key}, returning its number; -1 once the table is full. */
  private int add(Object key) {
    if (full) {
      return -1;
    }
    if (!admit(key)) {
      refused();
      return -1;
    }
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
      if (g >= 0) {
        return g;
      }
      g = add(key);
      return g < 0 ? g : byBits.put(bits, g);
    }
    if (byPair != null) {
      long pair = pair(key);
      if (pair != NO_PAIR) {
        int g = byPair.find(pair);
        if (g >= 0) {
          return g;
        }
        g = add(key);
        return g < 0 ? g : byPair.put(pair, g);
      }
    }
    Integer g = byKey.get(key);
    if (g == null) {
      g = add(key);
      if (g >= 0) {
        byKey.put(key, g);
      }
    }
    return g;
  }

  /** The number of the group with key {@code key}, or -1 when the table holds none. */
  private int find(Object key) {
    if (groups.length == 0) {
      return 0;
    }
    if (byBits != null) {
      return key == null ? byBits.nullGroup : byBits.find(bits(key));
    }
    if (byPair != null && pair(key) != NO_PAIR) {
      return byPair.find(pair(key));
    }
    Integer found = byKey.get(key);
    return found == null ? -1 : found;
  }

  /** Whether this table holds a group of every key {@code other} holds. */
  boolean holdsAll(GroupTable other) {
    for (int g = 0; g < other.size; g++) {
      if (find(other.keys[g]) < 0) {
        return false;
      }
    }
    return true;
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
      case DECIMAL:
        return ((java.math.BigDecimal) key).setScale(keyScale).unscaledValue().longValueExact();
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

  /** The Iceberg type of a computed column's values (for choosing accumulators). */
  private static Type icebergType(ScanExpression expression) {
    switch (expression.type()) {
      case INT:
        return org.apache.iceberg.types.Types.IntegerType.get();
      case LONG:
        return org.apache.iceberg.types.Types.LongType.get();
      case DOUBLE:
        return org.apache.iceberg.types.Types.DoubleType.get();
      default:
        return org.apache.iceberg.types.Types.DecimalType.of(38, expression.scale());
    }
  }

  @Override
  public void batch(ColumnVector[] scanColumns, int[] rows, int count) {
    if (count == 0) {
      // A batch none of whose rows is live (deleted, or left out by the filter): nothing to add,
      // and with group columns no group may exist yet to add it to.
      return;
    }
    ColumnVector[] columns = scanColumns;
    if (expressions.length > 0) {
      if (extended == null) {
        extended = new ColumnVector[width + expressions.length];
        for (int i = 0; i < expressions.length; i++) {
          computers[i] = new ExpressionColumn(expressions[i]);
        }
      }
      System.arraycopy(scanColumns, 0, extended, 0, width);
      for (int i = 0; i < expressions.length; i++) {
        extended[width + i] = computers[i].compute(scanColumns, rows, count);
      }
      columns = extended;
    }
    if (groups.length == 0) {
      for (int c = 0; c < accumulators.length; c++) {
        ColumnVector values = args[c] < 0 ? null : columns[args[c]];
        if (filters[c] >= 0) {
          int taken = filtered(columns[filters[c]], rows, count, false);
          if (taken > 0) {
            accumulators[c][0].addAll(values, filteredRows, taken);
          }
        } else {
          accumulators[c][0].addAll(values, rows, count);
        }
      }
      return;
    }
    if (groupOf.length < count) {
      groupOf = new int[Math.max(count, BatchReader.BATCH_ROWS)];
    }
    if (byBits != null && columns[groups[0]].kind != ColumnVector.Kind.OBJECT) {
      // (a computed key's batch computed row by row comes boxed: found below by its value's bits)
      primitiveGroups(columns[groups[0]], rows, count);
    } else if (byPair != null
        && pairVector(0, columns[groups[0]])
        && pairVector(1, columns[groups[1]])) {
      pairGroups(columns[groups[0]], columns[groups[1]], rows, count);
    } else if (objectsOnly(columns)) {
      objectGroups(columns, rows, count);
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
    if (full) {
      int held = keepHeld(columns, rows, count);
      if (held < count) {
        if (held == 0) {
          return;
        }
        rows = kept;
        count = held;
      }
    }
    boolean tallied = false;
    int filteredBy = -1; // the FILTER column filteredRows hold the rows of (calls may share one)
    int taken = 0;
    for (int c = 0; c < accumulators.length; c++) {
      Accumulator[] column = accumulators[c];
      ColumnVector values = args[c] < 0 ? null : columns[args[c]];
      if (filters[c] >= 0) {
        if (filters[c] != filteredBy) {
          taken = filtered(columns[filters[c]], rows, count, true);
          filteredBy = filters[c];
        }
        if (taken > 0) {
          column[0].addGrouped(column, filteredGroups, values, filteredRows, taken);
        }
        continue;
      }
      if (size <= count && countsEveryRow(calls.get(c), values)) {
        if (!tallied) {
          tally(count);
          tallied = true;
        }
        int[] perGroup = tally;
        for (int g = 0; g < size; g++) {
          if (perGroup[g] != 0) {
            column[g].addCount(perGroup[g]);
          }
        }
        continue;
      }
      if (size <= count
          && values != null
          && column[0] instanceof Accumulator.DoubleSum
          && values.kind == ColumnVector.Kind.DOUBLE
          && !values.anyNull) {
        if (!tallied) {
          tally(count);
          tallied = true;
        }
        if (sums.length < size) {
          sums = new double[tally.length];
        }
        Accumulator.DoubleSum.addDense(
            column, size, tally, groupOf, values.doubles, rows, count, sums);
        continue;
      }
      column[0].addGrouped(column, groupOf, values, rows, count);
    }
    if (tallied) {
      Arrays.fill(tally, 0, size, 0);
    }
  }

  /**
   * The batch's rows by group ({@code tally[g]}), counted once for every {@code COUNT} that counts
   * each row of this batch: {@code COUNT(*)}, and {@code COUNT(col)} of a batch whose column holds
   * no NULL; it also tells which groups a DOUBLE sum without NULLs added to. Used when the groups
   * are no more than the batch's rows, so that adding the tallies to the groups costs less than a
   * pass over the rows; zeroed again after the batch.
   */
  private int[] tally = new int[0];

  /** The groups' DOUBLE sums while a batch is added to them (see {@code DoubleSum.addDense}). */
  private double[] sums = new double[0];

  private static boolean countsEveryRow(Call call, ColumnVector values) {
    return call.kind() == LakeAggregation.Kind.COUNT_ROWS
        || call.kind() == LakeAggregation.Kind.COUNT && values != null && !values.anyNull;
  }

  /** Counts the batch's rows by group into {@link #tally} (all zero before). */
  private void tally(int count) {
    if (tally.length < size) {
      tally = new int[Math.max(size, Math.min(2 * tally.length, BatchReader.BATCH_ROWS))];
    }
    int[] perGroup = tally;
    int[] numbers = groupOf;
    for (int i = 0; i < count; i++) {
      perGroup[numbers[i]]++;
    }
  }

  /** Whether every group column of the batch holds objects (strings, wide decimals). */
  private boolean objectsOnly(ColumnVector[] columns) {
    for (int group : groups) {
      if (columns[group].kind != ColumnVector.Kind.OBJECT) {
        return false;
      }
    }
    return true;
  }

  /** Slots of {@link #seen}: a power of two. */
  private static final int SEEN_SLOTS = 256;

  /**
   * Group values met lately, by identity: a decoder hands out one object per dictionary entry, so
   * the rows of a column chunk repeat the same few objects, and a row whose values are those very
   * objects is of the same group without hashing or comparing them. {@code seen[s * n + g]} is
   * group column {@code g}'s value in slot {@code s}, whose group number is {@code seenGroup[s]}
   * (-1: empty).
   */
  private Object[] seen;

  private int[] seenGroup;

  /** Numbers the rows' groups when every group column holds objects. */
  private void objectGroups(ColumnVector[] columns, int[] rows, int count) {
    int n = groups.length;
    if (seen == null) {
      seen = new Object[SEEN_SLOTS * n];
      seenGroup = new int[SEEN_SLOTS];
      Arrays.fill(seenGroup, -1);
    }
    Object[][] vectors = new Object[n][];
    boolean[][] nulls = new boolean[n][];
    for (int g = 0; g < n; g++) {
      vectors[g] = columns[groups[g]].objects;
      nulls[g] = columns[groups[g]].anyNull ? columns[groups[g]].nulls : null;
    }
    for (int i = 0; i < count; i++) {
      int row = rows == null ? i : rows[i];
      int hash = 0;
      for (int g = 0; g < n; g++) {
        Object value = nulls[g] != null && nulls[g][row] ? null : vectors[g][row];
        hash = hash * 31 + System.identityHashCode(value);
      }
      int slot = (hash ^ (hash >>> 16)) & (SEEN_SLOTS - 1);
      int group = seenGroup[slot];
      if (group >= 0) {
        for (int g = 0; g < n; g++) {
          Object value = nulls[g] != null && nulls[g][row] ? null : vectors[g][row];
          if (seen[slot * n + g] != value) {
            group = -1;
            break;
          }
        }
      }
      if (group < 0) {
        Object[] values = new Object[n];
        for (int g = 0; g < n; g++) {
          values[g] = nulls[g] != null && nulls[g][row] ? null : vectors[g][row];
        }
        group = number(n == 1 ? values[0] : Arrays.asList(values));
        System.arraycopy(values, 0, seen, slot * n, n);
        seenGroup[slot] = group;
      }
      groupOf[i] = group;
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
        case DECIMAL:
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

  /** Adds the group of row {@code row}'s value, whose bits are {@code bits}; -1 once full. */
  private int newGroup(ColumnVector key, int row, long bits) {
    int g = add(key.get(row));
    return g < 0 ? g : byBits.put(bits, g);
  }

  /**
   * Writes the batch's rows whose key has no group ({@code groupOf[i] < 0}) to the files, and
   * leaves the others in {@link #kept} with their group numbers first in {@link #groupOf}; returns
   * how many are left.
   */
  private int keepHeld(ColumnVector[] columns, int[] rows, int count) {
    if (kept.length < count) {
      kept = new int[Math.max(count, BatchReader.BATCH_ROWS)];
    }
    int held = 0;
    for (int i = 0; i < count; i++) {
      int row = rows == null ? i : rows[i];
      int g = groupOf[i];
      if (g >= 0) {
        kept[held] = row;
        groupOf[held++] = g;
      } else {
        Object[] values = new Object[columns.length];
        for (int c = 0; c < values.length; c++) {
          values[c] = columns[c].get(row);
        }
        write(keyOf(values), values);
      }
    }
    return held;
  }

  /** The key of a row of the scan's and computed columns. */
  private Object keyOf(Object[] row) {
    if (groups.length == 0) {
      return null;
    }
    if (groups.length == 1) {
      return row[groups[0]];
    }
    Object[] values = new Object[groups.length];
    for (int g = 0; g < groups.length; g++) {
      values[g] = row[groups[g]];
    }
    return Arrays.asList(values);
  }

  /** Writes a row whose key the table does not hold to the file of its key. */
  private void write(Object key, Object[] row) {
    if (spilling == null) {
      spilling = new SpillFiles.Partitions(spill.folder, FANOUT, level + 1);
      spill.writing.add(spilling);
    }
    try {
      spilling.add(key, row);
    } catch (SpillFiles.NotSpillable e) {
      throw memory.failure(" and cannot spill to disk: " + e.getMessage());
    }
  }

  /**
   * Ends the table's input: the files it wrote are closed and queued to be aggregated next, ahead
   * of those queued before, in order.
   */
  void finishSpill() {
    SpillFiles.Partitions files = spilling;
    if (files == null) {
      return;
    }
    spilling = null;
    files.finish();
    spill.writing.remove(files);
    spill.budget.spilled();
    for (int i = FANOUT - 1; i >= 0; i--) {
      if (files.count(i) > 0) {
        spill.todo.addFirst(new Pending(files, i, level + 1));
      } else {
        files.delete(i);
      }
    }
  }

  @Override
  public void row(Object[] scanRow) {
    Object[] row = scanRow;
    if (expressions.length > 0) {
      row = Arrays.copyOf(scanRow, width + expressions.length);
      for (int i = 0; i < expressions.length; i++) {
        row[width + i] = expressions[i].evaluate(c -> scanRow[c]);
      }
    }
    computedRow(row);
  }

  /**
   * Adds one row of the scan's columns and the computed ones (as {@link #row} computes them, or as
   * a file of rows past the budget holds them).
   */
  void computedRow(Object[] row) {
    Object key = keyOf(row);
    int g = number(key);
    if (g < 0) {
      write(key, row); // written at once: the caller may reuse the array
      return;
    }
    for (int c = 0; c < accumulators.length; c++) {
      if (filters[c] < 0 || takes(row[filters[c]])) {
        accumulators[c][g].add(args[c] < 0 ? null : row[args[c]]);
      }
    }
  }

  /** Whether a FILTER column's value takes its row: 1 (TRUE), not 0 or NULL. */
  private static boolean takes(Object flag) {
    return flag instanceof Number n ? n.intValue() == 1 : Boolean.TRUE.equals(flag);
  }

  /**
   * Puts the rows of the batch at hand whose FILTER column {@code flag} takes them in {@link
   * #filteredRows} (and, when {@code grouped}, their groups from {@link #groupOf} in {@link
   * #filteredGroups}), returning how many.
   */
  private int filtered(ColumnVector flag, int[] rows, int count, boolean grouped) {
    if (filteredRows.length < count) {
      filteredRows = new int[Math.max(count, BatchReader.BATCH_ROWS)];
      filteredGroups = new int[filteredRows.length];
    }
    int taken = 0;
    for (int i = 0; i < count; i++) {
      int row = rows == null ? i : rows[i];
      boolean take;
      if (flag.isNull(row)) {
        take = false;
      } else if (flag.kind == ColumnVector.Kind.INT) {
        take = flag.ints[row] == 1;
      } else if (flag.kind == ColumnVector.Kind.BOOLEAN) {
        take = flag.booleans[row];
      } else {
        take = takes(flag.get(row));
      }
      if (take) {
        filteredRows[taken] = row;
        if (grouped) {
          filteredGroups[taken] = groupOf[i];
        }
        taken++;
      }
    }
    return taken;
  }

  /**
   * Merges the values of the rows that follow this table's in the scan, and takes over the memory
   * {@code later} reserved (for its groups new here; the rest is given back). Groups merged in are
   * never refused: a table that may be full merges only tables whose keys it holds ({@link
   * #holdsAll}).
   */
  void merge(GroupTable later) {
    if (size == 0 && groups.length > 0 && !full && later.size > 0) {
      adopt(later);
      return;
    }
    int before = size;
    merging = true;
    try {
      mergeGroups(later);
    } finally {
      merging = false;
    }
    long taken = later.reserved;
    later.reserved = 0;
    later.pending = 0;
    if (taken > 0 && memory != null) {
      if (later.worker) {
        memory.handOver(taken);
      }
      long kept = later.size == 0 ? 0 : taken / later.size * (size - before);
      memory.release(taken - kept, false);
      reserved += kept;
    }
  }

  /**
   * Takes over the groups of {@code later} into this empty table: its keys, accumulators and the
   * tables that find them, and the memory it reserved. The first piece of a scan grouped by a key
   * of many values holds most of the groups, which merging one at a time would find and add again.
   */
  private void adopt(GroupTable later) {
    keys = later.keys;
    size = later.size;
    for (int c = 0; c < accumulators.length; c++) {
      accumulators[c] = later.accumulators[c];
    }
    byKey = later.byKey;
    byPair = later.byPair;
    codes = later.codes;
    byBits = later.byBits;
    sized = later.sized;
    keyBytes = later.keyBytes;
    long taken = later.reserved;
    if (taken > 0 && memory != null && later.worker) {
      memory.handOver(taken);
    }
    reserved += taken;
    pending += later.pending;
    // the later table is spent: nothing of it is read or given back again
    later.keys = new Object[0];
    later.size = 0;
    later.reserved = 0;
    later.pending = 0;
  }

  private void mergeGroups(GroupTable later) {
    for (int lg = 0; lg < later.size; lg++) {
      Object key = later.keys[lg];
      int g = find(key);
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
   * The result row of group {@code g}: its group values then the calls' results. Without group
   * columns a table has one group even when no row was added (counts 0, other results NULL).
   */
  Object[] row(int g) {
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
    return row;
  }

  /** A key of two integers none NULL, as the one long its halves are; NO_PAIR for other keys. */
  private static final long NO_PAIR = Long.MIN_VALUE;

  private static boolean integral(Type type) {
    Type.TypeID id = type.typeId();
    return id == Type.TypeID.INTEGER || id == Type.TypeID.LONG;
  }

  /** Whether a group column of a key of two may be found by {@link #byPair}. */
  private static boolean pairable(Type type) {
    return integral(type) || type.typeId() == Type.TypeID.STRING;
  }

  /** Whether group column {@code g} (of two) of a batch is held as {@link #pairGroups} reads it. */
  private boolean pairVector(int g, ColumnVector column) {
    return codes[g] != null
        ? column.kind == ColumnVector.Kind.OBJECT
        : column.kind == ColumnVector.Kind.INT || column.kind == ColumnVector.Kind.LONG;
  }

  /**
   * The long a key of two columns (a list of two values of the two group columns) is told apart by:
   * the integer or the string's number ({@link Codes}) of each, when neither is NULL and both fit
   * in 31 bits and a sign (so no such key maps to NO_PAIR); NO_PAIR otherwise (the key is then
   * found by {@code equals} in {@link #byKey}).
   */
  private long pair(Object key) {
    if (!(key instanceof List<?> list) || list.size() != 2) {
      return NO_PAIR;
    }
    long first = part(0, list.get(0));
    long second = part(1, list.get(1));
    return first == NO_PAIR || second == NO_PAIR ? NO_PAIR : pair(first, second);
  }

  /** Group column {@code g}'s share of a pair: its integer or its string's number. */
  private long part(int g, Object value) {
    if (codes[g] != null) {
      return value instanceof String ? codes[g].code(value) : NO_PAIR;
    }
    return value instanceof Integer || value instanceof Long
        ? ((Number) value).longValue()
        : NO_PAIR;
  }

  private static long pair(long first, long second) {
    if (first != (int) first || second != (int) second || first == Integer.MIN_VALUE) {
      return NO_PAIR;
    }
    return (first << 32) | (second & 0xFFFFFFFFL);
  }

  private static long integerAt(ColumnVector column, int row) {
    return column.kind == ColumnVector.Kind.INT ? column.ints[row] : column.longs[row];
  }

  /** Group column {@code g}'s share of the pair of a row of the batch (not NULL). */
  private long partAt(int g, ColumnVector column, int row) {
    return codes[g] != null ? codes[g].code(column.objects[row]) : integerAt(column, row);
  }

  /** Numbers the rows' groups of two group columns, each of integers or of strings. */
  private void pairGroups(ColumnVector first, ColumnVector second, int[] rows, int count) {
    int[] into = groupOf;
    PrimitiveGroups map = byPair;
    for (int i = 0; i < count; i++) {
      int row = rows == null ? i : rows[i];
      if (first.isNull(row) || second.isNull(row)) {
        into[i] = number(Arrays.asList(first.get(row), second.get(row)));
        continue;
      }
      long pair = pair(partAt(0, first, row), partAt(1, second, row));
      int g = pair == NO_PAIR ? -1 : map.find(pair);
      if (g < 0) {
        g = number(Arrays.asList(first.get(row), second.get(row)));
      }
      into[i] = g;
    }
  }

  /**
   * Numbers of the strings of one group column, in the order first met, told apart by {@code
   * equals}: a decoder hands out one object per dictionary entry, so most rows find their string's
   * number by identity among the last met, without hashing the string.
   */
  private static final class Codes {
    private static final int SLOTS = 256;
    private final Object[] lastValues = new Object[SLOTS];
    private final int[] lastCodes = new int[SLOTS];
    private final Map<Object, Integer> byValue = new HashMap<>();

    long code(Object value) {
      int hash = System.identityHashCode(value);
      int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
      if (lastValues[slot] == value) {
        return lastCodes[slot];
      }
      Integer code = byValue.get(value);
      if (code == null) {
        code = byValue.size();
        byValue.put(value, code);
      }
      lastValues[slot] = value;
      lastCodes[slot] = code;
      return code;
    }
  }

  /**
   * Group numbers by the bits of a primitive value: keys in {@code [0, DIRECT_KEYS)} (small
   * non-negative integers, the usual group column of codes and ids) by their value, in an array
   * grown to the largest such key met; other keys by open addressing, linear probing.
   */
  private static final class PrimitiveGroups {
    /** Keys below this (and not negative) are found by value; 64K slots, 256 KB at most. */
    private static final int DIRECT_KEYS = 1 << 16;

    private int[] direct = new int[0]; // by key: group number + 1; 0: no group
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
      if (key >= 0 && key < DIRECT_KEYS) {
        int[] byValue = direct;
        return key < byValue.length ? byValue[(int) key] - 1 : -1;
      }
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
      if (key >= 0 && key < DIRECT_KEYS) {
        if (key >= direct.length) {
          direct = Arrays.copyOf(direct, Math.max(64, Integer.highestOneBit((int) key) << 1));
        }
        direct[(int) key] = number + 1;
        return number;
      }
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
