package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.name.NearestName;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * A column the validator cannot find, reported with the nearest column of the tables the statement
 * reads ({@code Cannot find column nmae ...; did you mean name?}), as PostgreSQL and DuckDB do.
 */
final class UnknownColumns {
  private UnknownColumns() {}

  /** Calcite's words for a column it cannot find, in any table or in a named one. */
  private static final Pattern NOT_FOUND =
      Pattern.compile(
          "^(?:Column '([^']+)' not found in (?:any table|table '[^']+')"
              + "|Unknown target column '([^']+)')");

  /**
   * The failure to report: a column not found, with the nearest column named (42S22), or the
   * validator's failure as it was.
   *
   * @param mount the lake root's schema in Calcite's root, the first part of every table name the
   *     statement reads
   */
  static RuntimeException hinted(
      CalciteContextException failure,
      SqlNode statement,
      Prepare.CatalogReader reader,
      String mount) {
    Throwable cause = failure.getCause();
    Matcher column = NOT_FOUND.matcher(cause == null ? "" : String.valueOf(cause.getMessage()));
    if (!column.find()) {
      return failure;
    }
    Set<String> columns = new LinkedHashSet<>();
    statement.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlIdentifier identifier) {
            List<String> names = identifier.names;
            if (names.size() > 1 && names.get(0).equals(mount)) {
              Prepare.PreparingTable table = reader.getTable(names);
              if (table != null) {
                columns.addAll(table.getRowType().getFieldNames());
              }
            }
            return null;
          }
        });
    String name = column.group(1) != null ? column.group(1) : column.group(2);
    String hint = NearestName.hint(name, columns);
    if (hint.isEmpty()) {
      return failure;
    }
    return FloeError.COLUMN_NOT_FOUND.error(failure, name + ": " + failure.getMessage() + hint);
  }
}
