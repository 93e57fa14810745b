package dev.floe.command.ddl;

import dev.floe.command.CommandContext;
import dev.floe.config.DriverInfo;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.ColumnNames;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.parser.FloeParser;
import dev.floe.planner.parser.ddl.SqlCreateLakeView;
import dev.floe.planner.parser.ddl.SqlDropLakeView;
import dev.floe.planner.prepare.ColumnLabels;
import dev.floe.planner.session.PlanCache;
import dev.floe.planner.spi.LakeCatalog;
import dev.floe.planner.type.LakeTypes;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.ImmutableSQLViewRepresentation;
import org.apache.iceberg.view.ImmutableViewVersion;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewVersion;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * CREATE [OR REPLACE] VIEW and DROP VIEW (docs/sql.md, "Views"). A view is a folder holding Iceberg
 * view metadata ({@code metadata/vN.metadata.json}, the view spec), its query kept as written in
 * one SQL representation of dialect {@code floe}, with the current schema as its default namespace
 * and the columns its query gave when it was created. The query is validated before anything is
 * written, so an invalid one creates nothing; versions are published with the commit protocol of
 * tables, so of two writers replacing one view at once each publishes a version of its own (the
 * later one is current), and of two creating it one fails with 42S01.
 */
final class Views {
  /** How often CREATE OR REPLACE VIEW reads the view again after another writer published. */
  private static final int ATTEMPTS = 4;

  private final CommandContext connection;

  Views(CommandContext connection) {
    this.connection = connection;
  }

  private LakeCatalog catalog() {
    return connection.session().catalog();
  }

  private TableNames names() {
    return new TableNames(catalog());
  }

  void create(SqlCreateLakeView create, String sql) throws SQLException {
    List<String> current = connection.schemaPath();
    List<TableNames.Part> name = SqlNames.parts(create.name);
    List<String> path = names().newView(current, name);
    String viewName = String.join(".", path);
    if (!create.replace && catalog().viewExists(path)) {
      if (create.ifNotExists) {
        return;
      }
      throw SqlErrors.of(FloeError.VIEW_EXISTS, viewName);
    }
    String query = FloeParser.textFrom(sql, create.queryStart);
    List<String> queryColumns = new ArrayList<>();
    Schema schema = schema(path, query, create, queryColumns);
    for (int attempt = 1; ; attempt++) {
      ViewMetadata base = catalog().viewExists(path) ? catalog().loadView(path) : null;
      if (base != null && !create.replace) {
        if (create.ifNotExists) {
          return;
        }
        throw SqlErrors.of(FloeError.VIEW_EXISTS, viewName);
      }
      ViewMetadata next = metadata(path, base, current, query, schema, queryColumns);
      try {
        catalog().commitView(path, base, next);
        return;
      } catch (CommitFailedException e) {
        if (catalog().tableExists(path)) {
          throw SqlErrors.of(
              FloeError.NAME_TAKEN, "view " + viewName, "a table of that name was just created");
        }
        if (!create.replace) {
          if (create.ifNotExists) {
            return;
          }
          throw SqlErrors.of(FloeError.VIEW_EXISTS, viewName);
        }
        if (attempt >= ATTEMPTS) {
          throw SqlErrors.of(
              FloeError.COMMIT_CONFLICT,
              "view " + viewName,
              "other writers kept publishing versions of it; nothing was replaced");
        }
        pause(attempt);
      }
    }
  }

  /**
   * The columns of a view's query, found by validating and planning it (with no rows read); named
   * by the column list when one is given.
   */
  private Schema schema(
      List<String> path, String query, SqlCreateLakeView create, List<String> queryColumns)
      throws SQLException {
    List<Types.NestedField> fields = new ArrayList<>();
    List<String> given = new ArrayList<>();
    if (create.columns != null) {
      for (SqlNode column : create.columns) {
        String columnName = ColumnNames.newName(SqlNames.part((SqlIdentifier) column));
        ColumnNames.checkNew(given, columnName, "view " + String.join(".", path));
        given.add(columnName);
      }
    }
    // The query alone, on lines of its own: a comment ending it cannot swallow what follows.
    String probe = "SELECT * FROM (\n" + query + "\n) WHERE FALSE";
    try (AutoCloseable defining = PlanCache.definingView(path);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(probe)) {
      List<RelDataTypeField> columns = connection.queryRows(rows).rowType().getFieldList();
      if (create.columns != null && given.size() != columns.size()) {
        throw SqlErrors.of(
            FloeError.VALIDATION,
            "view "
                + String.join(".", path)
                + " names "
                + given.size()
                + " columns, its query gives "
                + columns.size());
      }
      int id = 0;
      for (RelDataTypeField column : columns) {
        Type type = LakeTypes.icebergType(column.getType());
        if (type == null) {
          throw SqlErrors.of(
              FloeError.NOT_SUPPORTED,
              "a view column "
                  + column.getName()
                  + " of type "
                  + column.getType().getFullTypeString()
                  + " (cast it to a type a table can hold)");
        }
        queryColumns.add(column.getName());
        String columnName =
            create.columns == null ? ColumnLabels.of(column.getName()) : given.get(id);
        id++;
        fields.add(
            column.getType().isNullable()
                ? Types.NestedField.optional(id, columnName, type)
                : Types.NestedField.required(id, columnName, type));
      }
    } catch (SQLException e) {
      throw e;
    } catch (Exception e) {
      throw SqlErrors.toSql(e);
    }
    return TypeUtil.assignFreshIds(new Schema(fields), new AtomicInteger()::incrementAndGet);
  }

  /** The view's next metadata: its first, or one more version over {@code base}. */
  private ViewMetadata metadata(
      List<String> path,
      @Nullable ViewMetadata base,
      List<String> current,
      String query,
      Schema schema,
      List<String> queryColumns) {
    ImmutableViewVersion.Builder versionBuilder =
        ImmutableViewVersion.builder()
            .versionId(base == null ? 1 : base.currentVersionId() + 1)
            .schemaId(schema.schemaId())
            .timestampMillis(System.currentTimeMillis())
            .defaultNamespace(Namespace.of(current.toArray(new String[0])))
            .putSummary("engine-name", "floe")
            .putSummary("engine-version", DriverInfo.MAJOR_VERSION + "." + DriverInfo.MINOR_VERSION)
            .addRepresentations(
                ImmutableSQLViewRepresentation.builder()
                    .sql(query)
                    .dialect(SqlNames.VIEW_DIALECT)
                    .build());
    // The same query for Trino and Spark, where their dialects can say it (ViewDialects).
    for (Map.Entry<String, String> text : ViewDialects.of(query).entrySet()) {
      versionBuilder.addRepresentations(
          ImmutableSQLViewRepresentation.builder()
              .sql(text.getValue())
              .dialect(text.getKey())
              .build());
    }
    ViewVersion version = versionBuilder.build();
    try {
      ViewMetadata.Builder builder =
          base == null
              ? ViewMetadata.builder()
                  .assignUUID(UUID.randomUUID().toString())
                  .setLocation(catalog().tableLocation(path))
              : ViewMetadata.buildFrom(base);
      // The query's own column names, read by name (docs/sql.md, "Views"): not when a name is one
      // Calcite made up by position (EXPR$n), which a column added before it would shift.
      boolean byName =
          queryColumns.stream().noneMatch(n -> n.contains(",") || n.startsWith("EXPR$"))
              && queryColumns.stream().distinct().count() == queryColumns.size();
      if (byName) {
        builder.setProperties(Map.of(SqlNames.VIEW_QUERY_COLUMNS, String.join(",", queryColumns)));
      } else if (base != null && base.properties().containsKey(SqlNames.VIEW_QUERY_COLUMNS)) {
        builder.removeProperties(java.util.Set.of(SqlNames.VIEW_QUERY_COLUMNS));
      }
      return builder.setCurrentVersion(version, schema).build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw FloeError.VALIDATION.error(e, "view " + String.join(".", path) + ": " + e.getMessage());
    }
  }

  void drop(SqlDropLakeView drop) throws SQLException {
    List<String> current = connection.schemaPath();
    List<TableNames.Part> name = SqlNames.parts(drop.name);
    List<String> path = names().view(current, name);
    if (path == null) {
      List<String> table = names().table(current, name);
      if (table != null) {
        throw SqlErrors.of(
            FloeError.WRONG_KIND,
            "drop view",
            String.join(".", table),
            "it is a table; DROP TABLE drops it");
      }
      if (drop.ifExists) {
        return;
      }
      throw SqlErrors.of(FloeError.VIEW_NOT_FOUND, TableNames.display(name));
    }
    catalog().dropView(path);
  }

  private static void pause(int attempt) throws SQLException {
    try {
      Thread.sleep(10L * attempt + (long) (Math.random() * 20));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SqlErrors.of(FloeError.CANCELLED, "interrupted while creating a view");
    }
  }
}
