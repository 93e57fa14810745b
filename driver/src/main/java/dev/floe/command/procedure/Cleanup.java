package dev.floe.command.procedure;

import dev.floe.error.FloeError;
import dev.floe.storage.FileOwnership;
import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeTableOperations;
import dev.floe.storage.TableFiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.HasTableOperations;
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
 * version or the version hint) refers to it. Only the files the table owns go (docs/safety.md, "The
 * lake is a sandbox"): under its own folder, and referenced by no other table of the lake;
 * locations are compared in their canonical spelling, so a file the metadata names through another
 * spelling of the lake is the same file. A dry run computes exactly the same set and deletes
 * nothing.
 */
final class Cleanup {

  /** One referenced file. */
  record Reference(String location, TableFiles.Kind kind, long bytes) {}

  private final Table table;
  private final String name;
  private final List<String> path;
  private final FileOwnership ownership;
  private final Consumer<String> warn;
  private final FileIO io;
  private final String folder;
  private final String folderLocation;
  private int manifestsRead;

  /**
   * @param path the table's path under the root
   * @param warn where a line about kept files goes (a warning on the statement)
   */
  Cleanup(
      Table table,
      String name,
      List<String> path,
      FolderCatalog catalog,
      FileOwnership ownership,
      Consumer<String> warn) {
    this.table = table;
    this.name = name;
    this.path = path;
    this.ownership = ownership;
    this.warn = warn;
    this.io = table.io();
    this.folder = ownership.folder(path);
    this.folderLocation = catalog.tableLocation(path);
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
    List<Reference> gone = new ArrayList<>();
    for (Map.Entry<String, Reference> entry : before.entrySet()) {
      if (!after.containsKey(entry.getKey()) && inside(entry.getKey())) {
        gone.add(entry.getValue());
      }
    }
    Map<TableFiles.Kind, Long> counts = new EnumMap<>(TableFiles.Kind.class);
    long bytes = 0;
    for (Reference file : owned(gone, Reference::location, "expire_snapshots")) {
      bytes += file.bytes() >= 0 ? file.bytes() : length(file.location());
      if (!dryRun) {
        io.deleteFile(file.location());
      }
      counts.merge(file.kind(), 1L, Long::sum);
    }
    Map<String, Long> row = new LinkedHashMap<>();
    row.put("deleted_data_files_count", counts.getOrDefault(TableFiles.Kind.DATA, 0L));
    row.put(
        "deleted_position_delete_files_count",
        counts.getOrDefault(TableFiles.Kind.POSITION_DELETES, 0L));
    row.put(
        "deleted_equality_delete_files_count",
        counts.getOrDefault(TableFiles.Kind.EQUALITY_DELETES, 0L));
    row.put("deleted_manifests_count", counts.getOrDefault(TableFiles.Kind.MANIFEST, 0L));
    row.put("deleted_manifest_lists_count", counts.getOrDefault(TableFiles.Kind.MANIFEST_LIST, 0L));
    row.put("deleted_statistics_files_count", counts.getOrDefault(TableFiles.Kind.STATISTICS, 0L));
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
    String located = key(metadata.location());
    if (!located.equals(folder)) {
      throw FloeError.NOT_OWNED.error(
          "remove orphan files of " + name,
          "its metadata places its files at "
              + metadata.location()
              + ", not in its folder "
              + folderLocation
              + "; every file of its folder would look orphaned");
    }
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
    List<FileInfo> orphans = new ArrayList<>();
    for (FileInfo file : listing.listPrefix(folderLocation)) {
      scanned++;
      String key = key(file.location());
      if (referenced.contains(key)
          || file.createdAtMillis() >= olderThan
          || !inside(key)
          || (currentVersion >= 0 && version(key) >= currentVersion)) {
        continue;
      }
      orphans.add(file);
    }
    long deleted = 0;
    long bytes = 0;
    for (FileInfo file : owned(orphans, FileInfo::location, "remove_orphan_files")) {
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

  /**
   * The files of a list the table owns: those no other table of the lake references (nor may, when
   * one cannot be read); says what was kept.
   */
  private <T> List<T> owned(List<T> files, Function<T, String> location, String procedure) {
    if (files.isEmpty()) {
      return files;
    }
    FileOwnership.Shared shared = ownership.shared(path);
    List<T> owned = new ArrayList<>();
    long kept = 0;
    for (T file : files) {
      if (shared.keeps(key(location.apply(file)))) {
        kept++;
      } else {
        owned.add(file);
      }
    }
    String why = shared.describe(kept);
    if (!why.isEmpty()) {
      warn.accept(procedure + " " + name + ": " + why);
    }
    return owned;
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

  /** Every file the given snapshots refer to, by canonical location. */
  private Map<String, Reference> reach(Set<Long> snapshotIds) {
    Map<String, Reference> reached = new HashMap<>();
    manifestsRead +=
        TableFiles.walk(
            table,
            snapshotIds,
            (location, kind, bytes) ->
                reached.computeIfAbsent(key(location), k -> new Reference(location, kind, bytes)));
    return reached;
  }

  private long length(String location) {
    try {
      return io.newInputFile(location).getLength();
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private String key(String location) {
    return ownership.key(location);
  }

  private boolean inside(String key) {
    return FileOwnership.under(folder, key);
  }

  /** The metadata version a file name carries, or -1. */
  private static int version(String location) {
    return LakeTableOperations.versionOf(location.substring(location.lastIndexOf('/') + 1));
  }
}
