package dev.floe.planner.session;

import java.math.BigDecimal;
import java.util.List;

/**
 * Estimated heap sizes of the values Calcite's rows hold (64-bit JVM, compressed pointers), for the
 * reservations operators make in the statement's {@link MemoryBudget}.
 */
public final class Sizes {
  private Sizes() {}

  /** The estimated bytes {@code value} takes: a row, a key list, or one value. */
  public static long of(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof Object[] row) {
      long size = 16 + 4L * row.length;
      for (Object field : row) {
        size += of(field);
      }
      return size;
    }
    if (value instanceof Integer || value instanceof Boolean || value instanceof Short) {
      return 16;
    }
    if (value instanceof Long || value instanceof Double) {
      return 24;
    }
    if (value instanceof String s) {
      return 40 + s.length();
    }
    if (value instanceof BigDecimal d) {
      return d.precision() > 18 ? 88 : 40;
    }
    if (value instanceof List<?> list) {
      long size = 24 + 4L * list.size();
      for (Object element : list) {
        size += of(element);
      }
      return size;
    }
    return 32;
  }
}
