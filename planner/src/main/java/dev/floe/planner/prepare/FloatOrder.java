package dev.floe.planner.prepare;

import java.util.Arrays;
import java.util.Comparator;
import org.apache.calcite.linq4j.function.Functions;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.commons.compiler.Location;
import org.codehaus.janino.Java;
import org.codehaus.janino.util.DeepCopier;

/**
 * The order of sort keys in generated code, with NaN and the infinities in it.
 *
 * <p>For a sort on one key (ORDER BY, top-N, a window's ORDER BY, a GROUP BY's sorted output)
 * Calcite's generated code compares keys with {@code Functions.nullsComparator(nullsFirst,
 * descending)}, which compares any two numbers by converting both to {@code BigDecimal}; a DOUBLE
 * or REAL key holding NaN or an infinity makes that conversion throw, and the statement failed with
 * {@code 22018} (a sort on two keys uses another comparator and worked). Every such call is
 * rewritten, before the code is compiled, to {@link #nullsComparator}: two floating-point keys are
 * ordered as the comparator of a sort on several keys already orders them ({@link Double#compare}:
 * {@code -Infinity} first, the finite values with {@code -0.0} just below {@code 0.0}, then {@code
 * +Infinity}, and NaN last, above every other value, as in PostgreSQL, DuckDB, Spark and Trino's
 * ORDER BY); every other pair of keys is compared by Calcite's comparator, as before. {@code -0.0}
 * and {@code 0.0} stay apart as GROUP BY and DISTINCT keep them apart, so that a window's peers are
 * the rows of one group.
 */
public final class FloatOrder {
  private static final String[] CALCITE_FUNCTIONS = Functions.class.getName().split("\\.");

  private static final String[] THIS_CLASS = FloatOrder.class.getName().split("\\.");

  private static final String METHOD = "nullsComparator";

  private FloatOrder() {}

  /**
   * The comparator of Calcite's {@code Functions.nullsComparator(nullsFirst, descending)}, except
   * that two DOUBLE or REAL keys compare as {@link #compare(double, double)} does.
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  public static Comparator<Object> nullsComparator(boolean nullsFirst, boolean descending) {
    Comparator calcite = Functions.nullsComparator(nullsFirst, descending);
    return (a, b) -> {
      if (floating(a) && floating(b)) {
        int order = compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
        return descending ? -order : order;
      }
      return calcite.compare(a, b);
    };
  }

  /** The order of two floating-point values: the infinities at the ends, NaN above them all. */
  public static int compare(double a, double b) {
    return Double.compare(a, b);
  }

  private static boolean floating(@Nullable Object value) {
    return value instanceof Double || value instanceof Float;
  }

  /**
   * {@code unit} with every call of Calcite's two-argument {@code Functions.nullsComparator}
   * replaced by {@link #nullsComparator}, or {@code unit} itself when it has none.
   */
  static Java.AbstractCompilationUnit rewrite(Java.AbstractCompilationUnit unit)
      throws CompileException {
    if (!(unit instanceof Java.CompilationUnit)) {
      return unit;
    }
    Rewriter rewriter = new Rewriter();
    Java.CompilationUnit copy = rewriter.copyCompilationUnit((Java.CompilationUnit) unit);
    return rewriter.rewritten > 0 ? copy : unit;
  }

  /** Whether {@code name} is {@code identifiers} (the parser shares one array among prefixes). */
  private static boolean named(Java.AmbiguousName name, String[] identifiers) {
    return name.n == identifiers.length
        && Arrays.equals(name.identifiers, 0, name.n, identifiers, 0, identifiers.length);
  }

  /** Copies a compilation unit, pointing the comparator calls at this class. */
  private static final class Rewriter extends DeepCopier {
    int rewritten;

    @Override
    public Java.Rvalue copyMethodInvocation(Java.MethodInvocation subject) throws CompileException {
      if (subject.methodName.equals(METHOD)
          && subject.arguments.length == 2
          && subject.target instanceof Java.AmbiguousName target
          && named(target, CALCITE_FUNCTIONS)) {
        Location location = subject.getLocation();
        rewritten++;
        return new Java.MethodInvocation(
            location,
            new Java.AmbiguousName(location, THIS_CLASS),
            METHOD,
            copyRvalues(subject.arguments));
      }
      return super.copyMethodInvocation(subject);
    }
  }
}
