package dev.floe.jdbc.meta;

import dev.floe.planner.name.TableNames;
import dev.floe.planner.spi.LakeCatalog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How JDBC names the schemas of a lake (ARCHITECTURE.md, "Naming"). The root folder is the schema
 * {@code main}; a folder below it that holds tables is named by its path from the root, joined with
 * dots: {@code sales} for {@code <root>/sales}, {@code sales.eu} for {@code <root>/sales/eu}. That
 * is how SQL reaches its tables ({@code sales.eu.orders}), and the quoted form clients generate
 * from metadata ({@code "sales.eu".orders}) resolves to the same folder. Folders that hold tables
 * only further down are part of a path, not schemas of their own.
 */
public final class LakeSchemas {
  /** The name of the root folder's schema. */
  public static final String ROOT = TableNames.DEFAULT_SCHEMA;

  private LakeSchemas() {}

  /** The JDBC name of the schema at a path under the root. */
  public static String name(List<String> path) {
    return path.isEmpty() ? ROOT : String.join(".", path);
  }

  /** Every schema of the lake: {@code main} first, then the others by name. */
  public static List<List<String>> all(LakeCatalog catalog) {
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
   * The path of the schema with a JDBC name ({@code sales.eu}), resolved by the one resolver as a
   * quoted name would be when the exact name exists, else as an unquoted one; null if none.
   */
  public static List<String> resolve(LakeCatalog catalog, String name) {
    TableNames names = new TableNames(catalog);
    List<String> exact = names.schema(List.of(new TableNames.Part(name, true)));
    return exact != null ? exact : names.schema(List.of(TableNames.Part.of(name)));
  }
}
