package dev.floe.planner.prepare;

import dev.floe.planner.adapter.LakeRules;
import dev.floe.planner.adapter.LakeSchema;
import dev.floe.planner.adapter.LakeTable;
import dev.floe.planner.adapter.LakeTableModify;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.function.FloeFunctions;
import dev.floe.planner.function.FunctionRewrites;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.parser.FloeParser;
import dev.floe.planner.session.Cancellation;
import dev.floe.planner.session.LakeSession;
import dev.floe.planner.session.PhaseTimes;
import dev.floe.planner.session.PlanCache;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.calcite.DataContexts;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's statement preparation with Floe's changes: a DELETE or UPDATE of a Floe table becomes a
 * {@link LakeTableModify} as soon as SQL is converted to relational algebra (before subqueries are
 * expanded), so its scan can be rewritten to carry row positions; the optimized plan is made exact
 * for sub-millisecond timestamps ({@link TemporalAligner}) before code generation; and constant
 * folding never rounds them ({@link ExactExecutor}).
 */
public class LakePrepare extends CalcitePrepareImpl {
  /** Creates the preparer; one per statement preparation. */
  public LakePrepare() {}

  /**
   * Floe's grammar and parser settings ({@link FloeParser#CONFIG}): every statement Calcite
   * prepares is parsed as Floe parses its own, with the same identifier limit.
   */
  @Override
  protected SqlParser.Config parserConfig() {
    return FloeParser.CONFIG;
  }

  /**
   * Calcite's parser of a statement's text, or, when Floe has just parsed the same text with the
   * same settings to see whether it is one of its own statements ({@link FloeParser#takeParsed}), a
   * parser that hands over that tree instead of parsing the text a second time.
   */
  @Override
  protected SqlParser createParser(String sql, SqlParser.Config parserConfig) {
    SqlNode parsed = FloeParser.takeParsed(sql, parserConfig);
    if (parsed == null) {
      return super.createParser(sql, parserConfig);
    }
    return SqlParser.create(
        sql, parserConfig.withParserFactory(reader -> new AlreadyParsed(reader, parsed)));
  }

  /** Floe's parser, whose statement is one parsed before. */
  private static final class AlreadyParsed extends dev.floe.planner.parser.FloeSqlParserImpl {
    private final SqlNode parsed;

    AlreadyParsed(java.io.Reader reader, SqlNode parsed) {
      super(reader);
      this.parsed = parsed;
    }

    @Override
    public SqlNode parseSqlStmtEof() {
      return parsed;
    }
  }

  /**
   * As Calcite's, but a column holding a TIME finer than milliseconds (a {@code long}, see {@link
   * dev.floe.planner.type.LakeJavaTypeFactory}) is described to Avatica as a number: its cursor
   * refuses a {@code long} TIME, and reads a number as is, which Floe's getters convert exactly.
   */
  @Override
  public <T> CalciteSignature<T> prepareSql(
      Context context, Query<T> query, Type elementType, long maxRowCount) {
    PhaseTimes.Phase before = PhaseTimes.enter(PhaseTimes.Phase.PARSE);
    Cancellation.current().check();
    PlanCache.used(null);
    try {
      LakeSession session = query.sql == null ? null : lakeSession(context.getRootSchema());
      if (session == null) {
        try {
          return prepareFresh(context, query, elementType, maxRowCount);
        } finally {
          GuardedPlan.takeLast();
        }
      }
      PlanCache cache = session.planCache();
      String key = planKey(query.sql, context.getDefaultSchemaPath(), elementType, maxRowCount);
      PlanCache.Entry kept = cache.get(key);
      if (kept != null) {
        PhaseTimes.enter(PhaseTimes.Phase.METADATA);
        if (kept.valid(session)) {
          PlanCache.used(kept);
          @SuppressWarnings("unchecked")
          CalciteSignature<T> signature = (CalciteSignature<T>) kept.plan();
          return signature;
        }
        cache.remove(key, kept);
        PhaseTimes.enter(PhaseTimes.Phase.PARSE);
      }
      CalciteSignature<T> signature;
      PlanCache.Entry entry;
      GuardedPlan guarded;
      try (PlanCache.Recording recording = PlanCache.record()) {
        GuardedPlan.takeLast(); // forgets one a preparation without a session left
        signature = prepareFresh(context, query, elementType, maxRowCount);
        guarded = GuardedPlan.takeLast();
        boolean keepable =
            signature.statementType == org.apache.calcite.avatica.Meta.StatementType.SELECT
                || signature.statementType == org.apache.calcite.avatica.Meta.StatementType.IS_DML;
        entry = keepable ? recording.entry(signature, session) : null;
      }
      if (entry != null) {
        cache.put(key, entry);
        if (guarded != null) {
          PlanCache.Entry made = entry;
          // a plan whose compiled code cannot run is planned afresh next time
          guarded.whenBroken(
              () -> {
                made.invalidate();
                cache.remove(key, made);
              });
        }
      }
      PlanCache.used(entry);
      return signature;
    } finally {
      PhaseTimes.restore(before);
    }
  }

  private <T> CalciteSignature<T> prepareFresh(
      Context context, Query<T> query, Type elementType, long maxRowCount) {
    CalciteSignature<T> signature = super.prepareSql(context, query, elementType, maxRowCount);
    readableTimes(signature.columns);
    ColumnLabels.relabel(signature.columns);
    return signature;
  }

  /**
   * What identifies a plan within a connection: the statement's text and the settings that shape
   * its plan and are not fixed for the connection (its schema, the result's row form, the row
   * limit). The time zone and every other connection property are fixed when it opens.
   */
  private static String planKey(
      String sql, List<String> schemaPath, Type elementType, long maxRowCount) {
    char separator = 0; // never in a schema name (control characters are refused) or type name
    return String.join(String.valueOf(separator), schemaPath)
        + separator
        + separator
        + elementType.getTypeName()
        + separator
        + maxRowCount
        + separator
        + sql;
  }

  /** The session of the lake mounted in a connection's root schema, or null. */
  private static @Nullable LakeSession lakeSession(CalciteSchema root) {
    String mount = LakeCatalogReader.lakeRoot(root);
    return mount == null ? null : ((LakeSchema) root.getSubSchema(mount, true).schema).session();
  }

  private static void readableTimes(List<ColumnMetaData> columns) {
    for (int i = 0; i < columns.size(); i++) {
      ColumnMetaData column = columns.get(i);
      if (column.type instanceof ColumnMetaData.StructType) {
        readableTimes(((ColumnMetaData.StructType) column.type).columns);
      } else if (column.type instanceof ColumnMetaData.ArrayType) {
        readableTimes((ColumnMetaData.ArrayType) column.type);
      } else if (column.type.id == java.sql.Types.TIME
          && (column.type.rep == ColumnMetaData.Rep.PRIMITIVE_LONG
              || column.type.rep == ColumnMetaData.Rep.LONG)) {
        // Calcite builds these lists afresh for each statement.
        columns.set(i, column.setRep(ColumnMetaData.Rep.NUMBER));
      }
    }
  }

  /** An array type whose elements (at any depth) read a fine TIME as the number it is. */
  private static void readableTimes(ColumnMetaData.ArrayType array) {
    ColumnMetaData.AvaticaType component = array.getComponent();
    if (component instanceof ColumnMetaData.StructType) {
      readableTimes(((ColumnMetaData.StructType) component).columns);
    } else if (component instanceof ColumnMetaData.ArrayType) {
      readableTimes((ColumnMetaData.ArrayType) component);
    } else if (component.id == java.sql.Types.TIME
        && (component.rep == ColumnMetaData.Rep.PRIMITIVE_LONG
            || component.rep == ColumnMetaData.Rep.LONG)) {
      array.updateComponentType(
          ColumnMetaData.scalar(component.id, component.name, ColumnMetaData.Rep.NUMBER));
    }
  }

  /** Calcite's conversion of SQL to expressions, with arithmetic on NULL folded to NULL. */
  @Override
  protected SqlRexConvertletTable createConvertletTable() {
    return NullArithmetic.INSTANCE;
  }

  @Override
  protected CalcitePreparingStmt getPreparingStmt(
      Context context,
      Type elementType,
      CalciteCatalogReader catalogReader,
      RelOptPlanner planner) {
    Cancellation.current().check(); // the planner's rules are made on a first statement
    JavaTypeFactory typeFactory = context.getTypeFactory();
    EnumerableRel.Prefer prefer =
        elementType == Object[].class ? EnumerableRel.Prefer.ARRAY : EnumerableRel.Prefer.CUSTOM;
    Convention resultConvention =
        enableBindable ? BindableConvention.INSTANCE : EnumerableConvention.INSTANCE;
    return new LakePreparingStmt(
        this,
        context,
        catalogReader,
        LakeCatalogReader.searching(catalogReader, context),
        typeFactory,
        context.getRootSchema(),
        prefer,
        createCluster(planner, new RexBuilder(typeFactory)),
        resultConvention,
        createConvertletTable());
  }

  @Override
  protected RelOptPlanner createPlanner(
      Context prepareContext,
      org.apache.calcite.plan.Context externalContext,
      org.apache.calcite.plan.RelOptCostFactory costFactory) {
    if (externalContext == null) {
      externalContext = org.apache.calcite.plan.Contexts.of(prepareContext.config());
    }
    VolcanoPlanner planner = new ExactPlanner(costFactory, externalContext);
    planner.setExecutor(new RexExecutorImpl(DataContexts.EMPTY));
    planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
    if (org.apache.calcite.config.CalciteSystemProperty.ENABLE_COLLATION_TRAIT.value()) {
      planner.addRelTraitDef(org.apache.calcite.rel.RelCollationTraitDef.INSTANCE);
    }
    planner.setTopDownOpt(prepareContext.config().topDownOpt());
    DefaultRules.register(
        planner, prepareContext.config().materializationsEnabled(), enableBindable);
    return planner;
  }

  /**
   * A Hep planner that stops when the statement is cancelled or its timeout elapses (57014): it
   * checks before each rule it applies.
   */
  static final class CancellableHepPlanner extends HepPlanner {
    CancellableHepPlanner(HepProgram program, org.apache.calcite.plan.@Nullable Context context) {
      super(program, context);
    }

    CancellableHepPlanner(
        HepProgram program,
        org.apache.calcite.plan.@Nullable Context context,
        boolean noDag,
        org.apache.calcite.plan.RelOptCostFactory costFactory) {
      super(program, context, noDag, null, costFactory);
    }

    @Override
    public void checkCancel() {
      Cancellation.current().check();
      super.checkCancel();
    }
  }

  /** A Volcano planner whose constant folding is always {@link ExactExecutor}. */
  static final class ExactPlanner extends VolcanoPlanner {
    ExactPlanner(
        org.apache.calcite.plan.RelOptCostFactory costFactory,
        org.apache.calcite.plan.Context externalContext) {
      super(costFactory, externalContext);
    }

    /** Stops planning when the statement is cancelled or its timeout elapses (57014). */
    @Override
    public void checkCancel() {
      Cancellation.current().check();
      super.checkCancel();
    }

    @Override
    public void setExecutor(RexExecutor executor) {
      super.setExecutor(
          executor == null || executor instanceof ExactExecutor
              ? executor
              : new ExactExecutor(executor));
    }
  }

  /**
   * The preparing statement that converts with {@link LakeSqlToRelConverter} and resolves names
   * along the search path of {@link LakeCatalogReader}.
   */
  static final class LakePreparingStmt extends CalcitePreparingStmt {
    private final RelOptCluster cluster;
    private final Prepare.CatalogReader calciteReader;

    LakePreparingStmt(
        CalcitePrepareImpl prepare,
        Context context,
        Prepare.CatalogReader calciteReader,
        Prepare.CatalogReader catalogReader,
        org.apache.calcite.rel.type.RelDataTypeFactory typeFactory,
        org.apache.calcite.jdbc.CalciteSchema schema,
        EnumerableRel.Prefer prefer,
        RelOptCluster cluster,
        Convention resultConvention,
        SqlRexConvertletTable convertletTable) {
      super(
          prepare,
          context,
          catalogReader,
          typeFactory,
          schema,
          prefer,
          cluster,
          resultConvention,
          convertletTable);
      this.cluster = cluster;
      this.calciteReader = calciteReader;
    }

    /** Validates with the search path, where Calcite would use its own two-entry one. */
    @Override
    protected SqlValidator createSqlValidator(
        Prepare.CatalogReader reader, UnaryOperator<SqlValidator.Config> configTransform) {
      PhaseTimes.enter(PhaseTimes.Phase.VALIDATE);
      Cancellation.current().check();
      return super.createSqlValidator(
          reader == calciteReader ? catalogReader : reader,
          config -> {
            SqlValidator.Config transformed = configTransform.apply(config);
            return transformed
                .withConformance(AssignmentCheck.exactInsert(transformed.conformance()))
                .withTypeCoercionFactory(AssignmentCoercion::new);
          });
    }

    @Override
    protected SqlToRelConverter getSqlToRelConverter(
        SqlValidator validator,
        Prepare.CatalogReader catalogReader,
        SqlToRelConverter.Config config) {
      config =
          config.withTopDownGeneralDecorrelationEnabled(
              context.config().topDownGeneralDecorrelationEnabled());
      return new LakeSqlToRelConverter(
          this, validator, catalogReader, cluster, convertletTable, config, context);
    }

    /**
     * Pushes filters, projections, limits, top-Ns and then aggregates into Floe scans in
     * rule-by-rule passes (aggregates over a join first aggregating one side's scan, {@link
     * LakeRules#AGGREGATE_JOINS}), then optimizes as Calcite does. Doing the pushdown first makes
     * it independent of the cost model's ties on small tables.
     */
    @Override
    protected RelRoot optimize(
        RelRoot root,
        List<Materialization> materializations,
        List<org.apache.calcite.jdbc.CalciteSchema.LatticeEntry> lattices) {
      PhaseTimes.enter(PhaseTimes.Phase.OPTIMIZE);
      Cancellation.current().check();
      HepProgram program =
          HepProgram.builder()
              .addMatchOrder(HepMatchOrder.BOTTOM_UP)
              .addRuleCollection(
                  List.of(
                      DefaultRules.PROJECT_REMOVE,
                      LakeRules.FILTER_SCAN,
                      LakeRules.PROJECT_SCAN,
                      LakeRules.LIMIT_SCAN,
                      LakeRules.TOP_N_SCAN))
              .addMatchOrder(HepMatchOrder.BOTTOM_UP)
              .addRuleCollection(LakeRules.AGGREGATE_JOINS)
              .addMatchOrder(HepMatchOrder.BOTTOM_UP)
              .addRuleCollection(LakeRules.REDUCE_AGGREGATES)
              .addMatchOrder(HepMatchOrder.BOTTOM_UP)
              .addRuleCollection(
                  List.of(
                      DefaultRules.PROJECT_REMOVE,
                      LakeRules.PROJECT_SCAN,
                      LakeRules.AGGREGATE_SCAN,
                      LakeRules.AGGREGATE_PROJECT_SCAN))
              .build();
      HepPlanner hep = new CancellableHepPlanner(program, null);
      hep.setRoot(root.rel);
      try {
        return super.optimize(root.withRel(hep.findBestExp()), materializations, lattices);
      } catch (RelOptPlanner.CannotPlanException e) {
        // An aggregate Calcite parses and validates but cannot run is a feature it lacks.
        UnsupportedAggregates.check(root.rel, e);
        throw e;
      }
    }

    /**
     * Calcite's standard program, built without the rules it does not run, with the join order of a
     * query joining many tables chosen by a heuristic before Volcano ({@link JoinOrder}).
     */
    @Override
    protected org.apache.calcite.tools.Program getProgram() {
      org.apache.calcite.util.Holder<org.apache.calcite.tools.@Nullable Program> holder =
          org.apache.calcite.util.Holder.empty();
      org.apache.calcite.runtime.Hook.PROGRAM.run(holder);
      org.apache.calcite.tools.Program program = holder.get();
      return program != null ? program : StandardProgram.INSTANCE;
    }

    /** An EXPLAIN describes the snapshot it was planned on: its plan is never kept. */
    @Override
    protected PreparedResult createPreparedExplanation(
        org.apache.calcite.rel.type.@Nullable RelDataType resultType,
        org.apache.calcite.rel.type.RelDataType parameterRowType,
        @Nullable RelRoot root,
        org.apache.calcite.sql.SqlExplainFormat format,
        org.apache.calcite.sql.SqlExplainLevel detailLevel) {
      PlanCache.doNotKeep();
      return super.createPreparedExplanation(
          resultType, parameterRowType, root, format, detailLevel);
    }

    @Override
    protected PreparedResult implement(RelRoot root) {
      PhaseTimes.enter(PhaseTimes.Phase.COMPILE);
      Cancellation.current().check();
      org.apache.calcite.rel.RelNode rel =
          WatchPoint.insert(
              Deferred.insert(
                  LakeHashJoin.replace(TemporalAligner.align(OuterJoinRows.keep(root.rel)))));
      if (rel instanceof dev.floe.planner.adapter.EnumerableLakeScan scan
          && root.isRefTrivial()
          && root.kind.belongsTo(org.apache.calcite.sql.SqlKind.QUERY)) {
        // A plain scan whose rows are the result: the result set may read its column batches.
        rel = scan.asResult();
        org.apache.calcite.runtime.Bindable<Object> bindable =
            ((dev.floe.planner.adapter.EnumerableLakeScan) rel).resultBindable();
        if (bindable != null) {
          return implementResult(root.withRel(rel), bindable);
        }
      }
      try {
        PreparedResult compiled = GuardedPlan.of(super.implement(root.withRel(rel)));
        Cancellation.current().check(); // compiling the generated code may take seconds
        return compiled;
      } catch (RuntimeException e) {
        // Code generation fails on an aggregate Calcite's runtime cannot compute over a window.
        UnsupportedAggregates.check(rel, e);
        throw e;
      }
    }

    /**
     * As Calcite's {@link #implement} for a plan whose rows are a result scan's, with the object
     * the scan's generated code would compile to ({@link
     * dev.floe.planner.adapter.EnumerableLakeScan#resultBindable}) instead of generating it.
     */
    private PreparedResult implementResult(
        RelRoot root, org.apache.calcite.runtime.Bindable<Object> bindable) {
      org.apache.calcite.runtime.Hook.PLAN_BEFORE_IMPLEMENTATION.run(root);
      return new PreparedResultImpl(
          root.rel.getRowType(),
          java.util.Objects.requireNonNull(parameterRowType, "parameterRowType"),
          java.util.Objects.requireNonNull(fieldOrigins, "fieldOrigins"),
          root.collation.getFieldCollations().isEmpty() ? List.of() : List.of(root.collation),
          root.rel,
          mapTableModOp(false, root.kind),
          false) {
        @Override
        public String getCode() {
          throw new UnsupportedOperationException();
        }

        @Override
        public org.apache.calcite.runtime.Bindable<Object> getBindable(
            org.apache.calcite.avatica.Meta.CursorFactory cursorFactory) {
          return bindable;
        }

        @Override
        public Type getElementType() {
          return ((org.apache.calcite.runtime.Typed) bindable).getElementType();
        }
      };
    }
  }

  /**
   * Calcite's catalog reader with Floe's search path for names: the connection's schema, then the
   * lake root, then Calcite's root. The connection's schema may be a nested lake schema by its
   * dotted name ({@code sales.eu}), which Calcite alone would look for at its root; and a qualified
   * name such as {@code sales.us.orders} still resolves from the lake root while the connection's
   * schema is {@code sales.eu}.
   */
  static final class LakeCatalogReader extends CalciteCatalogReader {
    /**
     * Looks functions up in Floe's function table and Calcite's root schema only: Floe's schemas
     * hold none.
     */
    private final CalciteCatalogReader functions;

    private LakeCatalogReader(
        CalciteCatalogReader calcite, List<List<String>> schemaPaths, Context context) {
      super(
          context.getRootSchema(),
          calcite.nameMatcher().isCaseSensitive() ? calcite.nameMatcher() : ColumnMatcher.INSTANCE,
          schemaPaths,
          calcite.getTypeFactory(),
          context.config());
      this.functions =
          new CalciteCatalogReader(
              context.getRootSchema(), List.of(), calcite.getTypeFactory(), context.config());
    }

    /**
     * As Calcite's, but without searching Floe's schemas, which hold no functions: the validator
     * asks this for every column name (it could be a function called without parentheses), and a
     * lake schema answers by listing its folder. A qualified name still reaches a lake schema from
     * the root, where it finds nothing, as before.
     */
    @Override
    public void lookupOperatorOverloads(
        org.apache.calcite.sql.SqlIdentifier opName,
        org.apache.calcite.sql.@Nullable SqlFunctionCategory category,
        org.apache.calcite.sql.SqlSyntax syntax,
        List<org.apache.calcite.sql.SqlOperator> operatorList,
        org.apache.calcite.sql.validate.SqlNameMatcher nameMatcher) {
      Cancellation.current().check(); // the validator asks for every name it meets
      FloeFunctions.table()
          .lookupOperatorOverloads(opName, category, syntax, operatorList, nameMatcher);
      functions.lookupOperatorOverloads(opName, category, syntax, operatorList, nameMatcher);
    }

    /** Floe's functions beyond the standard's ({@link FloeFunctions}), then Calcite's root's. */
    @Override
    public List<org.apache.calcite.sql.SqlOperator> getOperatorList() {
      List<org.apache.calcite.sql.SqlOperator> operators =
          new ArrayList<>(FloeFunctions.table().getOperatorList());
      operators.addAll(functions.getOperatorList());
      return operators;
    }

    static CalciteCatalogReader searching(CalciteCatalogReader calcite, Context context) {
      CalciteSchema root = context.getRootSchema();
      String lake = lakeRoot(root);
      if (lake == null) {
        return calcite;
      }
      List<String> current = context.getDefaultSchemaPath();
      List<String> first = new ArrayList<>();
      if (!current.isEmpty() && root.getSubSchema(current.get(0), true) == null) {
        first.add(lake); // a lake schema by its JDBC name, under the lake root
      }
      first.addAll(current);
      // Calcite's root first: table names arrive qualified from it (qualifyTableNames).
      return new LakeCatalogReader(calcite, List.of(List.of(), first, List.of(lake)), context);
    }

    /**
     * As Calcite's, recording for the plan cache which Floe table the statement reads, and that a
     * table at a past version or a metadata table makes a plan that must not be kept.
     */
    @Override
    public Prepare.@Nullable PreparingTable getTable(List<String> names) {
      Cancellation.current().check(); // a table's first lookup reads its metadata
      Prepare.PreparingTable table = super.getTable(names);
      if (table != null) {
        LakeTable lake = table.unwrap(LakeTable.class);
        if (lake == null || lake.version() != null) {
          PlanCache.doNotKeep();
        } else {
          PlanCache.readsTable(lake.path());
        }
      }
      return table;
    }

    /** The name under which the lake root is mounted in Calcite's root schema, or null. */
    static @Nullable String lakeRoot(CalciteSchema root) {
      for (Map.Entry<String, CalciteSchema> entry : root.getSubSchemaMap().entrySet()) {
        Schema schema = entry.getValue().schema;
        if (schema instanceof LakeSchema && ((LakeSchema) schema).path().isEmpty()) {
          return entry.getKey();
        }
      }
      return null;
    }
  }

  /**
   * Refuses (0A000) what Calcite would compute in milliseconds before Floe sees it: an interval
   * literal with digits below the millisecond (Calcite keeps milliseconds), TIMESTAMPADD by
   * MICROSECOND or NANOSECOND (Calcite moves whole milliseconds) and TIMESTAMPDIFF by MILLISECOND,
   * MICROSECOND or NANOSECOND (Calcite counts whole seconds and multiplies them).
   */
  static final class SubMillisecondCheck extends org.apache.calcite.sql.util.SqlBasicVisitor<Void> {
    static final SubMillisecondCheck INSTANCE = new SubMillisecondCheck();
    private static final java.util.regex.Pattern BELOW_MILLIS =
        java.util.regex.Pattern.compile(".*\\.\\d{3}\\d*[1-9]\\d*$");

    @Override
    public Void visit(org.apache.calcite.sql.SqlLiteral literal) {
      if (literal instanceof org.apache.calcite.sql.SqlIntervalLiteral) {
        String text =
            ((org.apache.calcite.sql.SqlIntervalLiteral.IntervalValue) literal.getValue())
                .getIntervalLiteral()
                .trim();
        if (BELOW_MILLIS.matcher(text).matches()) {
          throw dev.floe.error.FloeError.NOT_SUPPORTED.error(
              "the interval '" + text + "' (an interval holds milliseconds)");
        }
      }
      return null;
    }

    @Override
    public Void visit(org.apache.calcite.sql.SqlCall call) {
      org.apache.calcite.sql.SqlKind kind = call.getKind();
      if ((kind == org.apache.calcite.sql.SqlKind.TIMESTAMP_ADD
              || kind == org.apache.calcite.sql.SqlKind.TIMESTAMP_DIFF)
          && !call.getOperandList().isEmpty()
          && call.operand(0) instanceof org.apache.calcite.sql.SqlIntervalQualifier) {
        org.apache.calcite.avatica.util.TimeUnit unit =
            ((org.apache.calcite.sql.SqlIntervalQualifier) call.operand(0)).getStartUnit();
        boolean belowSecond =
            unit == org.apache.calcite.avatica.util.TimeUnit.MICROSECOND
                || unit == org.apache.calcite.avatica.util.TimeUnit.NANOSECOND
                || (unit == org.apache.calcite.avatica.util.TimeUnit.MILLISECOND
                    && kind == org.apache.calcite.sql.SqlKind.TIMESTAMP_DIFF);
        if (belowSecond) {
          throw dev.floe.error.FloeError.NOT_SUPPORTED.error(
              call.getOperator().getName()
                  + " by "
                  + unit
                  + " (Calcite computes it in milliseconds or whole seconds)");
        }
      }
      return super.visit(call);
    }
  }

  /**
   * Refuses DATE, TIME and TIMESTAMP literals that are invalid or beyond the year 9999 ({@link
   * dev.floe.planner.type.DatetimeLiterals}).
   */
  static final class DatetimeLiteralCheck
      extends org.apache.calcite.sql.util.SqlBasicVisitor<Void> {
    static final DatetimeLiteralCheck INSTANCE = new DatetimeLiteralCheck();

    @Override
    public Void visit(org.apache.calcite.sql.SqlLiteral literal) {
      dev.floe.planner.type.DatetimeLiterals.check(literal);
      return null;
    }

    @Override
    public Void visit(org.apache.calcite.sql.SqlCall call) {
      if (call.getKind() == org.apache.calcite.sql.SqlKind.SNAPSHOT) {
        // FOR SYSTEM_TIME AS OF: TimeTravel reads the period itself, in more spellings than a
        // TIMESTAMP literal has (Trino's TIMESTAMP '... Europe/Vienna', an instant); only its
        // year is checked here.
        if (call.operand(1) instanceof org.apache.calcite.sql.SqlLiteral period) {
          dev.floe.planner.type.DatetimeLiterals.checkYear(period);
        }
        return call.operand(0).accept(this);
      }
      return super.visit(call);
    }
  }

  /**
   * Refuses (0A000) a window aggregate of distinct values ({@code COUNT(DISTINCT x) OVER (...)},
   * {@code SUM(DISTINCT x) OVER (...)}): Calcite's window runtime ignores DISTINCT there and would
   * count and sum every value. MIN and MAX, whose answer DISTINCT does not change, are let through.
   */
  static final class WindowDistinctCheck extends org.apache.calcite.sql.util.SqlBasicVisitor<Void> {
    static final WindowDistinctCheck INSTANCE = new WindowDistinctCheck();

    @Override
    public Void visit(org.apache.calcite.sql.SqlCall call) {
      if (call.getKind() == org.apache.calcite.sql.SqlKind.OVER
          && call.operand(0) instanceof org.apache.calcite.sql.SqlCall) {
        org.apache.calcite.sql.SqlCall aggregate = call.operand(0);
        // Before validation a function call is known by its name only.
        String name = aggregate.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        if (aggregate.getFunctionQuantifier() != null
            && aggregate.getFunctionQuantifier().getValue()
                == org.apache.calcite.sql.SqlSelectKeyword.DISTINCT
            && !name.equals("MIN")
            && !name.equals("MAX")) {
          throw dev.floe.error.FloeError.NOT_SUPPORTED.error(
              aggregate.getOperator().getName()
                  + "(DISTINCT ...) OVER (...): a window aggregate of distinct values (compute the"
                  + " distinct values in a subquery or with GROUP BY and join them)");
        }
      }
      return super.visit(call);
    }
  }

  /**
   * Replaces every table name in a statement by the exact path Floe's one resolver finds for it
   * ({@link SqlNames}), seen from the connection's current schema.
   */
  static void qualifyTableNames(SqlNode statement, Context context) {
    CalciteSchema root = context.getRootSchema();
    String mount = LakeCatalogReader.lakeRoot(root);
    if (mount == null) {
      return;
    }
    LakeSchema lake = (LakeSchema) root.getSubSchema(mount, true).schema;
    PhaseTimes.Phase before = PhaseTimes.enter(PhaseTimes.Phase.METADATA);
    try {
      TableNames names = new TableNames(lake.session().catalog());
      List<String> current = context.getDefaultSchemaPath();
      if (!current.isEmpty() && current.get(0).equals(mount)) {
        current = current.subList(1, current.size());
      }
      List<String> schema =
          current.isEmpty() ? List.of() : names.schema(TableNames.parts(current, true));
      Set<String> otherSchemas = new HashSet<>(root.getSubSchemaMap().keySet());
      otherSchemas.remove(mount);
      SqlNames.qualifyAll(
          statement, names, mount, schema == null ? List.of() : schema, lake, otherSchemas);
    } finally {
      PhaseTimes.restore(before);
    }
  }

  /** Turns Calcite's own DELETE and UPDATE of a Floe table into {@link LakeTableModify}. */
  static final class LakeSqlToRelConverter extends SqlToRelConverter {
    private final Prepare.CatalogReader catalogReader;
    private final Context context;

    LakeSqlToRelConverter(
        RelOptTable.ViewExpander viewExpander,
        SqlValidator validator,
        Prepare.CatalogReader catalogReader,
        RelOptCluster cluster,
        SqlRexConvertletTable convertletTable,
        Config config,
        Context context) {
      super(viewExpander, validator, catalogReader, cluster, convertletTable, config);
      this.catalogReader = catalogReader;
      this.context = context;
    }

    @Override
    public RelRoot convertQuery(SqlNode query, boolean needsValidation, boolean top) {
      if (needsValidation) {
        qualifyTableNames(query, context);
        FunctionRewrites.rewrite(query);
      }
      query.accept(SubMillisecondCheck.INSTANCE);
      query.accept(WindowDistinctCheck.INSTANCE);
      query.accept(DatetimeLiteralCheck.INSTANCE);
      if (needsValidation) {
        TimeTravel.rewrite(query);
      }
      RelRoot converted;
      try {
        converted = super.convertQuery(query, needsValidation, top);
      } catch (CalciteContextException e) {
        String mount = LakeCatalogReader.lakeRoot(context.getRootSchema());
        throw mount == null ? e : UnknownColumns.hinted(e, query, catalogReader, mount);
      }
      // Exact arithmetic that overflows is an error (22003), as standard SQL says, not a value
      // that silently wraps around.
      RelRoot root =
          converted.withRel(
              new org.apache.calcite.sql2rel.ConvertToChecked(
                      converted.rel.getCluster().getRexBuilder(), true)
                  .visit(converted.rel));
      if (!(root.rel instanceof LogicalTableModify)) {
        return root;
      }
      LogicalTableModify modify = (LogicalTableModify) root.rel;
      LakeTable lake = modify.getTable().unwrap(LakeTable.class);
      if (lake != null && modify.getOperation() == TableModify.Operation.INSERT) {
        AssignmentCheck.checkInsert(modify.getTable(), modify.getInput().getRowType());
      }
      if (lake == null || modify.getOperation() == TableModify.Operation.INSERT) {
        return root;
      }
      lake.refuseWrites();
      if (modify.getOperation() == TableModify.Operation.UPDATE) {
        AssignmentCheck.checkUpdate(
            modify.getTable(), modify.getUpdateColumnList(), modify.getSourceExpressionList());
      }
      return root.withRel(
          LakeTableModify.create(
              modify.getCluster(),
              modify.getTable(),
              catalogReader,
              lake,
              modify.getInput(),
              modify.getOperation(),
              modify.getUpdateColumnList(),
              modify.getSourceExpressionList(),
              modify.isFlattened()));
    }
  }
}
