package dev.floe.planner.session;

import dev.floe.error.FloeError;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory one statement's operators may hold at once (docs/limits.md, "Known limits"): a hash
 * join's build side, and whatever else keeps rows until its input ends, reserves the estimated size
 * of what it keeps before keeping it, and releases it when it closes. A reservation past the limit
 * fails the statement with 53200, naming the operator and the limit, before the heap runs out, so
 * the connection stays usable. Thread-safe; a statement a command runs inside another shares the
 * outer one's budget ({@link Cancellation#enter}).
 */
public final class MemoryBudget {
  /** A budget that never refuses: for work outside any statement. */
  public static final MemoryBudget UNLIMITED = new MemoryBudget(Long.MAX_VALUE);

  private final long limit;
  private final AtomicLong reserved = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();
  private final AtomicLong spills = new AtomicLong();
  private final AtomicLong spilledBytes = new AtomicLong();

  /** A budget of {@code limitBytes} (at most {@code Long.MAX_VALUE}: unlimited). */
  public MemoryBudget(long limitBytes) {
    this.limit = limitBytes <= 0 ? Long.MAX_VALUE : limitBytes;
  }

  /** The limit in bytes. */
  public long limit() {
    return limit;
  }

  /** The bytes reserved now. */
  public long reserved() {
    return reserved.get();
  }

  /** The most bytes reserved at once so far. */
  public long peak() {
    return peak.get();
  }

  /**
   * Reserves {@code bytes} more for {@code operator}.
   *
   * @throws dev.floe.error.FloeException OUT_OF_MEMORY (53200) when the statement would hold more
   *     than its limit; nothing is reserved then
   */
  public void reserve(long bytes, String operator) {
    long now = reserved.addAndGet(bytes);
    if (now > limit) {
      reserved.addAndGet(-bytes);
      throw FloeError.OUT_OF_MEMORY.error(
          operator
              + " needs more than the statement's memory budget of "
              + mebibytes(limit)
              + " (connection property memoryBudget; docs/limits.md, \"Known limits\")");
    }
    peak.accumulateAndGet(now, Math::max);
  }

  /**
   * Counts {@code bytes} an operator wrote to disk instead of holding them (a hash join's build or
   * probe side partitioned into files).
   */
  public void spilled(long bytes) {
    spills.incrementAndGet();
    spilledBytes.addAndGet(bytes);
  }

  /** How many times an operator's rows were written to disk. */
  public long spills() {
    return spills.get();
  }

  /** The bytes operators wrote to disk. */
  public long spilledBytes() {
    return spilledBytes.get();
  }

  /** The limit as a message says it. */
  public String limitText() {
    return mebibytes(limit);
  }

  /** Gives back {@code bytes} reserved before. */
  public void release(long bytes) {
    reserved.addAndGet(-bytes);
  }

  private static String mebibytes(long bytes) {
    return bytes >= 1L << 20 ? (bytes >> 20) + " MiB" : bytes + " bytes";
  }
}
