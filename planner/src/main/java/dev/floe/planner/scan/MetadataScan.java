package dev.floe.planner.scan;

import dev.floe.error.FloeError;
import dev.floe.planner.name.TableVersion;
import dev.floe.planner.session.LakeSession;
import dev.floe.planner.session.PinnedTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataTableType;
import org.apache.iceberg.MetadataTableUtils;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The metadata tables of an Iceberg table ({@code t$snapshots}, {@code t$files}, ...), read through
 * Iceberg's own metadata tables ({@link MetadataTableUtils}) so their content is what Iceberg's
 * metadata-table scan gives, plus {@code t$properties}, which Iceberg does not have.
 */
public final class MetadataScan {
  /** The metadata tables, by the name that follows {@code $}, in Trino's spelling. */
  public enum Kind {
    SNAPSHOTS(MetadataTableType.SNAPSHOTS, false),
    HISTORY(MetadataTableType.HISTORY, false),
    FILES(MetadataTableType.FILES, true),
    MANIFESTS(MetadataTableType.MANIFESTS, true),
    PARTITIONS(MetadataTableType.PARTITIONS, true),
    REFS(MetadataTableType.REFS, false),
    PROPERTIES(null, false),
    METADATA_LOG_ENTRIES(MetadataTableType.METADATA_LOG_ENTRIES, false),
    ENTRIES(MetadataTableType.ENTRIES, true),
    ALL_MANIFESTS(MetadataTableType.ALL_MANIFESTS, false),
    ALL_FILES(MetadataTableType.ALL_FILES, false),
    ALL_ENTRIES(MetadataTableType.ALL_ENTRIES, false),
    DATA_FILES(MetadataTableType.DATA_FILES, true),
    DELETE_FILES(MetadataTableType.DELETE_FILES, true);

    private final @Nullable MetadataTableType type;
    private final boolean ofSnapshot;

    Kind(@Nullable MetadataTableType type, boolean ofSnapshot) {
      this.type = type;
      this.ofSnapshot = ofSnapshot;
    }

    /** The name after {@code $}. */
    public String tableName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether its rows describe one snapshot (and so can be read as of another one). */
    public boolean ofSnapshot() {
      return ofSnapshot;
    }

    /** The kind named, ignoring case, or null. */
    public static @Nullable Kind of(String name) {
      for (Kind kind : values()) {
        if (kind.tableName().equalsIgnoreCase(name)) {
          return kind;
        }
      }
      return null;
    }

    /** Every name, for messages. */
    public static String names() {
      List<String> names = new ArrayList<>();
      for (Kind kind : values()) {
        names.add(kind.tableName());
      }
      return String.join(", ", names);
    }

    /** The table's schema for a data table. */
    public Schema schema(Table table) {
      if (type == null) {
        return new Schema(
            Types.NestedField.required(1, "key", Types.StringType.get()),
            Types.NestedField.required(2, "value", Types.StringType.get()));
      }
      Schema schema = MetadataTableUtils.createMetadataTableInstance(table, type).schema();
      HumanPartitions shown = HumanPartitions.of(schema, table);
      return shown == null ? schema : shown.schema(schema);
    }
  }

  /**
   * What one metadata-table scan reads.
   *
   * @param session the connection's session
   * @param path the data table's path under the root
   * @param kind which metadata table
   * @param version the data table's version (time travel), or null for the pinned one
   */
  public record Spec(
      LakeSession session, List<String> path, Kind kind, @Nullable TableVersion version) {}

  private MetadataScan() {}

  /** Entry point for generated code. */
  public static Enumerable<Object[]> enumerable(DataContext root, Spec spec) {
    return Linq4j.asEnumerable(rows(spec));
  }

  /** Entry point for generated code when rows have one column: the bare values. */
  public static Enumerable<Object> scalars(DataContext root, Spec spec) {
    return Linq4j.asEnumerable(rows(spec)).select(row -> row[0]);
  }

  /** Every row of a metadata table, in Calcite's runtime forms. */
  static List<Object[]> rows(Spec spec) {
    PinnedTable pinned = spec.session().pin(spec.path());
    Table table = pinned.table();
    String name = pinned.name() + "$" + spec.kind().tableName();
    if (spec.kind() == Kind.PROPERTIES) {
      List<Object[]> rows = new ArrayList<>();
      for (Map.Entry<String, String> e : new TreeMap<>(table.properties()).entrySet()) {
        rows.add(new Object[] {e.getKey(), e.getValue()});
      }
      return rows;
    }
    Table meta = MetadataTableUtils.createMetadataTableInstance(table, spec.kind().type);
    TableScan scan = meta.newScan();
    if (spec.version() != null) {
      TableVersion.Resolved resolved =
          spec.version().resolve(table, pinned.name(), spec.session().timeZone().toZoneId());
      if (!spec.kind().ofSnapshot()) {
        throw FloeError.NOT_SUPPORTED.error(
            "time travel on "
                + name
                + ": it lists the whole table's history; files, manifests, partitions and"
                + " entries can be read as of a version");
      }
      scan = resolved.applyTo(scan);
    }
    HumanPartitions shown = HumanPartitions.of(meta.schema(), table);
    Types.StructType struct =
        (shown == null ? meta.schema() : shown.schema(meta.schema())).asStruct();
    ValueConverter converter = ValueConverter.toCalcite(struct);
    List<Object[]> rows = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        try (CloseableIterable<StructLike> taskRows = task.asDataTask().rows()) {
          for (StructLike row : taskRows) {
            rows.add((Object[]) converter.convert(shown == null ? row : shown.row(row)));
          }
        }
      }
    } catch (IOException e) {
      throw FloeError.IO.error(e, name, e.getMessage());
    } catch (RuntimeException e) {
      throw LakeScan.Failures.translate(e, name);
    }
    return rows;
  }
}
