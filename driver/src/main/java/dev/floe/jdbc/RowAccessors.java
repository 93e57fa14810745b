package dev.floe.jdbc;

import java.lang.reflect.Field;
import java.sql.ResultSet;
import java.util.List;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.util.Cursor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The per-column accessors behind a Calcite result set, so that Floe's getters read the current row
 * through the same accessor Avatica would use, with the same conversions, but without Avatica's
 * per-call lookup and Floe's forwarding around it: on a full scan those were half of the time spent
 * per row. Avatica keeps the accessors in a protected field of {@link AvaticaResultSet}, filled
 * once the result set executes; where it cannot be read, Floe goes through the result set's own
 * getters.
 */
final class RowAccessors {
  private static final @Nullable Field ACCESSORS = field(AvaticaResultSet.class, "accessorList");

  private static final @Nullable Field SIGNATURE = field(AvaticaResultSet.class, "signature");
  private static final @Nullable Field GETTER = field(accessorImpl(), "getter");
  private static final java.lang.reflect.@Nullable Method GET_OBJECT = getObject();

  private RowAccessors() {}

  private static java.lang.reflect.@Nullable Method getObject() {
    try {
      java.lang.reflect.Method method =
          Class.forName("org.apache.calcite.avatica.util.AbstractCursor$Getter")
              .getMethod("getObject");
      method.setAccessible(true);
      return method;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  private static @Nullable Class<?> accessorImpl() {
    try {
      return Class.forName("org.apache.calcite.avatica.util.AbstractCursor$AccessorImpl");
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  private static @Nullable Field field(@Nullable Class<?> owner, String name) {
    if (owner == null) {
      return null;
    }
    try {
      Field field = owner.getDeclaredField(name);
      field.setAccessible(true);
      return field;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** The SQL row type Calcite prepared for a result set, or null where it cannot be read. */
  static org.apache.calcite.rel.type.@Nullable RelDataType rowType(ResultSet resultSet) {
    try {
      Object signature = SIGNATURE == null ? null : SIGNATURE.get(resultSet);
      return signature instanceof org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature
          ? ((org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature<?>) signature).rowType
          : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Whether {@link #columns} can read the columns Calcite prepared for a result set. */
  static boolean readsColumns() {
    return SIGNATURE != null;
  }

  /** The columns Calcite prepared for a result set, or null where they cannot be read. */
  static java.util.@Nullable List<org.apache.calcite.avatica.ColumnMetaData> columns(
      ResultSet resultSet) {
    try {
      Object signature = SIGNATURE == null ? null : SIGNATURE.get(resultSet);
      return signature instanceof org.apache.calcite.avatica.Meta.Signature
          ? ((org.apache.calcite.avatica.Meta.Signature) signature).columns
          : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Whether {@link #raw} can read the value behind an accessor. */
  static boolean readsRaw(Cursor.Accessor accessor) {
    return GETTER != null && GET_OBJECT != null && GETTER.getDeclaringClass().isInstance(accessor);
  }

  /**
   * The run-time value behind an accessor, as Calcite produced it, before Avatica converts it; the
   * caller checked {@link #readsRaw}.
   */
  static Object raw(Cursor.Accessor accessor) throws java.sql.SQLException {
    try {
      return GET_OBJECT.invoke(GETTER.get(accessor));
    } catch (java.lang.reflect.InvocationTargetException e) {
      if (e.getCause() instanceof java.sql.SQLException) {
        throw (java.sql.SQLException) e.getCause();
      }
      throw new IllegalStateException("Cannot read a column's value", e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot read a column's value", e);
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
