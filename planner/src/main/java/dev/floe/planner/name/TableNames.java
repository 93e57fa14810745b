package dev.floe.planner.name;

import dev.floe.error.FloeError;
import dev.floe.planner.spi.LakeCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The one way a name written in SQL finds the folder of a table or schema under the lake root.
 * Queries, DML, PreparedStatement batches, DDL, {@code setSchema} and metadata all resolve names
 * here, so the same name finds the same folder everywhere.
 *
 * <p>The rules (docs/connecting.md, "URL forms"; docs/sql.md, "DDL"):
 *
 * <ul>
 *   <li>A double-quoted part matches a folder exactly. An unquoted part matches case-insensitively;
 *       when it matches several folders (case twins written by another tool) the name is ambiguous,
 *       42000, and only quoting can choose.
 *   <li>A one-part name is looked up in the current schema, then in the root schema {@code main}. A
 *       longer name is looked up from the current schema, then from the root; its first part may be
 *       {@code main}, the root, unless a folder of that name exists. A quoted part holding dots
 *       ({@code "sales.eu"}), as JDBC metadata names nested schemas, stands for the folders it
 *       names unless a folder is named so literally.
 *   <li>A new table or schema folder is named as written when quoted, in lower case otherwise. It
 *       is refused when a folder differing only in case exists beside it (42S01), inside a table's
 *       folder (42602), or when Floe could not find it again (42602): an empty name, control
 *       characters, a leading dot, a path separator, or more than {@link #MAX_LENGTH} characters. A
 *       new table is refused a name {@code <table>$<metadata table>} ({@link #METADATA_TABLES},
 *       42602), and a name whose metadata table's name a table folder beside it bears.
 *   <li>A name {@code <table>$<metadata table>} that no table folder bears is that metadata table
 *       of the table, which is read-only: a statement changing it is 42809.
 * </ul>
 *
 * <p>Nothing is cached: every call lists the folders again, so other writers' tables show up at
 * once. Thread-safe when the catalog is.
 */
public final class TableNames {
  /** The JDBC and SQL name of the root folder's schema. */
  public static final String DEFAULT_SCHEMA = "main";

  /**
   * The longest identifier, in characters: the SQL parser's limit, and so the longest folder name
   * Floe creates.
   */
  public static final int MAX_LENGTH = 128;

  /** One part of a name as written in SQL: its text, and whether it was double-quoted. */
  public record Part(String text, boolean quoted) {
    /** An unquoted part. */
    public static Part of(String text) {
      return new Part(text, false);
    }

    /** Whether a folder name is this part: exactly when quoted, ignoring case when not. */
    public boolean spells(String name) {
      return quoted ? name.equals(text) : name.equalsIgnoreCase(text);
    }

    @Override
    public String toString() {
      return quoted ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }
  }

  /**
   * The metadata tables every table has, by the name that follows {@code $} (docs/time-travel.md,
   * "Metadata tables"): {@code orders$snapshots}. A table name {@code <table>$<one of these>} is
   * reserved.
   */
  public static final List<String> METADATA_TABLES =
      List.of(
          "snapshots",
          "history",
          "files",
          "manifests",
          "partitions",
          "refs",
          "properties",
          "metadata_log_entries",
          "entries",
          "all_manifests",
          "all_files",
          "all_entries",
          "data_files",
          "delete_files");

  private static final ThreadLocal<Listener> LISTENER = new ThreadLocal<>();

  private final LakeCatalog catalog;

  /**
   * Who hears of the names resolved on a thread and what each found: the plan cache, while a
   * statement is prepared, so that it keeps the plan only while every name still resolves so.
   */
  public interface Listener {
    /**
     * A table name resolved from a current schema (null: a schema name) found a folder (null:
     * none).
     */
    void resolved(
        @Nullable List<String> currentSchema, List<Part> name, @Nullable List<String> found);
  }

  /**
   * Tells {@code listener} of every name resolved on this thread from now on (null: nobody).
   *
   * @return the listener it replaces, to be put back when done
   */
  public static @Nullable Listener listen(@Nullable Listener listener) {
    Listener previous = LISTENER.get();
    if (listener == null) {
      LISTENER.remove();
    } else {
      LISTENER.set(listener);
    }
    return previous;
  }

  private static void tell(
      @Nullable List<String> currentSchema, List<Part> name, @Nullable List<String> found) {
    Listener listener = LISTENER.get();
    if (listener != null) {
      listener.resolved(currentSchema, name, found);
    }
  }

  /** A resolver over a catalog. */
  public TableNames(LakeCatalog catalog) {
    this.catalog = catalog;
  }

  /** The parts of a name given as plain strings, all quoted (exact) or all unquoted. */
  public static List<Part> parts(List<String> names, boolean quoted) {
    List<Part> parts = new ArrayList<>();
    for (String name : names) {
      parts.add(new Part(name, quoted));
    }
    return parts;
  }

  /** A name as SQL would write it, for messages. */
  public static String display(List<Part> name) {
    List<String> shown = new ArrayList<>();
    for (Part part : name) {
      shown.add(part.toString());
    }
    return String.join(".", shown);
  }

  /**
   * The folder path of the existing table a name denotes, seen from the current schema; null if
   * there is none.
   *
   * @throws dev.floe.error.FloeException AMBIGUOUS_NAME when an unquoted part matches case twins
   */
  public @Nullable List<String> table(List<String> currentSchema, List<Part> name) {
    List<String> found = find(currentSchema, name, catalog::tableNames);
    tell(currentSchema, name, found);
    return found;
  }

  /**
   * The folder path of the existing view a name denotes, seen from the current schema, by the rules
   * of table names; null if there is none. A table of that name hides it.
   *
   * @throws dev.floe.error.FloeException AMBIGUOUS_NAME when an unquoted part matches case twins
   */
  public @Nullable List<String> view(List<String> currentSchema, List<Part> name) {
    return find(currentSchema, name, catalog::viewNames);
  }

  /** The catalog names are resolved in. */
  public LakeCatalog catalog() {
    return catalog;
  }

  /**
   * Refuses a view as the object of a statement that takes a table (42809), when the name denotes
   * no table but a view.
   *
   * @param action what the statement does, for messages ("insert into", "truncate")
   */
  public void checkNotView(List<String> currentSchema, List<Part> name, String action) {
    List<String> view = view(currentSchema, name);
    if (view != null) {
      throw FloeError.WRONG_KIND.error(
          action,
          String.join(".", view),
          "it is a view, and a view is read-only (DROP VIEW and CREATE OR REPLACE VIEW change"
              + " it)");
    }
  }

  /**
   * The folder path of the existing table a statement changes (DML, ETL, DDL, procedures).
   *
   * @param action what the statement does, for messages ("truncate", "optimize")
   * @throws dev.floe.error.FloeException TABLE_NOT_FOUND when there is none,
   *     METADATA_TABLE_READ_ONLY (42809) when the name is one of a table's metadata tables,
   *     AMBIGUOUS_NAME when an unquoted part matches case twins
   */
  public List<String> tableToChange(List<String> currentSchema, List<Part> name, String action) {
    List<String> path = table(currentSchema, name);
    if (path != null && catalog.tableExists(path)) {
      return path;
    }
    checkNotMetadataTable(currentSchema, name, action);
    checkNotView(currentSchema, name, action);
    throw notFound(currentSchema, name);
  }

  /**
   * The 42S02 error for a table name that denotes no table, naming the nearest table where the name
   * looks ({@code Cannot find table ordrs; did you mean orders?}).
   */
  public RuntimeException notFound(List<String> currentSchema, List<Part> name) {
    List<String> candidates = new ArrayList<>();
    if (name.size() > 1) {
      List<String> schema = schema(name.subList(0, name.size() - 1));
      if (schema != null) {
        candidates.addAll(catalog.tableNames(schema));
      }
    } else {
      for (List<String> base : bases(currentSchema)) {
        candidates.addAll(catalog.tableNames(base));
      }
    }
    return FloeError.TABLE_NOT_FOUND.error(
        display(name) + NearestName.hint(name.get(name.size() - 1).text(), candidates));
  }

  /**
   * Refuses a name that is no table but one of a table's metadata tables ({@code orders$files}), as
   * the target of a statement that would change it.
   *
   * @throws dev.floe.error.FloeException METADATA_TABLE_READ_ONLY (42809)
   */
  public void checkNotMetadataTable(List<String> currentSchema, List<Part> name, String action) {
    if (metadataTableOf(currentSchema, name) != null) {
      throw FloeError.METADATA_TABLE_READ_ONLY.error(action, display(name));
    }
  }

  /**
   * The path of the table whose metadata table a name is ({@code orders$files}: {@code orders}),
   * its table part resolved as any table name is; null when the name is no metadata table's: its
   * last part is not {@code <table>$<metadata table>}, or no such table exists.
   */
  public @Nullable List<String> metadataTableOf(List<String> currentSchema, List<Part> name) {
    if (name.isEmpty()) {
      return null;
    }
    Part last = name.get(name.size() - 1);
    String table = metadataTableBase(last.text());
    if (table == null) {
      return null;
    }
    List<Part> parts = new ArrayList<>(name);
    parts.set(parts.size() - 1, new Part(table, last.quoted()));
    return table(currentSchema, parts);
  }

  /**
   * The table part of a name {@code <table>$<metadata table>} (the metadata table's name in any
   * case), or null when the name is not of that form.
   */
  public static @Nullable String metadataTableBase(String name) {
    int dollar = name.lastIndexOf('$');
    if (dollar <= 0 || dollar == name.length() - 1) {
      return null;
    }
    String suffix = name.substring(dollar + 1).toLowerCase(Locale.ROOT);
    return METADATA_TABLES.contains(suffix) ? name.substring(0, dollar) : null;
  }

  /** The folders of a schema whose names a part may spell, as the catalog lists them. */
  @FunctionalInterface
  private interface Lister {
    List<String> names(List<String> schema, Predicate<String> spelledBy);
  }

  /**
   * The path of the existing table or view ({@code lister} tells which) a name denotes, seen from
   * the current schema, then from the root; null if there is none.
   */
  private @Nullable List<String> find(List<String> currentSchema, List<Part> name, Lister lister) {
    if (name.isEmpty()) {
      return null;
    }
    Part last = name.get(name.size() - 1);
    for (List<String> base : bases(currentSchema)) {
      List<String> schema = schemaFrom(base, name.subList(0, name.size() - 1));
      if (schema != null) {
        String found = match(lister.names(schema, last::spells), last, schema);
        if (found != null) {
          return append(schema, found);
        }
      }
    }
    return null;
  }

  /**
   * The folder path of the existing schema a name denotes; null if there is none. The name is a
   * JDBC schema name ({@code main}, {@code sales}, {@code sales.eu}) or the parts of a SQL name.
   */
  public @Nullable List<String> schema(List<Part> name) {
    List<String> found = findSchema(name);
    tell(null, name, found);
    return found;
  }

  private @Nullable List<String> findSchema(List<Part> name) {
    if (name.size() == 1
        && matchesDefault(name.get(0))
        && match(catalog.schemaNames(List.of(), name.get(0)::spells), name.get(0), List.of())
            == null) {
      return List.of();
    }
    return schemaFrom(List.of(), name);
  }

  /**
   * The folder path where CREATE TABLE puts a new table of this name, seen from the current schema.
   * Schema folders named in it that do not exist yet are new (created by the caller).
   *
   * @throws dev.floe.error.FloeException INVALID_NAME for a name Floe could not find again or a
   *     path through a table's folder, NAME_TAKEN when a case twin exists beside it, TABLE_EXISTS
   *     when the table exists
   */
  public List<String> newTable(List<String> currentSchema, List<Part> name) {
    return newFolder(currentSchema, name, false);
  }

  /**
   * The folder path where CREATE VIEW puts a new view of this name, by the rules of {@link
   * #newTable}; an existing view there is the caller's to replace or refuse.
   *
   * @throws dev.floe.error.FloeException INVALID_NAME, NAME_TAKEN for a case twin or a table of
   *     that name
   */
  public List<String> newView(List<String> currentSchema, List<Part> name) {
    return newFolder(currentSchema, name, true);
  }

  private List<String> newFolder(List<String> currentSchema, List<Part> name, boolean view) {
    List<Part> schemaParts = name.subList(0, name.size() - 1);
    List<String> path = new ArrayList<>(schemaParts.isEmpty() ? currentSchema : List.of());
    List<Part> rest = schemaParts;
    if (!rest.isEmpty()
        && matchesDefault(rest.get(0))
        && match(catalog.folderNames(List.of()), rest.get(0), List.of()) == null) {
      rest = rest.subList(1, rest.size());
    }
    for (Part part : rest) {
      for (Part piece : dottedPieces(path, part)) {
        if (!path.isEmpty() && (catalog.tableExists(path) || catalog.viewExists(path))) {
          throw insideTable(name, path);
        }
        String existing = match(catalog.folderNames(path), piece, path);
        path.add(existing != null ? existing : newFolderName(piece));
      }
    }
    if (!path.isEmpty() && (catalog.tableExists(path) || catalog.viewExists(path))) {
      throw insideTable(name, path);
    }
    Part last = name.get(name.size() - 1);
    String folder = newFolderName(last);
    String base = metadataTableBase(folder);
    if (base != null) {
      throw FloeError.INVALID_NAME.error(
          describe(append(path, folder)),
          "it is the name of a metadata table of the table "
              + describe(append(path, base))
              + " (docs/time-travel.md, \"Metadata tables\"); a name <table>$<metadata table> is reserved");
    }
    List<String> taken = catalog.folderNames(path);
    for (String existing : taken) {
      String hidden = metadataTableBase(existing);
      if (hidden != null
          && hidden.equalsIgnoreCase(folder)
          && catalog.tableExists(append(path, existing))) {
        throw FloeError.INVALID_NAME.error(
            describe(append(path, folder)),
            "the table "
                + describe(append(path, existing))
                + " beside it, made by another tool, bears the name of one of its metadata tables"
                + " and would hide it; drop or rename that table first");
      }
    }
    for (String existing : taken) {
      if (existing.equals(folder) && catalog.tableExists(append(path, existing))) {
        if (view) {
          throw FloeError.NAME_TAKEN.error(
              "view " + describe(append(path, existing)), "a table of that name exists");
        }
        throw FloeError.TABLE_EXISTS.error(describe(append(path, existing)));
      }
      if (!view && existing.equals(folder) && catalog.viewExists(append(path, existing))) {
        throw FloeError.NAME_TAKEN.error(
            "table " + describe(append(path, existing)), "a view of that name exists");
      }
    }
    for (String existing : taken) {
      if (!existing.equals(folder) && existing.equalsIgnoreCase(folder)) {
        throw FloeError.NAME_TAKEN.error(
            describe(append(path, folder)),
            "the folder "
                + describe(append(path, existing))
                + " differs from it only in case, and Floe never creates case twins");
      }
    }
    if (taken.contains(folder) && !catalog.tableNames(append(path, folder)).isEmpty()
        || taken.contains(folder) && !catalog.schemaNames(append(path, folder)).isEmpty()) {
      throw FloeError.INVALID_NAME.error(
          describe(append(path, folder)), "it is a schema folder holding tables, not a table");
    }
    return append(path, folder);
  }

  /**
   * The folder name for a new table or schema: as written when quoted, in lower case otherwise.
   *
   * @throws dev.floe.error.FloeException INVALID_NAME for a name Floe could not find again
   */
  public static String newFolderName(Part part) {
    String name = part.quoted() ? part.text() : part.text().toLowerCase(Locale.ROOT);
    checkFolderName(name);
    return name;
  }

  /**
   * Refuses a folder name Floe could not find again or that would leave its parent: empty, {@code
   * .} or {@code ..}, a leading dot, a path separator, a control character, a drive letter, or
   * longer than {@link #MAX_LENGTH}.
   */
  public static void checkFolderName(String name) {
    String reason = null;
    if (name.isEmpty()) {
      reason = "a name cannot be empty";
    } else if (name.startsWith(".")) {
      reason = "a name starting with '.' is a hidden folder, which Floe does not list";
    } else if (name.length() > MAX_LENGTH) {
      reason = "a name is at most " + MAX_LENGTH + " characters, the SQL parser's limit";
    } else if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0) {
      reason = "a table or schema name is one folder name, without '/' or '\\'";
    } else if (name.length() >= 2 && name.charAt(1) == ':') {
      reason = "a name cannot start with a drive letter";
    } else {
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (Character.isISOControl(c)) {
          reason = "a name cannot hold control characters";
          break;
        }
      }
    }
    if (reason != null) {
      throw FloeError.INVALID_NAME.error("'" + printable(name) + "'", reason);
    }
  }

  /** The places a name is looked up from: the current schema, then the root. */
  private static List<List<String>> bases(List<String> currentSchema) {
    return currentSchema.isEmpty() ? List.of(List.of()) : List.of(currentSchema, List.of());
  }

  /** The schema path reached from {@code base} through the parts; null if there is none. */
  private @Nullable List<String> schemaFrom(List<String> base, List<Part> parts) {
    List<String> path = new ArrayList<>(base);
    List<Part> rest = parts;
    if (base.isEmpty()
        && !rest.isEmpty()
        && matchesDefault(rest.get(0))
        && match(catalog.schemaNames(List.of(), rest.get(0)::spells), rest.get(0), List.of())
            == null) {
      rest = rest.subList(1, rest.size());
    }
    for (Part part : rest) {
      String folder = match(catalog.schemaNames(path, part::spells), part, path);
      if (folder != null) {
        path.add(folder);
        continue;
      }
      if (part.text().indexOf('.') < 0) {
        return null;
      }
      for (String piece : part.text().split("\\.", -1)) {
        Part nestedPart = new Part(piece, part.quoted());
        String nested = match(catalog.schemaNames(path, nestedPart::spells), nestedPart, path);
        if (nested == null) {
          return null;
        }
        path.add(nested);
      }
    }
    return path;
  }

  /** The pieces a part of a new table's schema stands for: dotted parts split unless taken. */
  private List<Part> dottedPieces(List<String> path, Part part) {
    if (part.text().indexOf('.') < 0 || match(catalog.folderNames(path), part, path) != null) {
      return List.of(part);
    }
    List<Part> pieces = new ArrayList<>();
    for (String piece : part.text().split("\\.", -1)) {
      if (piece.isEmpty()) {
        return List.of(part); // "..", ".x", "x.": refused whole, by its own name
      }
      pieces.add(new Part(piece, part.quoted()));
    }
    return pieces;
  }

  /**
   * The one name among {@code names} a part matches: exactly when quoted, ignoring case otherwise;
   * null if none.
   *
   * @throws dev.floe.error.FloeException AMBIGUOUS_NAME when an unquoted part matches several
   */
  private @Nullable String match(List<String> names, Part part, List<String> where) {
    List<String> matches = new ArrayList<>();
    for (String name : names) {
      if (part.spells(name)) {
        matches.add(name);
      }
    }
    if (matches.size() > 1) {
      List<String> candidates = new ArrayList<>();
      for (String candidate : matches) {
        candidates.add(describe(append(where, candidate)));
      }
      throw FloeError.AMBIGUOUS_NAME.error(part.text(), String.join(" and ", candidates));
    }
    return matches.isEmpty() ? null : matches.get(0);
  }

  private static boolean matchesDefault(Part part) {
    return part.quoted()
        ? part.text().equals(DEFAULT_SCHEMA)
        : part.text().equalsIgnoreCase(DEFAULT_SCHEMA);
  }

  private static RuntimeException insideTable(List<Part> name, List<String> table) {
    return FloeError.INVALID_NAME.error(
        display(name),
        describe(table) + " is a table, and a table's folder holds no other table or schema");
  }

  private static String describe(List<String> path) {
    List<String> shown = new ArrayList<>();
    for (String name : path) {
      shown.add('"' + name.replace("\"", "\"\"") + '"');
    }
    return shown.isEmpty() ? DEFAULT_SCHEMA : String.join(".", shown);
  }

  private static String printable(String name) {
    StringBuilder shown = new StringBuilder();
    for (int i = 0; i < name.length() && i < 64; i++) {
      char c = name.charAt(i);
      shown.append(Character.isISOControl(c) ? String.format(Locale.ROOT, "\\u%04x", (int) c) : c);
    }
    return name.length() > 64 ? shown + "..." : shown.toString();
  }

  private static List<String> append(List<String> path, String name) {
    List<String> longer = new ArrayList<>(path);
    longer.add(name);
    return List.copyOf(longer);
  }
}
