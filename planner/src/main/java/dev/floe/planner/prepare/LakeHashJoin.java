package dev.floe.planner.prepare;

import dev.floe.planner.adapter.EnumerableLakeScan;
import dev.floe.planner.scan.LakeScanSpec;
import dev.floe.planner.scan.RuntimeFilter;
import dev.floe.planner.scan.ScanExpression;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableFilter;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableMergeJoin;
import org.apache.calcite.adapter.enumerable.EnumerableProject;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.EqualityComparer;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Function2;
import org.apache.calcite.linq4j.function.Predicate2;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.DeclarationStatement;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.GotoExpressionKind;
import org.apache.calcite.linq4j.tree.GotoStatement;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.Statement;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A hash join Floe runs itself ({@link HashJoins}): Calcite's {@link EnumerableHashJoin} with the
 * same plan, costs and generated key selectors, row builder and residual predicate, whose generated
 * call of Calcite's join runtime is replaced by Floe's, which accounts the build side against the
 * statement's memory budget, checks for a cancel while building and probing, and publishes the
 * build side's keys to the probe side's scans ({@link RuntimeFilter}).
 *
 * <p>{@link #replace} puts it in place of every inner, left, semi- and anti-join of plain equality
 * keys of an optimized plan; right and full joins, and joins on {@code IS NOT DISTINCT FROM}, stay
 * Calcite's.
 */
final class LakeHashJoin extends EnumerableHashJoin {
  private static final Method HASH_JOIN = method("hashJoin", true);
  private static final Method SEMI_OR_ANTI_JOIN = method("semiOrAntiJoin", false);

  private final HashJoins.Spec spec;

  private LakeHashJoin(
      RelTraitSet traits,
      RelNode left,
      RelNode right,
      RexNode condition,
      JoinRelType joinType,
      Join original,
      HashJoins.Spec spec) {
    super(
        original.getCluster(),
        traits,
        left,
        right,
        condition,
        original.getVariablesSet(),
        joinType);
    this.spec = spec;
  }

  private static Method method(String name, boolean full) {
    try {
      return full
          ? HashJoins.class.getMethod(
              name,
              Enumerable.class,
              Enumerable.class,
              Function1.class,
              Function1.class,
              Function2.class,
              EqualityComparer.class,
              boolean.class,
              boolean.class,
              Predicate2.class,
              DataContext.class,
              HashJoins.Spec.class)
          : HashJoins.class.getMethod(
              name,
              Enumerable.class,
              Enumerable.class,
              Function1.class,
              Function1.class,
              EqualityComparer.class,
              Predicate2.class,
              DataContext.class,
              HashJoins.Spec.class,
              boolean.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public EnumerableHashJoin copy(
      RelTraitSet traitSet,
      RexNode condition,
      RelNode left,
      RelNode right,
      JoinRelType joinType,
      boolean semiJoinDone) {
    return new LakeHashJoin(traitSet, left, right, condition, joinType, this, spec);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result calcite = super.implement(implementor, pref);
    List<Statement> statements = new ArrayList<>(calcite.block.statements);
    if (statements.isEmpty()) {
      return calcite;
    }
    Statement last = statements.get(statements.size() - 1);
    Expression root = implementor.getRootExpression();
    Expression specExpression = implementor.stash(spec, HashJoins.Spec.class);
    Statement replaced = null;
    if (last instanceof GotoStatement jump
        && jump.kind == GotoExpressionKind.Return
        && jump.expression != null) {
      Expression call = ownCall(jump.expression, root, specExpression);
      replaced = call == null ? null : Expressions.return_(jump.labelTarget, call);
    } else if (last instanceof DeclarationStatement declaration
        && declaration.initializer != null) {
      Expression call = ownCall(declaration.initializer, root, specExpression);
      replaced =
          call == null
              ? null
              : Expressions.declare(declaration.modifiers, declaration.parameter, call);
    }
    if (replaced == null) {
      throw new IllegalStateException("the generated code of a hash join has an unexpected form");
    }
    statements.set(statements.size() - 1, replaced);
    BlockStatement block = Expressions.block(statements);
    return new Result(block, calcite.physType, calcite.format);
  }

  /** Floe's call in place of the call of Calcite's join runtime, or null when it is not one. */
  private static @Nullable Expression ownCall(Expression e, Expression root, Expression spec) {
    if (!(e instanceof MethodCallExpression call)) {
      return null;
    }
    List<Expression> arguments = new ArrayList<>();
    Method own;
    String name = call.method.getName();
    if (name.equals("hashJoin") && call.targetExpression != null && call.expressions.size() == 8) {
      arguments.add(call.targetExpression);
      own = HASH_JOIN;
    } else if ((name.equals("semiJoin") || name.equals("antiJoin"))
        && call.targetExpression == null
        && call.expressions.size() == 6) {
      own = SEMI_OR_ANTI_JOIN;
    } else {
      return null;
    }
    arguments.addAll(call.expressions);
    arguments.add(root);
    arguments.add(spec);
    if (own == SEMI_OR_ANTI_JOIN) {
      arguments.add(Expressions.constant(name.equals("antiJoin")));
    }
    return Expressions.call(own, arguments);
  }

  /**
   * A whole optimized plan with each inner, left, semi- and anti-join of Calcite's hash join on
   * plain equality keys replaced by Floe's, and each inner or semi-join of one key given a run-time
   * filter on the scan that produces its probe side's key, where there is one.
   */
  static RelNode replace(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode replaced = replace(input);
      inputs.add(replaced);
      changed |= replaced != input;
    }
    RelNode node = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (!(node instanceof EnumerableHashJoin join) || node instanceof LakeHashJoin) {
      return node;
    }
    JoinRelType type = join.getJoinType();
    if (type != JoinRelType.INNER
        && type != JoinRelType.LEFT
        && type != JoinRelType.SEMI
        && type != JoinRelType.ANTI) {
      return node;
    }
    JoinInfo info = join.analyzeCondition();
    if (info.leftKeys.isEmpty() || info.nullExclusionFlags.contains(false)) {
      return node;
    }
    List<RelDataType> leftTypes = types(join.getLeft(), info.leftKeys);
    List<RelDataType> rightTypes = types(join.getRight(), info.rightKeys);
    boolean normalize = false;
    StringBuilder name = new StringBuilder("on ");
    for (int i = 0; i < leftTypes.size(); i++) {
      RelDataType l = leftTypes.get(i);
      RelDataType r = rightTypes.get(i);
      normalize |=
          !SqlTypeUtil.equalSansNullability(join.getCluster().getTypeFactory(), l, r)
              || l.getSqlTypeName() == SqlTypeName.DECIMAL
              || r.getSqlTypeName() == SqlTypeName.DECIMAL;
      name.append(i == 0 ? "" : " AND ")
          .append(join.getLeft().getRowType().getFieldNames().get(info.leftKeys.get(i)))
          .append(" = ")
          .append(join.getRight().getRowType().getFieldNames().get(info.rightKeys.get(i)));
    }
    boolean buildLeft = buildsLeft(join);
    RelNode left = join.getLeft();
    RelNode right = join.getRight();
    List<RelDataType> probeTypes = buildLeft ? rightTypes : leftTypes;
    RuntimeFilter.Slot slot = null;
    if ((type == JoinRelType.INNER
            || type == JoinRelType.SEMI
            || ((type == JoinRelType.LEFT || type == JoinRelType.ANTI) && buildLeft))
        && info.leftKeys.size() == 1
        && !probeTypes.get(0).isStruct()
        && probeTypes.get(0).getComponentType() == null
        && probeTypes.get(0).getKeyType() == null) {
      RuntimeFilter.Slot candidate = new RuntimeFilter.Slot("the join " + name);
      RelNode probe = buildLeft ? right : left;
      int key = (buildLeft ? info.rightKeys : info.leftKeys).get(0);
      RelNode filtered = attach(probe, key, candidate, normalize);
      if (filtered != null) {
        if (buildLeft) {
          right = filtered;
        } else {
          left = filtered;
        }
        slot = candidate;
      }
    }
    // keys published under the probe side filter the build side: a build row whose key no probe
    // row can hold is never joined (nor kept, when the build side is not a side the join keeps)
    boolean probeFirst = false;
    if (type == JoinRelType.INNER
        || type == JoinRelType.SEMI
        || (!buildLeft && (type == JoinRelType.LEFT || type == JoinRelType.ANTI))) {
      for (int i = 0; i < info.leftKeys.size(); i++) {
        int probeKey = (buildLeft ? info.rightKeys : info.leftKeys).get(i);
        int buildKey = (buildLeft ? info.leftKeys : info.rightKeys).get(i);
        Publisher publisher = publisher(buildLeft ? right : left, probeKey);
        if (publisher == null
            || (!publisher.normalized()
                && !comparable(join, info.leftKeys.get(i), info.rightKeys.get(i), false))) {
          continue;
        }
        RelNode build = buildLeft ? left : right;
        RelNode filtered = attach(build, buildKey, publisher.slot(), publisher.normalized(), true);
        if (filtered != null) {
          if (buildLeft) {
            left = filtered;
          } else {
            right = filtered;
          }
          probeFirst = true;
        }
      }
    }
    HashJoins.Spec spec =
        new HashJoins.Spec(
            name.toString(), slot, normalize, info.leftKeys.size() == 1, buildLeft, probeFirst);
    return new LakeHashJoin(join.getTraitSet(), left, right, join.getCondition(), type, join, spec);
  }

  /**
   * A join's slot of published keys, and whether its keys are compared as {@link
   * RuntimeFilter#key}.
   */
  private record Publisher(RuntimeFilter.Slot slot, boolean normalized) {}

  /**
   * The inner or semi-join under {@code node} whose published keys hold every value of field {@code
   * field} of {@code node}'s rows (NULL aside), or null. The field is followed down, unchanged,
   * through operators that read their input once when opened and pass its values on (projections,
   * filters, sorts, grouping keys, Floe's hash joins) to a join key of a join with a slot: that
   * join's rows hold only its build side's keys. Such a join reads its build side when it is
   * opened, so a join opening {@code node} first finds the keys published.
   */
  private static @Nullable Publisher publisher(RelNode node, int field) {
    if (node instanceof WatchPoint || node instanceof EnumerableFilter) {
      return publisher(node.getInput(0), field);
    }
    if (node instanceof EnumerableSort) {
      return publisher(node.getInput(0), field);
    }
    if (node instanceof EnumerableCalc calc) {
      RexProgram program = calc.getProgram();
      RexNode expression = program.expandLocalRef(program.getProjectList().get(field));
      return expression instanceof RexInputRef ref
          ? publisher(calc.getInput(), ref.getIndex())
          : null;
    }
    if (node instanceof EnumerableProject project) {
      RexNode expression = project.getProjects().get(field);
      return expression instanceof RexInputRef ref
          ? publisher(project.getInput(), ref.getIndex())
          : null;
    }
    if (node instanceof EnumerableAggregate aggregate) {
      if (aggregate.getGroupSets().size() != 1 || field >= aggregate.getGroupCount()) {
        return null;
      }
      return publisher(aggregate.getInput(), aggregate.getGroupSet().nth(field));
    }
    if (node instanceof LakeHashJoin join) {
      JoinRelType type = join.getJoinType();
      int leftCount = join.getLeft().getRowType().getFieldCount();
      JoinInfo info = join.analyzeCondition();
      HashJoins.Spec spec = join.spec;
      if ((type == JoinRelType.INNER || type == JoinRelType.SEMI)
          && spec.slot() != null
          && info.leftKeys.size() == 1
          && (field == info.leftKeys.get(0)
              || (type == JoinRelType.INNER && field == leftCount + info.rightKeys.get(0)))) {
        return new Publisher(spec.slot(), spec.normalized());
      }
      if (field < leftCount) {
        return type == JoinRelType.RIGHT || type == JoinRelType.FULL
            ? null
            : publisher(join.getLeft(), field);
      }
      return type == JoinRelType.INNER ? publisher(join.getRight(), field - leftCount) : null;
    }
    return null;
  }

  /**
   * Whether an inner, left, semi- or anti-join builds its hash table on its left input: when that
   * input is estimated to hold less than half the rows of the right one (the join order puts the
   * larger input first as often as not, a left join's preserved side may be the smaller one, and a
   * semi- or anti-join's right side may be a whole table's rows or groups).
   */
  private static boolean buildsLeft(Join join) {
    JoinRelType type = join.getJoinType();
    if (type != JoinRelType.INNER
        && type != JoinRelType.LEFT
        && type != JoinRelType.SEMI
        && type != JoinRelType.ANTI) {
      return false;
    }
    RelMetadataQuery mq = join.getCluster().getMetadataQuery();
    Double left = mq.getRowCount(join.getLeft());
    Double right = mq.getRowCount(join.getRight());
    return left != null && right != null && left * 2 < right;
  }

  private static List<RelDataType> types(RelNode input, List<Integer> keys) {
    List<RelDataType> types = new ArrayList<>();
    for (int key : keys) {
      types.add(input.getRowType().getFieldList().get(key).getType());
    }
    return types;
  }

  /**
   * {@code node} with the scan whose column becomes its field {@code field} unchanged given the
   * run-time filter of {@code slot}, or null when no such scan is reached through operators that
   * keep or drop rows by that value alone (projections, filters, inner joins, the kept side of
   * left, semi- and anti-joins, grouping keys, sorts without a limit).
   */
  private static @Nullable RelNode attach(
      RelNode node, int field, RuntimeFilter.Slot slot, boolean normalize) {
    return attach(node, field, slot, normalize, false);
  }

  /**
   * As {@link #attach(RelNode, int, RuntimeFilter.Slot, boolean)}; when {@code borrowed}, the keys
   * are another join's, held as its key type's values ({@code normalize} false) or as {@link
   * RuntimeFilter#key}s: not followed through a widening cast, whose values are not of that type.
   */
  private static @Nullable RelNode attach(
      RelNode node, int field, RuntimeFilter.Slot slot, boolean normalize, boolean borrowed) {
    if (node instanceof EnumerableLakeScan scan) {
      LakeScanSpec spec = scan.spec();
      if (spec.rowIds() || spec.truncated() || spec.version() != null) {
        return null;
      }
      if (spec.aggregated()) {
        // a grouping key's filter drops whole groups: the scan reads only the rows of the keys
        List<Integer> groups = spec.aggregation().groups();
        if (field >= groups.size() || groups.get(field) >= spec.columns().size()) {
          return null;
        }
        return scan.withRuntimeFilter(new RuntimeFilter.Target(slot, groups.get(field), normalize));
      }
      int column = scan.logical().columnOf(field);
      if (column >= 0) {
        return scan.withRuntimeFilter(new RuntimeFilter.Target(slot, column, normalize));
      }
      // a value the scan computes: followed only when it is an integer column widened
      ScanExpression computed = scan.logical().computedAt(field);
      int widened = computed == null ? -1 : widenedColumn(computed);
      if (widened < 0 || borrowed && !normalize) {
        return null;
      }
      return scan.withRuntimeFilter(new RuntimeFilter.Target(slot, widened, true));
    }
    if (node instanceof WatchPoint || node instanceof EnumerableFilter) {
      return copyWith(node, 0, attach(node.getInput(0), field, slot, normalize, borrowed));
    }
    if (node instanceof EnumerableSort sort) {
      if (sort.fetch != null || sort.offset != null) {
        return null;
      }
      return copyWith(node, 0, attach(node.getInput(0), field, slot, normalize, borrowed));
    }
    if (node instanceof EnumerableCalc calc) {
      RexProgram program = calc.getProgram();
      RexNode expression = program.expandLocalRef(program.getProjectList().get(field));
      RexNode widened = widenedColumn(expression);
      if (widened != null) {
        if (borrowed && !normalize) {
          return null;
        }
        return copyWith(
            node,
            0,
            attach(calc.getInput(), ((RexInputRef) widened).getIndex(), slot, true, borrowed));
      }
      if (!(expression instanceof RexInputRef ref)) {
        return null;
      }
      return copyWith(node, 0, attach(calc.getInput(), ref.getIndex(), slot, normalize, borrowed));
    }
    if (node instanceof EnumerableProject project) {
      RexNode expression = project.getProjects().get(field);
      RexNode widened = widenedColumn(expression);
      if (widened != null) {
        if (borrowed && !normalize) {
          return null;
        }
        return copyWith(
            node,
            0,
            attach(project.getInput(), ((RexInputRef) widened).getIndex(), slot, true, borrowed));
      }
      if (!(expression instanceof RexInputRef ref)) {
        return null;
      }
      return copyWith(
          node, 0, attach(project.getInput(), ref.getIndex(), slot, normalize, borrowed));
    }
    if (node instanceof EnumerableAggregate aggregate) {
      if (aggregate.getGroupSets().size() != 1 || field >= aggregate.getGroupCount()) {
        return null;
      }
      int input = aggregate.getGroupSet().nth(field);
      return copyWith(node, 0, attach(aggregate.getInput(), input, slot, normalize, borrowed));
    }
    if (node instanceof EnumerableHashJoin || node instanceof EnumerableMergeJoin) {
      Join join = (Join) node;
      int leftCount = join.getLeft().getRowType().getFieldCount();
      JoinRelType type = join.getJoinType();
      JoinInfo info = join.analyzeCondition();
      RelNode left = null;
      RelNode right = null;
      if (field < leftCount) {
        if (type == JoinRelType.RIGHT || type == JoinRelType.FULL) {
          return null;
        }
        left = attach(join.getLeft(), field, slot, normalize, borrowed);
        // the right rows that match a left row of a key have that key: the others match only left
        // rows the filter drops
        int i = info.leftKeys.indexOf(field);
        if (i >= 0 && comparable(join, info.leftKeys.get(i), info.rightKeys.get(i), normalize)) {
          right = attach(join.getRight(), info.rightKeys.get(i), slot, normalize, borrowed);
        }
      } else {
        if (type != JoinRelType.INNER) {
          return null;
        }
        right = attach(join.getRight(), field - leftCount, slot, normalize, borrowed);
        int i = info.rightKeys.indexOf(field - leftCount);
        if (i >= 0 && comparable(join, info.leftKeys.get(i), info.rightKeys.get(i), normalize)) {
          left = attach(join.getLeft(), info.leftKeys.get(i), slot, normalize, borrowed);
        }
      }
      if (left == null && right == null) {
        return null;
      }
      return node.copy(
          node.getTraitSet(),
          List.of(left != null ? left : join.getLeft(), right != null ? right : join.getRight()));
    }
    return null;
  }

  /**
   * The column under a cast of an integer column to a type that holds each of its values exactly (a
   * wider integer, or a decimal with room for all its digits), or null. The cast's value and the
   * column's are then one key as {@link RuntimeFilter#key} makes them, so the column is filtered by
   * the keys compared that way.
   */
  /**
   * As {@link #widenedColumn(RexNode)} for an expression a projecting scan computes: the position
   * of the INTEGER or BIGINT column a widening cast takes, or -1.
   */
  private static int widenedColumn(ScanExpression expression) {
    if (expression.op() != ScanExpression.Op.CAST
        || expression.operands().get(0).op() != ScanExpression.Op.COLUMN) {
      return -1;
    }
    ScanExpression column = expression.operands().get(0);
    int digits =
        column.type() == ScanExpression.Type.INT
            ? integerDigits(SqlTypeName.INTEGER)
            : column.type() == ScanExpression.Type.LONG ? integerDigits(SqlTypeName.BIGINT) : 0;
    int room =
        expression.type() == ScanExpression.Type.DECIMAL
            ? expression.precision() - expression.scale()
            : expression.type() == ScanExpression.Type.LONG ? integerDigits(SqlTypeName.BIGINT) : 0;
    return digits > 0 && room >= digits ? column.column() : -1;
  }

  private static @Nullable RexNode widenedColumn(RexNode expression) {
    if (!(expression instanceof RexCall call)
        || call.getKind() != SqlKind.CAST
        || !(call.getOperands().get(0) instanceof RexInputRef ref)) {
      return null;
    }
    int digits = integerDigits(ref.getType().getSqlTypeName());
    RelDataType to = call.getType();
    if (digits == 0) {
      return null;
    }
    int room =
        to.getSqlTypeName() == SqlTypeName.DECIMAL
            ? to.getPrecision() - to.getScale()
            : integerDigits(to.getSqlTypeName());
    return room >= digits ? ref : null;
  }

  /** The most decimal digits of an integer type's values; 0 for other types. */
  private static int integerDigits(SqlTypeName type) {
    switch (type) {
      case TINYINT:
        return 3;
      case SMALLINT:
        return 5;
      case INTEGER:
        return 10;
      case BIGINT:
        return 19;
      default:
        return 0;
    }
  }

  /**
   * Whether the keys of a run-time filter on one key of a join also filter the other: keys compared
   * as numbers ({@link RuntimeFilter#key}) always do, others when the two are of one type.
   */
  private static boolean comparable(Join join, int leftKey, int rightKey, boolean normalize) {
    if (normalize) {
      return true;
    }
    RelDataType l = join.getLeft().getRowType().getFieldList().get(leftKey).getType();
    RelDataType r = join.getRight().getRowType().getFieldList().get(rightKey).getType();
    return SqlTypeUtil.equalSansNullability(join.getCluster().getTypeFactory(), l, r)
        && l.getSqlTypeName() != SqlTypeName.DECIMAL;
  }

  private static @Nullable RelNode copyWith(RelNode node, int index, @Nullable RelNode input) {
    if (input == null) {
      return null;
    }
    List<RelNode> inputs = new ArrayList<>(node.getInputs());
    inputs.set(index, input);
    return node.copy(node.getTraitSet(), inputs);
  }
}
