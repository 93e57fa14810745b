package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.MemoryBudget;
import dev.floe.planner.session.Sizes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableMergeJoin;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.EqualityComparer;
import org.apache.calcite.linq4j.function.Function0;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Function2;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MemberDeclaration;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.NewExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.runtime.SortedMultiMap;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Passes its input's rows through unchanged, watching them for the statement that reads them. A
 * {@link Kind#CANCEL} point checks before each row that the statement has not been cancelled or
 * timed out: Calcite's joins loop over their inputs in its own code, which checks nothing (a cross
 * join of two tables of 10⁵ rows makes 10¹⁰ rows without reading a file), so the scans' own checks
 * come too seldom. A {@link Kind#MEMORY} point under a full sort, which keeps all its input rows
 * before it gives the first, sorts them itself within the statement's {@link MemoryBudget} ({@link
 * SortSpill}): past the sort's share it writes sorted runs to disk and merges them, so a sort
 * larger than the heap answers instead of failing. A {@link Kind#GROUP} point under a hash
 * aggregate of one grouping set aggregates within the budget the same way ({@link AggregateSpill}).
 * {@link #insert} puts them where they are needed.
 */
public final class WatchPoint extends SingleRel implements EnumerableRel {
  private static final int RESERVE_EVERY = 256;

  /** What a point watches. */
  public enum Kind {
    /** The statement's cancellation and Calcite's cancel flag, before each row. */
    CANCEL,
    /** The statement's memory budget, which each row passing reserves until the end. */
    MEMORY,
    /**
     * The statement's memory budget, which each group the hash aggregate above holds reserves
     * ({@link AggregateSpill}); the rows themselves pass as they are.
     */
    GROUP,
    /**
     * The inner side of a nested-loop join, which Calcite's join enumerates again for each row of
     * its outer side: read once into memory, within a share of the statement's budget, and replayed
     * from there ({@link #replayed}).
     */
    REPLAY,
    /**
     * Above a window: Calcite's window code, which partitions its input in a map of its own, gets a
     * {@link WindowPartitions} instead, which adds each row with one lookup, reserves the rows it
     * holds in the statement's budget and checks the statement's cancellation.
     */
    WINDOW
  }

  private final Kind kind;

  private WatchPoint(RelNode input, Kind kind) {
    super(input.getCluster(), input.getTraitSet(), input);
    this.kind = kind;
  }

  /**
   * A whole optimized plan with a memory point under every sort without a limit and under every
   * hash aggregate of one grouping set with group keys, a cancel point above every join, and one
   * under every input of a join that loops over one input for each row of the other (a nested-loop
   * join, a correlate): a hash or merge join reads each input row once, and the scans below check
   * as they read. So a join, and a sort, aggregate or write consuming one, stops within a row. The
   * inner side of a nested-loop join that enumerates it once per outer row gets a replay point.
   */
  static RelNode insert(RelNode rel) {
    boolean sort = rel instanceof EnumerableSort s && s.fetch == null && s.offset == null;
    boolean groups =
        rel instanceof EnumerableAggregate a
            && a.getGroupType() == Aggregate.Group.SIMPLE
            && a.getGroupCount() > 0;
    boolean join =
        (rel instanceof Join || rel instanceof Correlate) && rel instanceof EnumerableRel;
    boolean loops =
        join && !(rel instanceof EnumerableHashJoin) && !(rel instanceof EnumerableMergeJoin);
    // Calcite's nested-loop join enumerates its inner (right) side anew for each outer row unless
    // the join makes rows of NULLs on the left, when it holds the inner side in a list itself.
    boolean replays =
        rel instanceof EnumerableNestedLoopJoin nested
            && !nested.getJoinType().generatesNullsOnLeft();
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode watched = insert(input);
      if (replays && inputs.size() == 1) {
        watched = over(watched, Kind.REPLAY);
      }
      if (sort) {
        watched = over(watched, Kind.MEMORY);
      }
      if (groups) {
        watched = over(watched, Kind.GROUP);
      }
      if (loops) {
        watched = over(watched, Kind.CANCEL);
      }
      inputs.add(watched);
      changed |= watched != input;
    }
    RelNode node = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (node instanceof EnumerableWindow) {
      return new WatchPoint(node, Kind.WINDOW);
    }
    return join ? new WatchPoint(node, Kind.CANCEL) : node;
  }

  /** A point of a kind over a node, unless the node is one. */
  private static RelNode over(RelNode node, Kind kind) {
    return node instanceof WatchPoint point && point.kind == kind
        ? node
        : new WatchPoint(node, kind);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new WatchPoint(sole(inputs), kind);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("kind", kind);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    if (kind == Kind.WINDOW) {
      return new Result(
          windowPartitions(result.block, implementor.getRootExpression()),
          result.physType,
          result.format);
    }
    BlockBuilder builder = new BlockBuilder();
    Expression rows = builder.append("rows", result.block);
    builder.add(
        Expressions.return_(
            null,
            Expressions.call(
                WatchPoint.class,
                switch (kind) {
                  case CANCEL -> "checked";
                  case MEMORY -> "sorted";
                  case GROUP -> "grouped";
                  case REPLAY -> "replayed";
                  case WINDOW ->
                      throw new IllegalStateException("a window point is implemented above");
                },
                implementor.getRootExpression(),
                rows)));
    return new Result(builder.toBlock(), result.physType, result.format);
  }

  /**
   * A window's code with its partitions in a {@link WindowPartitions}: each {@code new
   * SortedMultiMap()} and each call of {@code SortedMultiMap.singletonArrayIterator} replaced.
   */
  private static BlockStatement windowPartitions(BlockStatement block, Expression root) {
    return (BlockStatement)
        block.accept(
            new Shuttle() {
              @Override
              public Expression visit(
                  NewExpression created,
                  List<Expression> arguments,
                  @Nullable List<MemberDeclaration> members) {
                if (created.type == SortedMultiMap.class
                    && arguments.isEmpty()
                    && members == null) {
                  return Expressions.new_(WindowPartitions.class, root);
                }
                return super.visit(created, arguments, members);
              }

              @Override
              public Expression visit(
                  MethodCallExpression call,
                  @Nullable Expression target,
                  List<Expression> arguments) {
                if (target == null
                    && call.method.getDeclaringClass() == SortedMultiMap.class
                    && call.method.getName().equals("singletonArrayIterator")) {
                  List<Expression> all = new ArrayList<>();
                  all.add(root);
                  all.addAll(arguments);
                  return Expressions.call(WindowPartitions.class, "whole", all);
                }
                return super.visit(call, target, arguments);
              }
            });
  }

  /**
   * Called by generated code: the rows of an enumerable, checking the cancellation of the statement
   * binding it (taken now, on the statement's thread) and Calcite's cancel flag before each.
   */
  public static <T> Enumerable<T> checked(DataContext root, Enumerable<T> rows) {
    Cancellation statement = Cancellation.current();
    AtomicBoolean flag = root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
    if (statement == Cancellation.NONE && flag == null) {
      return rows;
    }
    return watched(rows, statement, flag, null);
  }

  /**
   * Called by generated code under a full sort: the rows of an enumerable, each reserved in the
   * budget of the statement binding it (taken now, on the statement's thread) until the enumerator
   * closes, and sorted within that budget when the sort above asks for them in order: Calcite's
   * sort calls {@code orderBy} on its input, which here is a {@link SortSpill} that writes sorted
   * runs to disk past the sort's share of the budget instead of failing with 53200.
   */
  public static <T> Enumerable<T> sorted(DataContext root, Enumerable<T> rows) {
    Cancellation statement = Cancellation.current();
    MemoryBudget memory = statement.memory();
    if (memory == MemoryBudget.UNLIMITED) {
      return rows;
    }
    AtomicBoolean flag = root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
    Enumerable<T> counted = watched(rows, null, null, memory);
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<T> enumerator() {
        return counted.enumerator();
      }

      @Override
      public <K> Enumerable<T> orderBy(Function1<T, K> key, Comparator<K> order) {
        return new SortSpill<>(rows, key, order, statement, flag);
      }

      @Override
      public <K extends Comparable> Enumerable<T> orderBy(Function1<T, K> key) {
        return new SortSpill<>(rows, key, null, statement, flag);
      }
    };
  }

  /**
   * Called by generated code under a hash aggregate of one grouping set: the rows of an enumerable,
   * passed on as they are, whose {@code groupBy} (which Calcite's aggregate calls on its input)
   * aggregates within the budget of the statement binding it (taken now, on the statement's
   * thread): an {@link AggregateSpill} reserves each group it holds and writes the rows of keys
   * past the aggregate's share to disk instead of running the heap out.
   */
  public static <T> Enumerable<T> grouped(DataContext root, Enumerable<T> rows) {
    Cancellation statement = Cancellation.current();
    MemoryBudget memory = statement.memory();
    if (memory == MemoryBudget.UNLIMITED) {
      return rows;
    }
    AtomicBoolean flag = root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<T> enumerator() {
        return rows.enumerator();
      }

      @Override
      public <K, A, R> Enumerable<R> groupBy(
          Function1<T, K> key,
          Function0<A> initializer,
          Function2<A, T, A> adder,
          Function2<K, A, R> result) {
        return new AggregateSpill<>(rows, key, initializer, adder, result, null, statement, flag);
      }

      @Override
      public <K, A, R> Enumerable<R> groupBy(
          Function1<T, K> key,
          Function0<A> initializer,
          Function2<A, T, A> adder,
          Function2<K, A, R> result,
          EqualityComparer<K> comparer) {
        return new AggregateSpill<>(
            rows, key, initializer, adder, result, comparer, statement, flag);
      }

      @Override
      public Enumerable<T> distinct() {
        return new AggregateSpill<T, T, Boolean, T>(
            rows, r -> r, () -> Boolean.TRUE, (a, r) -> a, (k, a) -> k, null, statement, flag);
      }

      @Override
      public Enumerable<T> distinct(EqualityComparer<T> comparer) {
        return new AggregateSpill<T, T, Boolean, T>(
            rows, r -> r, () -> Boolean.TRUE, (a, r) -> a, (k, a) -> k, comparer, statement, flag);
      }
    };
  }

  /**
   * Called by generated code under the inner side of a nested-loop join: the rows of an enumerable
   * that is enumerated once for each outer row, read the first time and kept, each reserved in the
   * budget of the statement binding it (taken now, on the statement's thread), then replayed from
   * memory, so the inner side's scans, joins and aggregates run once, not once per outer row (a
   * comparison with a scalar subquery over a table of 200,000 rows read that table 200,000 times).
   * Held rows past a share of the budget (half of what it had free when the rows were first read,
   * as a sort takes) are dropped and given back, and the inner side is enumerated anew for each
   * outer row as Calcite's join does. What is kept stays reserved until the statement ends: the
   * join may enumerate its inner side again up to its last outer row.
   */
  public static <T> Enumerable<T> replayed(DataContext root, Enumerable<T> rows) {
    return new Replayed<>(rows, Cancellation.current().memory());
  }

  /** The rows of an enumerable, kept at their first enumeration and replayed after. */
  private static final class Replayed<T> extends AbstractEnumerable<T> {
    private static final long STEP = 64 << 10;

    private final Enumerable<T> rows;
    private final MemoryBudget memory;
    private @Nullable List<T> held;
    private boolean tooLarge;

    Replayed(Enumerable<T> rows, MemoryBudget memory) {
      this.rows = rows;
      this.memory = memory;
    }

    @Override
    public Enumerator<T> enumerator() {
      if (held != null) {
        return Linq4j.enumerator(held);
      }
      if (tooLarge) {
        return rows.enumerator();
      }
      long share = memory.share();
      List<T> kept = new ArrayList<>();
      long reserved = 0;
      long pending = 0;
      try (Enumerator<T> e = rows.enumerator()) {
        while (e.moveNext()) {
          T row = e.current();
          kept.add(row);
          pending += Sizes.of(row) + 8;
          if (pending >= STEP) {
            if (reserved + pending > share) {
              return readAgain(reserved);
            }
            memory.reserve(pending, "the inner side of a nested-loop join");
            reserved += pending;
            pending = 0;
          }
        }
      }
      if (reserved + pending > share) {
        return readAgain(reserved);
      }
      memory.reserve(pending, "the inner side of a nested-loop join");
      held = kept;
      return Linq4j.enumerator(kept);
    }

    /** Gives back what was reserved: the inner side is enumerated anew each time from now on. */
    private Enumerator<T> readAgain(long reserved) {
      memory.release(reserved);
      tooLarge = true;
      return rows.enumerator();
    }
  }

  /**
   * Throws 57014 when the statement has been cancelled or timed out, or Calcite's cancel flag is
   * set: the one check every operator that loops makes.
   */
  static void check(@Nullable Cancellation statement, @Nullable AtomicBoolean flag) {
    if (statement != null) {
      statement.check();
    }
    if (flag != null && flag.get()) {
      throw FloeError.CANCELLED.error("the statement was cancelled");
    }
  }

  private static <T> Enumerable<T> watched(
      Enumerable<T> rows,
      @Nullable Cancellation statement,
      @Nullable AtomicBoolean flag,
      @Nullable MemoryBudget memory) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<T> enumerator() {
        return new Watched<>(rows.enumerator(), statement, flag, memory);
      }
    };
  }

  /** An enumerator passing its rows on, checking the statement or reserving its memory. */
  private static final class Watched<T> implements Enumerator<T> {
    private final Enumerator<T> rows;
    private final @Nullable Cancellation statement;
    private final @Nullable AtomicBoolean flag;
    private final @Nullable MemoryBudget memory;
    private long reserved;
    private long pending;
    private int count;

    Watched(
        Enumerator<T> rows,
        @Nullable Cancellation statement,
        @Nullable AtomicBoolean flag,
        @Nullable MemoryBudget memory) {
      this.rows = rows;
      this.statement = statement;
      this.flag = flag;
      this.memory = memory;
    }

    @Override
    public T current() {
      return rows.current();
    }

    @Override
    public boolean moveNext() {
      check(statement, flag);
      if (!rows.moveNext()) {
        flush();
        return false;
      }
      if (memory != null) {
        pending += Sizes.of(rows.current()) + 8;
        if (++count == RESERVE_EVERY) {
          count = 0;
          flush();
        }
      }
      return true;
    }

    private void flush() {
      if (memory != null && pending > 0) {
        long bytes = pending;
        pending = 0;
        memory.reserve(bytes, "the sort holding its rows");
        reserved += bytes;
      }
    }

    @Override
    public void reset() {
      rows.reset();
    }

    @Override
    public void close() {
      try {
        rows.close();
      } finally {
        if (memory != null) {
          memory.release(reserved);
          reserved = 0;
        }
      }
    }
  }
}
