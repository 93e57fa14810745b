package dev.floe.planner.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.codehaus.commons.compiler.ISimpleCompiler;
import org.junit.jupiter.api.Test;

class FloatOrderTest {
  private static final String GENERATED =
      "public class Gen implements java.util.function.Supplier {\n"
          + "  public Object get() {\n"
          + "    return org.apache.calcite.linq4j.function.Functions.nullsComparator(false, false);\n"
          + "  }\n"
          + "}\n";

  @Test
  void generatedCodesOneKeyComparatorSortsNanAndTheInfinities() throws Exception {
    Comparator<Object> order = compiledComparator();
    List<Object> values =
        new ArrayList<>(
            Arrays.asList(
                Double.NaN,
                2.0,
                null,
                Double.POSITIVE_INFINITY,
                -0.0,
                Double.NEGATIVE_INFINITY,
                0.0));
    values.sort(order);
    assertThat(values)
        .containsExactly(
            Double.NEGATIVE_INFINITY, -0.0, 0.0, 2.0, Double.POSITIVE_INFINITY, Double.NaN, null);
  }

  @Test
  void otherKeysKeepCalcitesOrder() throws Exception {
    Comparator<Object> order = compiledComparator();
    List<Object> values = new ArrayList<>(Arrays.asList("b", null, "a"));
    values.sort(order);
    assertThat(values).containsExactly("a", "b", null);
    assertThat(order.compare(new java.math.BigDecimal("1.5"), 2)).isNegative();
  }

  @Test
  void negativeZeroIsBelowZeroAndNanIsAboveInfinity() {
    assertThat(FloatOrder.compare(-0.0, 0.0)).isNegative();
    assertThat(FloatOrder.compare(Double.NaN, Double.NaN)).isZero();
    assertThat(FloatOrder.compare(Double.NaN, Double.POSITIVE_INFINITY)).isPositive();
    assertThat(FloatOrder.compare(Double.NEGATIVE_INFINITY, -Double.MAX_VALUE)).isNegative();
    Comparator<Object> descending = FloatOrder.nullsComparator(false, true);
    assertThat(descending.compare(Double.NaN, 1.0f)).isNegative();
    assertThat(descending.compare(null, Double.NaN)).isPositive();
  }

  @SuppressWarnings("unchecked")
  private static Comparator<Object> compiledComparator() throws Exception {
    ISimpleCompiler compiler = new LakeCompilerFactory().newSimpleCompiler();
    compiler.setParentClassLoader(FloatOrderTest.class.getClassLoader());
    compiler.cook(GENERATED);
    Class<?> generated = compiler.getClassLoader().loadClass("Gen");
    return (Comparator<Object>)
        ((Supplier<Object>) generated.getDeclaredConstructor().newInstance()).get();
  }
}
