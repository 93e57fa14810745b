package dev.floe.planner.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
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
 * A folder under the lake root seen as a SQL schema: its table folders are tables, its folders
 * that hold tables further down are sub-schemas. Every lookup lists the folder again, so tables
 * created by other processes show up at once.
 *
 * <p>A nested folder can also be named by its path joined with dots, as JDBC metadata names its
 * schema: {@code "sales.eu".orders} is {@code sales.eu.orders} unless a folder is literally named
 * {@code sales.eu}.
 */
public final class LakeSchema extends AbstractSchema {
  private final LakeSession session;
  private final List<String> path;

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
        () -> session.catalog().tableNames(path), name -> new LakeTable(session, child(name)));
  }

  /**
   * The sub-schemas: the folders holding tables below this one; at the root also every deeper
   * one by its dotted name, because Calcite snapshots a schema's names for each statement and
   * finds only names it has listed.
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
   * The nested schema a dotted name stands for ({@code sales.eu}: the folder {@code sales/eu}
   * under this one), each part matched as a folder name is; null if there is none.
   */
  private @Nullable Named<LakeSchema> dotted(String name, boolean ignoreCase) {
    if (name.indexOf('.') < 0) {
      return null;
    }
    List<String> at = new ArrayList<>(path);
    for (String part : name.split("\\.", -1)) {
      String match = FolderLookup.match(session.catalog().schemaNames(at), part, ignoreCase);
      if (match == null) {
        return null;
      }
      at.add(match);
    }
    return new Named<>(
        String.join(".", at.subList(path.size(), at.size())), new LakeSchema(session, at));
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

  /**
   * Looks names up in a folder listing: exact spelling first, then ignoring case when exactly one
   * entry matches. Never cached.
   */
  private static final class FolderLookup<T> implements Lookup<T> {
    private final Supplier<List<String>> names;
    private final Supplier<List<String>> listed;
    private final Function<String, T> factory;
    private final Fallback<T> fallback;

    FolderLookup(Supplier<List<String>> names, Function<String, T> factory) {
      this(names, names, factory, (name, ignoreCase) -> null);
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
      @Nullable Named<? extends T> find(String name, boolean ignoreCase);
    }

    @Override
    public @Nullable T get(String name) {
      if (names.get().contains(name)) {
        return factory.apply(name);
      }
      Named<? extends T> other = fallback.find(name, false);
      return other == null ? null : other.entity();
    }

    @Override
    public @Nullable Named<T> getIgnoreCase(String name) {
      String match = match(names.get(), name, true);
      if (match != null) {
        return new Named<>(match, factory.apply(match));
      }
      Named<? extends T> other = fallback.find(name, true);
      return other == null ? null : new Named<>(other.name(), other.entity());
    }

    /**
     * The entry named {@code name}: exactly, else (when asked) the one entry that matches ignoring
     * case; null if none, or if several match and only an exact (quoted) spelling can choose.
     */
    static @Nullable String match(List<String> all, String name, boolean ignoreCase) {
      if (all.contains(name)) {
        return name;
      }
      if (!ignoreCase) {
        return null;
      }
      String lower = name.toLowerCase(Locale.ROOT);
      String match = null;
      for (String candidate : all) {
        if (candidate.toLowerCase(Locale.ROOT).equals(lower)) {
          if (match != null) {
            return null;
          }
          match = candidate;
        }
      }
      return match;
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
