package dev.floe.planner.name;

import dev.floe.error.FloeError;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.types.Types;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The one way a column name written in SQL finds a column of a table, with the rules {@link
 * TableNames} applies to folders: a double-quoted name matches a column exactly; an unquoted name
 * matches case-insensitively, and when it matches several columns (case twins written by another
 * tool) it is ambiguous, 42000, naming both, and only quoting can choose. INSERT column lists,
 * MERGE clauses, UPDATE SET targets, PARTITION clauses, DDL (ADD, DROP, RENAME and ALTER COLUMN,
 * PRIMARY KEY, PARTITIONED BY) and CREATE TABLE AS SELECT resolve their column names here.
 *
 * <p>A new column is named as written when quoted, in lower case otherwise, and refused (42S21)
 * when a column of the table already bears that name or one differing from it only in case: Floe
 * never creates case twins.
 */
public final class ColumnNames {
  private ColumnNames() {}

  /**
   * The column a name denotes among a table's columns, or null when none matches.
   *
   * @param table the table's name, for messages
   * @throws dev.floe.error.FloeException AMBIGUOUS_NAME when an unquoted name matches case twins
   */
  public static @Nullable String find(List<String> columns, TableNames.Part name, String table) {
    int index = find(columns, name, table, false);
    return index < 0 ? null : columns.get(index);
  }

  /**
   * The column a name denotes among a table's columns.
   *
   * @param table the table's name, for messages
   * @throws dev.floe.error.FloeException COLUMN_NOT_FOUND (42S22) when none matches, AMBIGUOUS_NAME
   *     (42000) when an unquoted name matches case twins
   */
  public static String resolve(List<String> columns, TableNames.Part name, String table) {
    return columns.get(indexOf(columns, name, table));
  }

  /** As {@link #resolve}, the column's position in the list. */
  public static int indexOf(List<String> columns, TableNames.Part name, String table) {
    return find(columns, name, table, true);
  }

  /** As {@link #resolve}, among a table's Iceberg fields: the field a name denotes. */
  public static Types.NestedField field(
      List<Types.NestedField> fields, TableNames.Part name, String table) {
    return fields.get(indexOf(names(fields), name, table));
  }

  /** The names of fields, in order. */
  public static List<String> names(List<Types.NestedField> fields) {
    List<String> names = new ArrayList<>(fields.size());
    for (Types.NestedField field : fields) {
      names.add(field.name());
    }
    return names;
  }

  private static int find(
      List<String> columns, TableNames.Part name, String table, boolean required) {
    int found = -1;
    for (int i = 0; i < columns.size(); i++) {
      if (name.spells(columns.get(i))) {
        if (found >= 0) {
          throw FloeError.AMBIGUOUS_NAME.error(
              name.text() + " in " + table,
              "the columns "
                  + quote(columns.get(found))
                  + " and "
                  + quote(columns.get(i))
                  + ", which differ only in case");
        }
        found = i;
      }
    }
    if (found < 0 && required) {
      throw FloeError.COLUMN_NOT_FOUND.error(
          name + " in " + table + NearestName.hint(name.text(), columns));
    }
    return found;
  }

  /**
   * The column a validator that cannot tell a quoted name from an unquoted one takes a name for:
   * the one spelled exactly so, else the first that matches ignoring case; -1 when none matches.
   * Names written in SQL are resolved by {@link #resolve} first wherever Floe reads them, so this
   * only ever chooses between case twins for a name that spells one of them exactly.
   */
  public static int exactFirst(List<String> columns, String name) {
    int ignoringCase = -1;
    for (int i = 0; i < columns.size(); i++) {
      String column = columns.get(i);
      if (column.equals(name)) {
        return i;
      }
      if (ignoringCase < 0 && column.equalsIgnoreCase(name)) {
        ignoringCase = i;
      }
    }
    return ignoringCase;
  }

  /** The name a new column gets: as written when quoted, in lower case otherwise. */
  public static String newName(TableNames.Part name) {
    return name.quoted() ? name.text() : name.text().toLowerCase(Locale.ROOT);
  }

  /**
   * Refuses a new column name that a column of the table bears, or one that differs from it only in
   * case.
   *
   * @param columns the table's other columns (for a rename, without the column renamed)
   * @param table the table's name, for messages
   * @throws dev.floe.error.FloeException COLUMN_EXISTS (42S21)
   */
  public static void checkNew(List<String> columns, String name, String table) {
    String taken = taken(columns, name);
    if (taken == null) {
      return;
    }
    if (taken.equals(name)) {
      throw FloeError.COLUMN_EXISTS.error(
          quote(name), "a column of " + table + " bears it already");
    }
    throw FloeError.COLUMN_EXISTS.error(
        quote(name),
        "the column "
            + quote(taken)
            + " of "
            + table
            + " differs from it only in case, and Floe never creates case twins");
  }

  /**
   * The column that bears a new name already, exactly or differing only in case; null when the name
   * is free.
   */
  public static @Nullable String taken(List<String> columns, String name) {
    String twin = null;
    for (String column : columns) {
      if (column.equals(name)) {
        return column;
      }
      if (twin == null && column.equalsIgnoreCase(name)) {
        twin = column;
      }
    }
    return twin;
  }

  /**
   * Names for columns read from a file's header: each as written, but an empty name, or one that an
   * earlier column bears (exactly or differing only in case), becomes {@code column<i>} (its
   * position from 0), suffixed {@code _2}, {@code _3}... until no other column bears it.
   */
  public static List<String> fromHeader(List<String> header) {
    List<String> names = new ArrayList<>(header.size());
    for (int i = 0; i < header.size(); i++) {
      String name = header.get(i);
      if (name.isEmpty() || taken(names, name) != null) {
        String generated = "column" + i;
        name = generated;
        for (int n = 2; taken(names, name) != null || laterTaken(header, i, name); n++) {
          name = generated + "_" + n;
        }
      }
      names.add(name);
    }
    return names;
  }

  /** Whether a header name after position i bears a generated name (which it keeps). */
  private static boolean laterTaken(List<String> header, int i, String name) {
    return taken(header.subList(i + 1, header.size()), name) != null;
  }

  /** A column name as SQL quotes it, for messages. */
  public static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
