package dev.floe.planner.parser.ddl;

import dev.floe.planner.parser.FloeStatementNode;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Branch and tag DDL, Iceberg's Spark syntax: {@code ALTER TABLE t CREATE [OR REPLACE] BRANCH |
 * TAG [IF NOT EXISTS] name [AS OF VERSION v] [RETAIN n DAYS | HOURS | MINUTES] [WITH SNAPSHOT
 * RETENTION [n SNAPSHOTS] [n DAYS | HOURS | MINUTES]]}, {@code ALTER TABLE t REPLACE BRANCH | TAG
 * name ...} and {@code ALTER TABLE t DROP BRANCH | TAG [IF EXISTS] name}. Durations are in
 * milliseconds; absent parts are null.
 */
public final class SqlAlterTableRef extends FloeStatementNode {
  /** What the statement does to the ref. */
  public enum Action {
    CREATE,
    CREATE_OR_REPLACE,
    REPLACE,
    DROP
  }

  public final SqlIdentifier table;
  public final Action action;
  /** True for a tag, false for a branch. */
  public final boolean tag;
  /** IF NOT EXISTS (CREATE) or IF EXISTS (DROP). */
  public final boolean ifExistsClause;
  public final SqlIdentifier name;
  /** The AS OF VERSION snapshot id (a numeric literal), or null for the current snapshot. */
  public final SqlNode asOfVersion;
  /** RETAIN: how long the ref is kept, in milliseconds. */
  public final Long retainMillis;
  /** WITH SNAPSHOT RETENTION n SNAPSHOTS: the branch's minimum number of snapshots kept. */
  public final Integer minSnapshotsToKeep;
  /** WITH SNAPSHOT RETENTION n DAYS: the branch's maximum snapshot age, in milliseconds. */
  public final Long maxSnapshotAgeMillis;

  public SqlAlterTableRef(
      SqlParserPos pos,
      SqlIdentifier table,
      Action action,
      boolean tag,
      boolean ifExistsClause,
      SqlIdentifier name,
      SqlNode asOfVersion,
      Long retainMillis,
      Integer minSnapshotsToKeep,
      Long maxSnapshotAgeMillis) {
    super("ALTER TABLE " + action.name().replace('_', ' ') + (tag ? " TAG" : " BRANCH"),
        SqlKind.ALTER_TABLE, pos);
    this.table = table;
    this.action = action;
    this.tag = tag;
    this.ifExistsClause = ifExistsClause;
    this.name = name;
    this.asOfVersion = asOfVersion;
    this.retainMillis = retainMillis;
    this.minSnapshotsToKeep = minSnapshotsToKeep;
    this.maxSnapshotAgeMillis = maxSnapshotAgeMillis;
  }

  @Override
  protected List<SqlNode> parts() {
    return Arrays.asList(table, name, asOfVersion);
  }
}
