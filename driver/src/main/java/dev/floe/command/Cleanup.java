package dev.floe.command;

import dev.floe.error.FloeError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Snapshot expiry, orphan-file removal and manifest rewriting on one table. Which files go is
 * decided by reachability: a file goes when no kept snapshot (nor, for orphans, any metadata
 * version or the version hint) refers to it. A dry run computes exactly the same set and deletes
 * nothing. Files are only ever deleted inside the table's folder.
 */
final class Cleanup {
  private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.metadata\\.json");

  /** The kinds of file a snapshot refers to. */
  enum Kind {
    DATA,
    POSITION_DELETES,
    EQUALITY_DELETES,
    MANIFEST,
    MANIFEST_LIST,
    STATISTICS
  }

  /** One referenced file. */
  record Reference(String location, Kind kind, long bytes) {}

  private final Table table;
  private final String name;
  private final FileIO io;
  private final String folder;
  private int manifestsRead;

  Cleanup(Table table, String name) {
    this.table = table;
    this.name = name;
    this.io = table.io();
    this.folder = key(table.location());
  }

  /** Expires snapshots older than the retention, keeping the last ones and every ref's. */
  Maintenance.Result expireSnapshots(Duration retention, int retainLast, boolean dryRun) {
    long olderThan = System.currentTimeMillis() - retention.toMillis();
    Map<String, Reference> before = reach(snapshotIds(table.snapshots()));
    org.apache.iceberg.ExpireSnapshots expire =
        table
            .expireSnapshots()
            .expireOlderThan(olderThan)
            .retainLast(retainLast)
            .cleanExpiredFiles(false);
    Map<String, Reference> after;
    if (dryRun) {
      Set<Long> kept = snapshotIds(table.snapshots());
      kept.removeAll(snapshotIds(expire.apply()));
      after = reach(kept);
    } else {
      if (!expire.apply().isEmpty()) {
        expire.commit();
      }
      table.refresh();
      after = reach(snapshotIds(table.snapshots()));
    }
    Map<Kind, Long> counts = new HashMap<>();
    long bytes = 0;
    for (Map.Entry<String, Reference> entry : before.entrySet()) {
      if (!after.containsKey(entry.getKey()) && inside(entry.getKey())) {
        Reference gone = entry.getValue();
        if (!dryRun) {
          io.deleteFile(gone.location());
        }
        counts.merge(gone.kind(), 1L, Long::sum);
        bytes += gone.bytes();
      }
    }
    Map<String, Long> row = new LinkedHashMap<>();
    row.put("deleted_data_files_count", counts.getOrDefault(Kind.DATA, 0L));
    row.put("deleted_position_delete_files_count", counts.getOrDefault(Kind.POSITION_DELETES, 0L));
    row.put("deleted_equality_delete_files_count", counts.getOrDefault(Kind.EQUALITY_DELETES, 0L));
    row.put("deleted_manifests_count", counts.getOrDefault(Kind.MANIFEST, 0L));
    row.put("deleted_manifest_lists_count", counts.getOrDefault(Kind.MANIFEST_LIST, 0L));
    row.put("deleted_statistics_files_count", counts.getOrDefault(Kind.STATISTICS, 0L));
    row.put("deleted_bytes", bytes);
    return Maintenance.Result.of(row);
  }

  /**
   * Removes files under the table's folder that nothing refers to and that are older than the
   * retention, so that a writer still writing (whose files are young) is never disturbed.
   */
  Maintenance.Result removeOrphanFiles(Duration retention, boolean dryRun) {
    if (!(io instanceof SupportsPrefixOperations listing)) {
      throw FloeError.NOT_SUPPORTED.error("listing the files of " + name + " on this storage");
    }
    long olderThan = System.currentTimeMillis() - retention.toMillis();
    table.refresh();
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    Set<String> referenced = new HashSet<>(reach(snapshotIds(table.snapshots())).keySet());
    for (StatisticsFile file : table.statisticsFiles()) {
      referenced.add(key(file.path()));
    }
    for (PartitionStatisticsFile file : table.partitionStatisticsFiles()) {
      referenced.add(key(file.path()));
    }
    referenced.add(key(metadata.metadataFileLocation()));
    for (TableMetadata.MetadataLogEntry entry : metadata.previousFiles()) {
      referenced.add(key(entry.file()));
    }
    referenced.add(folder + "/metadata/version-hint.text");
    int currentVersion = version(metadata.metadataFileLocation());
    long scanned = 0;
    long deleted = 0;
    long bytes = 0;
    for (FileInfo file : listing.listPrefix(table.location())) {
      scanned++;
      String key = key(file.location());
      if (referenced.contains(key)
          || file.createdAtMillis() >= olderThan
          || !inside(key)
          || (currentVersion >= 0 && version(key) >= currentVersion)) {
        continue;
      }
      if (!dryRun) {
        io.deleteFile(file.location());
      }
      deleted++;
      bytes += file.size();
    }
    Map<String, Long> row = new LinkedHashMap<>();
    row.put("processed_manifests_count", (long) manifestsRead);
    row.put("active_files_count", (long) referenced.size());
    row.put("scanned_files_count", scanned);
    row.put("deleted_files_count", deleted);
    row.put("deleted_bytes", bytes);
    return Maintenance.Result.of(row);
  }

  /** Rewrites the current data manifests into as few as fit, when there are several. */
  Maintenance.Result optimizeManifests() {
    Snapshot current = table.currentSnapshot();
    long manifests = current == null ? 0 : current.dataManifests(io).size();
    Map<String, Long> row = new LinkedHashMap<>();
    if (manifests <= 1) {
      row.put("rewritten_manifests_count", 0L);
      row.put("added_manifests_count", 0L);
      return Maintenance.Result.of(row);
    }
    table.rewriteManifests().clusterBy(ContentFile::specId).commit();
    Map<String, String> summary = table.currentSnapshot().summary();
    row.put("rewritten_manifests_count", parse(summary.get("manifests-replaced")));
    row.put("added_manifests_count", parse(summary.get("manifests-created")));
    return Maintenance.Result.of(row);
  }

  private static long parse(String count) {
    return count == null ? 0 : Long.parseLong(count);
  }

  private static Set<Long> snapshotIds(Iterable<Snapshot> snapshots) {
    Set<Long> ids = new HashSet<>();
    for (Snapshot snapshot : snapshots) {
      ids.add(snapshot.snapshotId());
    }
    return ids;
  }

  /** Every file the given snapshots refer to, by normalized location. */
  private Map<String, Reference> reach(Set<Long> snapshotIds) {
    Map<String, Reference> reached = new HashMap<>();
    Set<String> manifestsSeen = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (!snapshotIds.contains(snapshot.snapshotId())) {
        continue;
      }
      if (snapshot.manifestListLocation() != null) {
        add(reached, snapshot.manifestListLocation(), Kind.MANIFEST_LIST, -1);
      }
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        add(reached, manifest.path(), Kind.MANIFEST, manifest.length());
        if (manifestsSeen.add(manifest.path())) {
          readManifest(manifest, reached);
        }
      }
    }
    for (StatisticsFile file : table.statisticsFiles()) {
      if (snapshotIds.contains(file.snapshotId())) {
        add(reached, file.path(), Kind.STATISTICS, file.fileSizeInBytes());
      }
    }
    for (PartitionStatisticsFile file : table.partitionStatisticsFiles()) {
      if (snapshotIds.contains(file.snapshotId())) {
        add(reached, file.path(), Kind.STATISTICS, file.fileSizeInBytes());
      }
    }
    return reached;
  }

  private void readManifest(ManifestFile manifest, Map<String, Reference> reached) {
    manifestsRead++;
    try {
      if (manifest.content() == org.apache.iceberg.ManifestContent.DATA) {
        try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, io, table.specs())) {
          for (DataFile file : reader) {
            add(reached, file.location(), Kind.DATA, file.fileSizeInBytes());
          }
        }
      } else {
        try (ManifestReader<DeleteFile> reader =
            ManifestFiles.readDeleteManifest(manifest, io, table.specs())) {
          for (DeleteFile file : reader) {
            add(
                reached,
                file.location(),
                file.content() == FileContent.EQUALITY_DELETES
                    ? Kind.EQUALITY_DELETES
                    : Kind.POSITION_DELETES,
                file.fileSizeInBytes());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void add(Map<String, Reference> reached, String location, Kind kind, long bytes) {
    reached.computeIfAbsent(
        key(location), k -> new Reference(location, kind, bytes >= 0 ? bytes : length(location)));
  }

  private long length(String location) {
    try {
      return io.newInputFile(location).getLength();
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private boolean inside(String key) {
    return key.startsWith(folder + "/");
  }

  /** The metadata version a file name carries, or -1. */
  private static int version(String location) {
    String file = location.substring(location.lastIndexOf('/') + 1);
    Matcher m = VERSION.matcher(file);
    return m.matches() ? Integer.parseInt(m.group(1)) : -1;
  }

  /**
   * One spelling per file: {@code file:/a}, {@code file:///a} and {@code file://localhost/a} are
   * the same local file.
   */
  static String key(String location) {
    String key = location;
    if (key.regionMatches(true, 0, "file:", 0, 5)) {
      key = key.substring(5);
      if (key.startsWith("//localhost/")) {
        key = key.substring(11);
      } else if (key.startsWith("///")) {
        key = key.substring(2);
      }
    }
    while (key.endsWith("/")) {
      key = key.substring(0, key.length() - 1);
    }
    return key;
  }
}
