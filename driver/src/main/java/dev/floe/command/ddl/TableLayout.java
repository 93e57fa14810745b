package dev.floe.command.ddl;

import dev.floe.error.FloeError;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.parser.ddl.PartitionField;
import dev.floe.planner.parser.ddl.SqlAlterTableLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.ReplaceSortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Term;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Partition evolution and the write order of a table (docs/sql.md, "DDL"), in Spark's syntax, one
 * commit each through Iceberg's {@link UpdatePartitionSpec} and {@link ReplaceSortOrder}: files
 * written before keep their spec and are read, pruned and deleted from as such; new files take the
 * new spec. Columns are resolved as every column name is ({@link ColumnNames}).
 */
final class TableLayout {
  private TableLayout() {}

  /** Applies one layout change to a table and commits it. */
  static void alter(Table table, List<String> path, SqlAlterTableLayout alter) {
    String name = String.join(".", path);
    List<String> columns = ColumnNames.names(table.schema().columns());
    try {
      switch (alter.action) {
        case ADD_PARTITION_FIELD:
          {
            UpdatePartitionSpec update = table.updateSpec();
            add(update, term(columns, alter.field, name), alter.fieldName);
            update.commit();
            break;
          }
        case DROP_PARTITION_FIELD:
          {
            UpdatePartitionSpec update = table.updateSpec();
            remove(update, table, columns, alter.field, name);
            update.commit();
            break;
          }
        case REPLACE_PARTITION_FIELD:
          {
            UpdatePartitionSpec update = table.updateSpec();
            remove(update, table, columns, alter.field, name);
            add(update, term(columns, alter.replacement, name), alter.fieldName);
            update.commit();
            break;
          }
        default:
          {
            Transaction txn = table.newTransaction();
            ReplaceSortOrder order = txn.replaceSortOrder();
            for (SqlAlterTableLayout.SortField field : alter.order) {
              Term term = term(columns, field.field(), name);
              boolean nullsFirst =
                  field.nullsFirst() == null ? !field.descending() : field.nullsFirst();
              NullOrder nulls = nullsFirst ? NullOrder.NULLS_FIRST : NullOrder.NULLS_LAST;
              if (field.descending()) {
                order.desc(term, nulls);
              } else {
                order.asc(term, nulls);
              }
            }
            order.commit();
            txn.updateProperties()
                .set(TableProperties.WRITE_DISTRIBUTION_MODE, alter.distribution)
                .commit();
            txn.commitTransaction();
          }
      }
    } catch (ValidationException | IllegalArgumentException | IllegalStateException e) {
      throw FloeError.VALIDATION.error(e, "Cannot alter table " + name + ": " + e.getMessage());
    }
  }

  private static void add(UpdatePartitionSpec update, Term term, @Nullable SqlIdentifier name) {
    if (name == null) {
      update.addField(term);
    } else {
      update.addField(ColumnNames.newName(SqlNames.part(name)), term);
    }
  }

  /**
   * Removes a partition field named by its transform ({@code bucket(16, id)}) or by its name (a
   * bare name that names a field of the current spec, as Spark reads it; else the identity field of
   * that column).
   */
  private static void remove(
      UpdatePartitionSpec update,
      Table table,
      List<String> columns,
      PartitionField field,
      String name) {
    if (field.transform().equals("identity")) {
      List<String> fields = new ArrayList<>();
      for (org.apache.iceberg.PartitionField existing : table.spec().fields()) {
        fields.add(existing.name());
      }
      String found = ColumnNames.find(fields, SqlNames.part(field.column()), name);
      if (found != null) {
        update.removeField(found);
        return;
      }
    }
    update.removeField(term(columns, field, name));
  }

  /** The Iceberg term of a column or transform of one, its column resolved by the one resolver. */
  private static Term term(List<String> columns, PartitionField field, String table) {
    String column = ColumnNames.resolve(columns, SqlNames.part(field.column()), table);
    switch (field.transform()) {
      case "identity":
        return Expressions.ref(column);
      case "bucket":
        return Expressions.bucket(column, field.argument());
      case "truncate":
        return Expressions.truncate(column, field.argument());
      case "year":
        return Expressions.year(column);
      case "month":
        return Expressions.month(column);
      case "day":
        return Expressions.day(column);
      case "hour":
        return Expressions.hour(column);
      default:
        throw FloeError.SYNTAX.error("unknown partition transform " + field.transform());
    }
  }
}
