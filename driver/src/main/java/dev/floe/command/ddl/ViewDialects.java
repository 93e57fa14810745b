package dev.floe.command.ddl;

import dev.floe.planner.parser.FloeParser;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.dialect.PrestoSqlDialect;
import org.apache.calcite.sql.dialect.SparkSqlDialect;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * The text of a view's query for engines that read Iceberg views in their own dialect: Trino
 * (dialect {@code trino}) and Spark ({@code spark}), unparsed from the query Floe parsed with
 * Calcite's {@link PrestoSqlDialect} and {@link SparkSqlDialect} (docs/sql.md, "Views"). Table
 * names stay as written: each engine resolves them from the view's default namespace, as Floe does.
 * A query using anything whose meaning the other engines may not share (a function outside a short
 * list both have, an operator of another SQL library such as {@code ILIKE} or {@code ::}, Floe's
 * time travel or metadata tables, a table function such as {@code read_csv}) gets no text for them.
 */
final class ViewDialects {
  /** Functions Trino and Spark SQL both have, with the meaning standard SQL gives them. */
  private static final Set<String> PORTABLE_FUNCTIONS =
      Set.of(
          "ABS",
          "AVG",
          "CAST",
          "CEIL",
          "CEILING",
          "COALESCE",
          "CONCAT",
          "COUNT",
          "CURRENT_DATE",
          "CURRENT_TIMESTAMP",
          "DENSE_RANK",
          "EXP",
          "EXTRACT",
          "FIRST_VALUE",
          "FLOOR",
          "GREATEST",
          "LAG",
          "LAST_VALUE",
          "LEAD",
          "LEAST",
          "LN",
          "LOWER",
          "MAX",
          "MIN",
          "MOD",
          "NULLIF",
          "POWER",
          "RANK",
          "REPLACE",
          "ROUND",
          "ROW_NUMBER",
          "SQRT",
          "SUBSTRING",
          "SUM",
          "TRIM",
          "UPPER");

  private static final Map<String, SqlDialect> DIALECTS = dialects();

  private ViewDialects() {}

  private static Map<String, SqlDialect> dialects() {
    Map<String, SqlDialect> dialects = new LinkedHashMap<>();
    dialects.put("trino", PrestoSqlDialect.DEFAULT);
    dialects.put("spark", SparkSqlDialect.DEFAULT);
    return Collections.unmodifiableMap(dialects);
  }

  /** The query's text per dialect ({@code trino}, {@code spark}); empty if it is not portable. */
  static Map<String, String> of(String query) {
    SqlNode node;
    try {
      node = FloeParser.parse(query);
    } catch (RuntimeException e) {
      return Map.of();
    }
    if (!portable(node)) {
      return Map.of();
    }
    Map<String, String> texts = new LinkedHashMap<>();
    for (Map.Entry<String, SqlDialect> dialect : DIALECTS.entrySet()) {
      try {
        texts.put(
            dialect.getKey(),
            node.toSqlString(c -> c.withDialect(dialect.getValue()).withAlwaysUseParentheses(false))
                .getSql());
      } catch (RuntimeException e) {
        // A construct the dialect cannot write: no text for it.
      }
    }
    return texts;
  }

  private static boolean portable(SqlNode node) {
    List<String> refused = new ArrayList<>();
    node.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlCall call) {
            SqlOperator operator = call.getOperator();
            String name = operator.getName().toUpperCase(Locale.ROOT);
            if (operator.getClass().getName().startsWith("dev.floe.")
                || OtherLibraries.OPERATORS.containsKey(operator)
                || operator instanceof SqlFunction && !PORTABLE_FUNCTIONS.contains(name)) {
              refused.add(name);
            }
            return super.visit(call);
          }

          @Override
          public Void visit(SqlIdentifier id) {
            for (String part : id.names) {
              if (part.contains("$")) {
                refused.add(part);
              }
            }
            return null;
          }
        });
    return refused.isEmpty();
  }

  /** The operators of Calcite's other SQL libraries (BigQuery's, PostgreSQL's, ...). */
  private static final class OtherLibraries {
    static final Map<SqlOperator, Boolean> OPERATORS = operators();

    private static Map<SqlOperator, Boolean> operators() {
      Map<SqlOperator, Boolean> operators = new IdentityHashMap<>();
      for (Field field : SqlLibraryOperators.class.getFields()) {
        if (Modifier.isStatic(field.getModifiers())
            && SqlOperator.class.isAssignableFrom(field.getType())) {
          try {
            operators.put((SqlOperator) field.get(null), Boolean.TRUE);
          } catch (IllegalAccessException e) {
            // Public static fields: not reached.
          }
        }
      }
      return operators;
    }
  }
}
