package dev.floe.planner.session;

import java.util.function.LongSupplier;

/**
 * The most bytes one statement's spill files may hold at once (connection property spillLimit): a
 * number of bytes, or a share of the usable space of the temp folder's disk, measured when the
 * statement first spills. Immutable.
 *
 * @param bytes the limit when {@code share} is 0 (0: the statement may not spill)
 * @param share the share of the usable space, above 0 and at most 1; 0 when {@code bytes} holds
 */
public record SpillLimit(long bytes, double share) {
  /** No limit but the disk. */
  public static final SpillLimit NONE = new SpillLimit(Long.MAX_VALUE, 0);

  /** A limit of {@code bytes} (0: nothing may spill). */
  public static SpillLimit ofBytes(long bytes) {
    return new SpillLimit(Math.max(0, bytes), 0);
  }

  /** A limit of a share (above 0, at most 1) of the temp folder's usable space. */
  public static SpillLimit ofUsableSpace(double share) {
    return new SpillLimit(0, share);
  }

  /**
   * The limit in bytes, measuring the usable space of the temp folder's disk when it is a share of
   * it ({@code usableSpace} gives {@code Long.MAX_VALUE} when that cannot be measured).
   */
  long resolve(LongSupplier usableSpace) {
    if (share == 0) {
      return bytes;
    }
    long usable = usableSpace.getAsLong();
    return usable == Long.MAX_VALUE ? Long.MAX_VALUE : (long) (usable * share);
  }
}
