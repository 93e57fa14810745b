package dev.floe.planner.prepare;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.commons.compiler.ISimpleCompiler;
import org.codehaus.commons.compiler.util.reflect.ByteArrayClassLoader;
import org.codehaus.janino.ClassLoaderIClassLoader;
import org.codehaus.janino.Java;
import org.codehaus.janino.SimpleCompiler;
import org.codehaus.janino.UnitCompiler;

/**
 * Janino, as Calcite compiles each statement's generated code with it, with one change: names
 * Janino fails to find are remembered for the next statement.
 *
 * <p>Janino resolves every dotted name in generated code one prefix at a time ({@code org}, {@code
 * org.apache}, ... and each simple name against {@code java.lang}), asking the parent class loader
 * for each; every miss searches the whole class path of the loader that loaded Calcite (a host's
 * class path may hold a hundred jars), and Janino forgets its answers after each compilation. Here
 * the parent Calcite gives is wrapped in a loader that remembers the names its parent does not
 * have; found classes are the parent's own, so the generated code links against exactly the classes
 * it did before. Every unit's sort comparators are first pointed at {@link FloatOrder}, so that a
 * DOUBLE or REAL sort key holding NaN or an infinity sorts instead of failing. Janino finds this
 * factory through {@link java.util.ServiceLoader} (the driver jar lists it before Janino's own);
 * without it, Calcite uses Janino's factory unchanged.
 */
public final class LakeCompilerFactory extends org.codehaus.janino.CompilerFactory {
  private static volatile RememberingLoader last;

  /** Held while a statement's code compiles against {@link #types}. */
  private static final Object COMPILING = new Object();

  /** Janino's view of the classes of the loader code was last compiled against. */
  private static ClassLoaderIClassLoader types;

  @Override
  public ISimpleCompiler newSimpleCompiler() {
    return new SharingCompiler();
  }

  /**
   * Janino's compiler, except that every compilation against the same parent shares one view of the
   * parent's classes (Janino's own compiler builds it afresh for each, reflecting again on every
   * class the code uses, Calcite's large {@code SqlFunctions} among them). The view is not safe for
   * several threads, so compilations take turns.
   */
  private static final class SharingCompiler extends SimpleCompiler {
    private ClassLoader parent;
    private Map<String, byte[]> bytecodes;
    private ClassLoader loader;

    @Override
    public void setParentClassLoader(ClassLoader parent) {
      this.parent = parent == null ? null : remembering(parent);
      super.setParentClassLoader(this.parent);
    }

    @Override
    public void cook(Java.AbstractCompilationUnit generated) throws CompileException {
      Java.AbstractCompilationUnit unit = FloatOrder.rewrite(generated);
      if (parent == null) {
        super.cook(unit);
        return;
      }
      Java.AbstractCompilationUnit lean = LeanEnumerables.lean(unit);
      if (lean != null) {
        try {
          bytecodes = compile(lean);
          return;
        } catch (CompileException | RuntimeException | StackOverflowError e) {
          // Compiled as written below, which reports the error if it is in the code itself (a
          // method grown past 64 KiB by the calls the rewrite adds is one Janino reports as an
          // InternalCompilerException).
        }
      }
      bytecodes = compile(unit);
    }

    private Map<String, byte[]> compile(Java.AbstractCompilationUnit unit) throws CompileException {
      Map<String, byte[]> compiled = new HashMap<>();
      synchronized (COMPILING) {
        if (types == null || types.getClassLoader() != parent) {
          types = new ClassLoaderIClassLoader(parent);
        }
        UnitCompiler compiler = new UnitCompiler(unit, types).options(options());
        compiler.compileUnit(
            false,
            false,
            false,
            classFile -> compiled.put(classFile.getThisClassName(), classFile.toByteArray()));
      }
      return compiled;
    }

    @Override
    public Map<String, byte[]> getBytecodes() {
      return bytecodes == null ? super.getBytecodes() : bytecodes;
    }

    @Override
    public ClassLoader getClassLoader() {
      if (bytecodes == null) {
        return super.getClassLoader();
      }
      if (loader == null) {
        loader = new ByteArrayClassLoader(bytecodes, parent);
      }
      return loader;
    }
  }

  /** The remembering loader over {@code parent} (Calcite always passes its own loader). */
  static ClassLoader remembering(ClassLoader parent) {
    RememberingLoader loader = last;
    if (loader == null || loader.getParent() != parent) {
      loader = new RememberingLoader(parent);
      last = loader;
    }
    return loader;
  }

  /** A class loader that delegates to its parent and remembers the names its parent lacks. */
  static final class RememberingLoader extends ClassLoader {
    /** Enough for every name generated code uses; beyond it, misses are asked again. */
    private static final int MAX_MISSING = 100_000;

    static {
      registerAsParallelCapable();
    }

    private final Set<String> missing = ConcurrentHashMap.newKeySet();

    RememberingLoader(ClassLoader parent) {
      super(parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (missing.contains(name)) {
        throw new Missing(name);
      }
      try {
        return super.loadClass(name, resolve);
      } catch (ClassNotFoundException e) {
        if (missing.size() < MAX_MISSING) {
          missing.add(name);
        }
        throw e;
      }
    }

    /** How many names are remembered as missing (for tests). */
    int missing() {
      return missing.size();
    }
  }

  /** A remembered miss: no stack trace to fill, it is thrown often. */
  private static final class Missing extends ClassNotFoundException {
    private static final long serialVersionUID = 1L;

    Missing(String name) {
      super(name);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
