package dev.floe.planner.scan;

import java.util.List;
import org.apache.iceberg.types.Type;

/**
 * What a scan keeps of its rows under an {@code ORDER BY ... LIMIT} directly above it: the first
 * {@link #rows} rows in the order of {@link #keys}, ties broken by scan order, as the top-N above
 * would choose them from all the scan's rows. The scan emits them in scan order and the top-N above
 * it stays in the plan, ordering them and applying the OFFSET and LIMIT: the scan only spares it
 * the rows it would drop.
 *
 * @param keys the sort keys, most significant first
 * @param rows OFFSET + LIMIT: how many rows the scan keeps
 */
public record LakeTopN(List<Key> keys, long rows) {
  /** The most rows a top-N keeps (OFFSET + LIMIT); a larger one sorts every row in the budget. */
  public static final long MAX_ROWS = 1 << 17;

  /**
   * One sort key.
   *
   * @param column the position of the key among the scan's columns
   * @param descending whether larger values come first
   * @param nullsFirst whether NULL comes before every value (in the final order)
   */
  public record Key(int column, boolean descending, boolean nullsFirst) {}

  public LakeTopN {
    keys = List.copyOf(keys);
    if (keys.isEmpty() || rows <= 0 || rows > MAX_ROWS) {
      throw new IllegalArgumentException("a top-N of " + rows + " rows on " + keys);
    }
  }

  /**
   * Whether a scan compares values of an Iceberg type as the top-N above does: numbers, booleans,
   * dates, times, timestamps and strings (Java's order of their values, as Calcite's generated
   * comparator). Binary, UUID and nested values are left to the top-N.
   */
  public static boolean sortable(Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
      case INTEGER:
      case LONG:
      case FLOAT:
      case DOUBLE:
      case DECIMAL:
      case DATE:
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_NANO:
      case STRING:
        return true;
      default:
        return false;
    }
  }

  /** The keys as text for EXPLAIN, with the scan's column names. */
  public String describe(List<String> names) {
    StringBuilder text = new StringBuilder();
    for (Key key : keys) {
      if (text.length() > 0) {
        text.append(", ");
      }
      text.append(names.get(key.column()))
          .append(key.descending() ? " DESC" : "")
          .append(key.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
    }
    return text.append(": ").append(rows).append(" rows").toString();
  }
}
