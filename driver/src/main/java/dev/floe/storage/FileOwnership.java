package dev.floe.storage;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * Which files a table owns (docs/safety.md, "The lake is a sandbox"): those under its own folder
 * that no other table of the lake references. Floe deletes no other file of a table (DROP, DROP ...
 * PURGE, snapshot expiry, orphan removal), and add_files takes no file of another table's folder
 * nor of any table's {@code metadata/}. Locations are compared in the store's one canonical
 * spelling ({@link LakeStore#canonicalizer}), so a table written through a symbolic link to the
 * lake and maintained through its real path is one set of files.
 *
 * <p>One per statement: it remembers the folders it resolved. Not thread-safe.
 */
public final class FileOwnership {
  /** How deep below the root tables are looked for, as discovery does. */
  private static final int MAX_DEPTH = 8;

  /**
   * The files each table version references outside its own folder, by metadata file, table UUID
   * and folder: a published version never changes, so what it references is read once per JVM.
   */
  private static final int CAPACITY = 512;

  private static final Map<String, Set<String>> FOREIGN =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Set<String>> eldest) {
          return size() > CAPACITY;
        }
      };

  private final FolderCatalog catalog;
  private final UnaryOperator<String> canonical;
  private final Map<String, Boolean> tableFolders = new HashMap<>();

  public FileOwnership(FolderCatalog catalog) {
    this.catalog = catalog;
    this.canonical = catalog.store().canonicalizer();
  }

  /** The canonical spelling of a location, for comparing it with others. */
  public String key(String location) {
    return canonical.apply(location);
  }

  /** The canonical spelling of a table's own folder. */
  public String folder(List<String> table) {
    return key(catalog.tableLocation(table));
  }

  /** Whether a canonical key lies under a canonical folder. */
  public static boolean under(String folder, String key) {
    return key.startsWith(folder.endsWith("/") ? folder : folder + "/");
  }

  /**
   * The files under a table's folder that other tables of the lake reference, and the tables that
   * could not be read to tell.
   */
  public record Shared(Set<String> keys, List<String> unreadable, String folder) {
    /**
     * Whether a file of the table's folder must be kept: another table references it, or a table
     * could not be read and the file is not one of the table's own metadata files.
     */
    public boolean keeps(String key) {
      return keys.contains(key) || !unreadable.isEmpty() && !under(folder + "/metadata", key);
    }

    /** What was kept and why, for a warning; "" when nothing needs saying. */
    public String describe(long kept) {
      if (kept == 0 && unreadable.isEmpty()) {
        return "";
      }
      String text = "kept " + kept + " files under its folder that other tables reference";
      if (!unreadable.isEmpty()) {
        text +=
            " or may reference: the table"
                + (unreadable.size() == 1 ? " " : "s ")
                + String.join(", ", unreadable)
                + " could not be read to tell which of its files they reference";
      }
      return text;
    }
  }

  /**
   * The files under a table's folder that the other tables of the lake reference (their data,
   * delete, manifest, manifest list and statistics files, in every snapshot they keep), and the
   * tables whose metadata could not be read.
   */
  public Shared shared(List<String> table) {
    String folder = folder(table);
    Set<String> keys = new HashSet<>();
    List<String> unreadable = new ArrayList<>();
    for (List<String> other : tables(List.of(), 0, new ArrayList<>())) {
      if (other.equals(table)) {
        continue;
      }
      try {
        for (String key : foreign(other)) {
          if (under(folder, key)) {
            keys.add(key);
          }
        }
      } catch (FloeException e) {
        if (e.error() != FloeError.TABLE_NOT_FOUND) {
          unreadable.add(String.join(".", other));
        } // dropped meanwhile: it references nothing any more
      } catch (RuntimeException e) {
        unreadable.add(String.join(".", other));
      }
    }
    return new Shared(keys, unreadable, folder);
  }

  /** Every table of the lake, as paths under the root. */
  private List<List<String>> tables(List<String> schema, int depth, List<List<String>> found) {
    for (String name : catalog.folderNames(schema)) {
      List<String> path = new ArrayList<>(schema);
      path.add(name);
      if (catalog.tableExists(path)) {
        found.add(List.copyOf(path));
      } else if (depth < MAX_DEPTH) {
        tables(path, depth + 1, found);
      }
    }
    return found;
  }

  /** The files a table references outside its own folder, in canonical spelling. */
  private Set<String> foreign(List<String> table) {
    Table loaded = catalog.loadTable(table);
    TableMetadata metadata = ((HasTableOperations) loaded).operations().current();
    String folder = folder(table);
    String cacheKey = metadata.metadataFileLocation() + '\n' + metadata.uuid() + '\n' + folder;
    synchronized (FOREIGN) {
      Set<String> known = FOREIGN.get(cacheKey);
      if (known != null) {
        return known;
      }
    }
    Set<String> outside = new HashSet<>();
    TableFiles.walk(
        loaded,
        null,
        (location, kind, bytes) -> {
          String key = key(location);
          if (!under(folder, key)) {
            outside.add(key);
          }
        });
    for (TableMetadata.MetadataLogEntry entry : metadata.previousFiles()) {
      String key = key(entry.file());
      if (!under(folder, key)) {
        outside.add(key);
      }
    }
    Set<String> result = Set.copyOf(outside);
    synchronized (FOREIGN) {
      FOREIGN.put(cacheKey, result);
    }
    return result;
  }

  /**
   * Refuses a local folder add_files would search that is the root of a file system, or, for a
   * search through every folder below ({@code recursive}: a folder, or a {@code **} glob), the lake
   * root or a folder holding it: every table's files would be walked, and none may be taken.
   *
   * @throws dev.floe.error.FloeException NOT_OWNED (42602)
   */
  public void checkAddSearch(String location, String folder, boolean recursive) {
    Path real;
    try {
      real = Sandbox.real(Path.of(folder));
    } catch (InvalidPathException e) {
      return; // listing it fails with its own error
    }
    if (real == null) {
      return; // listing it finds nothing
    }
    if (real.getParent() == null) {
      throw FloeError.NOT_OWNED.error(
          "add files from '" + location + "'",
          "it names the root of a file system; name the folder or file to add");
    }
    if (recursive && catalog.location().isLocal()) {
      Path lake = Sandbox.real(catalog.location().localPath());
      if (lake != null && lake.startsWith(real)) {
        throw FloeError.NOT_OWNED.error(
            "add files from '" + location + "'",
            (lake.equals(real)
                    ? "it searches the lake root "
                    : "it searches a folder holding the lake root ")
                + catalog.root()
                + " through every folder below, and the files of the lake's tables are theirs;"
                + " name the folder or file to add");
      }
    }
  }

  /**
   * Refuses a local file add_files would register in a table: one under another table's folder (its
   * file), or under any table's {@code metadata/} folder (the table's own included), wherever it
   * lies, in the lake or not.
   *
   * @param table the table's path under the root
   * @param name the table's name, for messages
   * @throws dev.floe.error.FloeException NOT_OWNED (42602) naming the file and the owning table
   */
  public void checkAddable(List<String> table, String name, String file) {
    Path path;
    try {
      path = Sandbox.real(Path.of(file));
    } catch (InvalidPathException e) {
      return; // opening it fails with its own error
    }
    if (path == null) {
      return;
    }
    String own = catalog.location().isLocal() ? folder(table) : null;
    for (Path folder = path.getParent(); folder != null; folder = folder.getParent()) {
      String key = LocalStore.location(folder);
      if (key.equals(own)) {
        if (path.startsWith(folder.resolve("metadata"))) {
          throw FloeError.NOT_OWNED.error(
              "add " + file + " to table " + name,
              "it lies in the table's own metadata folder, whose files are the table's"
                  + " metadata; add_files takes data files that lie outside metadata/");
        }
        return;
      }
      if (isTableFolder(folder)) {
        throw FloeError.NOT_OWNED.error(
            "add " + file + " to table " + name,
            "it lies in the folder of the table "
                + describe(folder)
                + ", whose file it is: another table's files are never shared (copy the file"
                + " out of that folder first, or INSERT INTO "
                + name
                + " SELECT from that table)");
      }
    }
  }

  /**
   * Refuses a table property that sends a new table's files into another table's folder.
   *
   * @throws dev.floe.error.FloeException NOT_OWNED (42602) naming the property and the table
   */
  public void checkNotInAnotherTable(String action, String property, String location) {
    String key = key(location);
    for (List<String> other : tables(List.of(), 0, new ArrayList<>())) {
      String folder = folder(other);
      if (key.equals(folder) || under(folder, key)) {
        throw FloeError.NOT_OWNED.error(
            action + " with '" + property + "' = '" + location + "'",
            "it lies in the folder of the table "
                + String.join(".", other)
                + ", whose files are its own; a table's files lie in its own folder");
      }
    }
  }

  private boolean isTableFolder(Path folder) {
    return tableFolders.computeIfAbsent(
        folder.toString(),
        f -> Files.isDirectory(folder.resolve("metadata")) && LocalTableOperations.isTable(folder));
  }

  /** A table folder by its SQL name when it lies in the lake, by its path otherwise. */
  private String describe(Path folder) {
    if (catalog.location().isLocal()) {
      Path lake = Sandbox.real(catalog.location().localPath());
      if (lake != null && folder.startsWith(lake) && !folder.equals(lake)) {
        List<String> names = new ArrayList<>();
        for (Path part : lake.relativize(folder)) {
          names.add(part.toString());
        }
        return String.join(".", names);
      }
    }
    return "at " + folder;
  }
}
