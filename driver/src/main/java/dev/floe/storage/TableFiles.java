package dev.floe.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The files a table's snapshots refer to, read from its manifest lists and manifests: the one walk
 * that snapshot expiry, orphan removal, DROP ... PURGE and the search for files other tables
 * reference all make.
 */
public final class TableFiles {
  private TableFiles() {}

  /** The kinds of file a snapshot refers to. */
  public enum Kind {
    DATA,
    POSITION_DELETES,
    EQUALITY_DELETES,
    MANIFEST,
    MANIFEST_LIST,
    STATISTICS
  }

  /** Told of each file met. */
  @FunctionalInterface
  public interface Visitor {
    /**
     * @param bytes the file's size as the metadata records it, or -1 when it does not (a manifest
     *     list)
     */
    void file(String location, Kind kind, long bytes);
  }

  /**
   * Visits every file the given snapshots refer to (every snapshot's when {@code snapshotIds} is
   * null): each manifest list, each manifest (as often as snapshots share it), each manifest's data
   * and delete files (once per manifest), and the statistics files of those snapshots.
   *
   * @return how many manifests were read
   * @throws UncheckedIOException or Iceberg's exceptions when a manifest list or manifest cannot be
   *     read (the caller names the table)
   */
  public static int walk(Table table, @Nullable Set<Long> snapshotIds, Visitor visitor) {
    FileIO io = table.io();
    Set<String> manifestsRead = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (snapshotIds != null && !snapshotIds.contains(snapshot.snapshotId())) {
        continue;
      }
      if (snapshot.manifestListLocation() != null) {
        visitor.file(snapshot.manifestListLocation(), Kind.MANIFEST_LIST, -1);
      }
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        visitor.file(manifest.path(), Kind.MANIFEST, manifest.length());
        if (manifestsRead.add(manifest.path())) {
          readManifest(table, manifest, visitor);
        }
      }
    }
    for (StatisticsFile file : table.statisticsFiles()) {
      if (snapshotIds == null || snapshotIds.contains(file.snapshotId())) {
        visitor.file(file.path(), Kind.STATISTICS, file.fileSizeInBytes());
      }
    }
    for (PartitionStatisticsFile file : table.partitionStatisticsFiles()) {
      if (snapshotIds == null || snapshotIds.contains(file.snapshotId())) {
        visitor.file(file.path(), Kind.STATISTICS, file.fileSizeInBytes());
      }
    }
    return manifestsRead.size();
  }

  private static void readManifest(Table table, ManifestFile manifest, Visitor visitor) {
    try {
      if (manifest.content() == ManifestContent.DATA) {
        try (ManifestReader<DataFile> reader =
            ManifestFiles.read(manifest, table.io(), table.specs())) {
          for (DataFile file : reader) {
            visitor.file(file.location(), Kind.DATA, file.fileSizeInBytes());
          }
        }
      } else {
        try (ManifestReader<DeleteFile> reader =
            ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
          for (DeleteFile file : reader) {
            visitor.file(
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
}
