package dev.floe.tck.fuzz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What the generator knows of the table while it writes a history: its columns, partition fields,
 * format version, and some values each column has held (so predicates hit rows). It is the
 * generator's model only; the oracles compare engines, never this model.
 */
final class TableModel {
  /** The table's name in both engines. */
  static final String TABLE = "t";

  /** A column; {@code id} is the generator's and stays with the column across renames. */
  static final class Column {
    final int id;
    String name;
    ColumnType type;
    final boolean required;

    /** Whether a partition field ever used this column (Iceberg then refuses to drop it). */
    boolean partitionSource;

    final List<Object> seen = new ArrayList<>();

    Column(int id, String name, ColumnType type, boolean required) {
      this.id = id;
      this.name = name;
      this.type = type;
      this.required = required;
    }

    Column copy() {
      Column c = new Column(id, name, type, required);
      c.partitionSource = partitionSource;
      c.seen.addAll(seen);
      return c;
    }

    @Override
    public String toString() {
      return name + " " + type;
    }
  }

  /** A partition field: {@code identity}, {@code bucket}, {@code truncate}, {@code year}... */
  record PartitionField(String transform, int param, int columnId) {
    String floeSql(TableModel model) {
      String column = model.column(columnId).name;
      switch (transform) {
        case "identity":
          return column;
        case "bucket":
        case "truncate":
          return transform + "(" + param + ", " + column + ")";
        default:
          return transform + "(" + column + ")";
      }
    }
  }

  final int formatVersion;
  final List<Column> columns = new ArrayList<>();
  final List<PartitionField> partitioning = new ArrayList<>();
  final Map<String, String> properties = new HashMap<>();
  private int nextColumn;

  /** Whether the partition spec changed since the table was created. */
  boolean specEvolved;

  TableModel(int formatVersion) {
    this.formatVersion = formatVersion;
  }

  TableModel copy() {
    TableModel m = new TableModel(formatVersion);
    columns.forEach(c -> m.columns.add(c.copy()));
    m.partitioning.addAll(partitioning);
    m.properties.putAll(properties);
    m.nextColumn = nextColumn;
    m.specEvolved = specEvolved;
    return m;
  }

  Column column(int id) {
    for (Column c : columns) {
      if (c.id == id) {
        return c;
      }
    }
    throw new IllegalArgumentException("No column " + id);
  }

  boolean hasColumn(int id) {
    return columns.stream().anyMatch(c -> c.id == id);
  }

  /** Adds a column named {@code c<n>} with a fresh number. */
  Column addColumn(ColumnType type, boolean required) {
    int id = nextColumn++;
    Column c = new Column(id, "c" + id, type, required);
    columns.add(c);
    return c;
  }

  /** A new column name nobody used yet. */
  String freshName() {
    return "c" + nextColumn++;
  }

  /** A random column type allowed in this table's format version. */
  ColumnType randomType(Random rnd) {
    List<ColumnType.Kind> kinds = new ArrayList<>(ColumnType.V2_KINDS);
    if (formatVersion >= 3) {
      kinds.add(ColumnType.Kind.TIMESTAMP_NS);
      kinds.add(ColumnType.Kind.TIMESTAMPTZ_NS);
    }
    // Integers, strings and dates are the columns predicates, groups and joins meet most.
    kinds.add(ColumnType.Kind.INT);
    kinds.add(ColumnType.Kind.VARCHAR);
    kinds.add(ColumnType.Kind.BIGINT);
    kinds.add(ColumnType.Kind.DATE);
    ColumnType.Kind kind = kinds.get(rnd.nextInt(kinds.size()));
    switch (kind) {
      case DECIMAL:
        {
          int precision = 1 + rnd.nextInt(38);
          int scale = rnd.nextInt(Math.min(precision, 6) + 1);
          return ColumnType.decimal(precision, scale);
        }
      case FIXED:
        return ColumnType.fixed(1 + rnd.nextInt(4));
      default:
        return ColumnType.of(kind);
    }
  }

  /** Transforms Iceberg allows on a column of this type. */
  static List<String> transforms(ColumnType type) {
    List<String> result = new ArrayList<>();
    result.add("identity");
    switch (type.kind()) {
      case INT:
      case BIGINT:
      case DECIMAL:
      case VARCHAR:
      case BINARY:
        result.add("bucket");
        result.add("truncate");
        break;
      case DATE:
        result.add("bucket");
        result.add("year");
        result.add("month");
        result.add("day");
        break;
      case TIMESTAMP:
      case TIMESTAMPTZ:
      case TIMESTAMP_NS:
      case TIMESTAMPTZ_NS:
        result.add("bucket");
        result.add("year");
        result.add("month");
        result.add("day");
        result.add("hour");
        break;
      case TIME:
      case UUID:
      case FIXED:
        result.add("bucket");
        break;
      case REAL:
      case DOUBLE:
        break;
      default:
        break;
    }
    return result;
  }

  /** The columns of an identity partition field. */
  List<Column> identityPartitionColumns() {
    List<Column> result = new ArrayList<>();
    for (PartitionField f : partitioning) {
      if (f.transform().equals("identity")) {
        result.add(column(f.columnId()));
      }
    }
    return result;
  }

  /** Remembers a value a column now holds, for predicates to find it. */
  void saw(Column c, Object value, Random rnd) {
    if (value == null) {
      return;
    }
    if (c.seen.size() < 24) {
      c.seen.add(value);
    } else {
      c.seen.set(rnd.nextInt(c.seen.size()), value);
    }
  }

  /** A value the column held, or a new random one. */
  Object someValue(Column c, Random rnd) {
    if (!c.seen.isEmpty() && rnd.nextInt(4) != 0) {
      return c.seen.get(rnd.nextInt(c.seen.size()));
    }
    return Values.random(rnd, c.type, 0);
  }

  String columnList() {
    return String.join(", ", columns.stream().map(c -> c.name).toList());
  }
}
