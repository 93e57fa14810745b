package dev.floe.storage;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Table metadata files already parsed in this JVM, by location and the file's stamp (what the store
 * says identifies that file's contents: a local file's inode, size and modification time, an S3
 * object's ETag). A published metadata file never changes under its name; the stamp tells a file
 * that was deleted and written again (a table dropped and created anew) from the one parsed before.
 * Dropping a table through Floe also forgets its files at once. The parsed metadata is shared:
 * Iceberg's {@link TableMetadata} is immutable, and its snapshots keep their manifest lists once
 * read.
 *
 * <p>Least recently used files are let go beyond a fixed number. Safe for several threads.
 */
final class ParsedMetadata {
  /** How many parsed metadata files the JVM keeps. */
  private static final int CAPACITY = 128;

  private static final Map<String, TableMetadata> PARSED =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TableMetadata> eldest) {
          return size() > CAPACITY;
        }
      };

  private ParsedMetadata() {}

  /**
   * The metadata in a file, parsed once per stamp.
   *
   * @param stamp what identifies the file's contents now, or null to parse it anyway
   */
  static TableMetadata read(FileIO io, String location, @Nullable String stamp) {
    if (stamp == null) {
      return TableMetadataParser.read(io, location);
    }
    String key = location + '\n' + stamp;
    synchronized (PARSED) {
      TableMetadata kept = PARSED.get(key);
      if (kept != null) {
        return kept;
      }
    }
    TableMetadata parsed = TableMetadataParser.read(io, location);
    synchronized (PARSED) {
      PARSED.put(key, parsed);
    }
    return parsed;
  }

  /** Forgets every parsed file under a table location (the table is being dropped). */
  static void forget(String tableLocation) {
    String prefix = tableLocation.endsWith("/") ? tableLocation : tableLocation + "/";
    synchronized (PARSED) {
      for (Iterator<String> keys = PARSED.keySet().iterator(); keys.hasNext(); ) {
        if (keys.next().startsWith(prefix)) {
          keys.remove();
        }
      }
    }
  }
}
