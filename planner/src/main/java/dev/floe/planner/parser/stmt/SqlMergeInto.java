package dev.floe.planner.parser.stmt;

import dev.floe.planner.parser.FloeStatementNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A MERGE that Calcite's {@link org.apache.calcite.sql.SqlMerge} cannot hold: more than one
 * clause of a kind, {@code AND condition} on a clause, {@code WHEN NOT MATCHED BY SOURCE}, {@code
 * UPDATE SET *}, {@code INSERT *} or {@code DELETE}. A MERGE that fits Calcite's form (at most one
 * {@code WHEN MATCHED THEN UPDATE SET ...} followed by at most one {@code WHEN NOT MATCHED THEN
 * INSERT ... VALUES ...}, without conditions) parses to Calcite's SqlMerge instead.
 */
public final class SqlMergeInto extends FloeStatementNode {
  /** Which rows a clause applies to. */
  public enum Match {
    /** {@code WHEN MATCHED}: target rows with a source row. */
    MATCHED,
    /** {@code WHEN NOT MATCHED [BY TARGET]}: source rows with no target row. */
    NOT_MATCHED_BY_TARGET,
    /** {@code WHEN NOT MATCHED BY SOURCE}: target rows with no source row. */
    NOT_MATCHED_BY_SOURCE
  }

  /** What a clause does. */
  public enum Action {
    /** {@code UPDATE SET c = e, ...}. */
    UPDATE,
    /** {@code UPDATE SET *}: every target column from the source column of the same name. */
    UPDATE_ALL,
    /** {@code DELETE}. */
    DELETE,
    /** {@code INSERT [(c, ...)] VALUES (e, ...)}. */
    INSERT,
    /** {@code INSERT *}: every target column from the source column of the same name. */
    INSERT_ALL
  }

  /**
   * One WHEN clause, in the order written. {@code columns} and {@code values} are the SET
   * assignments (UPDATE) or the column list and row (INSERT; columns null when not written), and
   * null otherwise.
   */
  public record Clause(
      SqlParserPos pos,
      Match match,
      SqlNode condition,
      Action action,
      SqlNodeList columns,
      SqlNodeList values) {}

  public final SqlIdentifier target;
  /** The target's alias, or null. */
  public final SqlIdentifier alias;
  public final SqlNode source;
  public final SqlNode condition;
  public final List<Clause> clauses;

  public SqlMergeInto(
      SqlParserPos pos,
      SqlIdentifier target,
      SqlIdentifier alias,
      SqlNode source,
      SqlNode condition,
      List<Clause> clauses) {
    super("MERGE", SqlKind.MERGE, pos);
    this.target = target;
    this.alias = alias;
    this.source = source;
    this.condition = condition;
    this.clauses = List.copyOf(clauses);
  }

  @Override
  protected List<SqlNode> parts() {
    List<SqlNode> parts = new ArrayList<>();
    parts.add(target);
    parts.add(alias);
    parts.add(source);
    parts.add(condition);
    for (Clause clause : clauses) {
      parts.add(clause.condition());
      parts.add(clause.columns());
      parts.add(clause.values());
    }
    return parts;
  }
}
