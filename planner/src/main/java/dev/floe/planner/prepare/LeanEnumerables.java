package dev.floe.planner.prepare;

import java.util.Arrays;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.commons.compiler.Location;
import org.codehaus.janino.Java;
import org.codehaus.janino.util.AbstractTraverser;
import org.codehaus.janino.util.DeepCopier;

/**
 * Generated code's enumerables, declared without making Janino check a class of four hundred
 * methods each time.
 *
 * <p>Calcite's generated code declares each step of a plan as {@code new AbstractEnumerable() {
 * public Enumerator enumerator() { ... } }}. For every such anonymous class Janino lists all the
 * methods it inherits ({@code AbstractEnumerable} brings about four hundred through {@code
 * DefaultEnumerable} and {@code ExtendedEnumerable}), comparing each with every one listed before
 * to drop duplicates, to check that none is left abstract and to look for bridge methods: a
 * quadratic walk that took about an eighth of a statement's thread in the SQL Logic Test's {@code
 * select1.test}, where every query is planned and compiled afresh. {@link #lean} rewrites such an
 * expression to {@code LeanEnumerables.of(new LeanEnumerables.Source() { public Enumerator
 * enumerator() { ... } })}: the same method body, in an anonymous class of an interface with one
 * method, wrapped by a class compiled once. The result is an {@code AbstractEnumerable} as before,
 * whose {@code enumerator()} runs the same body.
 *
 * <p>Only the exact shape Calcite generates is rewritten: no constructor arguments, no fields, one
 * method {@code enumerator()} without parameters, and nothing inside that could mean the enumerable
 * itself ({@code this}, {@code super}, a method called without a target). Anything else is compiled
 * as written.
 */
public final class LeanEnumerables {
  private static final String ABSTRACT_ENUMERABLE = AbstractEnumerable.class.getName();

  private static final String[] SOURCE = Source.class.getCanonicalName().split("\\.");

  private static final String[] THIS_CLASS = LeanEnumerables.class.getName().split("\\.");

  private static final String[] ENUMERATOR = Enumerator.class.getName().split("\\.");

  private LeanEnumerables() {}

  /** The body of an enumerable's {@code enumerator()} method. */
  public interface Source {
    /** A new enumerator over the enumerable's rows. */
    Enumerator<Object> enumerator();
  }

  /** The enumerable whose enumerators {@code source} makes. */
  public static AbstractEnumerable<Object> of(Source source) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object> enumerator() {
        return source.enumerator();
      }
    };
  }

  /**
   * {@code unit} with every enumerable of Calcite's generated shape declared through {@link #of},
   * or {@code null} when it declares none.
   */
  static Java.@Nullable AbstractCompilationUnit lean(Java.AbstractCompilationUnit unit)
      throws CompileException {
    if (!(unit instanceof Java.CompilationUnit)) {
      return null;
    }
    Rewriter rewriter = new Rewriter();
    Java.AbstractCompilationUnit copy = rewriter.copyCompilationUnit((Java.CompilationUnit) unit);
    return rewriter.rewritten > 0 ? copy : null;
  }

  /** Copies a compilation unit, rewriting the enumerables of the generated shape. */
  private static final class Rewriter extends DeepCopier {
    int rewritten;

    @Override
    public Java.Rvalue copyNewAnonymousClassInstance(Java.NewAnonymousClassInstance subject)
        throws CompileException {
      Java.AnonymousClassDeclaration declaration = subject.anonymousClassDeclaration;
      if (!generatedShape(subject)) {
        return super.copyNewAnonymousClassInstance(subject);
      }
      Location location = subject.getLocation();
      Java.AnonymousClassDeclaration source =
          new Java.AnonymousClassDeclaration(
              location, new Java.ReferenceType(location, new Java.Annotation[0], SOURCE, null));
      source.addDeclaredMethod(copyMethodDeclarator(declaration.getMethodDeclarations().get(0)));
      rewritten++;
      return new Java.MethodInvocation(
          location,
          new Java.AmbiguousName(location, THIS_CLASS),
          "of",
          new Java.Rvalue[] {
            new Java.NewAnonymousClassInstance(location, null, source, new Java.Rvalue[0])
          });
    }
  }

  /** Whether {@code instance} is {@code new AbstractEnumerable() { enumerator() {...} }}. */
  private static boolean generatedShape(Java.NewAnonymousClassInstance instance)
      throws CompileException {
    Java.AnonymousClassDeclaration declaration = instance.anonymousClassDeclaration;
    if (instance.qualification != null
        || instance.arguments.length != 0
        || !(declaration.baseType instanceof Java.ReferenceType base)
        || base.typeArguments != null
        || !String.join(".", base.identifiers).equals(ABSTRACT_ENUMERABLE)
        || !declaration.fieldDeclarationsAndInitializers.isEmpty()
        || !declaration.constructors.isEmpty()
        || !declaration.getMemberTypeDeclarations().isEmpty()
        || declaration.getMethodDeclarations().size() != 1) {
      return false;
    }
    Java.MethodDeclarator method = declaration.getMethodDeclarations().get(0);
    if (!method.name.equals("enumerator")
        || method.formalParameters.parameters.length != 0
        || method.isStatic()
        || !(method.type instanceof Java.ReferenceType returned)
        || !Arrays.equals(returned.identifiers, ENUMERATOR)) {
      return false;
    }
    SelfReferences self = new SelfReferences();
    self.visitTypeDeclaration(declaration);
    return !self.found;
  }

  /** Finds what in a class body could refer to the enclosing instance or its inherited members. */
  private static final class SelfReferences extends AbstractTraverser<CompileException> {
    boolean found;

    @Override
    public void traverseThisReference(Java.ThisReference tr) {
      found = true;
    }

    @Override
    public void traverseQualifiedThisReference(Java.QualifiedThisReference qtr) {
      found = true;
    }

    @Override
    public void traverseSuperclassMethodInvocation(Java.SuperclassMethodInvocation smi) {
      found = true;
    }

    @Override
    public void traverseSuperclassFieldAccessExpression(
        Java.SuperclassFieldAccessExpression scfae) {
      found = true;
    }

    @Override
    public void traverseMethodInvocation(Java.MethodInvocation mi) throws CompileException {
      if (mi.target == null) {
        found = true;
      }
      super.traverseMethodInvocation(mi);
    }
  }
}
