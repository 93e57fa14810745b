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

  /** Something a statement does, which may throw anything the JDBC call throws. */
  interface Action {
    Object run() throws Throwable;
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
    try {
      return watch(sql, action);
    } catch (Throwable e) {
      onFailure.run();
      throw e;
    }
  }

  private Object watch(String sql, Action action) throws Throwable {
    String statement = LEADING_COMMENTS.matcher(sql == null ? "" : sql).replaceFirst("");
    if (READ_ONLY_STATEMENT.matcher(statement).matches()) {
      return action.run();
    }
    Map<Path, Long> before = versions(root);
    ScheduledFuture<?> progress = null;
    Matcher write = LONG_WRITE.matcher(statement);
    if (write.lookingAt()) {
      progress = startProgress(write.group(1).toUpperCase(Locale.ROOT).split("\\s")[0]);
    }
    try {
      return action.run();
    } finally {
      if (progress != null) {
        progress.cancel(false);
      }
      reportChanges(before, versions(root));
    }
  }

  private ScheduledFuture<?> startProgress(String verb) {
    long started = System.nanoTime();
    FileTime since = FileTime.from(Instant.now());
    return ticker.scheduleAtFixedRate(
        () -> {
          long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
          try {
            long[] written = dataFilesWrittenSince(since);
            if (written[0] == 0) {
              report.printf("... %s running for %d s, no data file written yet%n", verb, seconds);
            } else {
              report.printf(
                  "... %s running for %d s: %d data file%s (%.1f MB) written so far%n",
                  verb, seconds, written[0], written[0] == 1 ? "" : "s", written[1] / 1e6);
            }
          } catch (IOException | UncheckedIOException e) {
            report.printf("... %s running for %d s%n", verb, seconds);
          }
        },
        progressMillis,
        progressMillis,
        TimeUnit.MILLISECONDS);
  }

  /**
   * Counts files under the tables' {@code data/} folders modified since a time, and their bytes.
   */
  private long[] dataFilesWrittenSince(FileTime since) throws IOException {
    long[] countAndBytes = new long[2];
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
              countAndBytes[0]++;
              countAndBytes[1] += attributes.size();
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

  private static boolean inDataFolder(Path relative) {
    for (Path name : relative) {
      if (name.toString().equals("data")) {
        return true;
      }
    }
    return false;
  }

  private void reportChanges(Map<Path, Long> before, Map<Path, Long> after) {
    for (Map.Entry<Path, Long> table : after.entrySet()) {
      Long old = before.get(table.getKey());
      if (!table.getValue().equals(old)) {
        report.println(describe(table.getKey(), old, table.getValue()));
      }
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

  /** One line on a table whose metadata changed from version {@code old} to {@code now}. */
  private String describe(Path folder, Long old, long now) {
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
    return table
        + ": committed snapshot "
        + current.snapshotId()
        + " ("
        + current.operation()
        + summary(current.summary())
        + "; metadata v"
        + now
        + ")";
  }

  private static String summary(Map<String, String> summary) {
    List<String> parts = new ArrayList<>();
    count(parts, summary, "added-records", "+%d row", "+%d rows");
    count(parts, summary, "deleted-records", "-%d row", "-%d rows");
    count(
        parts,
        summary,
        "added-position-deletes",
        "%d row marked deleted",
        "%d rows marked deleted");
    count(parts, summary, "added-data-files", "%d data file added", "%d data files added");
    count(parts, summary, "deleted-data-files", "%d data file removed", "%d data files removed");
    count(parts, summary, "added-delete-files", "%d delete file added", "%d delete files added");
    return parts.isEmpty() ? "" : ": " + String.join(", ", parts);
  }

  private static void count(
      List<String> parts, Map<String, String> summary, String key, String one, String many) {
    String value = summary.get(key);
    if (value == null) {
      return;
    }
    long n;
    try {
      n = Long.parseLong(value);
    } catch (NumberFormatException e) {
      return;
    }
    if (n != 0) {
      parts.add(String.format(Locale.ROOT, n == 1 ? one : many, n));
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
