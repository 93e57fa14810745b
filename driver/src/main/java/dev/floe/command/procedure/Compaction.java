package dev.floe.command.procedure;

import dev.floe.planner.scan.InternalRows;
import dev.floe.planner.write.LakeWrites;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.StructLikeWrapper;

/**
 * {@code optimize}: bin-packs the data files of each partition that are smaller than the threshold
 * or carry deletes into new files, reading them with their position deletes, equality deletes and
 * deletion vectors applied, and drops the delete files no remaining data file needs. Each partition
 * is one group committed on its own with Iceberg's {@link RewriteFiles}, validated from the
 * snapshot read: a concurrent append commits fine, a concurrent delete on a group's files fails
 * only that group, whose written files are deleted.
 */
final class Compaction {
  private final Table table;
  private final String name;
  private final Consumer<String> progress;

  /**
   * @param progress receives one line per committed group
   */
  Compaction(Table table, String name, Consumer<String> progress) {
    this.table = table;
    this.name = name;
    this.progress = progress;
  }

  /** One partition's files to rewrite. */
  private record Group(List<Object> partition, List<FileScanTask> tasks) {}

  /**
   * @param predicate the partitions optimize's WHERE selects, or null for all
   */
  Maintenance.Result run(long threshold, PartitionPredicate predicate, boolean dryRun) {
    table.refresh();
    Snapshot snapshot = table.currentSnapshot();
    long rewritten = 0;
    long removedDeletes = 0;
    long added = 0;
    long bytes = 0;
    if (snapshot != null) {
      // Partitions told apart by their values as Iceberg compares them (a binary value read from
      // a manifest is a buffer whose text differs from file to file).
      Map<List<Object>, List<FileScanTask>> byPartition = new LinkedHashMap<>();
      Map<String, Set<String>> deleteUsers = new HashMap<>();
      Map<String, DeleteFile> deleteFiles = new HashMap<>();
      try (CloseableIterable<FileScanTask> tasks =
          table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
        for (FileScanTask task : tasks) {
          for (DeleteFile delete : task.deletes()) {
            String key = deleteKey(delete);
            deleteFiles.put(key, delete);
            deleteUsers.computeIfAbsent(key, k -> new HashSet<>()).add(task.file().location());
          }
          boolean selected = predicate == null || predicate.selects(task.file());
          if (selected
              && (task.file().fileSizeInBytes() < threshold || !task.deletes().isEmpty())) {
            int specId = task.file().specId();
            List<Object> partition =
                List.of(
                    specId,
                    StructLikeWrapper.forType(table.specs().get(specId).partitionType())
                        .set(task.file().partition()));
            byPartition.computeIfAbsent(partition, k -> new ArrayList<>()).add(task);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Set<String> rewrittenFiles = new HashSet<>();
      Set<String> removed = new HashSet<>();
      int groupNumber = 0;
      for (Map.Entry<List<Object>, List<FileScanTask>> entry : byPartition.entrySet()) {
        groupNumber++;
        List<FileScanTask> tasks = entry.getValue();
        boolean hasDeletes = tasks.stream().anyMatch(t -> !t.deletes().isEmpty());
        if (tasks.size() < 2 && !hasDeletes) {
          continue;
        }
        Group group = new Group(entry.getKey(), tasks);
        Set<String> groupFiles = new HashSet<>();
        for (FileScanTask task : tasks) {
          groupFiles.add(task.file().location());
        }
        Set<DeleteFile> obsolete = new HashSet<>();
        for (FileScanTask task : tasks) {
          for (DeleteFile delete : task.deletes()) {
            String key = deleteKey(delete);
            if (!removed.contains(key)
                && needsOnly(deleteUsers.get(key), groupFiles, rewrittenFiles)) {
              obsolete.add(delete);
            }
          }
        }
        long groupBytes = distinctBytes(tasks);
        if (dryRun) {
          rewritten += groupFiles.size();
          bytes += groupBytes;
          removedDeletes += obsolete.size();
          obsolete.forEach(d -> removed.add(deleteKey(d)));
          rewrittenFiles.addAll(groupFiles);
          continue;
        }
        List<DataFile> written = rewrite(group, snapshot, obsolete);
        if (written == null) {
          progress.accept(
              String.format(
                  "optimize %s: group %d of %d (%s) gave up: a concurrent change deleted rows"
                      + " of its files; a later optimize picks it up",
                  name, groupNumber, byPartition.size(), partitionText(tasks.get(0))));
          continue;
        }
        progress.accept(
            String.format(
                "optimize %s: group %d of %d (%s) committed: %d files, %d bytes rewritten into"
                    + " %d files",
                name,
                groupNumber,
                byPartition.size(),
                partitionText(tasks.get(0)),
                groupFiles.size(),
                groupBytes,
                written.size()));
        rewritten += groupFiles.size();
        bytes += groupBytes;
        added += written.size();
        removedDeletes += obsolete.size();
        obsolete.forEach(d -> removed.add(deleteKey(d)));
        rewrittenFiles.addAll(groupFiles);
      }
      removedDeletes +=
          dropShared(deleteUsers, deleteFiles, removed, rewrittenFiles, snapshot, dryRun);
    }
    Map<String, Long> row = new LinkedHashMap<>();
    row.put("rewritten_data_files_count", rewritten);
    row.put("removed_delete_files_count", removedDeletes);
    row.put("added_data_files_count", added);
    row.put("rewritten_bytes_count", bytes);
    return Maintenance.Result.of(row);
  }

  private String partitionText(FileScanTask task) {
    String path = table.specs().get(task.file().specId()).partitionToPath(task.file().partition());
    return path.isEmpty() ? "unpartitioned" : path;
  }

  private static long distinctBytes(List<FileScanTask> tasks) {
    Map<String, Long> sizes = new HashMap<>();
    for (FileScanTask task : tasks) {
      sizes.put(task.file().location(), task.file().fileSizeInBytes());
    }
    return sizes.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Whether every data file a delete file applies to is rewritten (now or before). */
  private static boolean needsOnly(Set<String> users, Set<String> group, Set<String> rewritten) {
    for (String user : users) {
      if (!group.contains(user) && !rewritten.contains(user)) {
        return false;
      }
    }
    return true;
  }

  /** Drops delete files shared by several groups once every file they apply to is rewritten. */
  private long dropShared(
      Map<String, Set<String>> users,
      Map<String, DeleteFile> files,
      Set<String> removed,
      Set<String> rewritten,
      Snapshot snapshot,
      boolean dryRun) {
    Set<DeleteFile> obsolete = new HashSet<>();
    for (Map.Entry<String, Set<String>> entry : users.entrySet()) {
      if (!removed.contains(entry.getKey()) && rewritten.containsAll(entry.getValue())) {
        obsolete.add(files.get(entry.getKey()));
      }
    }
    if (obsolete.isEmpty() || dryRun) {
      return obsolete.size();
    }
    try {
      RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(snapshot.snapshotId());
      obsolete.forEach(rewrite::deleteFile);
      rewrite.commit();
      return obsolete.size();
    } catch (ValidationException | CommitFailedException e) {
      return 0;
    }
  }

  /** Rewrites one group; its new files, or null when a concurrent change made it give up. */
  private List<DataFile> rewrite(Group group, Snapshot snapshot, Set<DeleteFile> obsolete) {
    String operationId = UUID.randomUUID().toString();
    List<DataFile> written = new ArrayList<>();
    try {
      written =
          LakeWrites.writeLiveRows(
              table,
              // a group is one partition's files: its delete files are loaded once, then let go
              new InternalRows(table),
              group.tasks(),
              task -> null,
              LakeWrites.outputFiles(table, operationId));
      RewriteFiles rewrite =
          table
              .newRewrite()
              .validateFromSnapshot(snapshot.snapshotId())
              .dataSequenceNumber(snapshot.sequenceNumber());
      for (FileScanTask task : group.tasks()) {
        rewrite.deleteFile(task.file());
      }
      obsolete.forEach(rewrite::deleteFile);
      written.forEach(rewrite::addFile);
      rewrite.commit();
      return written;
    } catch (ValidationException | CommitFailedException e) {
      LakeWrites.deleteWrittenFiles(
          table, operationId, written.stream().map(DataFile::location).toList());
      return null;
    } catch (RuntimeException | Error e) {
      LakeWrites.deleteWrittenFiles(
          table, operationId, written.stream().map(DataFile::location).toList());
      throw e;
    }
  }

  private static String deleteKey(DeleteFile delete) {
    return delete.location() + "#" + delete.contentOffset();
  }
}
