package dev.floe.planner.write;

import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * Assigns a row of values to the table's columns, column by column, into a row of Iceberg's
 * internal representation. Not thread-safe.
 */
final class RowAssigner {
  private final ValueAssigner[] columns;
  private final AssignedRow row;

  /**
   * @param sources for each table column, the SQL type its value comes from (null when unknown)
   */
  RowAssigner(Schema schema, List<WritePlan.SourceType> sources) {
    List<Types.NestedField> fields = schema.columns();
    this.columns = new ValueAssigner[fields.size()];
    for (int i = 0; i < columns.length; i++) {
      Types.NestedField field = fields.get(i);
      columns[i] =
          new ValueAssigner(field.name(), field, i < sources.size() ? sources.get(i) : null);
    }
    this.row = new AssignedRow(columns.length);
  }

  /**
   * The assigned values of {@code values[0..columns)}, in a row that this assigner fills again on
   * its next call: a writer consumes it before then.
   */
  AssignedRow assign(Object[] values) {
    return fill(row, values);
  }

  /** The assigned values of {@code values[0..columns)}, in a new row of their own. */
  AssignedRow assignNew(Object[] values) {
    return fill(new AssignedRow(columns.length), values);
  }

  private AssignedRow fill(AssignedRow target, Object[] values) {
    for (int i = 0; i < columns.length; i++) {
      target.set(i, columns[i].assignInternal(i < values.length ? values[i] : null));
    }
    return target;
  }
}
