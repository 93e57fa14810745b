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

  @Override
  public Lookup<Table> tables() {
    return new FolderLookup<>(
        () -> session.catalog().tableNames(path), name -> new LakeTable(session, child(name)));
  }

  @Override
  public Lookup<? extends Schema> subSchemas() {
    return new FolderLookup<>(
        () -> session.catalog().schemaNames(path), name -> new LakeSchema(session, child(name)));
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
    private final Function<String, T> factory;

    FolderLookup(Supplier<List<String>> names, Function<String, T> factory) {
      this.names = names;
      this.factory = factory;
    }

    @Override
    public @Nullable T get(String name) {
      return names.get().contains(name) ? factory.apply(name) : null;
    }

    @Override
    public @Nullable Named<T> getIgnoreCase(String name) {
      List<String> all = names.get();
      if (all.contains(name)) {
        return new Named<>(name, factory.apply(name));
      }
      String lower = name.toLowerCase(Locale.ROOT);
      String match = null;
      for (String candidate : all) {
        if (candidate.toLowerCase(Locale.ROOT).equals(lower)) {
          if (match != null) {
            return null; // ambiguous: only an exact (quoted) spelling can choose
          }
          match = candidate;
        }
      }
      return match == null ? null : new Named<>(match, factory.apply(match));
    }

    @Override
    public Set<String> getNames(LikePattern pattern) {
      Set<String> result = new TreeSet<>();
      for (String name : names.get()) {
        if (pattern.matcher().apply(name)) {
          result.add(name);
        }
      }
      return result;
    }
  }
}
