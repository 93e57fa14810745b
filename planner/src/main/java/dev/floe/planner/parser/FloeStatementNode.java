package dev.floe.planner.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * A statement of Floe's own grammar (DDL, SHOW, maintenance). Floe runs these itself; Calcite
 * never validates them. Each subclass keeps what it parsed in typed fields; its operands are its
 * SQL parts, for tools that walk the tree.
 */
public abstract class FloeStatementNode extends SqlCall {
  private final SqlOperator operator;

  protected FloeStatementNode(String name, SqlKind kind, SqlParserPos pos) {
    super(pos);
    this.operator = new SqlSpecialOperator(name, kind);
  }

  /** The SQL parts of this statement, in order; null where absent. */
  protected abstract List<SqlNode> parts();

  @Override
  public SqlOperator getOperator() {
    return operator;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.copyOf(parts());
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(operator.getName());
    for (SqlNode part : parts()) {
      if (part != null) {
        part.unparse(writer, 0, 0);
      }
    }
  }
}
