package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;

/**
 * Names the aggregate a plan failed on: Calcite parses and validates aggregates (ordered-set ones
 * such as {@code PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY x) OVER (...)}, hypothetical-set ones)
 * that its runtime has no implementation of, and its planner then fails with an internal "not
 * enough rules" error. When a failed plan holds such an aggregate, that is reported as the feature
 * it is (0A000), naming it; so is one whose code Calcite fails to generate over a window ({@code
 * STRING_AGG(x, ',') OVER ()}).
 */
final class UnsupportedAggregates {
  private UnsupportedAggregates() {}

  /** Aggregates Calcite's rules rewrite into others before any runtime sees them. */
  private static final Set<SqlKind> REDUCED =
      Set.of(
          SqlKind.AVG,
          SqlKind.STDDEV_POP,
          SqlKind.STDDEV_SAMP,
          SqlKind.VAR_POP,
          SqlKind.VAR_SAMP,
          SqlKind.COVAR_POP,
          SqlKind.COVAR_SAMP,
          SqlKind.REGR_SXX,
          SqlKind.REGR_SYY);

  /**
   * Throws 0A000 when {@code plan} holds an aggregate with no runtime implementation.
   *
   * @param failure the planner's failure, chained as the cause
   */
  static void check(RelNode plan, RuntimeException failure) {
    plan.accept(
        new RelShuttleImpl() {
          @Override
          public RelNode visit(LogicalAggregate aggregate) {
            for (AggregateCall call : aggregate.getAggCallList()) {
              refuse(call.getAggregation(), false, failure);
            }
            return super.visit(aggregate);
          }

          @Override
          public RelNode visit(LogicalProject project) {
            for (RexNode expression : project.getProjects()) {
              expression.accept(
                  new RexShuttle() {
                    @Override
                    public RexNode visitOver(RexOver over) {
                      refuse(over.getAggOperator(), true, failure);
                      return super.visitOver(over);
                    }
                  });
            }
            return super.visit(project);
          }

          @Override
          public RelNode visit(RelNode other) {
            if (other instanceof Aggregate) {
              for (AggregateCall call : ((Aggregate) other).getAggCallList()) {
                refuse(call.getAggregation(), false, failure);
              }
            } else if (other instanceof Window) {
              for (Window.Group group : ((Window) other).groups) {
                for (Window.RexWinAggCall call : group.aggCalls) {
                  refuse((SqlAggFunction) call.getOperator(), true, failure);
                }
              }
            }
            return super.visit(other);
          }
        });
  }

  /** Aggregates Calcite runs in GROUP BY but whose code it cannot generate over a window. */
  private static final Set<SqlKind> NOT_IN_WINDOWS =
      Set.of(SqlKind.LISTAGG, SqlKind.STRING_AGG, SqlKind.GROUP_CONCAT);

  private static void refuse(SqlAggFunction function, boolean window, RuntimeException failure) {
    if (REDUCED.contains(function.getKind())) {
      return;
    }
    boolean runnable = !(window && NOT_IN_WINDOWS.contains(function.getKind()));
    try {
      runnable &= RexImpTable.INSTANCE.get(function, window) != null;
    } catch (IllegalStateException e) {
      runnable = false;
    }
    if (!runnable) {
      throw FloeError.NOT_SUPPORTED.error(
          failure,
          "the aggregate function "
              + function.getName()
              + (window ? " over a window" : "")
              + ": Calcite, which runs Floe's queries, cannot compute it");
    }
  }
}
