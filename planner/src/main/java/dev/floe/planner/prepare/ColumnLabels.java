package dev.floe.planner.prepare;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.ColumnMetaData;

/**
 * The names of a query's unnamed columns, as Trino gives them: {@code SELECT 1, a + b FROM t} has
 * columns {@code _col0} and {@code _col1}, numbered from 0 by position, where Calcite's validator
 * names them {@code EXPR$0} and {@code EXPR$1} (it numbers the same way). The result's labels and
 * column names (docs/sql.md, "Column names") and CREATE TABLE AS SELECT's new columns take these
 * names; inside a query, an outer query still reaches a subquery's unnamed column only by Calcite's
 * name, as Trino reaches it by none.
 */
public final class ColumnLabels {
  private static final Pattern GENERATED = Pattern.compile("EXPR\\$(\\d+)");

  private ColumnLabels() {}

  /** The name a column named {@code calciteName} by the validator is shown with. */
  public static String of(String calciteName) {
    if (calciteName == null) {
      return null;
    }
    Matcher m = GENERATED.matcher(calciteName);
    return m.matches() ? "_col" + m.group(1) : calciteName;
  }

  /** Renames, in place, the unnamed columns of a prepared statement's result. */
  static void relabel(List<ColumnMetaData> columns) {
    for (int i = 0; i < columns.size(); i++) {
      ColumnMetaData c = columns.get(i);
      String label = of(c.label);
      String name = of(c.columnName);
      if (label.equals(c.label) && java.util.Objects.equals(name, c.columnName)) {
        continue;
      }
      columns.set(
          i,
          new ColumnMetaData(
              c.ordinal,
              c.autoIncrement,
              c.caseSensitive,
              c.searchable,
              c.currency,
              c.nullable,
              c.signed,
              c.displaySize,
              label,
              name,
              c.schemaName,
              c.precision,
              c.scale,
              c.tableName,
              c.catalogName,
              c.type,
              c.readOnly,
              c.writable,
              c.definitelyWritable,
              c.columnClassName));
    }
  }
}
