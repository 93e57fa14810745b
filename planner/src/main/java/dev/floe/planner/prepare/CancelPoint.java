package dev.floe.planner.prepare;

import dev.floe.planner.session.Cancellation;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;

/**
 * Passes its input's rows through unchanged, checking on each that the statement has not been
 * cancelled or timed out. Calcite's joins loop over their inputs in its own code, which checks
 * nothing: a cross join of two tables of 10⁵ rows makes 10¹⁰ rows without reading a file, so the
 * scans' own checks come too seldom. {@link #insert} puts one above every join and under the inputs
 * of the joins that loop, so a join, and a sort, aggregate or write consuming one, stops within a
 * row.
 */
public final class CancelPoint extends SingleRel implements EnumerableRel {
  private CancelPoint(RelNode input) {
    super(input.getCluster(), input.getTraitSet(), input);
  }

  /**
   * A whole optimized plan with a cancel point above every join, and under every input of a join
   * that loops over one input for each row of the other (a nested-loop join, a correlate): a hash
   * or merge join reads each input row once, and the scans below check as they read.
   */
  static RelNode insert(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    boolean join =
        (rel instanceof Join || rel instanceof Correlate) && rel instanceof EnumerableRel;
    boolean loops =
        join
            && !(rel instanceof org.apache.calcite.adapter.enumerable.EnumerableHashJoin)
            && !(rel instanceof org.apache.calcite.adapter.enumerable.EnumerableMergeJoin);
    for (RelNode input : rel.getInputs()) {
      RelNode checked = insert(input);
      if (loops && !(checked instanceof CancelPoint)) {
        checked = new CancelPoint(checked);
      }
      inputs.add(checked);
      changed |= checked != input;
    }
    RelNode node = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    return join ? new CancelPoint(node) : node;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new CancelPoint(sole(inputs));
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    BlockBuilder builder = new BlockBuilder();
    Expression rows = builder.append("rows", result.block);
    builder.add(
        Expressions.return_(
            null,
            Expressions.call(CancelPoint.class, "checked", implementor.getRootExpression(), rows)));
    return new Result(builder.toBlock(), result.physType, result.format);
  }

  /**
   * Called by generated code: the rows of an enumerable, checking the cancellation of the statement
   * binding it (taken now, on the statement's thread) and Calcite's cancel flag before each.
   */
  public static <T> Enumerable<T> checked(DataContext root, Enumerable<T> rows) {
    Cancellation statement = Cancellation.current();
    java.util.concurrent.atomic.AtomicBoolean flag =
        root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
    if (statement == Cancellation.NONE && flag == null) {
      return rows;
    }
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<T> enumerator() {
        Enumerator<T> enumerator = rows.enumerator();
        return new Enumerator<>() {
          @Override
          public T current() {
            return enumerator.current();
          }

          @Override
          public boolean moveNext() {
            statement.check();
            if (flag != null && flag.get()) {
              throw dev.floe.error.FloeError.CANCELLED.error("the statement was cancelled");
            }
            return enumerator.moveNext();
          }

          @Override
          public void reset() {
            enumerator.reset();
          }

          @Override
          public void close() {
            enumerator.close();
          }
        };
      }
    };
  }
}
