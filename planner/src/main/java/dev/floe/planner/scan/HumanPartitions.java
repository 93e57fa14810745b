package dev.floe.planner.scan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The {@code partition} column of a metadata table ({@code t$partitions}, {@code t$files}, ...)
 * with values a person reads, as Trino shows them: a year, month or hour partition is written as
 * Iceberg writes it in a folder name ({@code 2024}, {@code 2024-01}, {@code 2024-01-05-10}) rather
 * than as the number of years, months or hours since 1970 that Iceberg stores ({@code 648}). Days,
 * buckets, truncated values and identity partitions keep their type: their stored values already
 * read as they mean.
 */
final class HumanPartitions {
  /** The name of the column that holds a file's or a group's partition values. */
  private static final String COLUMN = "partition";

  /** The transforms whose stored value is a count since 1970, shown as text. */
  private static final List<String> COUNTS_SINCE_1970 = List.of("year", "month", "hour");

  private final int position;
  private final Types.StructType stored;
  private final Map<Integer, Transform<?, ?>> shown;

  private HumanPartitions(
      int position, Types.StructType stored, Map<Integer, Transform<?, ?>> shown) {
    this.position = position;
    this.stored = stored;
    this.shown = shown;
  }

  /**
   * How a metadata table of {@code table} is shown: null when its schema has no partition column
   * holding a year, month or hour partition.
   */
  static @Nullable HumanPartitions of(Schema metadata, Table table) {
    List<Types.NestedField> columns = metadata.columns();
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField column = columns.get(i);
      if (column.name().equals(COLUMN) && column.type().isStructType()) {
        Map<Integer, Transform<?, ?>> transforms = new HashMap<>();
        for (PartitionSpec spec : table.specs().values()) {
          for (PartitionField field : spec.fields()) {
            if (COUNTS_SINCE_1970.contains(field.transform().toString())) {
              transforms.put(field.fieldId(), field.transform());
            }
          }
        }
        Types.StructType struct = column.type().asStructType();
        Map<Integer, Transform<?, ?>> shown = new HashMap<>();
        for (Types.NestedField field : struct.fields()) {
          Transform<?, ?> transform = transforms.get(field.fieldId());
          if (transform != null && field.type().typeId() == Type.TypeID.INTEGER) {
            shown.put(field.fieldId(), transform);
          }
        }
        return shown.isEmpty() ? null : new HumanPartitions(i, struct, shown);
      }
    }
    return null;
  }

  /** The schema as shown: the partition fields of years, months and hours are text. */
  Schema schema(Schema metadata) {
    List<Types.NestedField> fields = new ArrayList<>();
    for (Types.NestedField field : stored.fields()) {
      fields.add(
          shown.containsKey(field.fieldId())
              ? Types.NestedField.of(
                  field.fieldId(),
                  field.isOptional(),
                  field.name(),
                  Types.StringType.get(),
                  field.doc())
              : field);
    }
    List<Types.NestedField> columns = new ArrayList<>(metadata.columns());
    Types.NestedField column = columns.get(position);
    columns.set(
        position,
        Types.NestedField.of(
            column.fieldId(),
            column.isOptional(),
            column.name(),
            Types.StructType.of(fields),
            column.doc()));
    return new Schema(columns, metadata.identifierFieldIds());
  }

  /** A row of the metadata table as shown. */
  StructLike row(StructLike row) {
    return new Shown(row);
  }

  /** A row whose partition column holds the shown values. */
  private final class Shown implements StructLike {
    private final StructLike row;

    Shown(StructLike row) {
      this.row = row;
    }

    @Override
    public int size() {
      return row.size();
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      if (pos != position) {
        return row.get(pos, javaClass);
      }
      StructLike values = row.get(pos, StructLike.class);
      return values == null ? null : javaClass.cast(new Values(values));
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("a metadata row is read-only");
    }
  }

  /** The partition values of one row, years, months and hours as text. */
  private final class Values implements StructLike {
    private final StructLike partition;

    Values(StructLike partition) {
      this.partition = partition;
    }

    @Override
    public int size() {
      return stored.fields().size();
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      Transform<?, ?> transform = shown.get(stored.fields().get(pos).fieldId());
      if (transform == null) {
        return partition.get(pos, javaClass);
      }
      Integer value = partition.get(pos, Integer.class);
      return javaClass.cast(value == null ? null : human(transform, value));
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("a metadata row is read-only");
    }
  }

  @SuppressWarnings("unchecked")
  private static String human(Transform<?, ?> transform, Integer value) {
    return ((Transform<?, Integer>) transform).toHumanString(Types.IntegerType.get(), value);
  }
}
