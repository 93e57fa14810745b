package dev.floe.planner.adapter;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.parser.FloeParser;
import dev.floe.planner.session.PlanCache;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewRepresentation;
import org.apache.iceberg.view.ViewVersion;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Table names in a parsed statement, resolved by the one resolver ({@link TableNames}) before
 * Calcite validates it. Calcite has a single case-sensitivity switch for every name and cannot tell
 * a quoted name from an unquoted one when it looks a table up, so each table reference (in FROM,
 * joins, subqueries, and the target of INSERT, UPDATE, DELETE and MERGE) is replaced by the exact
 * folder path the resolver finds, under the lake's mount in Calcite's root schema; Floe's schemas
 * then look names up exactly. A name the resolver does not find is left as written, for Calcite to
 * report as not found; names of WITH queries are left alone.
 *
 * <p>The columns an INSERT or UPDATE names as its targets are resolved likewise, by {@link
 * ColumnNames}, and replaced by the exact names they resolve to (Calcite's validator then takes a
 * name that spells a column exactly for that column); a column named twice, a required column an
 * INSERT leaves out, and a row of VALUES of another length than the columns are refused here, with
 * Floe's own errors, before Calcite validates the statement.
 */
public final class SqlNames {
  /** The SQL dialect of the views Floe writes (docs/sql.md, "Views"). */
  public static final String VIEW_DIALECT = "floe";

  /**
   * The view property naming, comma-separated, the columns its query gave when it was created (as
   * Spark's {@code spark.query-column-names}): a view reads those columns of its query by name, so
   * a {@code SELECT *} view keeps the columns it had when a column is added to its table.
   */
  public static final String VIEW_QUERY_COLUMNS = "floe.query-column-names";

  /** How deeply views may be nested in one statement (a view over a view over ...). */
  static final int MAX_VIEW_DEPTH = 32;

  private SqlNames() {}

  /** The SQL of a view's current version in Floe's dialect, else its first SQL; null if none. */
  public static @Nullable SQLViewRepresentation viewSql(ViewMetadata view) {
    SQLViewRepresentation first = null;
    for (ViewRepresentation representation : view.currentVersion().representations()) {
      if (representation instanceof SQLViewRepresentation) {
        SQLViewRepresentation sql = (SQLViewRepresentation) representation;
        if (sql.dialect().equalsIgnoreCase(VIEW_DIALECT)) {
          return sql;
        }
        if (first == null) {
          first = sql;
        }
      }
    }
    return first;
  }

  /**
   * {@code SELECT * FROM from [WHERE where]}: a view's rows, or the rows optimize's WHERE picks.
   */
  public static SqlSelect selectAll(SqlParserPos pos, SqlNode from, @Nullable SqlNode where) {
    return select(pos, List.of(SqlIdentifier.star(pos)), from, where);
  }

  /** {@code SELECT items FROM from [WHERE where]}. */
  static SqlSelect select(
      SqlParserPos pos, List<SqlNode> items, SqlNode from, @Nullable SqlNode where) {
    return new SqlSelect(
        pos,
        null,
        new SqlNodeList(items, pos),
        from,
        where,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  /** The last part of an identifier as written (a column's name): text, and whether quoted. */
  public static TableNames.Part part(SqlIdentifier identifier) {
    int last = identifier.names.size() - 1;
    return new TableNames.Part(identifier.names.get(last), identifier.isComponentQuoted(last));
  }

  /** The parts of an identifier as written: text and whether each was double-quoted. */
  public static List<TableNames.Part> parts(SqlIdentifier identifier) {
    List<TableNames.Part> parts = new ArrayList<>();
    for (int i = 0; i < identifier.names.size(); i++) {
      parts.add(new TableNames.Part(identifier.names.get(i), identifier.isComponentQuoted(i)));
    }
    return parts;
  }

  /**
   * Replaces each table reference in a statement by the exact path the resolver finds.
   *
   * @param mount the name of the lake root's schema in Calcite's root schema
   * @param currentSchema the folder path of the connection's current schema
   * @throws dev.floe.error.FloeException AMBIGUOUS_NAME for an unquoted name matching case twins
   */
  public static void qualify(
      SqlNode statement, TableNames names, String mount, List<String> currentSchema) {
    statement.accept(new Qualifier(names, mount, currentSchema, null, null, List.of()));
  }

  /**
   * Replaces each table reference as {@link #qualify(SqlNode, TableNames, String, List)} does, and
   * each call of a file table function ({@code read_parquet(...)}, {@code read_csv(...)}) by the
   * name of a {@link FileTable} planned now on the lake's root schema.
   */
  public static void qualify(
      SqlNode statement,
      TableNames names,
      String mount,
      List<String> currentSchema,
      LakeSchema lake) {
    statement.accept(new Qualifier(names, mount, currentSchema, lake, Set.of(), List.of()));
  }

  /**
   * As {@link #qualify(SqlNode, TableNames, String, List, LakeSchema)}, and a name that denotes no
   * table is refused here (42S02, naming the nearest table), unless its first part names one of
   * Calcite's own root schemas ({@code otherSchemas}), where Calcite looks it up.
   */
  public static void qualifyAll(
      SqlNode statement,
      TableNames names,
      String mount,
      List<String> currentSchema,
      LakeSchema lake,
      Set<String> otherSchemas) {
    statement.accept(new Qualifier(names, mount, currentSchema, lake, otherSchemas, List.of()));
  }

  /** Walks a statement, resolving every identifier that stands in a table's place. */
  private static final class Qualifier extends SqlBasicVisitor<Void> {
    private final TableNames names;
    private final String mount;
    private final List<String> currentSchema;
    private final Deque<Set<String>> withNames = new ArrayDeque<>();
    private final @Nullable LakeSchema lake;

    /** Calcite's root schemas besides the lake's; null: names not found are left to Calcite. */
    private final @Nullable Set<String> otherSchemas;

    /** The views whose queries this walk is inside, outermost first. */
    private final List<List<String>> views;

    Qualifier(
        TableNames names,
        String mount,
        List<String> currentSchema,
        @Nullable LakeSchema lake,
        @Nullable Set<String> otherSchemas,
        List<List<String>> views) {
      this.names = names;
      this.mount = mount;
      this.currentSchema = currentSchema;
      this.lake = lake;
      this.otherSchemas = otherSchemas;
      this.views = views;
    }

    @Override
    public Void visit(SqlCall call) {
      switch (call.getKind()) {
        case WITH:
          return with((SqlWith) call);
        case SELECT:
          {
            SqlSelect select = (SqlSelect) call;
            if (select.getFrom() != null) {
              SqlNode from = from(select.getFrom());
              if (from != select.getFrom()) {
                select.setFrom(from);
              }
            }
            for (SqlNode operand : select.getOperandList()) {
              if (operand != null && operand != select.getFrom()) {
                operand.accept(this);
              }
            }
            return null;
          }
        case INSERT:
          {
            SqlInsert insert = (SqlInsert) call;
            List<String> path = target(insert.getTargetTable(), "insert into");
            insertColumns(path, insert);
            insert.getSource().accept(this);
            return null;
          }
        case DELETE:
          {
            SqlDelete delete = (SqlDelete) call;
            target(delete.getTargetTable(), "delete from");
            walk(delete.getCondition());
            return null;
          }
        case UPDATE:
          {
            SqlUpdate update = (SqlUpdate) call;
            List<String> path = target(update.getTargetTable(), "update");
            Types.StructType columns = columns(path);
            if (columns != null) {
              targetColumns(columns, update.getTargetColumnList(), path, "UPDATE SET");
            }
            walk(update.getSourceExpressionList());
            walk(update.getCondition());
            return null;
          }
        case MERGE:
          {
            SqlMerge merge = (SqlMerge) call;
            target(merge.getTargetTable(), "merge into");
            SqlNode source = from(merge.getSourceTableRef());
            if (source != merge.getSourceTableRef()) {
              merge.setSourceTableRef(source);
            }
            walk(merge.getCondition());
            walk(merge.getUpdateCall());
            walk(
                merge.getInsertCall() == null ? (SqlNode) null : merge.getInsertCall().getSource());
            return null;
          }
        default:
          return super.visit(call);
      }
    }

    private void walk(SqlNode node) {
      if (node != null) {
        node.accept(this);
      }
    }

    private Void with(SqlWith with) {
      Set<String> scope = new HashSet<>();
      withNames.push(scope);
      try {
        for (SqlNode item : with.withList) {
          SqlWithItem withItem = (SqlWithItem) item;
          withItem.query.accept(this);
          scope.add(withItem.name.getSimple().toLowerCase(Locale.ROOT));
        }
        with.body.accept(this);
      } finally {
        withNames.pop();
      }
      return null;
    }

    /**
     * A node in a table's place: a name, an aliased or hinted name, a join, a subquery, or a file
     * table function; returns the node to put in its place.
     */
    private SqlNode from(SqlNode node) {
      if (node instanceof SqlIdentifier) {
        SqlIdentifier identifier = (SqlIdentifier) node;
        List<String> view = viewOf(identifier);
        if (view != null) {
          int last = identifier.names.size() - 1;
          SqlIdentifier alias =
              new SqlIdentifier(
                  identifier.names.get(last), identifier.getComponentParserPosition(last));
          return SqlStdOperatorTable.AS.createCall(
              identifier.getParserPosition(), expand(identifier, view), alias);
        }
        qualify(identifier);
        return node;
      }
      if (node instanceof SqlJoin) {
        SqlJoin join = (SqlJoin) node;
        SqlNode left = from(join.getLeft());
        if (left != join.getLeft()) {
          join.setLeft(left);
        }
        SqlNode right = from(join.getRight());
        if (right != join.getRight()) {
          join.setRight(right);
        }
        walk(join.getCondition());
        return node;
      }
      if (node instanceof SqlCall) {
        SqlCall call = (SqlCall) node;
        SqlKind kind = call.getKind();
        if (kind == SqlKind.COLLECTION_TABLE && lake != null) {
          SqlNode file = FileFunctions.table(lake, mount, call);
          if (file != null) {
            return file;
          }
        }
        if (kind == SqlKind.AS
            || kind == SqlKind.TABLE_REF
            || kind == SqlKind.SNAPSHOT
            || kind == SqlKind.EXTEND
            || kind == SqlKind.TABLESAMPLE
            || kind == SqlKind.OVER) {
          if (call.operand(0) instanceof SqlIdentifier) {
            SqlIdentifier identifier = call.operand(0);
            List<String> view = viewOf(identifier);
            if (view != null && kind == SqlKind.AS) {
              call.setOperand(0, expand(identifier, view));
              return node;
            }
            if (view != null) {
              throw FloeError.NOT_SUPPORTED.error(
                  (kind == SqlKind.SNAPSHOT
                          ? "time travel (FOR VERSION or FOR TIMESTAMP AS OF) on view "
                          : kind + " on view ")
                      + String.join(".", view)
                      + ": a view has no snapshots or versions of its rows; apply it to the tables"
                      + " its query reads");
            }
          }
          SqlNode inner = from(call.operand(0));
          if (inner != call.operand(0)) {
            call.setOperand(0, inner);
          }
          for (int i = 1; i < call.operandCount(); i++) {
            if (call.operand(i) != null && kind != SqlKind.AS) {
              call.operand(i).accept(this);
            }
          }
          return node;
        }
      }
      if (node instanceof SqlNodeList) {
        for (SqlNode item : (SqlNodeList) node) {
          walk(item);
        }
        return node;
      }
      walk(node);
      return node;
    }

    /**
     * The table a statement changes: resolved as any table, but a metadata table there is refused
     * (42809) before Calcite sees it.
     */
    private @Nullable List<String> target(SqlNode node, String action) {
      if (node instanceof SqlIdentifier && isTableName((SqlIdentifier) node)) {
        SqlIdentifier identifier = (SqlIdentifier) node;
        List<String> path = names.table(currentSchema, parts(identifier));
        if (path == null) {
          names.checkNotMetadataTable(currentSchema, parts(identifier), action);
          names.checkNotView(currentSchema, parts(identifier), action);
          refuseUnknown(identifier);
          return null;
        }
        qualify(identifier, path);
        return path;
      }
      from(node);
      return null;
    }

    /** The columns of a table a statement changes, as the statement sees it; null if unknown. */
    private Types.@Nullable StructType columns(@Nullable List<String> path) {
      if (path == null || lake == null || !lake.session().catalog().tableExists(path)) {
        return null;
      }
      return lake.session().pin(path).table().schema().asStruct();
    }

    /**
     * An INSERT's target columns resolved, and checked against its source: without a column list a
     * row of VALUES gives every column, with one it gives the columns listed, and the columns it
     * leaves out must take NULL.
     */
    private void insertColumns(@Nullable List<String> path, SqlInsert insert) {
      Types.StructType table = columns(path);
      if (table == null) {
        return;
      }
      String name = String.join(".", path);
      SqlNodeList listed = insert.getTargetColumnList();
      List<String> targets =
          listed == null
              ? ColumnNames.names(table.fields())
              : targetColumns(table, listed, path, "INSERT");
      for (Types.NestedField field : table.fields()) {
        if (field.isRequired() && !targets.contains(field.name())) {
          throw FloeError.NULL_NOT_ALLOWED.error(
              ColumnNames.quote(field.name())
                  + " of "
                  + name
                  + ": the INSERT does not name it, and it has no default value");
        }
      }
      SqlNode source = insert.getSource();
      if (source.getKind() == SqlKind.VALUES) {
        for (SqlNode row : ((SqlCall) source).getOperandList()) {
          if (row.getKind() != SqlKind.ROW) {
            continue;
          }
          List<SqlNode> values = ((SqlCall) row).getOperandList();
          if (values.size() != targets.size()) {
            throw FloeError.VALUE_COUNT.error(
                name,
                (listed == null ? "the table has " : "the column list names ")
                    + targets.size()
                    + " columns, a row of VALUES gives "
                    + values.size());
          }
          for (int i = 0; i < values.size(); i++) {
            if (SqlUtil.isNullLiteral(values.get(i), true)
                && table.field(targets.get(i)).isRequired()) {
              throw FloeError.NULL_NOT_ALLOWED.error(
                  ColumnNames.quote(targets.get(i)) + " of " + name);
            }
          }
        }
      }
    }

    /**
     * Resolves the columns a statement names as its targets, each replaced by the exact name it
     * resolves to; returns those names in order.
     *
     * @throws dev.floe.error.FloeException COLUMN_NOT_FOUND, AMBIGUOUS_NAME, or VALIDATION for a
     *     column named twice
     */
    private List<String> targetColumns(
        Types.StructType table, SqlNodeList columns, List<String> path, String clause) {
      String name = String.join(".", path);
      List<String> names = ColumnNames.names(table.fields());
      List<String> resolved = new ArrayList<>();
      for (SqlNode node : columns) {
        SqlIdentifier column = (SqlIdentifier) node;
        if (column.names.size() != 1) {
          continue; // a qualified or nested target: Calcite's to resolve or refuse
        }
        String exact = ColumnNames.resolve(names, part(column), name);
        if (resolved.contains(exact)) {
          throw FloeError.VALIDATION.error(
              "column "
                  + ColumnNames.quote(exact)
                  + " of "
                  + name
                  + " is assigned more than once in one "
                  + clause);
        }
        resolved.add(exact);
        column.setNames(List.of(exact), List.of(column.getParserPosition().withQuoting(true)));
      }
      return resolved;
    }

    /** The path of the view a name in a table's place denotes (and no table does); or null. */
    private @Nullable List<String> viewOf(SqlIdentifier identifier) {
      if (!isTableName(identifier)) {
        return null;
      }
      List<TableNames.Part> parts = parts(identifier);
      if (names.table(currentSchema, parts) != null) {
        return null;
      }
      return names.view(currentSchema, parts);
    }

    /**
     * A view's query in its place, its names resolved from the view's default namespace: {@code
     * SELECT * FROM (query) AS view(columns)}, the columns named as the view's schema names them. A
     * view reached again inside its own expansion, or one being defined, is refused rather than
     * expanded forever.
     */
    private SqlSelect expand(SqlIdentifier identifier, List<String> path) {
      String name = String.join(".", path);
      if (views.contains(path) || PlanCache.definingViews().contains(path)) {
        List<String> chain = new ArrayList<>();
        for (List<String> view : views) {
          chain.add(String.join(".", view));
        }
        chain.add(name);
        throw FloeError.VALIDATION.error(
            "view "
                + name
                + " refers to itself ("
                + String.join(" -> ", chain)
                + "); a view's query cannot read the view");
      }
      if (views.size() >= MAX_VIEW_DEPTH) {
        throw FloeError.TOO_COMPLEX.error(
            "views nested more than " + MAX_VIEW_DEPTH + " deep, at view " + name);
      }
      ViewMetadata metadata = names.catalog().loadView(path);
      PlanCache.readsView(path, metadata.metadataFileLocation());
      ViewVersion version = metadata.currentVersion();
      SQLViewRepresentation sql = viewSql(metadata);
      if (sql == null) {
        throw FloeError.NOT_SUPPORTED.error(
            "view " + name + ": its current version has no SQL representation");
      }
      SqlNode query;
      try {
        query = FloeParser.parse(sql.sql());
      } catch (FloeException e) {
        throw FloeError.VALIDATION.error(
            e,
            "view "
                + name
                + " holds SQL of dialect "
                + sql.dialect()
                + " that Floe cannot parse: "
                + e.getMessage());
      }
      if (!query.isA(SqlKind.QUERY)) {
        throw FloeError.VALIDATION.error("view " + name + " holds no query: " + sql.sql());
      }
      List<List<String>> inside = new ArrayList<>(views);
      inside.add(List.copyOf(path));
      Qualifier qualifier =
          new Qualifier(
              names,
              mount,
              List.of(version.defaultNamespace().levels()),
              lake,
              otherSchemas == null ? Set.of() : otherSchemas,
              List.copyOf(inside));
      try {
        query.accept(qualifier);
      } catch (FloeException e) {
        if (e.error() == FloeError.TABLE_NOT_FOUND || e.error() == FloeError.VIEW_BROKEN) {
          throw FloeError.VIEW_BROKEN.error(
              e,
              name,
              e.getMessage()
                  + (e.error() == FloeError.TABLE_NOT_FOUND
                      ? " (dropped or renamed after the view was created; CREATE OR REPLACE VIEW "
                          + name
                          + " defines it again)"
                      : ""));
        }
        throw e;
      }
      SqlParserPos pos = identifier.getParserPosition();
      String alias = path.get(path.size() - 1);
      List<Types.NestedField> columns = metadata.schema().columns();
      List<String> queryColumns = queryColumns(metadata, columns.size());
      List<SqlNode> operands = new ArrayList<>();
      operands.add(query);
      operands.add(new SqlIdentifier(alias, pos.withQuoting(true)));
      List<SqlNode> select = new ArrayList<>();
      if (queryColumns == null) {
        // By position: SELECT * FROM (query) AS view(columns).
        for (Types.NestedField field : columns) {
          operands.add(new SqlIdentifier(field.name(), pos.withQuoting(true)));
        }
        select.add(SqlIdentifier.star(pos));
      } else {
        // By name: SELECT view.c AS column, ... FROM (query) AS view. A column its table lost is
        // "Column 'c' not found in table 'view'" (42S22).
        for (int i = 0; i < columns.size(); i++) {
          SqlIdentifier column =
              new SqlIdentifier(
                  List.of(alias, queryColumns.get(i)),
                  null,
                  pos,
                  List.of(pos.withQuoting(true), pos.withQuoting(true)));
          select.add(
              SqlStdOperatorTable.AS.createCall(
                  pos, column, new SqlIdentifier(columns.get(i).name(), pos.withQuoting(true))));
        }
      }
      return select(pos, select, SqlStdOperatorTable.AS.createCall(pos, operands), null);
    }

    /** The names a view's query gave its columns when it was created; null if not recorded. */
    private static @Nullable List<String> queryColumns(ViewMetadata metadata, int count) {
      String names = metadata.properties().get(VIEW_QUERY_COLUMNS);
      if (names == null) {
        return null;
      }
      List<String> list = List.of(names.split(",", -1));
      return list.size() == count ? list : null;
    }

    private boolean isTableName(SqlIdentifier identifier) {
      return !(identifier.isStar()
          || identifier.names.contains("")
          || identifier.names.size() == 1 && isWithName(identifier.getSimple()));
    }

    private void qualify(SqlIdentifier identifier) {
      if (!isTableName(identifier)) {
        return;
      }
      List<String> path = names.table(currentSchema, parts(identifier));
      if (path == null) {
        path = metadataTable(identifier);
      }
      if (path == null) {
        refuseUnknown(identifier);
        return;
      }
      qualify(identifier, path);
    }

    /**
     * Refuses a table name that denotes nothing in the lake (42S02, naming the nearest table),
     * unless Calcite may find it in one of its own schemas or the walk leaves such names to it.
     */
    private void refuseUnknown(SqlIdentifier identifier) {
      if (otherSchemas == null
          || TableReference.parse(identifier.names.get(identifier.names.size() - 1)) != null) {
        // A metadata table or a past version: the lake schema says what is wrong with it.
        return;
      }
      if (identifier.names.size() > 1) {
        for (String schema : otherSchemas) {
          if (schema.equalsIgnoreCase(identifier.names.get(0))) {
            return;
          }
        }
      }
      throw names.notFound(currentSchema, parts(identifier));
    }

    /** Replaces a name by the exact folder path it resolved to, under the lake's mount. */
    private void qualify(SqlIdentifier identifier, List<String> path) {
      List<String> qualified = new ArrayList<>();
      qualified.add(mount);
      qualified.addAll(path);
      List<SqlParserPos> positions = new ArrayList<>();
      for (int i = 0; i < qualified.size(); i++) {
        positions.add(identifier.getParserPosition().withQuoting(true));
      }
      identifier.setNames(qualified, positions);
    }

    /**
     * The path of a metadata table ({@code orders$snapshots}): its table's name resolved as any
     * other, followed by {@code $} and the metadata table's name; null when the name is not one or
     * its table does not exist.
     */
    private @Nullable List<String> metadataTable(SqlIdentifier identifier) {
      List<TableNames.Part> parts = parts(identifier);
      TableNames.Part last = parts.get(parts.size() - 1);
      TableReference reference = TableReference.parse(last.text());
      if (reference == null || reference.metadata() == null || reference.version() != null) {
        return null;
      }
      parts.set(parts.size() - 1, new TableNames.Part(reference.table(), last.quoted()));
      List<String> table = names.table(currentSchema, parts);
      if (table == null) {
        return null;
      }
      List<String> path = new ArrayList<>(table);
      path.set(path.size() - 1, reference.spelled(table.get(table.size() - 1)));
      return path;
    }

    private boolean isWithName(String name) {
      for (Set<String> scope : withNames) {
        if (scope.contains(name.toLowerCase(Locale.ROOT))) {
          return true;
        }
      }
      return false;
    }
  }
}
