package dev.floe.examples.shell;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * Watches one lake folder around the statements the shell runs: after a statement it reports, for
 * every table whose metadata changed, the snapshot that is now current (read from the table's
 * newest {@code vN.metadata.json}, as any Iceberg reader would); during a long write it reports how
 * many data files the statement has written so far.
 *
 * <p>It looks at files only, so it reports what is durable in the lake, whoever wrote it. Not
 * thread-safe; the progress task runs on the shared ticker.
 */
final class LakeWatcher {
  private static final Pattern METADATA_FILE = Pattern.compile("v(\\d+)(\\.gz)?\\.metadata\\.json");
  private static final Pattern LEADING_COMMENTS =
      Pattern.compile("^(\\s*(--[^\\n]*(\\n|$)|/\\*.*?\\*/))*\\s*", Pattern.DOTALL);
  private static final Pattern READ_ONLY_STATEMENT =
      Pattern.compile("(?i)(SELECT|WITH|VALUES|EXPLAIN|DESCRIBE|SHOW)\\b.*", Pattern.DOTALL);
  private static final Pattern LONG_WRITE =
      Pattern.compile(
          "(?i)(INSERT|UPSERT|UPDATE|DELETE|MERGE|CREATE\\s.*\\bAS\\b)", Pattern.DOTALL);
  private static final Pattern PROCEDURE =
      Pattern.compile("(?i)ALTER\\s+TABLE\\s+.+?\\s+EXECUTE\\s+(\\w+)", Pattern.DOTALL);

  /** Something a statement does, which may throw anything the JDBC call throws. */
  interface Action {
    Object run() throws Throwable;
  }

  /** The update count of the statement that just ran, when its result does not carry it. */
  interface UpdateCount {
    long get() throws Throwable;
  }

  private final Path root;
  private final PrintStream report;
  private final ScheduledExecutorService ticker;
  private final long progressMillis;
  private final Runnable onFailure;

  LakeWatcher(
      Path root,
      PrintStream report,
      ScheduledExecutorService ticker,
      long progressMillis,
      Runnable onFailure) {
    this.root = root;
    this.report = report;
    this.ticker = ticker;
    this.progressMillis = progressMillis;
    this.onFailure = onFailure;
  }

  /**
   * Runs one statement (or a commit), then reports what it changed in the lake; a statement that
   * throws is counted as a failure of the run.
   */
  Object around(String sql, Action action) throws Throwable {
    return around(sql, action, () -> -1L);
  }

  /**
   * As {@link #around(String, Action)}; the report of a single statement that changed one table
   * gives the rows it affected as JDBC reports them ({@code updateCount} after {@code execute}).
   */
  Object around(String sql, Action action, UpdateCount updateCount) throws Throwable {
    try {
      return watch(sql, action, updateCount);
    } catch (Throwable e) {
      onFailure.run();
      throw e;
    }
  }

  private Object watch(String sql, Action action, UpdateCount updateCount) throws Throwable {
    String statement = LEADING_COMMENTS.matcher(sql == null ? "" : sql).replaceFirst("");
    if (READ_ONLY_STATEMENT.matcher(statement).matches()) {
      return action.run();
    }
    Map<Path, Long> before = versions(root);
    ScheduledFuture<?> progress = null;
    Matcher write = LONG_WRITE.matcher(statement);
    String verb = null;
    Matcher procedure = PROCEDURE.matcher(statement);
    if (write.lookingAt()) {
      verb = write.group(1).toUpperCase(Locale.ROOT).split("\\s")[0];
      progress = startProgress(verb);
    } else if (procedure.lookingAt()) {
      // table maintenance (optimize writes files too); its row of counts is the result
      progress = startProgress(procedure.group(1).toLowerCase(Locale.ROOT));
    }
    Object result = null;
    boolean succeeded = false;
    try {
      result = action.run();
      succeeded = true;
      return result;
    } finally {
      if (progress != null) {
        progress.cancel(false);
      }
      long rows = succeeded && verb != null ? rowsAffected(result, updateCount) : -1;
      reportChanges(before, versions(root), verb, rows);
    }
  }

  /** The rows a statement affected, from its result or its update count; -1 when unknown. */
  private static long rowsAffected(Object result, UpdateCount updateCount) {
    try {
      if (result instanceof Number) {
        return ((Number) result).longValue();
      }
      if (result instanceof int[]) {
        long sum = 0;
        for (int n : (int[]) result) {
          if (n < 0) {
            return -1;
          }
          sum += n;
        }
        return sum;
      }
      if (result instanceof long[]) {
        long sum = 0;
        for (long n : (long[]) result) {
          if (n < 0) {
            return -1;
          }
          sum += n;
        }
        return sum;
      }
      if (Boolean.FALSE.equals(result)) {
        return updateCount.get();
      }
    } catch (Throwable e) {
      return -1;
    }
    return -1;
  }

  private ScheduledFuture<?> startProgress(String verb) {
    long started = System.nanoTime();
    FileTime since = FileTime.from(Instant.now());
    return ticker.scheduleAtFixedRate(
        () -> {
          long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
          try {
            long[] written = filesWrittenSince(since);
            if (written[0] + written[2] == 0) {
              // A DELETE may change metadata only, and Parquet holds a row group in memory before
              // writing it: no file yet says nothing about how far the statement is.
              report.printf("... %s running for %d s%n", verb, seconds);
            } else {
              List<String> files = new ArrayList<>();
              if (written[0] > 0) {
                files.add(plural(written[0], "data file"));
              }
              if (written[2] > 0) {
                files.add(plural(written[2], "delete file"));
              }
              report.printf(
                  "... %s running for %d s: %s (%.1f MB) written so far%n",
                  verb, seconds, String.join(", ", files), (written[1] + written[3]) / 1e6);
            }
          } catch (IOException | UncheckedIOException e) {
            report.printf("... %s running for %d s%n", verb, seconds);
          }
        },
        progressMillis,
        progressMillis,
        TimeUnit.MILLISECONDS);
  }

  private static String plural(long n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  /**
   * Counts files under the tables' {@code data/} folders modified since a time and their bytes:
   * data files in [0] and [1], delete files (Floe's {@code -deletes.parquet}, deletion vectors'
   * {@code .puffin}) in [2] and [3].
   */
  private long[] filesWrittenSince(FileTime since) throws IOException {
    long[] countAndBytes = new long[4];
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
            return dir.getFileName().toString().equals("metadata")
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            if (attributes.isRegularFile()
                && attributes.lastModifiedTime().compareTo(since) >= 0
                && inDataFolder(root.relativize(file))) {
              int kind = isDeleteFile(file.getFileName().toString()) ? 2 : 0;
              countAndBytes[kind]++;
              countAndBytes[kind + 1] += attributes.size();
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE; // a file deleted while we walk
          }
        });
    return countAndBytes;
  }

  /** Whether a file's name says it holds deletes, as Floe and Iceberg's writers name them. */
  static boolean isDeleteFile(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.endsWith(".puffin") || lower.contains("-deletes.") || lower.contains("-delete.");
  }

  private static boolean inDataFolder(Path relative) {
    for (Path name : relative) {
      if (name.toString().equals("data")) {
        return true;
      }
    }
    return false;
  }

  private void reportChanges(
      Map<Path, Long> before, Map<Path, Long> after, String verb, long rows) {
    List<Path> changed = new ArrayList<>();
    for (Map.Entry<Path, Long> table : after.entrySet()) {
      if (!table.getValue().equals(before.get(table.getKey()))) {
        changed.add(table.getKey());
      }
    }
    for (Path table : changed) {
      // The statement's own count is the table's only when it changed no other table.
      String affected = changed.size() == 1 && rows >= 0 ? affected(verb, rows) : null;
      report.println(describe(table, before.get(table), after.get(table), affected));
    }
    for (Path table : before.keySet()) {
      if (!after.containsKey(table)) {
        report.println(name(table) + ": dropped");
      }
    }
  }

  /**
   * A table's SQL name from its folder under the root: {@code sales/orders} is {@code
   * sales.orders}.
   */
  static String name(Path table) {
    List<String> names = new ArrayList<>();
    for (Path name : table) {
      names.add(name.toString());
    }
    return String.join(".", names);
  }

  /** The rows a statement affected, as its verb says: {@code 2 rows deleted}. */
  private static String affected(String verb, long rows) {
    String done;
    switch (verb) {
      case "INSERT":
      case "UPSERT":
      case "CREATE":
        done = "inserted";
        break;
      case "DELETE":
        done = "deleted";
        break;
      case "UPDATE":
        done = "updated";
        break;
      default:
        done = "affected";
        break;
    }
    return plural(rows, "row") + " " + done;
  }

  /**
   * One line on a table whose metadata changed from version {@code old} to {@code now}; {@code
   * affected} says what the statement did to its rows (null after a COMMIT, when the snapshot's
   * summary counts them).
   */
  private String describe(Path folder, Long old, long now, String affected) {
    String table = name(folder);
    TableMetadata metadata;
    Long oldSnapshot = null;
    try {
      metadata = read(folder, now);
      if (old != null) {
        Snapshot previous = read(folder, old).currentSnapshot();
        oldSnapshot = previous == null ? null : previous.snapshotId();
      }
    } catch (RuntimeException e) {
      return table + ": metadata v" + now + " (cannot read it: " + e.getMessage() + ")";
    }
    Snapshot current = metadata.currentSnapshot();
    if (current == null || Objects.equals(oldSnapshot, current.snapshotId())) {
      String what = old == null ? "created" : "table definition changed";
      return table
          + ": "
          + what
          + " (metadata v"
          + now
          + (current == null
              ? ", no snapshot yet)"
              : ", current snapshot " + current.snapshotId() + ")");
    }
    List<String> parts = new ArrayList<>();
    parts.add(affected != null ? affected : rows(current.summary()));
    parts.add(files(current.summary()));
    parts.removeIf(String::isEmpty);
    return table
        + ": committed snapshot "
        + current.snapshotId()
        + " ("
        + current.operation()
        + (parts.isEmpty() ? "" : ": " + String.join("; ", parts))
        + "; metadata v"
        + now
        + ")";
  }

  /**
   * Rows added and removed, from a snapshot's summary: rows in added data files, and rows in
   * removed data files or marked deleted (position deletes, deletion vectors, equality deletes). A
   * copy-on-write rewrite counts the rows it carried over both ways.
   */
  private static String rows(Map<String, String> summary) {
    long added = number(summary, "added-records");
    long removed =
        number(summary, "deleted-records")
            + number(summary, "added-position-deletes")
            + number(summary, "added-equality-deletes");
    List<String> parts = new ArrayList<>();
    if (added > 0) {
      parts.add("+" + plural(added, "row"));
    }
    if (removed > 0) {
      parts.add("-" + plural(removed, "row"));
    }
    return String.join(", ", parts);
  }

  /** The files a snapshot added and removed, data and delete files apart. */
  private static String files(Map<String, String> summary) {
    List<String> parts = new ArrayList<>();
    count(parts, summary, "added-data-files", "data file added", "data files added");
    count(parts, summary, "deleted-data-files", "data file removed", "data files removed");
    count(parts, summary, "added-delete-files", "delete file added", "delete files added");
    count(parts, summary, "removed-delete-files", "delete file removed", "delete files removed");
    return String.join(", ", parts);
  }

  private static void count(
      List<String> parts, Map<String, String> summary, String key, String one, String many) {
    long n = number(summary, key);
    if (n != 0) {
      parts.add(n + " " + (n == 1 ? one : many));
    }
  }

  private static long number(Map<String, String> summary, String key) {
    String value = summary.get(key);
    if (value == null) {
      return 0;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private TableMetadata read(Path table, long version) {
    Path file = metadataFile(root.resolve(table).resolve("metadata"), version);
    if (file == null) {
      throw new IllegalStateException("v" + version + ".metadata.json is gone");
    }
    return TableMetadataParser.read(org.apache.iceberg.Files.localInput(file.toFile()));
  }

  /**
   * The current metadata version of every table under the lake: tables are folders holding {@code
   * metadata/}, keyed by their folder relative to the root.
   */
  static Map<Path, Long> versions(Path root) {
    Map<Path, Long> versions = new TreeMap<>();
    collect(root, root, versions, 0);
    return versions;
  }

  private static void collect(Path root, Path folder, Map<Path, Long> versions, int depth) {
    long version = currentVersion(folder.resolve("metadata"));
    if (version > 0) {
      versions.put(root.relativize(folder), version);
      return;
    }
    if (depth > 8) {
      return;
    }
    try (DirectoryStream<Path> children = Files.newDirectoryStream(folder, Files::isDirectory)) {
      for (Path child : children) {
        if (!child.getFileName().toString().startsWith(".")) {
          collect(root, child, versions, depth + 1);
        }
      }
    } catch (IOException e) {
      // a folder we cannot list holds no table we can report on
    }
  }

  /**
   * A table's current metadata version, found as Iceberg's file-system tables define it: the
   * version hint, then probing forward for newer files (the hint may be stale); 0 if none.
   */
  static long currentVersion(Path metadata) {
    if (!Files.isDirectory(metadata)) {
      return 0;
    }
    long version = 0;
    try {
      version = Long.parseLong(Files.readString(metadata.resolve("version-hint.text")).trim());
    } catch (IOException | NumberFormatException e) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(metadata, "v*.metadata.json")) {
        for (Path file : files) {
          Matcher m = METADATA_FILE.matcher(file.getFileName().toString());
          if (m.matches()) {
            version = Math.max(version, Long.parseLong(m.group(1)));
          }
        }
      } catch (IOException listFailure) {
        return 0;
      }
    }
    while (metadataFile(metadata, version + 1) != null) {
      version++;
    }
    return version;
  }

  private static Path metadataFile(Path metadata, long version) {
    Path plain = metadata.resolve("v" + version + ".metadata.json");
    if (Files.exists(plain)) {
      return plain;
    }
    Path gzip = metadata.resolve("v" + version + ".gz.metadata.json");
    return Files.exists(gzip) ? gzip : null;
  }
}
