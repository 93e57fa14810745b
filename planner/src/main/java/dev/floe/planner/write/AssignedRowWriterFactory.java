package dev.floe.planner.write;

import dev.floe.error.FloeError;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.RegistryBasedFileWriterFactory;
import org.apache.iceberg.data.parquet.InternalWriter;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.parquet.ParquetFormatModel;

/**
 * Makes the data files of {@link AssignedRow}s: Iceberg's own file writer factory (the one its
 * generic writer uses, so the files get the same table properties, metrics configuration, sort
 * order id and partition) with Iceberg's internal Parquet value writer, which takes values in the
 * form assignment produces, so a value is converted once, when it is assigned. Thread-safe.
 */
final class AssignedRowWriterFactory extends RegistryBasedFileWriterFactory<AssignedRow, Schema> {
  static {
    // Iceberg finds the value writer for a row class in its registry of format models.
    FormatModelRegistry.register(
        ParquetFormatModel.create(
            AssignedRow.class,
            Schema.class,
            (schema, fileSchema, engineSchema) ->
                InternalWriter.create(schema.asStruct(), fileSchema),
            (schema, fileSchema, engineSchema, constants) -> {
              throw FloeError.INTERNAL.error("assigned rows are written, never read");
            }));
  }

  AssignedRowWriterFactory(Table table) {
    super(
        table,
        FileFormat.PARQUET,
        AssignedRow.class,
        table.schema(),
        // Floe clusters rows by partition but does not sort them: its files claim no sort order
        // (order 0), whatever the table's (docs/limits.md, "Known limits").
        SortOrder.unsorted(),
        FileFormat.PARQUET,
        null,
        null,
        null,
        Map.of(),
        table.schema(),
        null);
  }
}
