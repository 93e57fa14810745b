package dev.floe.planner.prepare;

import static dev.floe.planner.prepare.TemporalArithmetic.isFine;
import static dev.floe.planner.prepare.TemporalArithmetic.isFineTime;
import static dev.floe.planner.prepare.TemporalArithmetic.unit;
import static dev.floe.planner.prepare.TemporalArithmetic.units;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;

/**
 * Keeps timestamps and times exact through Calcite's Enumerable runtime.
 *
 * <p>Calcite holds a TIMESTAMP as a {@code long} of milliseconds and a TIME as an {@code int} of
 * milliseconds of the day. Floe holds a TIMESTAMP(p) as a {@code long} in the unit its precision
 * needs: milliseconds for p &le; 3, microseconds for p &le; 6 (every Iceberg timestamp),
 * nanoseconds above; and a TIME(p) with p &gt; 3 likewise as a {@code long} of microseconds (every
 * Iceberg time) or nanoseconds of the day ({@link dev.floe.planner.type.LakeJavaTypeFactory}).
 * Scans emit those numbers as they are stored. Just before code generation the optimized plan is
 * rewritten so that everything Calcite computes agrees with that, in three parts: this class walks
 * the plan (a {@link FineTimeRows} under each node that evaluates calls over fine times, and the
 * programs of Calcs, VALUES and the inputs of UNION and friends rebuilt in the units of their
 * outputs); {@link TemporalRewrites} rewrites each expression (literals, parameters, comparisons,
 * conditional expressions, casts, and UUID ordering); {@link TemporalArithmetic} builds the
 * arithmetic on values in their units (rescaling, intervals, differences, EXTRACT, FLOOR and CEIL).
 */
final class TemporalAligner {
  private final RexBuilder rex;
  private final RelDataTypeFactory types;
  private final TemporalArithmetic math;
  private final TemporalRewrites rewrites;

  private TemporalAligner(RexBuilder rex) {
    this.rex = rex;
    this.types = rex.getTypeFactory();
    this.math = new TemporalArithmetic(rex);
    this.rewrites = new TemporalRewrites(rex, math);
  }

  /** Rewrites a whole optimized plan. */
  static RelNode align(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode aligned = align(input);
      inputs.add(aligned);
      changed |= aligned != input;
    }
    if (evaluatesCalls(rel)) {
      for (int i = 0; i < inputs.size(); i++) {
        RelNode input = inputs.get(i);
        if (i == 0 && passesLeftRowsThrough(rel) && !readsFineTime((Join) rel, input)) {
          // A semi- or anti-join's rows are its left input's, of that input's physical type,
          // which Calcite requires to be its own (EnumerableRelImplementor.result casts it).
          continue;
        }
        if (FineTimeRows.hasFineTime(input.getRowType())) {
          inputs.set(i, new FineTimeRows(input));
          changed = true;
        }
      }
    }
    RelNode node = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    TemporalAligner aligner = new TemporalAligner(node.getCluster().getRexBuilder());
    if (node instanceof Calc) {
      return aligner.alignCalc((Calc) node);
    }
    if (node instanceof Values) {
      return aligner.alignValues((Values) node);
    }
    if (node instanceof org.apache.calcite.rel.core.SetOp
        && node instanceof org.apache.calcite.adapter.enumerable.EnumerableRel) {
      return aligner.alignSetOp(node);
    }
    return node.accept(aligner.rewrites);
  }

  /** Whether a join's result rows are its left input's rows as they are (SEMI and ANTI). */
  private static boolean passesLeftRowsThrough(RelNode rel) {
    return rel instanceof Join
        && (((Join) rel).getJoinType() == JoinRelType.SEMI
            || ((Join) rel).getJoinType() == JoinRelType.ANTI);
  }

  /**
   * Whether a join evaluates an expression over a TIME finer than milliseconds of its left input:
   * equality keys are not evaluated (the hash join compares the values as they are held), the rest
   * of the condition is.
   */
  private static boolean readsFineTime(Join join, RelNode left) {
    List<RelDataTypeField> fields = left.getRowType().getFieldList();
    for (RexNode remaining : join.analyzeCondition().nonEquiConditions) {
      for (int index : RelOptUtil.InputFinder.bits(remaining)) {
        if (index < fields.size() && isFineTime(fields.get(index).getType())) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether Calcite generates code for expressions over the input rows of this node. */
  private static boolean evaluatesCalls(RelNode rel) {
    return rel instanceof org.apache.calcite.adapter.enumerable.EnumerableRel
        && (rel instanceof Calc
            || rel instanceof org.apache.calcite.rel.core.Filter
            || rel instanceof org.apache.calcite.rel.core.Join
            || rel instanceof org.apache.calcite.rel.core.Correlate
            || rel instanceof org.apache.calcite.rel.core.Window
            || rel instanceof org.apache.calcite.rel.core.Aggregate);
  }

  /** A Calc: its program expanded, aligned and rebuilt. */
  private RelNode alignCalc(Calc calc) {
    RexProgram program = calc.getProgram();
    List<RexNode> projects = new ArrayList<>();
    boolean changed = false;
    List<RelDataTypeField> outputs = program.getOutputRowType().getFieldList();
    for (RexLocalRef ref : program.getProjectList()) {
      RexNode expanded = program.expandLocalRef(ref);
      RexNode aligned = expanded.accept(rewrites);
      // Calcite drops a cast that only changes a datetime's precision (TIME(0) into a TIME(6)
      // column of a UNION): the value must still be in the unit of the output.
      RelDataType output = outputs.get(projects.size()).getType();
      long from = unit(aligned.getType());
      long to = unit(output);
      if (from != 0 && to != 0 && from != to && (isFine(output) || isFine(aligned.getType()))) {
        aligned = math.rescale(aligned, from, to, output);
      }
      // A rewrite can widen a NOT NULL column to nullable in type alone: a SEARCH whose NULLs
      // count as TRUE becomes `IS NULL OR >`, which Calcite types as nullable. The column keeps
      // its type, which the nodes above rely on (an aggregate's FILTER must be BOOLEAN NOT NULL).
      if (!output.isNullable() && aligned.getType().isNullable()) {
        aligned = rex.makeNotNull(aligned);
      }
      projects.add(aligned);
      changed |= aligned != expanded;
    }
    RexNode condition = null;
    if (program.getCondition() != null) {
      RexNode expanded = program.expandLocalRef(program.getCondition());
      condition = expanded.accept(rewrites);
      changed |= condition != expanded;
    }
    if (!changed) {
      return calc;
    }
    RexProgram aligned =
        RexProgram.create(
            program.getInputRowType(), projects, condition, program.getOutputRowType(), rex);
    return calc.copy(calc.getTraitSet(), calc.getInput(), aligned);
  }

  /**
   * UNION and friends: Calcite lets an input with a coarser datetime (a TIME(0) literal) feed a
   * fine output column unchanged; such an input gets a Calc moving it to the output's unit.
   */
  private RelNode alignSetOp(RelNode setOp) {
    List<RelDataTypeField> outputs = setOp.getRowType().getFieldList();
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : setOp.getInputs()) {
      List<RelDataTypeField> fields = input.getRowType().getFieldList();
      List<RexNode> projects = new ArrayList<>();
      boolean rescaled = false;
      for (int i = 0; i < fields.size(); i++) {
        RelDataType type = fields.get(i).getType();
        RelDataType output = outputs.get(i).getType();
        RexNode ref = rex.makeInputRef(type, i);
        long from = unit(type);
        long to = unit(output);
        if (from != 0 && to != 0 && from != to && (isFine(type) || isFine(output))) {
          ref =
              math.rescale(
                  ref, from, to, types.createTypeWithNullability(output, type.isNullable()));
          rescaled = true;
        }
        projects.add(ref);
      }
      if (rescaled) {
        RelDataTypeFactory.Builder rowType = types.builder();
        for (int i = 0; i < fields.size(); i++) {
          rowType.add(fields.get(i).getName(), projects.get(i).getType());
        }
        RexProgram program =
            RexProgram.create(input.getRowType(), projects, null, rowType.build(), rex);
        RelNode source =
            FineTimeRows.hasFineTime(input.getRowType()) ? new FineTimeRows(input) : input;
        inputs.add(EnumerableCalc.create(source, program));
        changed = true;
      } else {
        inputs.add(input);
      }
    }
    return changed ? setOp.copy(setOp.getTraitSet(), inputs) : setOp;
  }

  /**
   * VALUES with fine timestamp literals: those columns become BIGINT literals in their unit, and a
   * Calc above reinterprets them, so the row type seen above is unchanged.
   */
  private RelNode alignValues(Values values) {
    List<RelDataTypeField> fields = values.getRowType().getFieldList();
    boolean fine = false;
    for (RelDataTypeField field : fields) {
      fine |= isFine(field.getType());
    }
    if (!fine || !(values instanceof EnumerableValues)) {
      return values;
    }
    RelDataTypeFactory.Builder rowType = types.builder();
    for (RelDataTypeField field : fields) {
      rowType.add(
          field.getName(),
          isFine(field.getType()) ? math.bigint(field.getType().isNullable()) : field.getType());
    }
    List<List<RexLiteral>> tuples = new ArrayList<>();
    for (List<RexLiteral> tuple : values.getTuples()) {
      List<RexLiteral> row = new ArrayList<>();
      for (int i = 0; i < tuple.size(); i++) {
        RexLiteral literal = tuple.get(i);
        RelDataType type = fields.get(i).getType();
        if (isFine(type)) {
          if (literal.isNull()) {
            row.add(rex.makeNullLiteral(math.bigint(true)));
          } else {
            long v = units(literal, type);
            row.add(
                (RexLiteral)
                    rex.makeLiteral(BigDecimal.valueOf(v), math.bigint(type.isNullable()), false));
          }
        } else {
          row.add(literal);
        }
      }
      tuples.add(row);
    }
    RelDataType numbers = rowType.build();
    EnumerableValues raw =
        EnumerableValues.create(
            values.getCluster(),
            numbers,
            com.google.common.collect.ImmutableList.copyOf(
                tuples.stream().map(com.google.common.collect.ImmutableList::copyOf).toList()));
    List<RexNode> projects = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      RexNode ref = rex.makeInputRef(numbers.getFieldList().get(i).getType(), i);
      projects.add(
          isFine(fields.get(i).getType()) ? math.reinterpret(fields.get(i).getType(), ref) : ref);
    }
    RexProgram program = RexProgram.create(numbers, projects, null, values.getRowType(), rex);
    return EnumerableCalc.create(raw, program);
  }
}
