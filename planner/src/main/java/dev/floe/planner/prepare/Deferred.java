package dev.floe.planner.prepare;

import dev.floe.planner.session.Cancellation;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.Function0;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.Aggregate;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Computes its input when its rows are first asked for instead of when the plan is bound. Calcite's
 * aggregate reads all its input while the generated code builds the plan's enumerables, before any
 * join above it has read its build side: so a hash join's run-time filter ({@link LakeHashJoin})
 * could never reach the scans under an aggregate on its probe side, and an aggregate whose rows no
 * join needs (its join's build side was empty) was computed all the same. {@link #insert} puts one
 * above every aggregate but one at the root of the plan; the rows are computed once per execution,
 * under the statement's cancellation and memory budget even when the result set reads them after
 * the statement returned.
 */
public final class Deferred extends SingleRel implements EnumerableRel {
  private Deferred(RelNode input) {
    super(input.getCluster(), input.getTraitSet(), input);
  }

  /** A whole plan with each aggregate below its root deferred. */
  static RelNode insert(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode deferred = insert(input);
      if (deferred instanceof Aggregate && deferred instanceof EnumerableRel) {
        deferred = new Deferred(deferred);
      }
      inputs.add(deferred);
      changed |= deferred != input;
    }
    return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new Deferred(sole(inputs));
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    return new Result(
        Expressions.block(
            Expressions.return_(
                null,
                Expressions.call(
                    Deferred.class, "rows", Expressions.lambda(Function0.class, result.block)))),
        result.physType,
        result.format);
  }

  /**
   * Called by generated code: rows computed by {@code rows} when first enumerated (once, then
   * kept), under the cancellation of the statement binding them.
   */
  public static <T> Enumerable<T> rows(Function0<Enumerable<T>> rows) {
    Cancellation statement = Cancellation.current();
    return new AbstractEnumerable<>() {
      private @Nullable Enumerable<T> computed;

      @Override
      public Enumerator<T> enumerator() {
        Enumerable<T> now = computed;
        if (now == null) {
          try (Cancellation.Scope scope = statement.resume()) {
            now = rows.apply();
          }
          computed = now;
        }
        return now.enumerator();
      }
    };
  }
}
