package dev.floe.storage;

import dev.floe.error.FloeError;
import dev.floe.planner.spi.ExternalFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.io.InputFile;

/**
 * Local files read by {@code read_parquet} and {@code read_csv}: a path or a glob, relative to the
 * lake root when the lake is a local folder. With external access off, every path outside the lake
 * root (after {@code ..} and symbolic links are resolved) is refused, as DuckDB's {@code
 * enable_external_access=false} refuses them; reading inside the lake is always allowed. Only
 * regular files stored on a disk are read: FIFOs, devices and the files of kernel file systems
 * ({@code /proc}) are refused before they are opened.
 */
final class ExternalFileAccess implements ExternalFiles {
  private static final int MAX_FILES = 100_000;

  private final Sandbox sandbox;
  private final boolean externalAccess;

  /**
   * @param sandbox the lake root of a local lake, or null for a lake in an object store (every
   *     local path lies outside it)
   */
  ExternalFileAccess(Sandbox sandbox, boolean externalAccess) {
    this.sandbox = sandbox;
    this.externalAccess = externalAccess;
  }

  @Override
  public List<String> list(String pattern) {
    if (pattern == null || pattern.isBlank()) {
      throw FloeError.IO.error("''", "a file path or glob is required");
    }
    if (pattern.contains("://") && !pattern.regionMatches(true, 0, "file://", 0, 7)) {
      throw FloeError.NOT_SUPPORTED.error(
          "reading " + pattern + ": read_parquet and read_csv read local files only");
    }
    Path path = absolute(pattern);
    if (!hasGlob(pattern)) {
      Path file = path.normalize();
      checkAccess(pattern, file);
      if (!Files.exists(file)) {
        throw FloeError.IO.error(pattern, "no such file");
      }
      if (Files.isDirectory(file)) {
        throw FloeError.IO.error(pattern, "it is a folder, not a file");
      }
      checkOrdinary(pattern, file);
      return List.of(file.toString());
    }
    return globbed(pattern, path);
  }

  @Override
  public String searched(String pattern) {
    Path path = absolute(pattern);
    return (hasGlob(pattern) ? base(path) : path.normalize()).toString();
  }

  /** The absolute local path a path or glob spells; a relative one from the lake root. */
  private Path absolute(String pattern) {
    try {
      String local = pattern.regionMatches(true, 0, "file:", 0, 5) ? pattern.substring(5) : pattern;
      while (local.startsWith("//")) {
        local = local.substring(1);
      }
      Path path = Path.of(local);
      if (!path.isAbsolute()) {
        if (sandbox == null) {
          throw FloeError.IO.error(
              pattern, "a relative path is read from the lake root, and this lake is no folder");
        }
        path = sandbox.root().resolve(path);
      }
      return path;
    } catch (InvalidPathException e) {
      throw FloeError.IO.error(e, pattern, "it is not a valid path: " + e.getReason());
    }
  }

  /** The longest folder of an absolute glob before its first wildcard. */
  private static Path base(Path absolute) {
    String text = absolute.toString().replace('\\', '/');
    int slash = text.lastIndexOf('/', firstGlob(text));
    return Path.of(slash <= 0 ? "/" : text.substring(0, slash)).normalize();
  }

  /** The files under the longest glob-free folder of a pattern that match it. */
  private List<String> globbed(String pattern, Path absolute) {
    String text = absolute.toString().replace('\\', '/');
    int firstGlob = firstGlob(text);
    int slash = text.lastIndexOf('/', firstGlob);
    Path base = base(absolute);
    checkAccess(pattern, base);
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + text);
    List<String> files = new ArrayList<>();
    if (Files.isDirectory(base)) {
      int depth = text.contains("**") ? Integer.MAX_VALUE : countParts(text.substring(slash));
      try (Stream<Path> walk = Files.walk(base, depth)) {
        walk.filter(p -> matcher.matches(Path.of(p.toString().replace('\\', '/'))))
            .filter(Files::isRegularFile)
            .filter(p -> !p.getFileName().toString().startsWith("."))
            .limit(MAX_FILES)
            .forEach(p -> files.add(p.toString()));
      } catch (IOException | UncheckedIOException e) {
        throw FloeError.IO.error(e, pattern, String.valueOf(e.getMessage()));
      }
    }
    if (files.isEmpty()) {
      throw FloeError.IO.error(pattern, "no file matches it");
    }
    files.sort(null);
    for (String file : files) {
      checkAccess(pattern, Path.of(file));
      checkOrdinary(pattern, Path.of(file));
    }
    return files;
  }

  /** File system types whose files are made up by the kernel as they are read, not stored. */
  private static final java.util.Set<String> PSEUDO_FILE_SYSTEMS =
      java.util.Set.of(
          "proc",
          "sysfs",
          "devtmpfs",
          "devpts",
          "debugfs",
          "tracefs",
          "securityfs",
          "cgroup",
          "cgroup2",
          "pstore",
          "bpf",
          "configfs",
          "fusectl",
          "mqueue",
          "efivarfs",
          "binfmt_misc");

  /**
   * Refuses (58030), before anything opens it, a file that is not a regular file stored on a disk:
   * a FIFO, socket or device (reading one may block for ever or never end), or a file of {@code
   * /proc}, {@code /sys} or {@code /dev}, whose contents the kernel makes up as they are read.
   */
  private static void checkOrdinary(String pattern, Path file) {
    Path real;
    try {
      real = file.toRealPath();
    } catch (IOException e) {
      throw FloeError.IO.error(e, pattern, "cannot resolve " + file + ": " + e.getMessage());
    }
    if (!Files.isRegularFile(real)) {
      throw FloeError.IO.error(
          pattern, real + " is not a regular file (a FIFO, socket or device is never read)");
    }
    String store;
    try {
      store = Files.getFileStore(real).type();
    } catch (IOException e) {
      store = "";
    }
    for (String root : List.of("/proc/", "/sys/", "/dev/")) {
      if (real.toString().startsWith(root) || PSEUDO_FILE_SYSTEMS.contains(store)) {
        throw FloeError.IO.error(
            pattern,
            real
                + " lies on a kernel file system ("
                + (store.isEmpty() ? root : store)
                + "), whose files are made as they are read; copy it to a regular file first");
      }
    }
  }

  private static int countParts(String tail) {
    int parts = 0;
    for (String part : tail.split("/")) {
      if (!part.isEmpty()) {
        parts++;
      }
    }
    return parts;
  }

  private static boolean hasGlob(String text) {
    return firstGlob(text) < text.length();
  }

  private static int firstGlob(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '*' || c == '?' || c == '[' || c == '{') {
        return i;
      }
    }
    return text.length();
  }

  /** With external access off, a path outside the lake root is 42602. */
  private void checkAccess(String pattern, Path path) {
    if (externalAccess) {
      return;
    }
    if (sandbox == null || !sandbox.contains(path)) {
      throw FloeError.OUTSIDE_LAKE.error(
          "read " + pattern + " (externalAccess=false)",
          path,
          sandbox == null ? "of this connection" : sandbox.root());
    }
  }

  @Override
  public InputFile open(String location) {
    checkAccess(location, Path.of(location));
    checkOrdinary(location, Path.of(location));
    return org.apache.iceberg.Files.localInput(location);
  }
}
