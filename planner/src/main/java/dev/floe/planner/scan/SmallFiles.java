package dev.floe.planner.scan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Types;

/**
 * Small data files kept decoded, so that a statement reading the same small files again (a
 * correlated subquery reading its table once per outer row, a table filled by single-row INSERTs, a
 * client re-running a query) neither opens them nor parses their footers again.
 *
 * <p>An Iceberg data file never changes once written (a change writes new files under new names),
 * so a file's decoded columns are keyed by its location, its size and its row count, and by the
 * columns read (field ids, names, types). Only files of at most {@link #MAX_ROWS} rows and {@link
 * #MAX_FILE_BYTES} bytes whose columns all come from the file itself are kept: no metadata columns,
 * no partition values from the manifest, no name mapping (which a table's properties can change).
 * What is kept holds the file's rows before deletes and filters, which every reader applies
 * afterwards as for a file it opens.
 *
 * <p>The store is shared by every connection of the driver's class loader (files in an object store
 * only by the connection whose credentials read them) and bounded by an estimate of its memory
 * ({@link #CAPACITY} bytes); the least recently used files are let go first. Safe for several
 * threads: kept batches are never written after they are stored.
 */
final class SmallFiles {
  /** The largest file kept, in bytes on disk. */
  static final long MAX_FILE_BYTES = 1L << 20;

  /** The most rows a kept file may hold. */
  static final long MAX_ROWS = BatchReader.BATCH_ROWS;

  /** The estimated memory all kept files may take together. */
  static final long CAPACITY = 32L << 20;

  private static final Map<Key, Kept> FILES = new LinkedHashMap<>(64, 0.75f, true);
  private static long weight;

  private SmallFiles() {}

  /**
   * A kept file's identity: where it is, its size and rows, the columns read from it, and whom it
   * was read for: null for a local file (every connection of the process may read what the process
   * may read), else the FileIO (with its credentials) that read it, so that an object store's file
   * read with one connection's credentials is never handed to another connection.
   */
  record Key(String location, long size, long rows, Types.StructType columns, Object reader) {}

  private record Kept(List<ColumnBatch> batches, long weight) {}

  /**
   * The key a task's file is kept under when read with {@code requested}'s columns, or null when
   * the file is not one to keep (too large, split, or with columns not read from the file).
   */
  static Key keyOf(FileScanTask task, Schema requested, Map<Integer, ?> constants, FileIO io) {
    long size = task.file().fileSizeInBytes();
    long rows = task.file().recordCount();
    if (size > MAX_FILE_BYTES || rows > MAX_ROWS || !wholeFile(task)) {
      return null;
    }
    for (Types.NestedField field : requested.columns()) {
      if (constants.containsKey(field.fieldId())
          || MetadataColumns.isMetadataColumn(field.fieldId())) {
        return null;
      }
    }
    String location = task.file().location();
    return new Key(location, size, rows, requested.asStruct(), isLocal(location) ? null : io);
  }

  /** Whether a file's location is on the local file system rather than in an object store. */
  static boolean isLocal(String location) {
    return location.startsWith("/") || location.startsWith("file:");
  }

  /** Whether a task reads every row group of its file (a split starts at its first row group). */
  private static boolean wholeFile(FileScanTask task) {
    long size = task.file().fileSizeInBytes();
    if (task.start() + task.length() < size) {
      return false;
    }
    List<Long> offsets = task.file().splitOffsets();
    return task.start() == 0
        || (offsets != null && !offsets.isEmpty() && task.start() <= offsets.get(0));
  }

  /** The batches kept for {@code key}, or null. */
  static synchronized List<ColumnBatch> get(Key key) {
    Kept kept = FILES.get(key);
    return kept == null ? null : kept.batches;
  }

  /**
   * Keeps a file's batches, {@link #copy copies} read with the key's columns into primitive vectors
   * before any delete or filter, and returns them as kept.
   */
  static List<ColumnBatch> keep(Key key, List<ColumnBatch> copies) {
    long bytes = 64;
    for (ColumnBatch copy : copies) {
      bytes += weigh(copy);
    }
    List<ColumnBatch> kept = Collections.unmodifiableList(new ArrayList<>(copies));
    if (bytes <= CAPACITY / 4) {
      put(key, new Kept(kept, bytes));
    }
    return kept;
  }

  private static synchronized void put(Key key, Kept kept) {
    Kept before = FILES.put(key, kept);
    weight += kept.weight - (before == null ? 0 : before.weight);
    var eldest = FILES.values().iterator();
    while (weight > CAPACITY && eldest.hasNext()) {
      weight -= eldest.next().weight;
      eldest.remove();
    }
  }

  /** How many files are kept (for tests). */
  static synchronized int size() {
    return FILES.size();
  }

  /** Lets every kept file go (for tests). */
  static synchronized void clear() {
    FILES.clear();
    weight = 0;
  }

  /** A batch's vectors copied to arrays of exactly its size (the reader reuses its vectors). */
  static ColumnBatch copy(ColumnBatch batch) {
    int rows = batch.size;
    ColumnVector[] vectors = new ColumnVector[batch.vectors.length];
    for (int c = 0; c < vectors.length; c++) {
      ColumnVector from = batch.vectors[c];
      ColumnVector to = new ColumnVector(from.kind, from.scale);
      to.anyNull = from.anyNull;
      to.nulls = from.anyNull ? java.util.Arrays.copyOf(from.nulls, rows) : new boolean[rows];
      switch (from.kind) {
        case BOOLEAN -> to.booleans = java.util.Arrays.copyOf(from.booleans, rows);
        case INT -> to.ints = java.util.Arrays.copyOf(from.ints, rows);
        case LONG, DECIMAL -> to.longs = java.util.Arrays.copyOf(from.longs, rows);
        case FLOAT -> to.floats = java.util.Arrays.copyOf(from.floats, rows);
        case DOUBLE -> to.doubles = java.util.Arrays.copyOf(from.doubles, rows);
        default -> to.objects = java.util.Arrays.copyOf(from.objects, rows);
      }
      vectors[c] = to;
    }
    return new ColumnBatch(vectors, rows, batch.firstPosition);
  }

  /** An estimate of a copied batch's memory in bytes. */
  private static long weigh(ColumnBatch batch) {
    long bytes = 32;
    for (ColumnVector vector : batch.vectors) {
      bytes += 48 + batch.size;
      switch (vector.kind) {
        case BOOLEAN -> bytes += batch.size;
        case INT, FLOAT -> bytes += 4L * batch.size;
        case LONG, DOUBLE, DECIMAL -> bytes += 8L * batch.size;
        default -> {
          for (int row = 0; row < batch.size; row++) {
            bytes += 8 + weighValue(vector.objects[row]);
          }
        }
      }
    }
    return bytes;
  }

  private static long weighValue(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof String text) {
      return 40 + 2L * text.length();
    }
    if (value instanceof org.apache.calcite.avatica.util.ByteString bytes) {
      return 40 + bytes.length();
    }
    return 64;
  }
}
