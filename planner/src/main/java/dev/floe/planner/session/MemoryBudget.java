package dev.floe.planner.session;

import dev.floe.error.FloeError;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The memory one statement's operators may hold at once (docs/limits.md, "Known limits"): a hash
 * join's build side, and whatever else keeps rows until its input ends, reserves the estimated size
 * of what it keeps before keeping it, and releases it when it closes. A reservation past the limit
 * fails the statement with 53200, naming the operator and the limit, before the heap runs out, so
 * the connection stays usable. Thread-safe; a statement a command runs inside another shares the
 * outer one's budget ({@link Cancellation#enter}).
 *
 * <p>It also bounds the statement's spill: the bytes its operators' spill files hold on disk at
 * once, all operators together, may not pass the spill limit, which is known when the statement
 * first spills (a share of the temp folder's free disk is measured then); past it, or at the first
 * spill under a limit of 0, the statement fails with 53200.
 */
public final class MemoryBudget {
  /** A budget that never refuses: for work outside any statement. */
  public static final MemoryBudget UNLIMITED = new MemoryBudget(Long.MAX_VALUE);

  private final long limit;
  private final SpillLimit spill;

  /** The spill limit in bytes, known at the statement's first spill; -1 before. */
  private volatile long spillLimit = -1;

  private final AtomicLong onDisk = new AtomicLong();
  private final AtomicLong reserved = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();
  private final AtomicLong spills = new AtomicLong();
  private final AtomicLong spilledBytes = new AtomicLong();

  /** A budget of {@code limitBytes} (at most {@code Long.MAX_VALUE}: unlimited). */
  public MemoryBudget(long limitBytes) {
    this(limitBytes, SpillLimit.NONE);
  }

  /** A budget of {@code limitBytes}, whose spill files may hold at most {@code spill} at once. */
  public MemoryBudget(long limitBytes, SpillLimit spill) {
    this.limit = limitBytes <= 0 ? Long.MAX_VALUE : limitBytes;
    this.spill = spill;
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
   * Counts one write of an operator's rows to disk instead of holding them (a hash join's build or
   * probe side partitioned into files, a sort's run); its bytes are counted by {@link #wrote}.
   */
  public void spilled() {
    spills.incrementAndGet();
  }

  /**
   * Lets {@code operator} start writing spill files, the statement's spill limit known from now on:
   * at its first spill, a limit that is a share of the temp folder's disk takes the space {@code
   * usableSpace} gives then ({@code Long.MAX_VALUE}: unknown, no limit but the disk).
   *
   * @throws dev.floe.error.FloeException OUT_OF_MEMORY (53200) when the limit is 0
   */
  public void startSpill(String operator, LongSupplier usableSpace) {
    long cap = spillLimit;
    if (cap < 0) {
      synchronized (this) {
        cap = spillLimit;
        if (cap < 0) {
          cap = spill.resolve(usableSpace);
          spillLimit = cap;
        }
      }
    }
    if (cap == 0) {
      throw FloeError.OUT_OF_MEMORY.error(
          operator
              + " needs more than the statement's memory budget of "
              + mebibytes(limit)
              + ", and the statement may not spill to disk (connection property spillLimit=0;"
              + " docs/limits.md, \"Known limits\")");
    }
  }

  /**
   * Counts {@code bytes} {@code operator} wrote to a spill file.
   *
   * @throws dev.floe.error.FloeException OUT_OF_MEMORY (53200) when the statement's spill files
   *     would hold more than its spill limit; the bytes are counted all the same, for the caller to
   *     delete its files
   */
  public void wrote(long bytes, String operator) {
    spilledBytes.addAndGet(bytes);
    long now = onDisk.addAndGet(bytes);
    long cap = spillLimit;
    if (cap >= 0 && now > cap) {
      throw FloeError.OUT_OF_MEMORY.error(
          operator
              + " needs more than the statement's memory budget of "
              + mebibytes(limit)
              + ", and the statement's spill files would pass its spill limit of "
              + mebibytes(cap)
              + " on disk (connection property spillLimit, by default 90% of the usable space of"
              + " java.io.tmpdir's disk when the statement first spills;"
              + " docs/limits.md, \"Known limits\")");
    }
  }

  /** Counts {@code bytes} of spill files deleted. */
  public void deleted(long bytes) {
    onDisk.addAndGet(-bytes);
  }

  /** The bytes the statement's spill files hold now. */
  public long onDisk() {
    return onDisk.get();
  }

  /** How many times an operator's rows were written to disk. */
  public long spills() {
    return spills.get();
  }

  /** The bytes operators wrote to disk. */
  public long spilledBytes() {
    return spilledBytes.get();
  }

  /**
   * The share an operator that holds rows until its input ends may take when it starts: half of
   * what the budget has free now, leaving room for the operators after it; unlimited for an
   * unlimited budget.
   */
  public long share() {
    return limit == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, limit - reserved()) / 2;
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
