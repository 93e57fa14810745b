package dev.floe.planner.write;

import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/** Assigns a row of Calcite values to a new Iceberg record of the table schema, column by column. */
final class RowAssigner {
  private final Schema schema;
  private final ValueAssigner[] columns;

  /**
   * @param sources for each table column, the SQL type its value comes from (null when unknown)
   */
  RowAssigner(Schema schema, List<WritePlan.SourceType> sources) {
    this.schema = schema;
    List<Types.NestedField> fields = schema.columns();
    this.columns = new ValueAssigner[fields.size()];
    for (int i = 0; i < columns.length; i++) {
      Types.NestedField field = fields.get(i);
      columns[i] =
          new ValueAssigner(field.name(), field, i < sources.size() ? sources.get(i) : null);
    }
  }

  /** A new record holding the assigned values of {@code values[0..columns)}. */
  Record assign(Object[] values) {
    Record record = GenericRecord.create(schema);
    for (int i = 0; i < columns.length; i++) {
      record.set(i, columns[i].assign(i < values.length ? values[i] : null));
    }
    return record;
  }

  /** The value assigner of one column, for UPDATE's new values. */
  ValueAssigner column(int index) {
    return columns[index];
  }
}
