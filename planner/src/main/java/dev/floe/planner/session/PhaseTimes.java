package dev.floe.planner.session;

import java.util.EnumMap;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where a thread's statements spend their time: parsing, validation, optimization, code generation
 * and compilation, loading table metadata and planning data files, and everything else (running the
 * plan and reading rows). Each moment is charged to exactly one phase. Statements run outside
 * {@link #collect} record nothing and cost one thread-local read per phase change.
 *
 * <p>A recording belongs to the thread that started it; work done on other threads (a parallel
 * scan's workers) is seen only as the time the statement's thread waits for it.
 */
public final class PhaseTimes {
  /** The phases of a statement. */
  public enum Phase {
    /** Parsing the SQL text, Floe's and Calcite's. */
    PARSE,
    /** Resolving names, validating and converting to relational algebra. */
    VALIDATE,
    /** Floe's rules and Calcite's cost-based planner. */
    OPTIMIZE,
    /** Generating and compiling the plan's Java code. */
    COMPILE,
    /** Loading table metadata and planning the data files a scan reads. */
    METADATA,
    /** Everything else: running the plan, reading and handing on rows. */
    EXECUTE
  }

  private static final ThreadLocal<Recording> CURRENT = new ThreadLocal<>();

  private PhaseTimes() {}

  /** Nanoseconds per phase recorded on one thread until closed. */
  public static final class Recording implements AutoCloseable {
    private final long[] nanos = new long[Phase.values().length];
    private final @Nullable Recording outer;
    private Phase phase = Phase.EXECUTE;
    private long since = System.nanoTime();

    private Recording(@Nullable Recording outer) {
      this.outer = outer;
    }

    private Phase switchTo(Phase next) {
      long now = System.nanoTime();
      nanos[phase.ordinal()] += now - since;
      since = now;
      Phase previous = phase;
      phase = next;
      return previous;
    }

    /** The nanoseconds charged to each phase so far. */
    public Map<Phase, Long> nanos() {
      switchTo(phase);
      Map<Phase, Long> result = new EnumMap<>(Phase.class);
      for (Phase p : Phase.values()) {
        result.put(p, nanos[p.ordinal()]);
      }
      return result;
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

  /** Starts recording this thread's phases; the time until the first change counts as EXECUTE. */
  public static Recording collect() {
    Recording recording = new Recording(CURRENT.get());
    CURRENT.set(recording);
    return recording;
  }

  /**
   * Charges the time from now on to {@code phase}, and returns the phase it was charged to before
   * (null when nothing records), to hand back to {@link #restore}.
   */
  public static @Nullable Phase enter(Phase phase) {
    Recording recording = CURRENT.get();
    return recording == null ? null : recording.switchTo(phase);
  }

  /** Charges the time from now on to the phase {@link #enter} returned again. */
  public static void restore(@Nullable Phase previous) {
    if (previous != null) {
      Recording recording = CURRENT.get();
      if (recording != null) {
        recording.switchTo(previous);
      }
    }
  }
}
