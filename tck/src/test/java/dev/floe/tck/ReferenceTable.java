package dev.floe.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A table of the reference lake: how SQL names it, where it lives, and how Iceberg's own reader
 * opens it (the oracle every Floe result is compared with).
 */
record ReferenceTable(String name, String sql, Path folder, Supplier<Table> oracle) {
  @Override
  public String toString() {
    return name;
  }

  /** The table's current schema as Iceberg sees it. */
  Schema schema() {
    return oracle.get().schema();
  }

  /** The Iceberg types of the table's top-level columns, in order. */
  List<Type> types() {
    return schema().columns().stream().map(Types.NestedField::type).toList();
  }

  /** Every row Iceberg's generic reader returns, in canonical form. */
  List<List<String>> expected() {
    return expected(Expressions.alwaysTrue());
  }

  /** The rows Iceberg's generic reader returns for a filter, in canonical form. */
  List<List<String>> expected(Expression filter) {
    return expected(filter, columnNames());
  }

  /** The named columns of the rows Iceberg's generic reader returns for a filter, canonical. */
  List<List<String>> expected(Expression filter, List<String> columns) {
    Table table = oracle.get();
    Schema schema = table.schema();
    List<Types.NestedField> fields = schema.columns();
    int[] positions = new int[columns.size()];
    List<Type> types = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField field = schema.findField(columns.get(i));
      positions[i] = fields.indexOf(field);
      types.add(field.type());
    }
    List<List<String>> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).where(filter).build()) {
      for (Record record : records) {
        List<String> row = new ArrayList<>(columns.size());
        for (int i = 0; i < positions.length; i++) {
          row.add(Canonical.ofReference(types.get(i), record.get(positions[i])));
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** The names of the table's top-level columns, in order. */
  List<String> columnNames() {
    return schema().columns().stream().map(Types.NestedField::name).toList();
  }

  /** The Iceberg types of the named columns. */
  List<Type> types(List<String> columns) {
    Schema schema = schema();
    return columns.stream().map(c -> schema.findField(c).type()).toList();
  }
}
