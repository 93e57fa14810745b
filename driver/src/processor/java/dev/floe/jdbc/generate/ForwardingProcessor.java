package dev.floe.jdbc.generate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;

/**
 * Writes the delegating bases of Floe's JDBC classes from the {@code java.sql} interfaces of the
 * release being compiled, once per compilation, before Floe's own classes are compiled against
 * them. Each base forwards every abstract method of its interface to a wrapped object (Calcite's),
 * through the wrapper's {@code open()}, which Floe's subclasses override to refuse a call on a
 * closed object (08003), and through {@code dev.floe.error.SqlErrors}, the one boundary where a
 * failure becomes an SQLException with Floe's SQLState. A method that declares no SQLException
 * itself ({@code getDriverMajorVersion}, {@code setClientInfo}) calls the wrapped object directly.
 * The result set base refuses every call that would change rows (0A000, once open). {@code unwrap}
 * and {@code isWrapperFor} answer for the wrapper first. Default methods of the interface are left
 * to the interface, unless Floe must refuse them.
 *
 * <p>This class is compiled in an execution of its own before the driver's sources and runs as the
 * annotation processor of the driver's compilation (driver/pom.xml); it is not part of the jar.
 */
public final class ForwardingProcessor extends AbstractProcessor {
  /** One generated class. */
  private static final class Base {
    final String packageName;
    final String simpleName;
    final String iface;

    /** The class the base extends, or null for Object. */
    final String superclass;

    /**
     * Whether only the methods the interface declares itself are forwarded (the rest inherited).
     */
    final boolean ownMethodsOnly;

    final boolean publicClass;

    Base(
        String packageName,
        String simpleName,
        String iface,
        String superclass,
        boolean ownMethodsOnly,
        boolean publicClass) {
      this.packageName = packageName;
      this.simpleName = simpleName;
      this.iface = iface;
      this.superclass = superclass;
      this.ownMethodsOnly = ownMethodsOnly;
      this.publicClass = publicClass;
    }
  }

  private static final String FORWARDING = "dev.floe.jdbc.forwarding";

  private static final List<Base> BASES =
      List.of(
          new Base(FORWARDING, "ForwardingConnection", "java.sql.Connection", null, false, true),
          new Base(FORWARDING, "ForwardingStatement", "java.sql.Statement", null, false, true),
          new Base(FORWARDING, "ForwardingResultSet", "java.sql.ResultSet", null, false, true),
          new Base(
              FORWARDING,
              "ForwardingDatabaseMetaData",
              "java.sql.DatabaseMetaData",
              null,
              false,
              true),
          // A prepared statement is a Floe statement first: only PreparedStatement's own methods.
          new Base(
              "dev.floe.jdbc",
              "ForwardingPreparedStatement",
              "java.sql.PreparedStatement",
              "dev.floe.jdbc.FloeStatement",
              true,
              false));

  /** The result set methods that change rows: refused, Floe's result sets are read-only. */
  private static final Set<String> ROW_CHANGES =
      Set.of(
          "insertRow",
          "deleteRow",
          "refreshRow",
          "cancelRowUpdates",
          "moveToInsertRow",
          "moveToCurrentRow");

  private boolean written;

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of("*");
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    if (written || round.processingOver()) {
      return false;
    }
    written = true;
    for (Base base : BASES) {
      String source = generate(base);
      try (Writer out =
          processingEnv
              .getFiler()
              .createSourceFile(base.packageName + "." + base.simpleName)
              .openWriter()) {
        out.write(source);
      } catch (IOException e) {
        processingEnv
            .getMessager()
            .printMessage(Diagnostic.Kind.ERROR, "Cannot write " + base.simpleName + ": " + e);
        throw new UncheckedIOException(e);
      }
    }
    // Claims nothing: the driver's own annotations (Override, SuppressWarnings) need no processor.
    return false;
  }

  private String generate(Base base) {
    Elements elements = processingEnv.getElementUtils();
    Types types = processingEnv.getTypeUtils();
    TypeElement iface = elements.getTypeElement(base.iface);
    TypeMirror sqlException = elements.getTypeElement("java.sql.SQLException").asType();
    boolean resultSet = base.iface.equals("java.sql.ResultSet");
    String type = base.iface;
    StringBuilder out = new StringBuilder();
    out.append("package ").append(base.packageName).append(";\n\n");
    out.append("/**\n * Forwards every call of {@link ").append(type);
    out.append("} to a wrapped object; Floe overrides what it must own.\n *\n");
    out.append(" * <p>Generated from the interface by {@code ");
    out.append(ForwardingProcessor.class.getName()).append("}.\n */\n");
    out.append("@SuppressWarnings({\"deprecation\", \"unchecked\"})\n");
    out.append(base.publicClass ? "public " : "").append("abstract class ");
    out.append(base.simpleName);
    if (base.superclass != null) {
      out.append(" extends ").append(base.superclass);
    }
    out.append(" implements ").append(type).append(" {\n");
    if (base.superclass == null) {
      out.append("  private final ").append(type).append(" delegate;\n\n");
      out.append("  protected ").append(base.simpleName).append("(").append(type);
      out.append(" delegate) {\n    this.delegate = delegate;\n  }\n\n");
    } else {
      // The wrapped statement changes when Floe plans the statement again.
      out.append("  private ").append(type).append(" delegate;\n\n");
      out.append("  ").append(base.simpleName).append("(dev.floe.jdbc.FloeConnection connection, ");
      out.append(type).append(" delegate) {\n    super(connection, delegate);\n");
      out.append("    this.delegate = delegate;\n  }\n\n");
      out.append("  /** Forwards to another statement from now on (the statement was planned");
      out.append(" again). */\n  void replaceDelegate(").append(type).append(" next) {\n");
      out.append("    this.delegate = next;\n    replaceCalcite(next);\n  }\n\n");
    }
    out.append("  /** The wrapped object. */\n");
    out.append(base.superclass == null ? "" : "  @Override\n");
    out.append("  protected ").append(type).append(" delegate() {\n    return delegate;\n  }\n\n");
    out.append(
        "  /**\n   * The wrapped object, for a call made through this wrapper: Floe's classes");
    out.append(" override this to\n   * refuse calls once they are closed (SQLState 08003),");
    out.append(" before the wrapped object is reached.\n   */\n");
    if (base.superclass == null) {
      out.append("  protected ").append(type).append(" open() throws java.sql.SQLException {\n");
      out.append("    return delegate;\n  }\n\n");
    } else {
      out.append("  @Override\n  protected ").append(type);
      out.append(" open() throws java.sql.SQLException {\n    super.open();\n");
      out.append("    return delegate;\n  }\n\n");
    }
    if (resultSet) {
      out.append("  /** Floe's result sets are read-only: a call that would change rows fails");
      out.append(" with 0A000 once open. */\n");
      out.append("  private java.sql.SQLException readOnly() throws java.sql.SQLException {\n");
      out.append("    open();\n    return dev.floe.error.SqlErrors.of(\n");
      out.append("        dev.floe.error.FloeError.NOT_SUPPORTED,\n");
      out.append("        \"changing rows through a result set (Floe's result sets are");
      out.append(" read-only)\");\n  }\n\n");
    }
    for (ExecutableElement method : methods(iface, base.ownMethodsOnly, elements, types)) {
      String name = method.getSimpleName().toString();
      boolean refused = resultSet && (name.startsWith("update") || ROW_CHANGES.contains(name));
      if (method.isDefault() && !refused) {
        continue;
      }
      boolean wrapper = method.getEnclosingElement().toString().equals("java.sql.Wrapper");
      if (wrapper && base.ownMethodsOnly) {
        continue;
      }
      out.append("  @Override\n  public ");
      List<? extends TypeParameterElement> typeParameters = method.getTypeParameters();
      if (!typeParameters.isEmpty()) {
        out.append(
                typeParameters.stream()
                    .map(TypeParameterElement::toString)
                    .collect(Collectors.joining(", ", "<", ">")))
            .append(' ');
      }
      out.append(method.getReturnType()).append(' ').append(name).append('(');
      List<String> arguments = new ArrayList<>();
      for (int i = 0; i < method.getParameters().size(); i++) {
        TypeMirror parameter = method.getParameters().get(i).asType();
        String argument = wrapper ? "iface" : "p" + i;
        arguments.add(argument);
        out.append(i == 0 ? "" : ", ").append(parameter).append(' ').append(argument);
      }
      out.append(')');
      List<? extends TypeMirror> thrown = method.getThrownTypes();
      if (!thrown.isEmpty()) {
        out.append(
            thrown.stream()
                .map(TypeMirror::toString)
                .collect(Collectors.joining(", ", " throws ", "")));
      }
      out.append(" {\n");
      String call = name + "(" + String.join(", ", arguments) + ")";
      boolean returns = method.getReturnType().getKind() != TypeKind.VOID;
      if (refused) {
        out.append("    throw readOnly();\n");
      } else if (name.equals("unwrap") && wrapper) {
        out.append("    if (iface.isInstance(this)) {\n      return iface.cast(this);\n    }\n");
        out.append("    return dev.floe.error.SqlErrors.call(() -> open().unwrap(iface));\n");
      } else if (name.equals("isWrapperFor") && wrapper) {
        out.append("    return iface.isInstance(this) || open().isWrapperFor(iface);\n");
      } else if (thrown.stream().noneMatch(t -> types.isSameType(t, sqlException))) {
        // No SQLException to wrap a failure in (nor to refuse a closed object with).
        out.append("    ").append(returns ? "return " : "").append("delegate().");
        out.append(call).append(";\n");
      } else if (returns) {
        out.append("    return dev.floe.error.SqlErrors.call(() -> open().");
        out.append(call).append(");\n");
      } else {
        out.append("    dev.floe.error.SqlErrors.run(() -> open().").append(call).append(");\n");
      }
      out.append("  }\n\n");
    }
    out.setLength(out.length() - 1);
    out.append("}\n");
    return out.toString();
  }

  /**
   * The interface's methods, once per signature (the most specific declaration), in the order the
   * interfaces declare them; only its own when {@code ownOnly}.
   */
  private static List<ExecutableElement> methods(
      TypeElement iface, boolean ownOnly, Elements elements, Types types) {
    Map<String, ExecutableElement> bySignature = new LinkedHashMap<>();
    List<TypeElement> order = new ArrayList<>();
    collect(iface, order, types);
    for (TypeElement declaring : order) {
      if (ownOnly && declaring != iface) {
        continue;
      }
      for (ExecutableElement method : ElementFilter.methodsIn(declaring.getEnclosedElements())) {
        if (method.getModifiers().contains(Modifier.STATIC)
            || method.getModifiers().contains(Modifier.PRIVATE)) {
          continue;
        }
        String signature =
            method.getSimpleName()
                + method.getParameters().stream()
                    .map(p -> types.erasure(p.asType()).toString())
                    .collect(Collectors.joining(",", "(", ")"));
        bySignature.putIfAbsent(signature, method);
      }
    }
    return new ArrayList<>(bySignature.values());
  }

  /** The interface, then its superinterfaces, nearest first. */
  private static void collect(TypeElement iface, List<TypeElement> order, Types types) {
    if (order.contains(iface)) {
      return;
    }
    order.add(iface);
    for (TypeMirror parent : iface.getInterfaces()) {
      Element element = types.asElement(parent);
      if (element != null && element.getKind() == ElementKind.INTERFACE) {
        collect((TypeElement) element, order, types);
      }
    }
  }
}
