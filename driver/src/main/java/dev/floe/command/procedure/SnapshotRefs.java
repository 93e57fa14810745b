package dev.floe.command.procedure;

import dev.floe.error.FloeError;
import dev.floe.planner.parser.ddl.SqlAlterTableRef;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.iceberg.ManageSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Rollback, setting the current snapshot, and branches and tags, all on Iceberg's {@link
 * ManageSnapshots}, which keeps its rules: a rollback goes only to an ancestor of the current
 * snapshot, a ref's name is unique among branches and tags, and {@code main} cannot be dropped.
 */
final class SnapshotRefs {
  private SnapshotRefs() {}

  static Maintenance.Result rollbackTo(Table table, String name, long snapshotId) {
    Long previous = currentId(table);
    checkExists(table, name, "rollback_to_snapshot", snapshotId);
    if (previous == null || !SnapshotUtil.isAncestorOf(table, previous, snapshotId)) {
      throw FloeError.PROCEDURE.error(
          "rollback_to_snapshot on " + name,
          "snapshot "
              + snapshotId
              + " is not an ancestor of the current snapshot; Iceberg rolls back only to"
              + " ancestors (set_current_snapshot goes to any snapshot)");
    }
    return commit(table, name, "rollback_to_snapshot", previous, m -> m.rollbackTo(snapshotId));
  }

  static Maintenance.Result rollbackToTime(Table table, String name, long epochMillis) {
    Long previous = currentId(table);
    Long id = null;
    if (previous != null) {
      for (Snapshot s : SnapshotUtil.ancestorsOf(previous, table::snapshot)) {
        if (s.timestampMillis() <= epochMillis) {
          id = s.snapshotId();
          break;
        }
      }
    }
    if (id == null) {
      throw FloeError.PROCEDURE.error(
          "rollback_to_timestamp on " + name,
          "no ancestor of the current snapshot was committed at or before that time");
    }
    long chosen = id;
    return commit(table, name, "rollback_to_timestamp", previous, m -> m.rollbackTo(chosen));
  }

  static Maintenance.Result setCurrent(Table table, String name, long snapshotId) {
    Long previous = currentId(table);
    checkExists(table, name, "set_current_snapshot", snapshotId);
    return commit(
        table, name, "set_current_snapshot", previous, m -> m.setCurrentSnapshot(snapshotId));
  }

  static Maintenance.Result setCurrent(Table table, String name, String ref) {
    SnapshotRef target = table.refs().get(ref);
    if (target == null) {
      throw FloeError.PROCEDURE.error(
          "set_current_snapshot on " + name,
          "no branch or tag " + ref + "; the table has " + table.refs().keySet());
    }
    return setCurrent(table, name, target.snapshotId());
  }

  /** Creates, replaces or drops a branch or a tag. */
  static void alter(Table table, String name, SqlAlterTableRef ddl) {
    String ref = ddl.name.getSimple();
    String kind = ddl.tag ? "tag" : "branch";
    SnapshotRef existing = table.refs().get(ref);
    String action = ddl.action.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    String what = action + " " + kind + " " + ref + " of " + name;
    if (existing != null && existing.isBranch() == ddl.tag) {
      throw FloeError.PROCEDURE.error(
          what, ref + " is a " + (existing.isBranch() ? "branch" : "tag"));
    }
    if (!ddl.tag
        && ref.equals(SnapshotRef.MAIN_BRANCH)
        && ddl.action == SqlAlterTableRef.Action.DROP) {
      throw FloeError.PROCEDURE.error(
          what,
          "main is the table's current state, which every statement reads and writes; it cannot"
              + " be dropped (set_current_snapshot or rollback_to_snapshot move it)");
    }
    ManageSnapshots manage = table.manageSnapshots();
    switch (ddl.action) {
      case DROP -> {
        if (existing == null) {
          if (ddl.ifExistsClause) {
            return;
          }
          throw FloeError.PROCEDURE.error(what, "the table has no " + kind + " " + ref);
        }
        if (ddl.tag) {
          manage.removeTag(ref);
        } else {
          manage.removeBranch(ref);
        }
      }
      case CREATE, CREATE_OR_REPLACE, REPLACE -> {
        if (existing != null && ddl.action == SqlAlterTableRef.Action.CREATE) {
          if (ddl.ifExistsClause) {
            return;
          }
          throw FloeError.PROCEDURE.error(what, "it already exists");
        }
        if (existing == null && ddl.action == SqlAlterTableRef.Action.REPLACE) {
          throw FloeError.PROCEDURE.error(what, "the table has no " + kind + " " + ref);
        }
        long snapshotId = snapshot(table, what, ddl);
        if (existing == null) {
          if (ddl.tag) {
            manage.createTag(ref, snapshotId);
          } else {
            manage.createBranch(ref, snapshotId);
          }
        } else if (ddl.tag) {
          manage.replaceTag(ref, snapshotId);
        } else {
          manage.replaceBranch(ref, snapshotId);
        }
        if (ddl.retainMillis != null) {
          manage.setMaxRefAgeMs(ref, ddl.retainMillis);
        }
        if (ddl.minSnapshotsToKeep != null) {
          manage.setMinSnapshotsToKeep(ref, ddl.minSnapshotsToKeep);
        }
        if (ddl.maxSnapshotAgeMillis != null) {
          manage.setMaxSnapshotAgeMs(ref, ddl.maxSnapshotAgeMillis);
        }
      }
      default -> throw new IllegalStateException(ddl.action.toString());
    }
    try {
      manage.commit();
    } catch (ValidationException | IllegalArgumentException e) {
      throw FloeError.PROCEDURE.error(e, what, e.getMessage());
    }
  }

  private static long snapshot(Table table, String what, SqlAlterTableRef ddl) {
    if (ddl.asOfVersion == null) {
      Long current = currentId(table);
      if (current == null) {
        throw FloeError.PROCEDURE.error(what, "the table has no snapshot yet");
      }
      return current;
    }
    if (!(ddl.asOfVersion instanceof SqlNumericLiteral literal) || !literal.isInteger()) {
      throw FloeError.PROCEDURE.error(what, "AS OF VERSION takes a snapshot id");
    }
    long id;
    try {
      id = literal.getValueAs(BigDecimal.class).longValueExact();
    } catch (ArithmeticException e) {
      throw FloeError.ARGUMENT_OUT_OF_RANGE.error(
          "AS OF VERSION " + literal.toValue(), "a snapshot id is a BIGINT, and it does not fit");
    }
    checkExists(table, "", what, id);
    return id;
  }

  private static void checkExists(Table table, String name, String action, long snapshotId) {
    if (table.snapshot(snapshotId) == null) {
      throw FloeError.PROCEDURE.error(
          name.isEmpty() ? action : action + " on " + name,
          "the table has no snapshot " + snapshotId);
    }
  }

  private static Long currentId(Table table) {
    Snapshot current = table.currentSnapshot();
    return current == null ? null : current.snapshotId();
  }

  private static Maintenance.Result commit(
      Table table,
      String name,
      String action,
      Long previous,
      java.util.function.Consumer<ManageSnapshots> change) {
    ManageSnapshots manage = table.manageSnapshots();
    change.accept(manage);
    try {
      manage.commit();
    } catch (ValidationException | IllegalArgumentException e) {
      throw FloeError.PROCEDURE.error(e, action + " on " + name, e.getMessage());
    }
    table.refresh();
    Map<String, Long> row = new LinkedHashMap<>();
    row.put("previous_snapshot_id", previous);
    row.put("current_snapshot_id", currentId(table));
    return Maintenance.Result.of(row);
  }
}
