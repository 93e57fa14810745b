package dev.floe.planner.session;

import dev.floe.error.FloeError;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Whether one statement's run must stop: {@code Statement.cancel()} was called, or its query
 * timeout elapsed, counted from the call that started it (planning included). A timer marks the
 * statement stopped at its deadline, so every check is one volatile read: scans, the rows leaving a
 * join, and every row a write assigns check it, and the statement fails with 57014 within a moment
 * of the deadline wherever it is.
 *
 * <p>The statement's thread holds its cancellation while it runs ({@link #enter}); what it creates
 * then (enumerators, workers, writers) takes it with {@link #current}, so that reading a result set
 * later is stopped as well. A statement a command runs inside another (the query of a CREATE TABLE
 * AS SELECT, the join of a MERGE) shares the outer statement's cancellation. Thread-safe.
 */
public final class Cancellation {
  /** A cancellation that never stops anything. */
  public static final Cancellation NONE = new Cancellation(0, MemoryBudget.UNLIMITED);

  private static final ThreadLocal<Cancellation> CURRENT = new ThreadLocal<>();

  private static final int RUNNING = 0;
  private static final int CANCELLED = 1;
  private static final int TIMED_OUT = 2;

  private final long timeoutMillis;
  private final MemoryBudget memory;
  private volatile int state;
  private volatile @Nullable ScheduledFuture<?> timer;

  private Cancellation(long timeoutMillis, MemoryBudget memory) {
    this.timeoutMillis = timeoutMillis;
    this.memory = memory;
  }

  /** The memory the statement's operators may hold at once. */
  public MemoryBudget memory() {
    return memory;
  }

  /** The cancellation of the statement running on this thread, or {@link #NONE}. */
  public static Cancellation current() {
    Cancellation current = CURRENT.get();
    return current == null ? NONE : current;
  }

  /**
   * Enters a statement's run on this thread: a new cancellation whose deadline is {@code
   * timeoutMillis} from now (0: none), or the one of the statement this one runs inside.
   */
  public static Scope enter(long timeoutMillis) {
    return enter(timeoutMillis, Long.MAX_VALUE);
  }

  /**
   * As {@link #enter(long)}, with a memory budget of {@code memoryBytes} for the statement's
   * operators ({@link MemoryBudget}); a statement inside another shares the outer one's.
   */
  public static Scope enter(long timeoutMillis, long memoryBytes) {
    return enter(timeoutMillis, memoryBytes, SpillLimit.NONE);
  }

  /**
   * As {@link #enter(long, long)}, the statement's spill files holding at most {@code spill} at
   * once ({@link MemoryBudget#startSpill}).
   */
  public static Scope enter(long timeoutMillis, long memoryBytes, SpillLimit spill) {
    Cancellation outer = CURRENT.get();
    if (outer != null) {
      return new Scope(outer, outer);
    }
    Cancellation started = new Cancellation(timeoutMillis, new MemoryBudget(memoryBytes, spill));
    if (timeoutMillis > 0) {
      started.timer =
          Timer.INSTANCE.schedule(started::timeOut, timeoutMillis, TimeUnit.MILLISECONDS);
    }
    CURRENT.set(started);
    return new Scope(started, null);
  }

  /**
   * Enters this statement's run again on this thread, for work of its plan deferred until its rows
   * are read (which may happen after the statement's own run returned); closing the scope leaves
   * the thread as it was.
   */
  public Scope resume() {
    Cancellation outer = CURRENT.get();
    CURRENT.set(this);
    return new Scope(this, outer);
  }

  /** Stops the statement: its next check fails with 57014. Never blocks. */
  public void cancel() {
    if (this != NONE && state == RUNNING) {
      state = CANCELLED;
    }
  }

  private void timeOut() {
    if (state == RUNNING) {
      state = TIMED_OUT;
    }
  }

  /** Whether the statement must stop. */
  public boolean stopped() {
    return state != RUNNING;
  }

  /** Fails with 57014 when the statement must stop. */
  public void check() {
    if (state != RUNNING) {
      throw failure();
    }
  }

  /** The failure of a statement that must stop, saying why. */
  public RuntimeException failure() {
    return FloeError.CANCELLED.error(
        state == TIMED_OUT
            ? "the query timeout of " + timeoutMillis + " ms elapsed"
            : "the statement was cancelled");
  }

  /** Ends the statement's run: its timer no longer fires (a later check still sees a stop). */
  public void finish() {
    ScheduledFuture<?> pending = timer;
    if (pending != null) {
      pending.cancel(false);
      timer = null;
    }
  }

  /** A statement's run on one thread; closing it leaves the thread as it was. */
  public static final class Scope implements AutoCloseable {
    private final Cancellation cancellation;
    private final @Nullable Cancellation outer;

    private Scope(Cancellation cancellation, @Nullable Cancellation outer) {
      this.cancellation = cancellation;
      this.outer = outer;
    }

    /** The run's cancellation. */
    public Cancellation cancellation() {
      return cancellation;
    }

    /** Whether this run shares the cancellation of a statement it runs inside. */
    public boolean nested() {
      return outer != null;
    }

    @Override
    public void close() {
      if (outer == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(outer);
      }
    }
  }

  /** The one timer thread of the JVM, a daemon, started on first use. */
  private static final class Timer {
    static final ScheduledExecutorService INSTANCE = create();

    private static ScheduledExecutorService create() {
      ScheduledThreadPoolExecutor timer =
          new ScheduledThreadPoolExecutor(
              1,
              task -> {
                Thread thread = new Thread(task, "floe-statement-timeout");
                thread.setDaemon(true);
                return thread;
              });
      timer.setRemoveOnCancelPolicy(true);
      return timer;
    }
  }
}
