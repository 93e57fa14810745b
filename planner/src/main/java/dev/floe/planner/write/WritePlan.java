package dev.floe.planner.write;

import dev.floe.planner.session.LakeSession;
import java.util.List;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.iceberg.expressions.Expression;

/**
 * What one DML statement does at run time, handed from the plan to {@link LakeWrites}.
 *
 * @param session the connection's session
 * @param path the table's path under the root
 * @param operation INSERT, DELETE, UPDATE or MERGE. A MERGE row holds input values (as many as
 *     {@code inputTypes} names, less three), the index of the clause that applies to it in {@code
 *     mergeClauses}, and the changed target row's data file and position (null for an insert)
 * @param inputTypes the SQL type of each input field, to convert values exactly
 * @param updateColumns for UPDATE, the table column index each new value goes to
 * @param deleteFilter for DELETE and UPDATE, a filter selecting at least every row changed
 * @param mergeClauses for MERGE, what each WHEN clause does with the input values
 */
public record WritePlan(
    LakeSession session,
    List<String> path,
    TableModify.Operation operation,
    List<SourceType> inputTypes,
    List<Integer> updateColumns,
    Expression deleteFilter,
    List<MergeClause> mergeClauses) {
  /** A plan of an INSERT, DELETE or UPDATE. */
  public WritePlan(
      LakeSession session,
      List<String> path,
      TableModify.Operation operation,
      List<SourceType> inputTypes,
      List<Integer> updateColumns,
      Expression deleteFilter) {
    this(session, path, operation, inputTypes, updateColumns, deleteFilter, List.of());
  }

  /** A MERGE row that deletes its target row. */
  public static final int MERGE_DELETE = 1;

  /** A MERGE row that inserts a new row. */
  public static final int MERGE_INSERT = 2;

  /** A MERGE row that replaces its target row by a new one. */
  public static final int MERGE_UPDATE = 3;

  /**
   * The SQL type of an input value, as far as conversion needs it.
   *
   * @param typeName the SQL type name, as in {@link org.apache.calcite.sql.type.SqlTypeName}
   * @param precision the precision, or -1
   * @param scale the scale, or -1
   * @param children the types nested in a ROW, ARRAY or MAP (fields; element; key and value)
   */
  public record SourceType(String typeName, int precision, int scale, List<SourceType> children) {
    /** A type without nested types. */
    public SourceType(String typeName, int precision, int scale) {
      this(typeName, precision, scale, List.of());
    }

    /**
     * The source type of values of a SQL type, as Calcite's runtime holds them, with the types
     * nested in it: a ROW's fields, an ARRAY's element, a MAP's key and value (a TIMESTAMP(0)
     * inside a ROW is held in milliseconds, a TIMESTAMP(6) in microseconds).
     */
    public static SourceType of(RelDataType type) {
      SqlTypeName name = type.getSqlTypeName();
      List<SourceType> children = new java.util.ArrayList<>();
      if (type.isStruct()) {
        type.getFieldList().forEach(f -> children.add(of(f.getType())));
      } else if (name == SqlTypeName.ARRAY && type.getComponentType() != null) {
        children.add(of(type.getComponentType()));
      } else if (name == SqlTypeName.MAP && type.getKeyType() != null) {
        children.add(of(type.getKeyType()));
        children.add(of(java.util.Objects.requireNonNull(type.getValueType())));
      }
      return new SourceType(
          name.name(),
          name.allowsPrec() ? type.getPrecision() : -1,
          name.allowsScale() ? type.getScale() : -1,
          List.copyOf(children));
    }

    /**
     * The type of the {@code i}th nested type (a field, the element, the key or value); or null.
     */
    public SourceType child(int i) {
      return i < children.size() ? children.get(i) : null;
    }

    /**
     * Values that come straight from JDBC parameters (a batch): each value's SQL type is that of
     * its Java class ({@code Long} is BIGINT, {@code String} VARCHAR, ...).
     */
    public static final SourceType JDBC = new SourceType("JDBC", -1, -1);
  }

  /**
   * One WHEN clause of a MERGE.
   *
   * @param action {@link #MERGE_DELETE}, {@link #MERGE_INSERT} or {@link #MERGE_UPDATE}
   * @param columns for each table column, the index of the input value assigned to it, or -1 for
   *     NULL (a column an INSERT clause does not name); empty for a DELETE
   */
  public record MergeClause(int action, List<Integer> columns) {}
}
