package dev.floe.planner.session;

import dev.floe.planner.name.TableNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One connection's prepared plans by statement text and the settings that shape a plan, so that a
 * statement run again is neither parsed, validated, optimized nor compiled again. A plan holds no
 * data: it reads the snapshot its statement pins when it runs. It is used again only while
 * everything it was planned on still holds: each table name still resolves to the same folder, and
 * each table read is still the same table (its UUID) with the same schema, partition spec and sort
 * order; otherwise the statement is planned afresh.
 *
 * <p>Least recently used plans are let go beyond a fixed number. Safe for several threads.
 */
public final class PlanCache {
  /** How many plans a connection keeps. */
  public static final int CAPACITY = 256;

  private static final ThreadLocal<Recording> RECORDING = new ThreadLocal<>();
  private static final ThreadLocal<Entry> LAST_USED = new ThreadLocal<>();

  private final Map<String, Entry> entries;

  /** An empty cache of at most {@code capacity} plans. */
  public PlanCache(int capacity) {
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > capacity;
          }
        };
  }

  /** The plan kept under a key, or null. */
  public synchronized @Nullable Entry get(String key) {
    return entries.get(key);
  }

  /** Keeps a plan under a key, replacing any other. */
  public synchronized void put(String key, Entry entry) {
    entries.put(key, entry);
  }

  /** Forgets the plan kept under a key, if it is this one. */
  public synchronized void remove(String key, Entry entry) {
    entries.remove(key, entry);
  }

  /** How many plans are kept. */
  public synchronized int size() {
    return entries.size();
  }

  /** Forgets every plan. */
  public synchronized void clear() {
    entries.clear();
  }

  /** A name resolved while planning, and the folder it found (null: none). */
  private record Resolution(
      @Nullable List<String> currentSchema,
      List<TableNames.Part> name,
      @Nullable List<String> found) {
    boolean stillHolds(TableNames names) {
      try {
        List<String> now =
            currentSchema == null ? names.schema(name) : names.table(currentSchema, name);
        return Objects.equals(now, found);
      } catch (RuntimeException e) {
        return false; // ambiguous now: planning again reports it
      }
    }
  }

  /** What a plan relies on in a table it reads. */
  private record Shape(List<String> path, String uuid, int schemaId, int specId, int sortOrderId) {
    static Shape of(PinnedTable pinned) {
      org.apache.iceberg.Table table = pinned.table();
      return new Shape(
          pinned.path(),
          identity(table),
          table.schema().schemaId(),
          table.spec().specId(),
          table.sortOrder().orderId());
    }
  }

  /** The table's UUID, or its location when its metadata has none (format version 1). */
  private static String identity(org.apache.iceberg.Table table) {
    try {
      return table.uuid().toString();
    } catch (RuntimeException e) {
      return "location:" + table.location();
    }
  }

  /** A kept plan and what it was planned on. */
  public static final class Entry {
    private final Object plan;
    private final List<Resolution> names;
    private final List<Shape> tables;
    private volatile boolean invalid;

    private Entry(Object plan, List<Resolution> names, List<Shape> tables) {
      this.plan = plan;
      this.names = names;
      this.tables = tables;
    }

    /** The plan. */
    public Object plan() {
      return plan;
    }

    /** Marks the plan unusable (its compiled code cannot run): it is never valid again. */
    public void invalidate() {
      invalid = true;
    }

    /**
     * Whether the plan still fits the lake as the running statement sees it: it was not
     * invalidated, every name resolves as it did, and every table read is the same table with the
     * same schema, spec and sort order. Pins each table read, as running the plan would.
     */
    public boolean valid(LakeSession session) {
      if (invalid) {
        return false;
      }
      TableNames resolver = new TableNames(session.catalog());
      for (Resolution name : names) {
        if (!name.stillHolds(resolver)) {
          return false;
        }
      }
      for (Shape shape : tables) {
        PinnedTable pinned;
        try {
          pinned = session.pin(shape.path());
        } catch (RuntimeException e) {
          return false; // gone or unreadable: planning again reports it
        }
        if (!shape.equals(Shape.of(pinned))) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * What one preparation on this thread relies on: the names it resolved and the tables it read.
   * Statements that read a table at a past version or a metadata table, or explain a plan, are not
   * kept: what they answer is fixed when they are planned.
   */
  public static final class Recording implements AutoCloseable {
    private final @Nullable Recording outer;
    private final TableNames.@Nullable Listener listener;
    private final List<Resolution> names = new ArrayList<>();
    private final Set<List<String>> tables = new LinkedHashSet<>();
    private boolean keepable = true;

    private Recording(@Nullable Recording outer) {
      this.outer = outer;
      this.listener = TableNames.listen(PlanCache::resolved);
    }

    /**
     * The entry for a plan prepared under this recording, pinning each table it read as the running
     * statement sees it; null when the plan must not be kept.
     */
    public @Nullable Entry entry(Object plan, LakeSession session) {
      if (!keepable) {
        return null;
      }
      List<Shape> shapes = new ArrayList<>();
      for (List<String> path : tables) {
        shapes.add(Shape.of(session.pin(path)));
      }
      return new Entry(plan, List.copyOf(names), List.copyOf(shapes));
    }

    @Override
    public void close() {
      TableNames.listen(listener);
      if (outer == null) {
        RECORDING.remove();
      } else {
        RECORDING.set(outer);
      }
    }
  }

  /** Starts recording what the preparation on this thread relies on. */
  public static Recording record() {
    Recording recording = new Recording(RECORDING.get());
    RECORDING.set(recording);
    return recording;
  }

  /** Records that the preparation on this thread reads the table at a path as pinned. */
  public static void readsTable(List<String> path) {
    Recording recording = RECORDING.get();
    if (recording != null) {
      recording.tables.add(List.copyOf(path));
    }
  }

  /** Records that the plan being prepared on this thread must not be kept. */
  public static void doNotKeep() {
    Recording recording = RECORDING.get();
    if (recording != null) {
      recording.keepable = false;
    }
  }

  /** Notes the entry the last preparation on this thread used or made (null: none kept). */
  public static void used(@Nullable Entry entry) {
    if (entry == null) {
      LAST_USED.remove();
    } else {
      LAST_USED.set(entry);
    }
  }

  /**
   * The entry the last preparation on this thread used or made, so that a prepared statement can
   * check its plan still fits before each run; null when its plan was not kept.
   */
  public static @Nullable Entry lastUsed() {
    Entry entry = LAST_USED.get();
    LAST_USED.remove();
    return entry;
  }

  /** Records a table name resolved from a current schema (null: a schema name). */
  private static void resolved(
      @Nullable List<String> currentSchema,
      List<TableNames.Part> name,
      @Nullable List<String> found) {
    Recording recording = RECORDING.get();
    if (recording != null) {
      recording.names.add(
          new Resolution(
              currentSchema == null ? null : List.copyOf(currentSchema),
              List.copyOf(name),
              found == null ? null : List.copyOf(found)));
    }
  }
}
