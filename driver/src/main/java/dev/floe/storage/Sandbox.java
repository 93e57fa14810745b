package dev.floe.storage;

import dev.floe.error.FloeError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;

/**
 * The lake root as a sandbox: Floe creates, writes and deletes files only under it. A path is under
 * the root when its real location is, after {@code ..} and symbolic links on the way are resolved,
 * so neither a spelling nor a link planted in the lake leads out of it. Reading stays allowed
 * anywhere (a foreign table's files may live elsewhere). Thread-safe.
 */
public final class Sandbox {
  /** The table properties that send a table's files to another place. */
  public static final List<String> PATH_PROPERTIES =
      List.of(
          TableProperties.WRITE_DATA_LOCATION,
          TableProperties.WRITE_METADATA_LOCATION,
          TableProperties.OBJECT_STORE_PATH,
          TableProperties.WRITE_FOLDER_STORAGE_LOCATION);

  private final Path root;
  private volatile Path realRoot;

  public Sandbox(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** The real path of the root (symbolic links resolved), or the root when it cannot be. */
  public Path realRootPath() {
    return realRoot();
  }

  /** The root folder. */
  public Path root() {
    return root;
  }

  /** Whether a local path lies under the root, following {@code ..} and symbolic links. */
  public boolean contains(Path path) {
    Path real = real(path);
    return real != null && real.startsWith(realRoot());
  }

  /** Whether a location in any spelling Floe reads lies under the root. */
  public boolean containsLocation(String location) {
    if (location == null || location.isEmpty()) {
      return false;
    }
    if (location.contains("://") && !location.regionMatches(true, 0, "file://", 0, 7)) {
      return false;
    }
    return contains(LocalFileIO.toPath(location));
  }

  /**
   * Refuses a table whose files would be written outside the root: its location or any of {@link
   * #PATH_PROPERTIES}.
   *
   * @throws dev.floe.error.FloeException OUTSIDE_LAKE naming the table and the place
   */
  public void checkWritable(String table, TableMetadata metadata) {
    if (!containsLocation(metadata.location())) {
      throw FloeError.OUTSIDE_LAKE.error(
          "write table " + table, "its location " + metadata.location(), root);
    }
    checkProperties("write table " + table, metadata.properties());
  }

  /** Refuses table properties that would send files outside the root. */
  public void checkProperties(String action, Map<String, String> properties) {
    for (String key : PATH_PROPERTIES) {
      String value = properties.get(key);
      if (value != null && !containsLocation(value)) {
        throw FloeError.OUTSIDE_LAKE.error(action, key + " = '" + value + "'", root);
      }
    }
  }

  private Path realRoot() {
    Path r = realRoot;
    if (r == null) {
      r = real(root);
      r = r == null ? root : r;
      realRoot = r;
    }
    return r;
  }

  /**
   * The real path of a possibly missing path, as the operating system resolves it: the longest part
   * of it that exists resolved (symbolic links followed, {@code ..} after a link taken from the
   * link's target), the rest, which exists nowhere and so holds no link, added lexically. Null when
   * the existing part cannot be resolved (a dangling link), which no caller may take for inside.
   * The one place a local location is made canonical ({@link LakeStore#canonical}).
   */
  static Path real(Path path) {
    Path p = path.toAbsolutePath();
    Path root = p.getRoot();
    int n = p.getNameCount();
    for (int i = n; i >= 0; i--) {
      Path prefix = i == 0 ? root : root.resolve(p.subpath(0, i));
      if (!Files.exists(prefix, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      Path real;
      try {
        real = prefix.toRealPath();
      } catch (IOException | SecurityException e) {
        return null;
      }
      for (int j = i; j < n; j++) {
        String part = p.getName(j).toString();
        if (part.equals("..")) {
          real = real.getParent() == null ? real : real.getParent();
        } else if (!part.equals(".")) {
          real = real.resolve(part);
        }
      }
      return real;
    }
    return p.normalize();
  }
}
