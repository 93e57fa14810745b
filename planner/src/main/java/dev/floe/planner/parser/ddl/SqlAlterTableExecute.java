package dev.floe.planner.parser.ddl;

import dev.floe.planner.parser.FloeStatementNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code ALTER TABLE name EXECUTE procedure(arg => value, ...) [WHERE condition]} (Trino's table
 * procedures). Arguments are named ({@code name => value}) or positional ({@link Argument#name}
 * null).
 */
public final class SqlAlterTableExecute extends FloeStatementNode {
  /** One argument: its name (null when positional) and its value expression. */
  public record Argument(SqlIdentifier name, SqlNode value) {}

  public final SqlIdentifier table;
  public final SqlIdentifier procedure;
  public final List<Argument> arguments;
  /** The WHERE condition, or null. */
  public final SqlNode where;

  public SqlAlterTableExecute(
      SqlParserPos pos,
      SqlIdentifier table,
      SqlIdentifier procedure,
      List<Argument> arguments,
      SqlNode where) {
    super("ALTER TABLE EXECUTE", SqlKind.ALTER_TABLE, pos);
    this.table = table;
    this.procedure = procedure;
    this.arguments = List.copyOf(arguments);
    this.where = where;
  }

  @Override
  protected List<SqlNode> parts() {
    List<SqlNode> parts = new ArrayList<>();
    parts.add(table);
    parts.add(procedure);
    for (Argument argument : arguments) {
      parts.add(argument.value());
    }
    parts.add(where);
    return parts;
  }
}
