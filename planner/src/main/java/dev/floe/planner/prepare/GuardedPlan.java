package dev.floe.planner.prepare;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Typed;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A compiled plan whose generated classes may fail to initialize: Calcite's code generation moves
 * constant expressions ({@code 1/0}, {@code CAST('2023-02-30' AS DATE)}) into static fields, and a
 * class whose static initializer failed is unusable for the rest of the JVM's life ({@code
 * NoClassDefFoundError} on every later use). The plan catches that failure wherever the generated
 * code runs (binding, creating an enumerator, moving through it), reports it as the exception that
 * failed the initializer, and is broken from then on: it is dropped from the plan cache (so the
 * same text is planned and compiled afresh and fails the same way) and a statement still holding it
 * gets the same failure again, never a {@code java.lang.Error}.
 */
final class GuardedPlan implements Prepare.PreparedResult, Typed {
  private static final ThreadLocal<GuardedPlan> LAST = new ThreadLocal<>();

  private final Prepare.PreparedResult delegate;
  private final List<Runnable> onBreak = new ArrayList<>();
  private volatile @Nullable Throwable failure;

  private GuardedPlan(Prepare.PreparedResult delegate) {
    this.delegate = delegate;
  }

  /** Guards a plan; {@link #takeLast} gives it to the preparation that asked for it. */
  static GuardedPlan of(Prepare.PreparedResult plan) {
    GuardedPlan guarded = new GuardedPlan(plan);
    LAST.set(guarded);
    return guarded;
  }

  /** The plan last guarded on this thread since the last call, or null. */
  static @Nullable GuardedPlan takeLast() {
    GuardedPlan last = LAST.get();
    LAST.remove();
    return last;
  }

  /** Runs an action once the plan breaks (at once if it has). */
  synchronized void whenBroken(Runnable action) {
    if (failure != null) {
      action.run();
    } else {
      onBreak.add(action);
    }
  }

  @Override
  public String getCode() {
    return delegate.getCode();
  }

  @Override
  public boolean isDml() {
    return delegate.isDml();
  }

  @Override
  public TableModify.Operation getTableModOp() {
    return delegate.getTableModOp();
  }

  @Override
  public List<? extends List<String>> getFieldOrigins() {
    return delegate.getFieldOrigins();
  }

  @Override
  public RelDataType getParameterRowType() {
    return delegate.getParameterRowType();
  }

  @Override
  public Type getElementType() {
    return ((Typed) delegate).getElementType();
  }

  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public Bindable getBindable(Meta.CursorFactory cursorFactory) {
    Bindable<Object> bindable = delegate.getBindable(cursorFactory);
    return new Guarded(bindable);
  }

  /** The failure to report for an error of the generated code, after marking the plan broken. */
  private RuntimeException broken(LinkageError error) {
    Throwable first;
    List<Runnable> actions;
    synchronized (this) {
      if (failure == null) {
        failure = error instanceof ExceptionInInitializerError ? error : error.getCause();
        if (failure == null) {
          failure = error;
        }
      }
      first = failure;
      actions = new ArrayList<>(onBreak);
      onBreak.clear();
    }
    actions.forEach(Runnable::run);
    return new IllegalStateException("Cannot run the statement's compiled code", first);
  }

  /** Runs generated code, reporting a class that cannot initialize as a failure of the plan. */
  private <T> T guard(java.util.function.Supplier<T> code) {
    try {
      return code.get();
    } catch (ExceptionInInitializerError | NoClassDefFoundError e) {
      throw brokenOrMissing(e);
    }
  }

  /**
   * A generated class that failed to initialize breaks the plan; a class missing from the driver's
   * jar (a {@code NoClassDefFoundError} of another kind) is reported as it is, naming that class.
   */
  private Error brokenOrMissing(LinkageError e) {
    if (e instanceof NoClassDefFoundError
        && !String.valueOf(e.getMessage()).startsWith("Could not initialize class")) {
      return (NoClassDefFoundError) e;
    }
    throw broken(e);
  }

  /** The generated code's entry point, guarded. */
  private final class Guarded implements Bindable<Object>, Typed {
    private final Bindable<Object> bindable;

    Guarded(Bindable<Object> bindable) {
      this.bindable = bindable;
    }

    @Override
    public Type getElementType() {
      return bindable instanceof Typed
          ? ((Typed) bindable).getElementType()
          : GuardedPlan.this.getElementType();
    }

    @Override
    public Enumerable<Object> bind(DataContext dataContext) {
      Throwable earlier = failure;
      if (earlier != null) {
        throw new IllegalStateException("Cannot run the statement's compiled code", earlier);
      }
      Enumerable<Object> bound = guard(() -> bindable.bind(dataContext));
      return new AbstractEnumerable<>() {
        @Override
        public Enumerator<Object> enumerator() {
          Enumerator<Object> enumerator = guard(bound::enumerator);
          return new Enumerator<>() {
            @Override
            public Object current() {
              try {
                return enumerator.current();
              } catch (ExceptionInInitializerError | NoClassDefFoundError e) {
                throw brokenOrMissing(e);
              }
            }

            @Override
            public boolean moveNext() {
              try {
                return enumerator.moveNext();
              } catch (ExceptionInInitializerError | NoClassDefFoundError e) {
                throw brokenOrMissing(e);
              }
            }

            @Override
            public void reset() {
              enumerator.reset();
            }

            @Override
            public void close() {
              enumerator.close();
            }
          };
        }
      };
    }
  }
}
