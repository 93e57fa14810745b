package dev.floe.planner.adapter;

import dev.floe.planner.name.TableVersion;
import dev.floe.planner.scan.MetadataScan;
import dev.floe.planner.session.LakeSession;
import dev.floe.planner.type.LakeTypes;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A metadata table of an Iceberg table ({@code "orders$snapshots"}) as a read-only SQL table: its
 * columns are those of Iceberg's metadata table of that name, its rows what Iceberg's
 * metadata-table scan gives, optionally as of a past version of the data table.
 */
public final class LakeMetadataTable extends AbstractTable implements TranslatableTable {
  private final MetadataScan.Spec spec;

  LakeMetadataTable(
      LakeSession session,
      List<String> path,
      MetadataScan.Kind kind,
      @Nullable TableVersion version) {
    this.spec = new MetadataScan.Spec(session, List.copyOf(path), kind, version);
  }

  /** What a scan of this table reads. */
  public MetadataScan.Spec spec() {
    return spec;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return LakeTypes.rowType(
        typeFactory, spec.kind().schema(spec.session().pin(spec.path()).table()));
  }

  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    RelOptCluster cluster = context.getCluster();
    return new MetadataTableScan(cluster, cluster.traitSetOf(Convention.NONE), relOptTable, spec);
  }

  @Override
  public String toString() {
    return "LakeMetadataTable("
        + String.join(".", spec.path())
        + "$"
        + spec.kind().tableName()
        + ")";
  }
}
