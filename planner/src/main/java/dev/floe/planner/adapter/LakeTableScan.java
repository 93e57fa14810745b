package dev.floe.planner.adapter;

import dev.floe.planner.scan.LakeAggregation;
import dev.floe.planner.scan.LakeProjection;
import dev.floe.planner.scan.LakeScan;
import dev.floe.planner.scan.LakeScanSpec;
import dev.floe.planner.scan.ScanExpression;
import dev.floe.planner.type.LakeTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.iceberg.Schema;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The logical scan of one Iceberg table: it reads only the columns and rows its {@link
 * LakeScanSpec} asks for, from the snapshot pinned for the statement. Filters, projections and
 * limits reach it through {@link LakeRules}; {@link EnumerableLakeScan} implements it.
 */
public final class LakeTableScan extends TableScan {
  /** Name of the trailing field holding a row's data file, in scans for DELETE and UPDATE. */
  public static final String FILE_FIELD = "_file";

  /** Name of the trailing field holding a row's position in its data file. */
  public static final String POS_FIELD = "_pos";

  private final LakeTable lakeTable;
  private final LakeScanSpec spec;
  private final RelDataType fixedRowType;

  private LakeTableScan(
      RelOptCluster cluster,
      RelTraitSet traits,
      RelOptTable table,
      LakeTable lakeTable,
      LakeScanSpec spec,
      RelDataType fixedRowType) {
    super(cluster, traits, List.of(), table);
    this.lakeTable = lakeTable;
    this.spec = spec;
    this.fixedRowType = fixedRowType;
  }

  /** A scan of every column of a table. */
  public static LakeTableScan create(RelOptCluster cluster, RelOptTable table, LakeTable lake) {
    int columns = lake.schema().columns().size();
    return new LakeTableScan(
        cluster,
        cluster.traitSetOf(Convention.NONE),
        table,
        lake,
        LakeScanSpec.all(lake.session(), lake.path(), columns, lake.version()),
        null);
  }

  /** The same scan reading with another spec. */
  public LakeTableScan withSpec(LakeScanSpec newSpec) {
    return new LakeTableScan(
        getCluster(), getTraitSet(), getTable(), lakeTable, newSpec, fixedRowType);
  }

  /**
   * The same scan computing an aggregation of its rows: its rows are then the aggregate's, of type
   * {@code rowType}.
   */
  public LakeTableScan aggregating(LakeAggregation aggregation, RelDataType rowType) {
    return new LakeTableScan(
        getCluster(),
        getTraitSet(),
        getTable(),
        lakeTable,
        spec.withAggregation(aggregation),
        rowType);
  }

  /**
   * The same scan emitting {@code projection} of its columns instead of them, computing the
   * projection above it: its rows are then the projection's, of type {@code rowType}.
   */
  public LakeTableScan projecting(LakeProjection projection, RelDataType rowType) {
    return new LakeTableScan(
        getCluster(),
        getTraitSet(),
        getTable(),
        lakeTable,
        spec.withProjection(projection),
        rowType);
  }

  /**
   * The position among the spec's columns of the column output field {@code field} is, or -1 when
   * it is computed (an aggregate's, or a projection's expression).
   */
  public int columnOf(int field) {
    if (spec.aggregated() || field < 0) {
      return -1;
    }
    if (spec.projection() != null) {
      List<Integer> outputs = spec.projection().outputs();
      if (field >= outputs.size()) {
        return -1;
      }
      field = outputs.get(field);
    }
    return field < spec.columns().size() ? field : -1;
  }

  /** The expression a projecting scan computes for output field {@code field}, or null. */
  public @Nullable ScanExpression computedAt(int field) {
    LakeProjection projection = spec.projection();
    if (projection == null || field < 0 || field >= projection.outputs().size()) {
      return null;
    }
    int position = projection.outputs().get(field) - spec.columns().size();
    return position < 0 ? null : projection.computed().get(position);
  }

  /** What this scan reads. */
  public LakeScanSpec spec() {
    return spec;
  }

  /** The table scanned. */
  public LakeTable lakeTable() {
    return lakeTable;
  }

  /** The table schema the scan's column indexes refer to. */
  public Schema schema() {
    return lakeTable.schema();
  }

  /**
   * Reads only the fields the query uses; Calcite's field trimmer calls this before planning, so
   * every later rule already sees the narrow scan.
   */
  @Override
  public RelNode project(
      ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields, RelBuilder relBuilder) {
    int columnCount = spec.columns().size();
    if (!extraFields.isEmpty()
        || spec.rowIds()
        || spec.aggregated()
        || spec.topN() != null
        || spec.projection() != null
        || fieldsUsed.cardinality() == getRowType().getFieldCount()) {
      return super.project(fieldsUsed, extraFields, relBuilder);
    }
    List<Integer> columns = new ArrayList<>();
    for (int field : fieldsUsed) {
      columns.add(spec.columns().get(field));
    }
    if (columns.isEmpty() && columnCount > 0) {
      // count(*): no column is needed, but rows still are; the cheapest column carries them.
      columns.add(spec.columns().get(0));
      LakeTableScan narrowed = withSpec(spec.withColumns(columns));
      return relBuilder.push(narrowed).project(List.of()).build();
    }
    return withSpec(spec.withColumns(columns));
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LakeTableScan(getCluster(), traitSet, getTable(), lakeTable, spec, fixedRowType);
  }

  @Override
  public RelDataType deriveRowType() {
    if (fixedRowType != null) {
      return fixedRowType;
    }
    RelDataTypeFactory factory = getCluster().getTypeFactory();
    RelDataType full = LakeTypes.rowType(factory, schema());
    RelDataTypeFactory.Builder builder = factory.builder();
    for (int column : spec.columns()) {
      builder.add(full.getFieldList().get(column));
    }
    if (spec.rowIds()) {
      builder.add(FILE_FIELD, factory.createSqlType(SqlTypeName.VARCHAR));
      builder.add(POS_FIELD, factory.createSqlType(SqlTypeName.BIGINT));
    }
    return builder.build();
  }

  @Override
  public void register(RelOptPlanner planner) {
    for (RelOptRule rule : LakeRules.RULES) {
      planner.addRule(rule);
    }
    planner.addRule(EnumerableLakeScan.RULE);
  }

  /**
   * The scan's terms. For EXPLAIN (any level but the planner's digest) the pushed filter is SQL
   * with literals of the columns' types, and planning says which files it keeps of the snapshot's
   * ({@link LakeScan#plan}); the digest keeps Iceberg's own filter text and plans nothing.
   */
  @Override
  public RelWriter explainTerms(RelWriter pw) {
    Long snapshotId = lakeTable.snapshotId();
    List<String> names = new ArrayList<>();
    List<org.apache.iceberg.types.Types.NestedField> columns = schema().columns();
    for (int column : spec.columns()) {
      names.add(columns.get(column).name());
    }
    boolean forPeople = pw.getDetailLevel() != SqlExplainLevel.DIGEST_ATTRIBUTES;
    Object filter =
        forPeople
            ? FilterSql.of(spec.filter(), schema(), lakeTable.session().timeZone().toZoneId())
            : spec.filter();
    RelWriter terms =
        super.explainTerms(pw)
            .item("snapshot", snapshotId == null ? "none" : snapshotId)
            .item("columns", names)
            .itemIf("filter", filter, spec.filtered())
            .itemIf("condition", conditionTerms(), spec.condition() != null)
            .itemIf("limit", spec.limit(), spec.limit() >= 0)
            .itemIf("rowIds", true, spec.rowIds())
            .itemIf("aggregate", aggregateTerms(names), spec.aggregated())
            .itemIf(
                "topN", spec.topN() == null ? "" : spec.topN().describe(names), spec.topN() != null)
            .itemIf(
                "compute",
                spec.projection() == null ? "" : spec.projection().describe(names),
                spec.projection() != null);
    if (forPeople && snapshotId != null) {
      LakeScan.Planned planned = LakeScan.plan(spec);
      terms
          .item("dataFiles", planned.dataFiles() + " of " + planned.totalDataFiles())
          .item("deleteFiles", planned.deleteFiles() + " of " + planned.totalDeleteFiles())
          .item("estimatedRows", planned.rows());
      if (spec.aggregated()) {
        terms.item("fromMetadata", LakeScan.filesFromMetadata(spec) + " of " + planned.dataFiles());
      }
    }
    return terms;
  }

  /**
   * The aggregation as text: the group columns, then each call on its column or on the expression
   * the scan computes for it.
   */
  private String aggregateTerms(List<String> names) {
    LakeAggregation aggregation = spec.aggregation();
    if (aggregation == null) {
      return "";
    }
    List<String> groups = new ArrayList<>();
    for (int group : aggregation.groups()) {
      groups.add(
          group < names.size()
              ? names.get(group)
              : aggregation.computed().get(group - names.size()).describe(names));
    }
    List<String> calls = new ArrayList<>();
    for (LakeAggregation.Call call : aggregation.calls()) {
      String function =
          call.kind() == LakeAggregation.Kind.COUNT_ROWS
              ? "COUNT"
              : call.kind() == LakeAggregation.Kind.SUM0 ? "$SUM0" : call.kind().name();
      String arg;
      if (call.arg() < 0) {
        arg = "*";
      } else if (call.arg() < names.size()) {
        arg = names.get(call.arg());
      } else {
        arg = aggregation.computed().get(call.arg() - names.size()).describe(names);
      }
      String filter =
          call.filter() < 0
              ? ""
              : " FILTER "
                  + aggregation.computed().get(call.filter() - names.size()).describe(names);
      calls.add(function + "(" + arg + ")" + filter);
    }
    if (groups.isEmpty()) {
      return calls.toString();
    }
    return "groupBy " + groups + (calls.isEmpty() ? "" : " " + calls);
  }

  /**
   * The estimated distinct values of an output column over the whole table, before the scan's
   * filter ({@link TableStatistics}), or -1 when nothing tells (or the scan aggregates).
   */
  public double distinctValues(int field) {
    int column = columnOf(field);
    ScanExpression computed = computedAt(field);
    if (computed != null
        && computed.op() == ScanExpression.Op.CAST
        && computed.operands().get(0).op() == ScanExpression.Op.COLUMN) {
      column = computed.operands().get(0).column(); // a widening cast keeps values apart
    }
    return column < 0 ? -1 : columnDistinct(spec.columns().get(column));
  }

  /**
   * The distinct values of a set of output columns among {@code rows} of the scan's rows: the
   * product of the columns' distinct values over the table ({@link #distinctValues}; a column
   * nothing tells about repeats each value {@link TableStatistics#UNKNOWN_REPEATS} times), at most
   * the table's rows, and of those the share {@code rows} draws ({@code
   * RelMdUtil.numDistinctVals}); -1 when the scan aggregates.
   */
  public double distinctRows(ImmutableBitSet fields, double rows) {
    if (spec.aggregated()) {
      return -1;
    }
    List<Integer> columns = new ArrayList<>();
    for (int field : fields) {
      int column = columnOf(field);
      if (column < 0) {
        return -1;
      }
      columns.add(spec.columns().get(column));
    }
    return distinctOfColumns(columns, rows);
  }

  /** {@link #distinctRows} for table columns (by position in the schema). */
  private double distinctOfColumns(List<Integer> columns, double rows) {
    if (columns.isEmpty()) {
      return 1d;
    }
    double tableRows = Math.max(1d, getTable().getRowCount());
    double domain = 1;
    for (int column : columns) {
      double d = columnDistinct(column);
      domain *= d > 0 ? d : Math.max(1d, tableRows / TableStatistics.UNKNOWN_REPEATS);
    }
    domain = Math.min(domain, tableRows);
    Double selected = RelMdUtil.numDistinctVals(domain, Math.max(rows, 1d));
    return selected == null ? Math.max(1d, rows) : Math.max(1d, Math.min(selected, rows));
  }

  /** The distinct values of a table column (by position in the schema), or -1. */
  private double columnDistinct(int column) {
    TableStatistics statistics = statistics();
    return statistics == null
        ? -1
        : statistics.distinctValues(schema().columns().get(column).fieldId());
  }

  /** The statistics of the pinned snapshot, or null for a table without one. */
  private @Nullable TableStatistics statistics() {
    Long snapshotId = lakeTable.snapshotId();
    return snapshotId == null
        ? null
        : TableStatistics.of(lakeTable.pinned().table(), schema(), snapshotId);
  }

  /** The condition tested on the decoded batches, its columns named. */
  private String conditionTerms() {
    if (spec.condition() == null) {
      return "";
    }
    List<String> names = new ArrayList<>();
    for (org.apache.iceberg.types.Types.NestedField column : schema().columns()) {
      names.add(column.name());
    }
    return spec.condition().describe(names);
  }

  /**
   * For a table with ANALYZE's statistics, the table's rows times the share its filter and
   * condition keep ({@link ScanSelectivity}), and for an aggregating scan the distinct values of
   * its group columns among those rows (1 without groups). Without them, flat guesses: a quarter of
   * the rows for a filter, half for a condition, a tenth in groups. The manifests alone (keys,
   * integer bounds, Calcite's guesses for the rest) changed the join order of six TPC-H queries at
   * SF1, four of them slower, so they are not used for a scan's rows until the join order weighs
   * them better.
   */
  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    double rows = super.estimateRowCount(mq);
    TableStatistics statistics = statistics();
    boolean analyzed = statistics != null && statistics.analyzed();
    if (analyzed && (spec.filtered() || spec.condition() != null)) {
      ScanSelectivity selectivity = new ScanSelectivity(schema(), statistics);
      rows *= selectivity.of(spec.filter());
      if (spec.condition() != null) {
        rows *= selectivity.of(spec.condition());
      }
    } else {
      rows *= spec.filtered() ? 0.25 : 1d;
      rows *= spec.condition() != null ? 0.5 : 1d;
    }
    if (spec.aggregated()) {
      if (spec.aggregation().groups().isEmpty()) {
        return 1d;
      }
      if (!analyzed) {
        return Math.max(1d, super.estimateRowCount(mq) / TableStatistics.UNKNOWN_REPEATS);
      }
      List<Integer> groups = new ArrayList<>();
      for (int group : spec.aggregation().groups()) {
        if (group >= spec.columns().size()) {
          // a computed key: what its columns tell is not what its values do
          return Math.max(1d, super.estimateRowCount(mq) / TableStatistics.UNKNOWN_REPEATS);
        }
        groups.add(spec.columns().get(group));
      }
      return Math.max(1d, distinctOfColumns(groups, rows));
    }
    if (spec.limit() >= 0) {
      rows = Math.min(rows, spec.limit());
    }
    if (spec.topN() != null) {
      rows = Math.min(rows, spec.topN().rows());
    }
    return Math.max(rows, 1d);
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    int all = Math.max(1, schema().columns().size());
    double fraction = (spec.columns().size() + 2d) / (all + 2d);
    double rows = estimateRowCount(mq);
    return planner.getCostFactory().makeCost(rows * fraction, rows * fraction, rows * fraction);
  }
}
