package dev.floe.jdbc;

import dev.floe.planner.schema.LakeCatalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * How JDBC names the schemas of a lake (DESIGN §3). The root folder is the schema {@code main}; a
 * folder below it that holds tables is named by its path from the root, joined with dots: {@code
 * sales} for {@code <root>/sales}, {@code sales.eu} for {@code <root>/sales/eu}. That is how SQL
 * reaches its tables ({@code sales.eu.orders}), and the quoted form clients generate from
 * metadata ({@code "sales.eu".orders}) resolves to the same folder. Folders that hold tables only
 * further down are part of a path, not schemas of their own.
 */
final class LakeSchemas {
  /** The name of the root folder's schema. */
  static final String ROOT = FloeConnector.DEFAULT_SCHEMA;

  private LakeSchemas() {}

  /** The JDBC name of the schema at a path under the root. */
  static String name(List<String> path) {
    return path.isEmpty() ? ROOT : String.join(".", path);
  }

  /** Every schema of the lake: {@code main} first, then the others by name. */
  static List<List<String>> all(LakeCatalog catalog) {
    List<List<String>> found = new ArrayList<>();
    visit(catalog, List.of(), found);
    found.sort(
        Comparator.<List<String>, Boolean>comparing(path -> !path.isEmpty())
            .thenComparing(LakeSchemas::name));
    return found;
  }

  private static void visit(LakeCatalog catalog, List<String> path, List<List<String>> found) {
    if (path.isEmpty() || !catalog.tableNames(path).isEmpty()) {
      found.add(path);
    }
    for (String child : catalog.schemaNames(path)) {
      List<String> childPath = new ArrayList<>(path);
      childPath.add(child);
      visit(catalog, List.copyOf(childPath), found);
    }
  }

  /**
   * The path of the schema with a JDBC name: the exact name, else the one name that matches
   * ignoring case; null if there is none.
   */
  static List<String> resolve(LakeCatalog catalog, String name) {
    List<List<String>> all = all(catalog);
    for (List<String> path : all) {
      if (name(path).equals(name)) {
        return path;
      }
    }
    List<String> match = null;
    for (List<String> path : all) {
      if (name(path).toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        if (match != null) {
          return null;
        }
        match = path;
      }
    }
    return match;
  }
}
