package dev.floe.planner.adapter;

import dev.floe.error.FloeError;
import dev.floe.planner.name.TableVersion;
import dev.floe.planner.session.LakeSession;
import dev.floe.planner.session.PinnedTable;
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
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ExtensibleTable;
import org.apache.calcite.schema.ModifiableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One Iceberg table as a SQL table. Its row type is the schema of the snapshot pinned for the
 * statement, or of the past version a time travel names (a table at a version is read-only); scans
 * become {@link LakeTableScan}, changes {@link LakeTableModify}.
 */
public final class LakeTable extends AbstractQueryableTable
    implements TranslatableTable, ModifiableTable, ExtensibleTable {
  private final LakeSession session;
  private final List<String> path;
  private final @Nullable TableVersion version;
  private final boolean rowIds;

  LakeTable(LakeSession session, List<String> path) {
    this(session, path, null, false);
  }

  /** The table at a version (time travel); null: the snapshot pinned for the statement. */
  LakeTable(LakeSession session, List<String> path, @Nullable TableVersion version) {
    this(session, path, version, false);
  }

  private LakeTable(
      LakeSession session, List<String> path, @Nullable TableVersion version, boolean rowIds) {
    super(Object[].class);
    this.session = session;
    this.path = List.copyOf(path);
    this.version = version;
    this.rowIds = rowIds;
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

  /**
   * The table with its rows' data file and position as two more columns: {@code t EXTEND ("_file"
   * VARCHAR, "_pos" BIGINT)}, Iceberg's metadata columns of those names. MERGE reads its target so,
   * to know which rows it changes; no other columns can be added.
   */
  @Override
  public Table extend(List<RelDataTypeField> fields) {
    if (rowIds
        || fields.size() != 2
        || !fields.get(0).getName().equals(LakeTableScan.FILE_FIELD)
        || !fields.get(1).getName().equals(LakeTableScan.POS_FIELD)) {
      throw FloeError.NOT_SUPPORTED.error(
          "EXTEND of "
              + String.join(".", path)
              + " with columns other than (\""
              + LakeTableScan.FILE_FIELD
              + "\" VARCHAR, \""
              + LakeTableScan.POS_FIELD
              + "\" BIGINT)");
    }
    return new LakeTable(session, path, version, true);
  }

  @Override
  public int getExtendedColumnOffset() {
    return schema().columns().size();
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
    RelDataType columns = LakeTypes.rowType(typeFactory, schema());
    if (!rowIds) {
      return columns;
    }
    return typeFactory
        .builder()
        .addAll(columns.getFieldList())
        .add(LakeTableScan.FILE_FIELD, typeFactory.createSqlType(SqlTypeName.VARCHAR))
        .add(LakeTableScan.POS_FIELD, typeFactory.createSqlType(SqlTypeName.BIGINT))
        .build();
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
    LakeTableScan scan = LakeTableScan.create(context.getCluster(), relOptTable, this);
    return rowIds ? scan.withSpec(scan.spec().withRowIds()) : scan;
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
