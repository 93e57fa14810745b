package dev.floe.planner.adapter;

import dev.floe.error.FloeError;
import dev.floe.planner.spi.LakeSession;
import dev.floe.planner.spi.PinnedTable;
import dev.floe.planner.spi.TableVersion;
import dev.floe.planner.type.LakeTypes;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.List;
import org.apache.calcite.adapter.java.AbstractQueryableTable;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.linq4j.Queryable;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ModifiableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One Iceberg table as a SQL table. Its row type is the schema of the snapshot pinned for the
 * statement, or of the past version a time travel names (a table at a version is read-only);
 * scans become {@link LakeTableScan}, changes {@link LakeTableModify}.
 */
public final class LakeTable extends AbstractQueryableTable
    implements TranslatableTable, ModifiableTable {
  private final LakeSession session;
  private final List<String> path;
  private final @Nullable TableVersion version;

  LakeTable(LakeSession session, List<String> path) {
    this(session, path, null);
  }

  /** The table at a version (time travel); null: the snapshot pinned for the statement. */
  LakeTable(LakeSession session, List<String> path, @Nullable TableVersion version) {
    super(Object[].class);
    this.session = session;
    this.path = List.copyOf(path);
    this.version = version;
  }

  /** The past version read, or null for the snapshot pinned for the statement. */
  public @Nullable TableVersion version() {
    return version;
  }

  /** The schema the table's columns come from: the version's, or the pinned table's. */
  public Schema schema() {
    return version == null ? pinned().table().schema() : resolved().schema();
  }

  /** The snapshot read, or null when the table has none yet. */
  public @Nullable Long snapshotId() {
    return version == null ? pinned().snapshotId() : Long.valueOf(resolved().snapshotId());
  }

  private TableVersion.Resolved resolved() {
    PinnedTable pinned = pinned();
    return version.resolve(pinned.table(), pinned.name(), session.timeZone().toZoneId());
  }

  /** The session the table belongs to. */
  public LakeSession session() {
    return session;
  }

  /** The table's path under the root. */
  public List<String> path() {
    return path;
  }

  /** The table as the running statement or transaction sees it. */
  public PinnedTable pinned() {
    return session.pin(path);
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return LakeTypes.rowType(typeFactory, schema());
  }

  @Override
  public Statistic getStatistic() {
    Long snapshotId = snapshotId();
    Snapshot snapshot = snapshotId == null ? null : pinned().table().snapshot(snapshotId);
    if (snapshot == null) {
      return Statistics.of(0d, List.of());
    }
    String records = snapshot.summary().get(SnapshotSummary.TOTAL_RECORDS_PROP);
    double rows = records == null ? 1_000_000d : Double.parseDouble(records);
    return Statistics.of(rows, List.of());
  }

  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return LakeTableScan.create(context.getCluster(), relOptTable, this);
  }

  @Override
  public TableModify toModificationRel(
      RelOptCluster cluster,
      RelOptTable table,
      Prepare.CatalogReader catalogReader,
      RelNode child,
      TableModify.Operation operation,
      @Nullable List<String> updateColumnList,
      @Nullable List<RexNode> sourceExpressionList,
      boolean flattened) {
    refuseWrites();
    return LakeTableModify.create(
        cluster,
        table,
        catalogReader,
        this,
        child,
        operation,
        updateColumnList,
        sourceExpressionList,
        flattened);
  }

  /**
   * Refuses a change to a past version of the table.
   *
   * @throws dev.floe.error.FloeException NOT_SUPPORTED when this is the table at a version
   */
  public void refuseWrites() {
    if (version != null) {
      throw FloeError.NOT_SUPPORTED.error(
          "changing " + String.join(".", path) + " " + version + ": a past version is read-only");
    }
  }

  @Override
  public @Nullable Collection<?> getModifiableCollection() {
    return null;
  }

  @Override
  public <T> Queryable<T> asQueryable(
      QueryProvider queryProvider, SchemaPlus schema, String tableName) {
    throw new UnsupportedOperationException("Floe tables are scanned through LakeTableScan");
  }

  @Override
  public Type getElementType() {
    return Object[].class;
  }

  @Override
  public String toString() {
    return "LakeTable(" + String.join(".", path) + (version == null ? "" : " " + version) + ")";
  }
}
