package dev.floe.planner.adapter;

import dev.floe.planner.spi.LakeSession;
import dev.floe.planner.spi.PinnedTable;
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
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One Iceberg table as a SQL table. Its row type is the schema of the snapshot pinned for the
 * statement; scans become {@link LakeTableScan}, changes {@link LakeTableModify}.
 */
public final class LakeTable extends AbstractQueryableTable
    implements TranslatableTable, ModifiableTable {
  private final LakeSession session;
  private final List<String> path;

  LakeTable(LakeSession session, List<String> path) {
    super(Object[].class);
    this.session = session;
    this.path = List.copyOf(path);
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
    return LakeTypes.rowType(typeFactory, pinned().table().schema());
  }

  @Override
  public Statistic getStatistic() {
    Snapshot snapshot = pinned().snapshot();
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
    return "LakeTable(" + String.join(".", path) + ")";
  }
}
