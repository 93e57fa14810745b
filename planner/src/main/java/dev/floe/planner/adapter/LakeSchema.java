package dev.floe.planner.adapter;

import dev.floe.error.FloeError;
import dev.floe.planner.scan.MetadataScan;
import dev.floe.planner.session.LakeSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.schema.lookup.Named;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A folder under the lake root seen as a SQL schema: its table folders are tables, its folders that
 * hold tables further down are sub-schemas. Every lookup lists the folder again, so tables created
 * by other processes show up at once.
 *
 * <p>A nested folder can also be named by its path joined with dots, as JDBC metadata names its
 * schema: {@code "sales.eu".orders} is {@code sales.eu.orders} unless a folder is literally named
 * {@code sales.eu}.
 */
public final class LakeSchema extends AbstractSchema {
  private final LakeSession session;
  private final List<String> path;

  /** The tables of the read_parquet and read_csv calls planned on this root, by name. */
  private final Map<String, FileTable> files = new ConcurrentHashMap<>();

  /** Creates the schema for a path under the root ({@code []} is the root itself). */
  public LakeSchema(LakeSession session, List<String> path) {
    this.session = session;
    this.path = List.copyOf(path);
  }

  /** The session this schema serves. */
  public LakeSession session() {
    return session;
  }

  /** The folder's path under the root ({@code []} is the root itself). */
  public List<String> path() {
    return path;
  }

  @Override
  public Lookup<Table> tables() {
    return new FolderLookup<>(
        () -> session.catalog().tableNames(path),
        () -> session.catalog().tableNames(path),
        name -> new LakeTable(session, child(name)),
        this::special);
  }

  /**
   * The table a name that is not a folder stands for: a metadata table ({@code orders$files}) or a
   * table at a past version ({@link TableReference}), its table's folder matched exactly, as {@link
   * SqlNames} wrote it; null if there is none. Such tables are never listed.
   *
   * @throws dev.floe.error.FloeException METADATA_TABLE_NOT_FOUND for an unknown metadata table of
   *     an existing table
   */
  private @Nullable Named<Table> special(String name) {
    FileTable file = files.get(name);
    if (file != null) {
      return new Named<>(name, file);
    }
    TableReference reference = TableReference.parse(name);
    if (reference == null || !session.catalog().tableNames(path).contains(reference.table())) {
      return null;
    }
    List<String> table = child(reference.table());
    if (reference.metadata() == null) {
      return new Named<>(name, new LakeTable(session, table, reference.version()));
    }
    MetadataScan.Kind kind = reference.kind();
    if (kind == null) {
      throw FloeError.METADATA_TABLE_NOT_FOUND.error(
          reference.table() + "$" + reference.metadata(),
          "the metadata tables of a table are " + MetadataScan.Kind.names());
    }
    return new Named<>(name, new LakeMetadataTable(session, table, kind, reference.version()));
  }

  /**
   * The sub-schemas: the folders holding tables below this one; at the root also every deeper one
   * by its dotted name, because Calcite snapshots a schema's names for each statement and finds
   * only names it has listed.
   */
  @Override
  public Lookup<? extends Schema> subSchemas() {
    return new FolderLookup<>(
        () -> session.catalog().schemaNames(path),
        path.isEmpty() ? this::namesWithNested : () -> session.catalog().schemaNames(path),
        name -> new LakeSchema(session, child(name)),
        this::dotted);
  }

  private List<String> namesWithNested() {
    List<String> names = new ArrayList<>(session.catalog().schemaNames(path));
    for (String child : List.copyOf(names)) {
      addNested(List.of(child), names);
    }
    return names;
  }

  private void addNested(List<String> parent, List<String> names) {
    for (String child : session.catalog().schemaNames(parent)) {
      List<String> nested = new ArrayList<>(parent);
      nested.add(child);
      names.add(String.join(".", nested));
      addNested(nested, names);
    }
  }

  /**
   * The nested schema a dotted name stands for ({@code sales.eu}: the folder {@code sales/eu} under
   * this one), each part matched exactly; null if there is none.
   */
  private @Nullable Named<LakeSchema> dotted(String name) {
    if (name.indexOf('.') < 0) {
      return null;
    }
    List<String> at = new ArrayList<>(path);
    for (String part : name.split("\\.", -1)) {
      if (!session.catalog().schemaNames(at).contains(part)) {
        return null;
      }
      at.add(part);
    }
    return new Named<>(
        String.join(".", at.subList(path.size(), at.size())), new LakeSchema(session, at));
  }

  /**
   * Makes the table a read_parquet or read_csv call reads findable under a name (its call as text)
   * for the statement being planned; the plan keeps the table itself, so a later call of the same
   * text replaces it without touching plans made before.
   */
  void addFileTable(String name, FileTable table) {
    files.put(name, table);
  }

  @Override
  public boolean isMutable() {
    return true;
  }

  private List<String> child(String name) {
    List<String> child = new ArrayList<>(path);
    child.add(name);
    return child;
  }

  /** Looks names up in a folder listing, exactly. Never cached. */
  private static final class FolderLookup<T> implements Lookup<T> {
    private final Supplier<List<String>> names;
    private final Supplier<List<String>> listed;
    private final Function<String, T> factory;
    private final Fallback<T> fallback;

    FolderLookup(Supplier<List<String>> names, Function<String, T> factory) {
      this(names, names, factory, name -> null);
    }

    /**
     * A lookup of the folder names {@code names}, which lists {@code listed} (names it can also
     * find through the fallback) when asked for its names.
     */
    FolderLookup(
        Supplier<List<String>> names,
        Supplier<List<String>> listed,
        Function<String, T> factory,
        Fallback<T> fallback) {
      this.names = names;
      this.listed = listed;
      this.factory = factory;
      this.fallback = fallback;
    }

    /** Where to look when no folder has the name. */
    @FunctionalInterface
    interface Fallback<T> {
      @Nullable Named<? extends T> find(String name);
    }

    @Override
    public @Nullable T get(String name) {
      if (names.get().contains(name)) {
        return factory.apply(name);
      }
      Named<? extends T> other = fallback.find(name);
      return other == null ? null : other.entity();
    }

    /**
     * Exact, like {@link #get}: every table name reaching Calcite was resolved by {@link
     * dev.floe.planner.name.TableNames} first ({@link SqlNames}), which is where case is ignored.
     */
    @Override
    public @Nullable Named<T> getIgnoreCase(String name) {
      if (names.get().contains(name)) {
        return new Named<>(name, factory.apply(name));
      }
      Named<? extends T> other = fallback.find(name);
      return other == null ? null : new Named<>(other.name(), other.entity());
    }

    @Override
    public Set<String> getNames(LikePattern pattern) {
      Set<String> result = new TreeSet<>();
      for (String name : listed.get()) {
        if (pattern.matcher().apply(name)) {
          result.add(name);
        }
      }
      return result;
    }
  }
}
