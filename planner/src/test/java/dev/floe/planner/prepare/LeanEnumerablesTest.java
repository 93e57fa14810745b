package dev.floe.planner.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Supplier;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.codehaus.commons.compiler.ISimpleCompiler;
import org.junit.jupiter.api.Test;

/**
 * Generated code's enumerables of Calcite's shape compile through {@link LeanEnumerables} and
 * behave as written; any other shape compiles as written.
 */
class LeanEnumerablesTest {
  /** Generated code in Calcite's shape, with {@code BODY} the enumerator's {@code current()}. */
  private static final String SHAPE =
      "public class Gen implements java.util.function.Supplier {\n"
          + "  public Object get() {\n"
          + "    final java.util.List rows = java.util.Arrays.asList(new Object[] {\"a\", \"b\"});\n"
          + "    final org.apache.calcite.linq4j.AbstractEnumerable child ="
          + " new org.apache.calcite.linq4j.AbstractEnumerable(){\n"
          + "      public org.apache.calcite.linq4j.Enumerator enumerator() {\n"
          + "        return new org.apache.calcite.linq4j.Enumerator(){\n"
          + "          public final org.apache.calcite.linq4j.Enumerator input ="
          + " org.apache.calcite.linq4j.Linq4j.enumerator(rows);\n"
          + "          public void reset() { input.reset(); }\n"
          + "          public boolean moveNext() { return input.moveNext(); }\n"
          + "          public void close() { input.close(); }\n"
          + "          public Object current() { return BODY; }\n"
          + "        };\n"
          + "      }\n"
          + "    };\n"
          + "    return child.select(new org.apache.calcite.linq4j.function.Function1() {\n"
          + "      public Object apply(Object o) { return o + \"!\"; }\n"
          + "    });\n"
          + "  }\n"
          + "}\n";

  @Test
  void calcitesShapeRunsItsBodyThroughTheLeanEnumerable() throws Exception {
    GeneratedRows rows = compile(SHAPE.replace("BODY", "((String) input.current()).toUpperCase()"));
    assertThat(rows.lean).as("the enumerable is declared through LeanEnumerables").isTrue();
    assertThat(rows.first).containsExactly("A!", "B!");
    assertThat(rows.second).as("a second enumerator runs the body afresh").isEqualTo(rows.first);
  }

  @Test
  void aBodyThatMeansTheEnumerableItselfIsCompiledAsWritten() throws Exception {
    // "this" in current() is the enumerator; the rewrite declines anything referring to "this".
    GeneratedRows self =
        compile(SHAPE.replace("BODY", "this.getClass().getName().startsWith(\"Gen$\") + \"\""));
    assertThat(self.lean).as("not rewritten").isFalse();
    assertThat(self.first).containsExactly("true!", "true!");

    // A method called without a target could be the enumerable's own (here Object's).
    GeneratedRows unqualified =
        compile(SHAPE.replace("BODY", "input.current() + String.valueOf(hashCode() != 0)"));
    assertThat(unqualified.lean).as("not rewritten").isFalse();
    assertThat(unqualified.first).containsExactly("atrue!", "btrue!");
  }

  /** The rows of a generated enumerable, twice, and whether it was declared the lean way. */
  private record GeneratedRows(List<Object> first, List<Object> second, boolean lean) {}

  @SuppressWarnings("unchecked")
  private static GeneratedRows compile(String source) throws Exception {
    ISimpleCompiler compiler = new LakeCompilerFactory().newSimpleCompiler();
    compiler.setParentClassLoader(LeanEnumerablesTest.class.getClassLoader());
    compiler.cook(source);
    Class<?> generated = compiler.getClassLoader().loadClass("Gen");
    Supplier<Object> supplier = (Supplier<Object>) generated.getDeclaredConstructor().newInstance();
    AbstractEnumerable<Object> selected = (AbstractEnumerable<Object>) supplier.get();
    List<Class<?>> anonymous = anonymousClasses(compiler);
    boolean lean =
        anonymous.stream().noneMatch(AbstractEnumerable.class::isAssignableFrom)
            && anonymous.stream().anyMatch(LeanEnumerables.Source.class::isAssignableFrom);
    return new GeneratedRows(selected.toList(), selected.toList(), lean);
  }

  /** The anonymous classes compiled with {@code Gen}. */
  private static List<Class<?>> anonymousClasses(ISimpleCompiler compiler) {
    List<Class<?>> found = new java.util.ArrayList<>();
    for (int i = 1; ; i++) {
      try {
        found.add(compiler.getClassLoader().loadClass("Gen$" + i));
      } catch (ClassNotFoundException e) {
        return found;
      }
    }
  }
}
