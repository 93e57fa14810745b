package dev.floe.planner.name;

import dev.floe.error.FloeError;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A past version of a table, as time travel names it: a snapshot id, a branch or tag, or a point in
 * time (a plain timestamp, read in the session time zone, or an instant).
 *
 * <p>A version is written as the SQL clause that names it ({@code FOR VERSION AS OF 42}, {@code FOR
 * TIMESTAMP AS OF TIMESTAMP '2024-06-03 00:00:00'}); the statement's table reference carries that
 * text after the table's name, so the same table at two versions is two tables to the planner, each
 * with the row type of its own snapshot.
 */
public final class TableVersion {
  private static final String VERSION = " FOR VERSION AS OF ";
  private static final String TIMESTAMP = " FOR TIMESTAMP AS OF ";
  private static final String LOCAL = "TIMESTAMP '";
  private static final String INSTANT = "TIMESTAMP WITH LOCAL TIME ZONE '";
  private static final DateTimeFormatter TEXT =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .toFormatter(Locale.ROOT);

  private enum Kind {
    SNAPSHOT,
    REF,
    LOCAL_TIME,
    INSTANT
  }

  private final Kind kind;
  private final String value;

  private TableVersion(Kind kind, String value) {
    this.kind = kind;
    this.value = value;
  }

  /** The snapshot with this id. */
  public static TableVersion snapshot(long snapshotId) {
    return new TableVersion(Kind.SNAPSHOT, Long.toString(snapshotId));
  }

  /** The snapshot a branch or tag points to. */
  public static TableVersion ref(String name) {
    return new TableVersion(Kind.REF, name);
  }

  /** The last snapshot committed at or before a wall-clock time in the session time zone. */
  public static TableVersion at(LocalDateTime time) {
    return new TableVersion(Kind.LOCAL_TIME, TEXT.format(time));
  }

  /** The last snapshot committed at or before an instant. */
  public static TableVersion at(Instant instant) {
    return new TableVersion(
        Kind.INSTANT, TEXT.format(LocalDateTime.ofInstant(instant, java.time.ZoneOffset.UTC)));
  }

  /** The SQL clause naming this version, with a leading space. */
  public String clause() {
    switch (kind) {
      case SNAPSHOT:
        return VERSION + value;
      case REF:
        return VERSION + "'" + value.replace("'", "''") + "'";
      case LOCAL_TIME:
        return TIMESTAMP + LOCAL + value + "'";
      default:
        return TIMESTAMP + INSTANT + value + "'";
    }
  }

  @Override
  public String toString() {
    return clause().trim();
  }

  /** A table name followed by the clause of a version. */
  public String appendTo(String tableName) {
    return tableName + clause();
  }

  /** A name split into the table's own name and the version its clause names. */
  public record Versioned(String name, @Nullable TableVersion version) {}

  /**
   * Splits a name written by {@link #appendTo}; a name without a version clause comes back whole
   * with a null version, and so does one whose clause does not read as a version.
   */
  public static Versioned split(String name) {
    int at = name.indexOf(VERSION);
    if (at > 0) {
      String text = name.substring(at + VERSION.length());
      TableVersion version = null;
      if (text.length() >= 2 && text.startsWith("'") && text.endsWith("'")) {
        version = ref(text.substring(1, text.length() - 1).replace("''", "'"));
      } else if (text.matches("-?\\d{1,19}")) {
        try {
          version = snapshot(Long.parseLong(text));
        } catch (NumberFormatException e) {
          version = null;
        }
      }
      return version == null
          ? new Versioned(name, null)
          : new Versioned(name.substring(0, at), version);
    }
    at = name.indexOf(TIMESTAMP);
    if (at > 0) {
      String text = name.substring(at + TIMESTAMP.length());
      Kind kind =
          text.startsWith(INSTANT) ? Kind.INSTANT : text.startsWith(LOCAL) ? Kind.LOCAL_TIME : null;
      if (kind != null && text.endsWith("'")) {
        String time =
            text.substring((kind == Kind.INSTANT ? INSTANT : LOCAL).length(), text.length() - 1);
        try {
          TEXT.parse(time);
          return new Versioned(name.substring(0, at), new TableVersion(kind, time));
        } catch (DateTimeParseException e) {
          return new Versioned(name, null);
        }
      }
    }
    return new Versioned(name, null);
  }

  /**
   * A version resolved against a table's metadata.
   *
   * @param snapshotId the snapshot to read
   * @param schema the schema to read it with: the snapshot's own, or the table's current one for a
   *     branch (the rule Spark follows, {@link SnapshotUtil#schemaFor(Table, String)})
   * @param ref the branch or tag named, or null
   */
  public record Resolved(long snapshotId, Schema schema, @Nullable String ref) {
    /** A scan reading this version. */
    public org.apache.iceberg.TableScan applyTo(org.apache.iceberg.TableScan scan) {
      return ref != null ? scan.useRef(ref) : scan.useSnapshot(snapshotId);
    }
  }

  /**
   * Finds the snapshot this version names in a table.
   *
   * @param table the table as the statement sees it
   * @param tableName the table's SQL name, for messages
   * @param zone the session time zone, for plain timestamps
   * @throws dev.floe.error.FloeException TABLE_VERSION_NOT_FOUND naming what the table has
   */
  public Resolved resolve(Table table, String tableName, ZoneId zone) {
    switch (kind) {
      case SNAPSHOT:
        {
          long id = Long.parseLong(value);
          if (table.snapshot(id) == null) {
            throw FloeError.TABLE_VERSION_NOT_FOUND.error(
                "snapshot " + id, tableName, snapshotsOf(table, tableName));
          }
          return new Resolved(id, SnapshotUtil.schemaFor(table, id), null);
        }
      case REF:
        {
          SnapshotRef ref = table.refs().get(value);
          if (ref == null) {
            throw FloeError.TABLE_VERSION_NOT_FOUND.error(
                "branch or tag '" + value + "'", tableName, refsOf(table));
          }
          return new Resolved(ref.snapshotId(), SnapshotUtil.schemaFor(table, value), value);
        }
      default:
        {
          LocalDateTime time = LocalDateTime.parse(value, TEXT);
          Instant instant =
              (kind == Kind.INSTANT ? time.atZone(java.time.ZoneOffset.UTC) : time.atZone(zone))
                  .toInstant();
          // Snapshot times are milliseconds: one at or before the instant is at or before its
          // millisecond.
          long millis =
              Math.floorDiv(
                  instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1000, 1000L);
          Long id = SnapshotUtil.nullableSnapshotIdAsOfTime(table, millis);
          if (id == null) {
            throw FloeError.TABLE_VERSION_NOT_FOUND.error(
                "a snapshot at " + instant, tableName, oldestOf(table));
          }
          return new Resolved(id, SnapshotUtil.schemaFor(table, id), null);
        }
    }
  }

  private static String oldestOf(Table table) {
    List<HistoryEntry> history = table.history();
    if (history.isEmpty()) {
      return "the table has no snapshot yet";
    }
    HistoryEntry oldest = history.get(0);
    return "its oldest snapshot, "
        + oldest.snapshotId()
        + ", was committed at "
        + Instant.ofEpochMilli(oldest.timestampMillis());
  }

  private static String snapshotsOf(Table table, String tableName) {
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    if (snapshots.isEmpty()) {
      return "the table has no snapshot yet";
    }
    snapshots.sort(java.util.Comparator.comparingLong(Snapshot::timestampMillis));
    List<String> ids = new ArrayList<>();
    for (Snapshot snapshot : snapshots) {
      ids.add(Long.toString(snapshot.snapshotId()));
    }
    if (ids.size() > 6) {
      ids =
          List.of(ids.get(0), ids.get(1), "...", ids.get(ids.size() - 2), ids.get(ids.size() - 1));
    }
    return "its snapshots, oldest first, are "
        + String.join(", ", ids)
        + " (all of them in \""
        + tableName
        + "$snapshots\")";
  }

  private static String refsOf(Table table) {
    Map<String, SnapshotRef> refs = table.refs();
    if (refs.isEmpty()) {
      return "the table has no branch or tag yet";
    }
    List<String> branches = new ArrayList<>();
    List<String> tags = new ArrayList<>();
    for (String name : new TreeSet<>(refs.keySet())) {
      (refs.get(name).isBranch() ? branches : tags).add("'" + name + "'");
    }
    return "its branches are "
        + (branches.isEmpty() ? "none" : String.join(", ", branches))
        + ", its tags "
        + (tags.isEmpty() ? "none" : String.join(", ", tags));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableVersion
        && ((TableVersion) o).kind == kind
        && ((TableVersion) o).value.equals(value);
  }

  @Override
  public int hashCode() {
    return kind.hashCode() * 31 + value.hashCode();
  }
}
