package dev.floe.planner.adapter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.BlobMetadata;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What the planner knows of a table's columns at one snapshot, for join order: the number of
 * distinct values of each column, from the first source that has it:
 *
 * <ol>
 *   <li>the {@code apache-datasketches-theta-v1} blob of the table's Puffin statistics (ANALYZE's,
 *       Trino's, Spark's) for that snapshot or its nearest ancestor that has one: the blob's {@code
 *       ndv} property;
 *   <li>a key: the table's single identifier field (a primary key), or its first column when named
 *       {@code id} or ending in {@code id} or {@code key} (TPC-H's {@code o_orderkey}), has as many
 *       distinct values as rows;
 *   <li>for INT, BIGINT and DATE columns, the width of the range between the smallest lower bound
 *       and the largest upper bound of the data files' column statistics;
 *   <li>BOOLEAN: 2;
 * </ol>
 *
 * otherwise unknown (the caller assumes a fan-out, never 1). Statistics of a snapshot never change,
 * so they are computed once per table UUID, snapshot and set of statistics files, from the
 * manifests (one read of them, with column statistics) and kept in a small store shared by all
 * connections.
 */
public final class TableStatistics {
  /** The blob type Trino and Spark write for a column's NDV sketch. */
  public static final String THETA_BLOB = "apache-datasketches-theta-v1";

  /** The blob property holding the sketch's estimate. */
  public static final String NDV_PROPERTY = "ndv";

  private static final int KEPT = 64;

  private static final Map<String, TableStatistics> STORE =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TableStatistics> eldest) {
          return size() > KEPT;
        }
      };

  /**
   * How often a value of a column nothing tells about is assumed to repeat, by the estimates of
   * joins and of a scan's distinct values.
   */
  public static final double UNKNOWN_REPEATS = 10;

  private final long rows;
  private final Map<Integer, Double> distinct;
  private final Map<Integer, double[]> range;
  private final Map<Integer, Long> nulls;
  private final boolean sketched;

  private TableStatistics(
      long rows,
      Map<Integer, Double> distinct,
      Map<Integer, double[]> range,
      Map<Integer, Long> nulls,
      boolean sketched) {
    this.rows = rows;
    this.distinct = distinct;
    this.range = range;
    this.nulls = nulls;
    this.sketched = sketched;
  }

  /** The statistics of a table at a snapshot (computed the first time). */
  static TableStatistics of(Table table, Schema schema, long snapshotId) {
    // The statistics files count too: ANALYZE adds one without a new snapshot.
    String key =
        table.uuid()
            + "@"
            + snapshotId
            + "#"
            + schema.schemaId()
            + "/"
            + table.statisticsFiles().size();
    synchronized (STORE) {
      TableStatistics kept = STORE.get(key);
      if (kept != null) {
        return kept;
      }
    }
    TableStatistics computed;
    try {
      computed = compute(table, schema, snapshotId);
    } catch (IOException | RuntimeException e) {
      // Estimates only: a manifest that cannot be read fails the scan that reads it, not planning.
      computed = new TableStatistics(-1, Map.of(), Map.of(), Map.of(), false);
    }
    synchronized (STORE) {
      STORE.put(key, computed);
    }
    return computed;
  }

  /** The rows of the snapshot, or -1 when its manifests could not be read. */
  public long rows() {
    return rows;
  }

  /** The estimated distinct values of a column (by field id), or -1 when nothing tells. */
  public double distinctValues(int fieldId) {
    Double d = distinct.get(fieldId);
    if (d == null || rows < 0) {
      return -1;
    }
    return Math.min(Math.max(d, 1d), Math.max(rows, 1));
  }

  /** Whether the snapshot or an ancestor has ANALYZE's (or Trino's, Spark's) NDV sketches. */
  public boolean analyzed() {
    return sketched && rows >= 0;
  }

  /**
   * The smallest and largest value of an INT, BIGINT or DATE column (by field id; a DATE as its day
   * number) over the data files' bounds, or null when some file has none.
   */
  public double @Nullable [] range(int fieldId) {
    double[] r = range.get(fieldId);
    return r == null || rows < 0 ? null : r.clone();
  }

  /** The share of rows whose column (by field id) is NULL, or -1 when some file does not say. */
  public double nullFraction(int fieldId) {
    Long n = nulls.get(fieldId);
    if (n == null || rows <= 0) {
      return -1;
    }
    return Math.min(1d, n / (double) rows);
  }

  private static TableStatistics compute(Table table, Schema schema, long snapshotId)
      throws IOException {
    Snapshot snapshot = table.snapshot(snapshotId);
    Map<Integer, Double> distinct = new HashMap<>();
    Map<Integer, Object> lower = new HashMap<>();
    Map<Integer, Object> upper = new HashMap<>();
    Map<Integer, Long> nulls = new HashMap<>();
    Map<Integer, Integer> bounded = new HashMap<>();
    Map<Integer, Integer> nullsCounted = new HashMap<>();
    long rows = 0;
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshotId).includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        rows += file.recordCount();
        files++;
        bounds(schema, file.lowerBounds(), lower, true);
        bounds(schema, file.upperBounds(), upper, false);
        if (file.lowerBounds() != null && file.upperBounds() != null) {
          for (Integer id : file.lowerBounds().keySet()) {
            if (file.upperBounds().containsKey(id)) {
              bounded.merge(id, 1, Integer::sum);
            }
          }
        }
        if (file.nullValueCounts() != null) {
          for (Map.Entry<Integer, Long> e : file.nullValueCounts().entrySet()) {
            if (e.getValue() != null) {
              nulls.merge(e.getKey(), e.getValue(), Long::sum);
              nullsCounted.merge(e.getKey(), 1, Integer::sum);
            }
          }
        }
      }
    }
    Map<Integer, double[]> range = new HashMap<>();
    Map<Integer, Long> nullCounts = new HashMap<>();
    for (Types.NestedField field : schema.columns()) {
      int id = field.fieldId();
      Type.TypeID type = field.type().typeId();
      if (type == Type.TypeID.BOOLEAN) {
        distinct.put(id, 2d);
      }
      Object lo = lower.get(id);
      Object hi = upper.get(id);
      if (lo instanceof Number l && hi instanceof Number h) {
        distinct.put(id, (double) (h.longValue() - l.longValue() + 1));
        if (bounded.getOrDefault(id, 0) == files) {
          range.put(id, new double[] {l.doubleValue(), h.doubleValue()});
        }
      }
      if (files > 0 && nullsCounted.getOrDefault(id, 0) == files) {
        nullCounts.put(id, nulls.get(id));
      }
    }
    for (int key : keys(schema)) {
      distinct.put(key, (double) rows);
    }
    Map<Integer, Double> sketches = sketched(table, snapshot);
    distinct.putAll(sketches);
    return new TableStatistics(rows, distinct, range, nullCounts, !sketches.isEmpty());
  }

  /** Keeps, per INT/BIGINT/DATE field, the smallest lower (or largest upper) bound of the files. */
  private static void bounds(
      Schema schema,
      @Nullable Map<Integer, ByteBuffer> bounds,
      Map<Integer, Object> into,
      boolean low) {
    if (bounds == null) {
      return;
    }
    for (Map.Entry<Integer, ByteBuffer> e : bounds.entrySet()) {
      Types.NestedField field = schema.findField(e.getKey());
      if (field == null || !schema.columns().contains(field)) {
        continue;
      }
      Type.TypeID type = field.type().typeId();
      if (type != Type.TypeID.INTEGER && type != Type.TypeID.LONG && type != Type.TypeID.DATE) {
        continue;
      }
      Object value = Conversions.fromByteBuffer(field.type(), e.getValue().duplicate());
      if (!(value instanceof Number n)) {
        continue;
      }
      Object before = into.get(e.getKey());
      long v = n.longValue();
      if (before == null
          || (low && v < ((Number) before).longValue())
          || (!low && v > ((Number) before).longValue())) {
        into.put(e.getKey(), v);
      }
    }
  }

  /**
   * The field ids of a table's key: its identifier fields (a primary key of one or more columns),
   * else its first column when named {@code id} or ending in {@code id} or {@code key}; empty when
   * neither.
   */
  public static Set<Integer> key(Schema schema) {
    Set<Integer> identifiers = schema.identifierFieldIds();
    if (!identifiers.isEmpty()) {
      return identifiers;
    }
    return keys(schema);
  }

  /** The fields that are keys alone: the single identifier field, or a first column so named. */
  private static Set<Integer> keys(Schema schema) {
    Set<Integer> identifiers = schema.identifierFieldIds();
    if (identifiers.size() == 1) {
      return identifiers;
    }
    if (!identifiers.isEmpty() || schema.columns().isEmpty()) {
      return Set.of();
    }
    Types.NestedField first = schema.columns().get(0);
    String name = first.name().toLowerCase(Locale.ROOT);
    if (first.type().isPrimitiveType() && (name.endsWith("id") || name.endsWith("key"))) {
      return Set.of(first.fieldId());
    }
    return Set.of();
  }

  /**
   * The NDV estimates of the theta-sketch blobs in the statistics file of the snapshot, or of its
   * nearest ancestor that has one (Trino's rule: statistics stay useful as a table grows).
   */
  private static Map<Integer, Double> sketched(Table table, Snapshot snapshot) {
    List<StatisticsFile> files = table.statisticsFiles();
    if (files.isEmpty() || snapshot == null) {
      return Map.of();
    }
    Map<Long, StatisticsFile> bySnapshot = new HashMap<>();
    for (StatisticsFile file : files) {
      bySnapshot.put(file.snapshotId(), file);
    }
    Snapshot at = snapshot;
    while (at != null) {
      StatisticsFile file = bySnapshot.get(at.snapshotId());
      if (file != null) {
        Map<Integer, Double> ndv = new HashMap<>();
        for (BlobMetadata blob : file.blobMetadata()) {
          String value = blob.properties().get(NDV_PROPERTY);
          if (THETA_BLOB.equals(blob.type()) && blob.fields().size() == 1 && value != null) {
            try {
              ndv.put(blob.fields().get(0), Double.parseDouble(value));
            } catch (NumberFormatException e) {
              // a property another writer spelled otherwise: not a statistic to rely on
            }
          }
        }
        return ndv;
      }
      Long parent = at.parentId();
      at = parent == null ? null : table.snapshot(parent);
    }
    return Map.of();
  }
}
