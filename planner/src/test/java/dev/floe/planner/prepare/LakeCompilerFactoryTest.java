package dev.floe.planner.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.codehaus.commons.compiler.ISimpleCompiler;
import org.junit.jupiter.api.Test;

/**
 * Code compiled through Floe's Janino factory links against the parent loader's own classes, and a
 * name the parent lacks is asked of the parent once, not once per compilation.
 */
class LakeCompilerFactoryTest {
  /** A parent that counts how often it is asked for a class. */
  private static final class Counting extends ClassLoader {
    final AtomicInteger asked = new AtomicInteger();

    Counting(ClassLoader parent) {
      super(parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      asked.incrementAndGet();
      return super.loadClass(name, resolve);
    }
  }

  @Test
  void compiledCodeSeesTheParentsClassesAndMissesAreAskedOnce() throws Exception {
    Counting parent = new Counting(getClass().getClassLoader());
    String source =
        "public class Gen implements java.util.function.Supplier {\n"
            + "  public Object get() {\n"
            + "    return new dev.floe.planner.prepare.LakeCompilerFactoryTest.Marker();\n"
            + "  }\n"
            + "}\n";
    Object first = compile(parent, source);
    int afterFirst = parent.asked.get();
    assertThat(first).isInstanceOf(Marker.class);
    Object second = compile(parent, source);
    assertThat(second).isInstanceOf(Marker.class);
    int secondAsked = parent.asked.get() - afterFirst;
    assertThat(secondAsked)
        .as("the second compilation asks only for names found before, not the misses")
        .isLessThan(afterFirst);

    ClassLoader remembering = LakeCompilerFactory.remembering(parent);
    assertThat(remembering.loadClass(Marker.class.getName())).isSameAs(Marker.class);
    int before = parent.asked.get();
    assertThatThrownBy(() -> remembering.loadClass("no.such.Name"))
        .isInstanceOf(ClassNotFoundException.class);
    assertThatThrownBy(() -> remembering.loadClass("no.such.Name"))
        .isInstanceOf(ClassNotFoundException.class);
    assertThat(parent.asked.get() - before).isEqualTo(1);
    assertThat(((LakeCompilerFactory.RememberingLoader) remembering).missing()).isPositive();
  }

  @Test
  void aFailedCompilationLeavesTheSharedViewUsableAndThreadsTakeTurns() throws Exception {
    ClassLoader parent = getClass().getClassLoader();
    assertThatThrownBy(() -> compile(parent, "public class Gen { int x = no.such.Type.VALUE; }"))
        .isInstanceOf(org.codehaus.commons.compiler.CompileException.class);
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      java.util.List<java.util.concurrent.Future<Object>> results = new java.util.ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String value = "v" + i;
        results.add(
            pool.submit(
                () ->
                    compile(
                        parent,
                        "public class Gen implements java.util.function.Supplier {\n"
                            + "  public Object get() { return \""
                            + value
                            + "\" + String.valueOf(1); }\n"
                            + "}\n")));
      }
      for (int i = 0; i < results.size(); i++) {
        assertThat(results.get(i).get()).isEqualTo("v" + i + "1");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @SuppressWarnings("unchecked")
  private static Object compile(ClassLoader parent, String source) throws Exception {
    ISimpleCompiler compiler = new LakeCompilerFactory().newSimpleCompiler();
    compiler.setParentClassLoader(parent);
    compiler.cook(source);
    Class<?> generated = compiler.getClassLoader().loadClass("Gen");
    return ((java.util.function.Supplier<Object>) generated.getDeclaredConstructor().newInstance())
        .get();
  }

  /** A class of the parent loader that generated code creates. */
  public static final class Marker {}
}
