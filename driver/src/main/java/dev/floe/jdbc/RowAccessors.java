package dev.floe.jdbc;

import java.lang.reflect.Field;
import java.sql.ResultSet;
import java.util.List;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.util.Cursor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The per-column accessors behind a Calcite result set, so that Floe's getters read the current
 * row through the same accessor Avatica would use, with the same conversions, but without
 * Avatica's per-call lookup and Floe's forwarding around it: on a full scan those were half of
 * the time spent per row. Avatica keeps the accessors in a protected field of {@link
 * AvaticaResultSet}, filled once the result set executes; where it cannot be read, Floe goes
 * through the result set's own getters.
 */
final class RowAccessors {
  private static final @Nullable Field ACCESSORS = accessorField();

  private RowAccessors() {}

  private static @Nullable Field accessorField() {
    try {
      Field field = AvaticaResultSet.class.getDeclaredField("accessorList");
      field.setAccessible(true);
      return field;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The accessors of an executed result set, indexed by column (element 0 unused), or null when
   * they cannot be reached or do not match the column count.
   */
  static Cursor.Accessor @Nullable [] of(ResultSet resultSet, int columns) {
    if (ACCESSORS == null || !(resultSet instanceof AvaticaResultSet)) {
      return null;
    }
    try {
      Object value = ACCESSORS.get(resultSet);
      if (!(value instanceof List) || ((List<?>) value).size() != columns) {
        return null;
      }
      List<?> list = (List<?>) value;
      Cursor.Accessor[] accessors = new Cursor.Accessor[columns + 1];
      for (int i = 0; i < columns; i++) {
        accessors[i + 1] = (Cursor.Accessor) list.get(i);
      }
      return accessors;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
