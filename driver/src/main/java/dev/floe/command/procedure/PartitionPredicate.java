package dev.floe.command.procedure;

import dev.floe.command.CommandContext;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.planner.adapter.LakeTableScan;
import dev.floe.planner.adapter.RexToIceberg;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.parser.FloeParser;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlExplainFormat;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.types.Types;

/**
 * The {@code WHERE} clause of {@code optimize} (docs/maintenance.md, "Maintenance"): a predicate on
 * partition source columns that selects whole partitions. It is validated and converted as the
 * query {@code SELECT * FROM t WHERE <predicate>} is, by Calcite with Floe's names, types and
 * literals, and its condition becomes an Iceberg expression through the scans' translator ({@link
 * RexToIceberg}, over partition values). A partition is selected when the expression's strict
 * projection holds, skipped when the inclusive one fails, and a partition that holds both matching
 * and other rows refuses the statement, since compaction rewrites whole partitions.
 */
final class PartitionPredicate {
  private static final String FORMS =
      "optimize's WHERE compares partition columns with literals of their types through =, <>,"
          + " <, <=, >, >=, IN and BETWEEN, tests them with IS NULL and IS NOT NULL, and joins"
          + " those with AND, OR and NOT";

  /** SQL as Floe's parser reads it: double-quoted names, case kept. */
  private static final SqlDialect DIALECT =
      new SqlDialect(
          SqlDialect.EMPTY_CONTEXT
              .withIdentifierQuoteString("\"")
              .withUnquotedCasing(Casing.UNCHANGED)
              .withQuotedCasing(Casing.UNCHANGED)
              .withCaseSensitive(true));

  private final Table table;
  private final String name;
  private final Expression expression;
  private final Map<Integer, Evaluator[]> evaluators = new HashMap<>();

  private PartitionPredicate(Table table, String name, Expression expression) {
    this.table = table;
    this.name = name;
    this.expression = expression;
  }

  /**
   * The predicate of an optimize statement's WHERE clause on a table.
   *
   * @param tableName the table as the statement names it, resolved as the query's FROM is
   * @throws SQLException as the query would fail (42S22 for an unknown column, 22007 for a bad
   *     literal, ...), or 42000 for a predicate on other columns than the partition columns or one
   *     that cannot be decided per partition
   */
  static PartitionPredicate of(
      CommandContext connection, Table table, String name, SqlIdentifier tableName, SqlNode where)
      throws SQLException {
    Set<String> sources = partitionColumns(table);
    if (sources.isEmpty()) {
      throw refused(
          name,
          "the table is not partitioned, so a WHERE clause cannot select partitions; run optimize"
              + " without WHERE");
    }
    resolveColumns(table, name, where);
    RelNode plan = plan(connection, tableName, where);
    Expression expression;
    if (plan instanceof Values values && values.getTuples().isEmpty()) {
      expression = Expressions.alwaysFalse(); // a predicate Calcite finds always false
    } else if (plan instanceof LakeTableScan) {
      expression = Expressions.alwaysTrue(); // one it finds always true
    } else if (plan instanceof Filter filter && filter.getInput() instanceof LakeTableScan scan) {
      checkColumns(name, scan, filter, sources);
      RexToIceberg.Split split =
          RexToIceberg.onPartitions(
                  filter.getCluster().getRexBuilder(),
                  scan.schema(),
                  scan.spec().columns(),
                  scan.spec().session().timeZone().toZoneId())
              .split(filter.getCondition());
      if (!split.remaining().isEmpty()) {
        throw refused(name, FORMS + "; not " + where);
      }
      expression = split.pushed();
    } else {
      throw refused(name, FORMS + "; not " + where);
    }
    return new PartitionPredicate(table, name, expression);
  }

  /**
   * The logical plan of {@code SELECT * FROM table WHERE where}, as Calcite converts it (an EXPLAIN
   * of it, which Floe never keeps in its plan cache), below its projection.
   */
  private static RelNode plan(CommandContext connection, SqlIdentifier tableName, SqlNode where)
      throws SQLException {
    SqlParserPos pos = where.getParserPosition();
    SqlSelect query =
        SqlNames.selectAll(pos, tableName.clone(tableName.getParserPosition()), where);
    SqlExplain explain =
        new SqlExplain(
            pos,
            query,
            SqlLiteral.createSymbol(SqlExplainLevel.EXPPLAN_ATTRIBUTES, pos),
            SqlLiteral.createSymbol(SqlExplain.Depth.LOGICAL, pos),
            SqlLiteral.createSymbol(SqlExplainFormat.TEXT, pos),
            0);
    // The tree is offered to Calcite, which plans it without parsing this text again; the text,
    // Floe's SQL with names quoted as written, is what messages quote.
    String sql =
        explain.toSqlString(c -> c.withDialect(DIALECT).withQuoteAllIdentifiers(false)).getSql();
    List<RelNode> converted = new ArrayList<>();
    try (Hook.Closeable hook = Hook.CONVERTED.addThread((Consumer<RelNode>) converted::add);
        FloeParser.Offer offered = FloeParser.offerParsed(sql, explain);
        Statement statement = connection.calciteStatement();
        PreparedStatement prepared = statement.getConnection().prepareStatement(sql)) {
      // planned, never run
    } catch (SQLException e) {
      throw SqlErrors.toSql(e); // as the query fails: an unknown column, a bad comparison, ...
    }
    if (converted.isEmpty()) {
      throw SqlErrors.of(FloeError.INTERNAL, "optimize's WHERE was not planned: " + sql);
    }
    RelNode plan = converted.get(converted.size() - 1);
    while (plan instanceof Project) {
      plan = plan.getInput(0);
    }
    return plan;
  }

  /**
   * Resolves the columns the predicate names by the one resolver of column names ({@link
   * ColumnNames}: quoted exactly, unquoted ignoring case), each replaced by its exact name, before
   * Calcite validates it.
   */
  private static void resolveColumns(Table table, String name, SqlNode where) {
    where.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlIdentifier identifier) {
            if (identifier.names.size() == 1 && !identifier.isStar()) {
              Types.NestedField field =
                  ColumnNames.field(
                      table.schema().columns(), SqlNames.part(identifier), "table " + name);
              identifier.setNames(
                  List.of(field.name()), List.of(identifier.getParserPosition().withQuoting(true)));
            }
            return null;
          }
        });
  }

  /** Refuses a condition on a column that is no partition column's source. */
  private static void checkColumns(
      String name, LakeTableScan scan, Filter filter, Set<String> sources) {
    List<String> fields = scan.getRowType().getFieldNames();
    for (int field : RelOptUtil.InputFinder.bits(filter.getCondition())) {
      String column = fields.get(field);
      if (!sources.contains(column)) {
        throw refused(
            name,
            "column "
                + column
                + " is not a partition column; optimize's WHERE may only name the columns the"
                + " table is partitioned by: "
                + String.join(", ", sources));
      }
    }
  }

  /** The source columns of the current partition spec's fields that are not void. */
  private static Set<String> partitionColumns(Table table) {
    Schema schema = table.schema();
    Set<String> sources = new LinkedHashSet<>();
    for (PartitionField field : table.spec().fields()) {
      if (!field.transform().isVoid()) {
        sources.add(schema.findColumnName(field.sourceId()));
      }
    }
    return sources;
  }

  private static RuntimeException refused(String name, String reason) {
    return FloeError.PROCEDURE.error("optimize on " + name, reason);
  }

  /**
   * Whether the predicate selects a data file's partition; refuses a partition it only partly
   * selects.
   */
  boolean selects(DataFile file) {
    Evaluator[] pair =
        evaluators.computeIfAbsent(
            file.specId(),
            id -> {
              PartitionSpec spec = table.specs().get(id);
              Types.StructType type = spec.partitionType();
              return new Evaluator[] {
                new Evaluator(type, Projections.inclusive(spec, true).project(expression), true),
                new Evaluator(type, Projections.strict(spec, true).project(expression), true)
              };
            });
    if (!pair[0].eval(file.partition())) {
      return false;
    }
    if (pair[1].eval(file.partition())) {
      return true;
    }
    PartitionSpec spec = table.specs().get(file.specId());
    throw refused(
        name,
        "the WHERE clause does not select whole partitions: partition "
            + spec.partitionToPath(file.partition())
            + " holds rows it may match and rows it does not; compaction rewrites whole"
            + " partitions, so write the predicate on the partition boundaries (for a day"
            + " partition of ts: ts >= TIMESTAMP '2024-01-02 00:00:00')");
  }
}
