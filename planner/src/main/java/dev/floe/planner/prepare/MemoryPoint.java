package dev.floe.planner.prepare;

import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.MemoryBudget;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;

/**
 * Passes its input's rows through unchanged, reserving each row's estimated size in the statement's
 * {@link MemoryBudget} as it goes and releasing it all when closed. {@link #insert} puts one under
 * every full sort, which keeps all its input rows before it gives the first: a sort past the budget
 * fails with 53200 while it reads, before the heap runs out.
 */
public final class MemoryPoint extends SingleRel implements EnumerableRel {
  private static final int RESERVE_EVERY = 256;

  private MemoryPoint(RelNode input) {
    super(input.getCluster(), input.getTraitSet(), input);
  }

  /** A whole plan with a memory point under every sort without a limit. */
  static RelNode insert(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    boolean sort = rel instanceof EnumerableSort s && s.fetch == null && s.offset == null;
    for (RelNode input : rel.getInputs()) {
      RelNode counted = insert(input);
      if (sort && !(counted instanceof MemoryPoint)) {
        counted = new MemoryPoint(counted);
      }
      inputs.add(counted);
      changed |= counted != input;
    }
    return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new MemoryPoint(sole(inputs));
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    BlockBuilder builder = new BlockBuilder();
    Expression rows = builder.append("rows", result.block);
    builder.add(Expressions.return_(null, Expressions.call(MemoryPoint.class, "counted", rows)));
    return new Result(builder.toBlock(), result.physType, result.format);
  }

  /**
   * Called by generated code: the rows of an enumerable, each reserved in the budget of the
   * statement binding it (taken now, on the statement's thread) until the enumerator closes.
   */
  public static <T> Enumerable<T> counted(Enumerable<T> rows) {
    MemoryBudget memory = Cancellation.current().memory();
    if (memory == MemoryBudget.UNLIMITED) {
      return rows;
    }
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<T> enumerator() {
        Enumerator<T> enumerator = rows.enumerator();
        return new Enumerator<>() {
          private long reserved;
          private long pending;
          private int count;

          @Override
          public T current() {
            return enumerator.current();
          }

          @Override
          public boolean moveNext() {
            if (!enumerator.moveNext()) {
              flush();
              return false;
            }
            pending += HashJoins.Sizes.of(enumerator.current()) + 8;
            if (++count == RESERVE_EVERY) {
              count = 0;
              flush();
            }
            return true;
          }

          private void flush() {
            if (pending > 0) {
              long bytes = pending;
              pending = 0;
              memory.reserve(bytes, "the sort holding its rows");
              reserved += bytes;
            }
          }

          @Override
          public void reset() {
            enumerator.reset();
          }

          @Override
          public void close() {
            try {
              enumerator.close();
            } finally {
              memory.release(reserved);
              reserved = 0;
            }
          }
        };
      }
    };
  }
}
