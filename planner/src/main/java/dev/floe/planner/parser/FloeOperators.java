package dev.floe.planner.parser;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/** Operators that Floe's grammar puts into Calcite's parse trees. */
public final class FloeOperators {
  private FloeOperators() {}

  /**
   * Marks the period of a {@link org.apache.calcite.sql.SqlSnapshot} written {@code FOR VERSION AS
   * OF v} or {@code FOR SYSTEM_VERSION AS OF v}: its one operand is {@code v}, a snapshot id
   * (BIGINT) or a branch or tag name (string). A period that is not this call is a point in time
   * ({@code FOR TIMESTAMP AS OF} and {@code FOR SYSTEM_TIME AS OF}).
   */
  public static final SqlFunction VERSION_AS_OF =
      new SqlFunction(
          "VERSION_AS_OF",
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.ARG0,
          null,
          OperandTypes.ANY,
          SqlFunctionCategory.SYSTEM);
}
