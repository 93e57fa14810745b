package dev.floe.tck.write;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Rows as lists of normalized values, compared as multisets by sorting them one way. */
final class Rows {
  private Rows() {}

  /** The rows in a canonical order (by their string form), so two readers' rows compare equal. */
  static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Object::toString));
    return copy;
  }

  /** A row of values. */
  static List<Object> row(Object... values) {
    return java.util.Arrays.asList(values);
  }
}
