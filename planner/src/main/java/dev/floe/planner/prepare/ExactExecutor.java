package dev.floe.planner.prepare;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;

/**
 * Constant folding that never loses digits: an expression that involves a timestamp finer than a
 * millisecond is left for the runtime (after {@link TemporalAligner}), since Calcite would fold it
 * in milliseconds; everything else folds as usual.
 */
final class ExactExecutor implements RexExecutor {
  private final RexExecutor delegate;

  ExactExecutor(RexExecutor delegate) {
    this.delegate = delegate;
  }

  @Override
  public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
    List<RexNode> foldable = new ArrayList<>();
    for (RexNode e : constExps) {
      if (!TemporalArithmetic.mentionsFine(e)) {
        foldable.add(e);
      }
    }
    List<RexNode> folded = new ArrayList<>();
    if (!foldable.isEmpty()) {
      delegate.reduce(rexBuilder, foldable, folded);
    }
    int next = 0;
    for (RexNode e : constExps) {
      reducedValues.add(TemporalArithmetic.mentionsFine(e) ? e : folded.get(next++));
    }
  }
}
