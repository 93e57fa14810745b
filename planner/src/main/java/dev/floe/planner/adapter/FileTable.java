package dev.floe.planner.adapter;

import dev.floe.planner.scan.FileScan;
import dev.floe.planner.type.LakeTypes;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * The files a {@code read_parquet} or {@code read_csv} call reads, as a read-only SQL table whose
 * columns were found when the statement was planned ({@link FileScan}).
 */
public final class FileTable extends AbstractTable implements TranslatableTable {
  private final FileScan.Spec spec;

  FileTable(FileScan.Spec spec) {
    this.spec = spec;
  }

  /** What a scan of this table reads. */
  public FileScan.Spec spec() {
    return spec;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return LakeTypes.rowType(typeFactory, spec.schema());
  }

  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    RelOptCluster cluster = context.getCluster();
    return new FileTableScan(cluster, cluster.traitSetOf(Convention.NONE), relOptTable, spec);
  }

  @Override
  public String toString() {
    return "FileTable(" + spec.kind().functionName() + " " + spec.pattern() + ")";
  }
}
