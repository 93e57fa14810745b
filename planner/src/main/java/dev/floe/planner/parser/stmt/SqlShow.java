package dev.floe.planner.parser.stmt;

import dev.floe.planner.parser.ddl.FloeStatementNode;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code SHOW SCHEMAS}, {@code SHOW TABLES [FROM | IN schema] [LIKE 'pattern']}, {@code SHOW
 * COLUMNS FROM | IN table}, {@code SHOW CREATE TABLE table}, {@code SHOW CREATE VIEW view}.
 */
public final class SqlShow extends FloeStatementNode {
  /** What is shown. */
  public enum What {
    SCHEMAS,
    TABLES,
    COLUMNS,
    CREATE_TABLE,
    CREATE_VIEW
  }

  public final What what;

  /**
   * The schema (SHOW TABLES FROM), the table (SHOW COLUMNS, SHOW CREATE TABLE) or the view (SHOW
   * CREATE VIEW); or null.
   */
  public final SqlIdentifier name;

  /** The LIKE pattern, or null. */
  public final String like;

  public SqlShow(SqlParserPos pos, What what, SqlIdentifier name, String like) {
    super("SHOW " + what.name().replace('_', ' '), SqlKind.OTHER, pos);
    this.what = what;
    this.name = name;
    this.like = like;
  }

  @Override
  protected List<SqlNode> parts() {
    return Arrays.asList(name);
  }
}
