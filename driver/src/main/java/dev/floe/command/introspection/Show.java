package dev.floe.command.introspection;

import dev.floe.command.CommandContext;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.jdbc.meta.LakeSchemas;
import dev.floe.jdbc.meta.MetadataPattern;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.parser.stmt.SqlShow;
import dev.floe.planner.spi.LakeCatalog;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlDescribeSchema;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * SHOW and DESCRIBE: each answers with rows under stable column labels, Trino's where Trino has one
 * ({@code Schema}, {@code Table}, {@code Column}/{@code Type}/{@code Extra}/{@code Comment}, {@code
 * Create Table}). Names are resolved by the one resolver, as every statement resolves them.
 */
public final class Show {
  /** The answer of a SHOW or DESCRIBE: its column labels and its rows of strings. */
  public record Result(List<String> labels, List<Object[]> rows) {}

  /** The labels of SHOW COLUMNS and DESCRIBE. */
  public static final List<String> COLUMN_LABELS = List.of("Column", "Type", "Extra", "Comment");

  private final CommandContext connection;

  Show(CommandContext connection) {
    this.connection = connection;
  }

  /** Runs one SHOW or DESCRIBE statement on a connection: its column labels and rows. */
  public static Result query(CommandContext connection, SqlNode node) throws SQLException {
    try {
      return new Show(connection).run(node);
    } catch (RuntimeException e) {
      throw SqlErrors.toSql(e);
    }
  }

  private LakeCatalog catalog() {
    return connection.session().catalog();
  }

  private TableNames names() {
    return new TableNames(catalog());
  }

  Result run(SqlNode node) throws SQLException {
    if (node instanceof SqlDescribeTable) {
      SqlDescribeTable describe = (SqlDescribeTable) node;
      if (describe.getColumn() != null) {
        throw SqlErrors.of(FloeError.NOT_SUPPORTED, "DESCRIBE of one column; use DESCRIBE table");
      }
      return columns(describe.getTable());
    }
    if (node instanceof SqlDescribeSchema) {
      return tables(((SqlDescribeSchema) node).getSchema(), null);
    }
    SqlShow show = (SqlShow) node;
    switch (show.what) {
      case SCHEMAS:
        return schemas();
      case TABLES:
        return tables(show.name, show.like);
      case COLUMNS:
        return columns(show.name);
      default:
        return createTable(show.name);
    }
  }

  private Result schemas() {
    List<Object[]> rows = new ArrayList<>();
    for (List<String> path : LakeSchemas.all(catalog())) {
      rows.add(new Object[] {LakeSchemas.name(path)});
    }
    return new Result(List.of("Schema"), rows);
  }

  private Result tables(SqlIdentifier schema, String like) throws SQLException {
    List<String> path;
    if (schema == null) {
      path = connection.schemaPath();
    } else {
      path = names().schema(SqlNames.parts(schema));
      if (path == null) {
        throw SqlErrors.of(FloeError.SCHEMA_NOT_FOUND, TableNames.display(SqlNames.parts(schema)));
      }
    }
    MetadataPattern pattern = MetadataPattern.of(like);
    List<String> tables = new ArrayList<>(catalog().tableNames(path));
    tables.sort(null);
    List<Object[]> rows = new ArrayList<>();
    for (String table : tables) {
      if (pattern.matches(table)) {
        rows.add(new Object[] {table});
      }
    }
    return new Result(List.of("Table"), rows);
  }

  private List<String> tablePath(SqlIdentifier name) throws SQLException {
    List<String> path = names().table(connection.schemaPath(), SqlNames.parts(name));
    if (path == null) {
      throw SqlErrors.toSql(names().notFound(connection.schemaPath(), SqlNames.parts(name)));
    }
    return path;
  }

  private Result columns(SqlIdentifier name) throws SQLException {
    Table table = catalog().loadTable(tablePath(name));
    Schema schema = table.schema();
    Map<Integer, List<String>> partitioning = new TreeMap<>();
    for (PartitionField field : table.spec().fields()) {
      if (!field.transform().isVoid()) {
        partitioning
            .computeIfAbsent(field.sourceId(), id -> new ArrayList<>())
            .add(transform(field, null));
      }
    }
    List<Object[]> rows = new ArrayList<>();
    for (Types.NestedField field : schema.columns()) {
      List<String> extra = new ArrayList<>();
      if (field.isRequired()) {
        extra.add("not null");
      }
      if (schema.identifierFieldIds().contains(field.fieldId())) {
        extra.add("primary key");
      }
      List<String> transforms = partitioning.get(field.fieldId());
      if (transforms != null) {
        extra.add("partition key " + String.join(", ", transforms));
      }
      rows.add(
          new Object[] {
            field.name(), typeName(field.type()), String.join(", ", extra), field.doc()
          });
    }
    return new Result(COLUMN_LABELS, rows);
  }

  private Result createTable(SqlIdentifier name) throws SQLException {
    List<String> path = tablePath(name);
    Table table = catalog().loadTable(path);
    return new Result(List.of("Create Table"), List.<Object[]>of(new Object[] {ddl(path, table)}));
  }

  /**
   * Floe DDL that creates a table like this one: its columns (types, NOT NULL, comments), its
   * PRIMARY KEY (identifier fields), partition spec and properties, with its format version.
   */
  static String ddl(List<String> path, Table table) {
    Schema schema = table.schema();
    StringBuilder sql = new StringBuilder("CREATE TABLE ");
    List<String> quoted = new ArrayList<>();
    for (String part : path) {
      quoted.add(quote(part));
    }
    sql.append(String.join(".", quoted)).append(" (");
    String separator = "\n  ";
    for (Types.NestedField field : schema.columns()) {
      sql.append(separator).append(field(field));
      separator = ",\n  ";
    }
    if (!schema.identifierFieldIds().isEmpty()) {
      List<String> key = new ArrayList<>();
      for (Types.NestedField field : schema.columns()) {
        if (schema.identifierFieldIds().contains(field.fieldId())) {
          key.add(quote(field.name()));
        }
      }
      sql.append(separator).append("PRIMARY KEY (").append(String.join(", ", key)).append(')');
    }
    sql.append("\n)");
    PartitionSpec spec = table.spec();
    List<String> transforms = new ArrayList<>();
    for (PartitionField field : spec.fields()) {
      if (!field.transform().isVoid()) {
        transforms.add(transform(field, quote(schema.findColumnName(field.sourceId()))));
      }
    }
    if (!transforms.isEmpty()) {
      sql.append("\nPARTITIONED BY (").append(String.join(", ", transforms)).append(')');
    }
    List<String> properties = new ArrayList<>();
    if (table instanceof HasTableOperations) {
      properties.add(
          "'format-version' = '"
              + ((HasTableOperations) table).operations().current().formatVersion()
              + "'");
    }
    for (Map.Entry<String, String> entry : new TreeMap<>(table.properties()).entrySet()) {
      properties.add(literal(entry.getKey()) + " = " + literal(entry.getValue()));
    }
    sql.append("\nWITH (\n  ").append(String.join(",\n  ", properties)).append("\n)");
    return sql.toString();
  }

  private static String field(Types.NestedField field) {
    StringBuilder text = new StringBuilder(quote(field.name()));
    text.append(' ').append(typeName(field.type()));
    if (field.isRequired()) {
      text.append(" NOT NULL");
    }
    if (field.doc() != null) {
      text.append(" COMMENT ").append(literal(field.doc()));
    }
    return text.toString();
  }

  /** A transform as PARTITIONED BY writes it: {@code bucket(16, col)}, {@code day(col)}. */
  private static String transform(PartitionField field, String column) {
    String text = field.transform().toString();
    int bracket = text.indexOf('[');
    String name = bracket < 0 ? text : text.substring(0, bracket);
    String argument = bracket < 0 ? null : text.substring(bracket + 1, text.length() - 1);
    if (column == null) {
      return argument == null ? name : name + "(" + argument + ")";
    }
    if (name.equals("identity")) {
      return column;
    }
    return argument == null
        ? name + "(" + column + ")"
        : name + "(" + argument + ", " + column + ")";
  }

  /** The type as Floe's DDL writes it. */
  static String typeName(Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return "BOOLEAN";
      case INTEGER:
        return "INTEGER";
      case LONG:
        return "BIGINT";
      case FLOAT:
        return "REAL";
      case DOUBLE:
        return "DOUBLE";
      case DECIMAL:
        {
          Types.DecimalType decimal = (Types.DecimalType) type;
          return "DECIMAL(" + decimal.precision() + ", " + decimal.scale() + ")";
        }
      case DATE:
        return "DATE";
      case TIME:
        return "TIME(6)";
      case TIMESTAMP:
        return ((Types.TimestampType) type).shouldAdjustToUTC()
            ? "TIMESTAMP(6) WITH LOCAL TIME ZONE"
            : "TIMESTAMP(6)";
      case TIMESTAMP_NANO:
        return ((Types.TimestampNanoType) type).shouldAdjustToUTC()
            ? "TIMESTAMP(9) WITH LOCAL TIME ZONE"
            : "TIMESTAMP(9)";
      case STRING:
        return "VARCHAR";
      case UUID:
        return "UUID";
      case FIXED:
        return "BINARY(" + ((Types.FixedType) type).length() + ")";
      case BINARY:
        return "VARBINARY";
      case LIST:
        return "ARRAY<" + typeName(type.asListType().elementType()) + ">";
      case MAP:
        return "MAP<"
            + typeName(type.asMapType().keyType())
            + ", "
            + typeName(type.asMapType().valueType())
            + ">";
      case STRUCT:
        {
          List<String> fields = new ArrayList<>();
          for (Types.NestedField field : type.asStructType().fields()) {
            fields.add(field(field));
          }
          return "ROW(" + String.join(", ", fields) + ")";
        }
      default:
        return type.toString().toUpperCase(Locale.ROOT);
    }
  }

  private static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  private static String literal(String text) {
    return '\'' + text.replace("'", "''") + '\'';
  }
}
