package dev.floe.planner.function;

import dev.floe.error.FloeError;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlDatePartFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeInference;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.Optionality;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Floe's functions beyond the SQL standard's ({@link SqlStdOperatorTable}): each name has one
 * meaning, taken from the engine whose users type it most (PostgreSQL, Trino, Spark SQL, DuckDB)
 * and, where Calcite has that meaning, Calcite's own operator from {@link SqlLibraryOperators}.
 * Where Calcite's libraries disagree (GREATEST ignores NULLs in PostgreSQL, not in BigQuery;
 * REGEXP_REPLACE replaces every match in Trino, only the first in PostgreSQL), the choice is made
 * here and documented in {@link #vocabulary()}. Functions other engines spell differently are
 * rewritten by {@link FunctionRewrites} before validation and listed here too.
 */
public final class FloeFunctions {
  private FloeFunctions() {}

  /** One function of the vocabulary: its name, whether it aggregates, and what it does. */
  public record Function(String name, boolean aggregate, String description) {}

  /** {@code percentile_cont(value, fraction, descending)}, Floe's form of the WITHIN GROUP call. */
  public static final SqlAggFunction PERCENTILE_CONT =
      aggregate(
          "PERCENTILE_CONT",
          Percentile.Cont.class,
          ReturnTypes.DOUBLE.andThen(SqlTypeTransforms.FORCE_NULLABLE),
          SqlTypeFamily.NUMERIC);

  /** {@code percentile_disc(value, fraction, descending)}, of the value's own type. */
  public static final SqlAggFunction PERCENTILE_DISC =
      aggregate(
          "PERCENTILE_DISC",
          Percentile.Disc.class,
          ReturnTypes.ARG0.andThen(SqlTypeTransforms.FORCE_NULLABLE),
          SqlTypeFamily.ANY);

  private static final Map<String, String> DESCRIPTIONS = new LinkedHashMap<>();
  private static final Map<String, Boolean> AGGREGATES = new LinkedHashMap<>();
  private static final List<SqlOperator> OPERATORS = new ArrayList<>();

  static {
    // ---- strings
    library(
        SqlLibraryOperators.ILIKE,
        "s ILIKE pattern: LIKE ignoring case (PostgreSQL, Trino, DuckDB)");
    library(SqlLibraryOperators.NOT_ILIKE, null);
    library(
        SqlLibraryOperators.RLIKE, "s RLIKE regex: whether the regex matches part of s (Spark)");
    library(SqlLibraryOperators.NOT_RLIKE, null);
    library(
        SqlLibraryOperators.REGEXP_LIKE,
        "regexp_like(s, regex [, flags]): whether the regex matches part of s (Trino, PostgreSQL, Spark)");
    library(
        SqlLibraryOperators.REGEXP_CONTAINS,
        "regexp_contains(s, regex): as regexp_like (BigQuery)");
    library(
        SqlLibraryOperators.REGEXP_SUBSTR,
        "regexp_substr(s, regex): the first match, or NULL (PostgreSQL 15, Snowflake)");
    library(
        SqlLibraryOperators.REGEXP_REPLACE_2,
        "regexp_replace(s, regex [, replacement [, flags]]): with two or three arguments every match"
            + " is replaced and $1 names a group (Trino, Spark); with flags, as PostgreSQL: only the"
            + " first match unless the flags hold g, and \\1 names a group");
    library(SqlLibraryOperators.REGEXP_REPLACE_3, null);
    library(SqlLibraryOperators.REGEXP_REPLACE_PG_4, null);
    scalar(
        "REGEXP_EXTRACT",
        RegexFunctions.class,
        "regexpExtract",
        ReturnTypes.VARCHAR.andThen(SqlTypeTransforms.FORCE_NULLABLE),
        "regexp_extract(s, regex [, group]): the first match, or its group; NULL when none (Trino)",
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.CHARACTER);
    scalar(
        "REGEXP_EXTRACT",
        RegexFunctions.class,
        "regexpExtract",
        ReturnTypes.VARCHAR.andThen(SqlTypeTransforms.FORCE_NULLABLE),
        null,
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.INTEGER);
    SqlReturnTypeInference strings =
        binding ->
            binding
                .getTypeFactory()
                .createTypeWithNullability(
                    binding
                        .getTypeFactory()
                        .createArrayType(
                            binding.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), -1),
                    true);
    scalar(
        "REGEXP_EXTRACT_ALL",
        RegexFunctions.class,
        "regexpExtractAll",
        strings,
        "regexp_extract_all(s, regex [, group]): every match, or its group, as an array (Trino)",
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.CHARACTER);
    scalar(
        "REGEXP_EXTRACT_ALL",
        RegexFunctions.class,
        "regexpExtractAll",
        strings,
        null,
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.INTEGER);
    scalar(
        "REGEXP_COUNT",
        RegexFunctions.class,
        "regexpCount",
        ReturnTypes.BIGINT.andThen(SqlTypeTransforms.FORCE_NULLABLE),
        "regexp_count(s, regex): how many times the regex matches (Trino, PostgreSQL 15)",
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.CHARACTER);
    library(
        SqlLibraryOperators.SPLIT_PART,
        "split_part(s, delimiter, n): the n-th field, '' beyond the last (PostgreSQL, Trino, DuckDB)");
    library(
        SqlLibraryOperators.STARTS_WITH,
        "starts_with(s, prefix): whether s begins with prefix (PostgreSQL, Trino, DuckDB)");
    library(SqlLibraryOperators.STARTSWITH, "startswith(s, prefix): as starts_with (Spark)");
    library(SqlLibraryOperators.ENDS_WITH, "ends_with(s, suffix): whether s ends with suffix");
    library(SqlLibraryOperators.ENDSWITH, "endswith(s, suffix): as ends_with (Spark)");
    library(
        SqlLibraryOperators.CONCAT_WS_POSTGRESQL,
        "concat_ws(separator, v, ...): the non-NULL values joined by the separator (PostgreSQL,"
            + " DuckDB, Spark)");
    library(
        SqlLibraryOperators.CONCAT_FUNCTION_WITH_NULL,
        "concat(v, ...): the values joined, a NULL taken as '' (PostgreSQL, DuckDB)");
    library(SqlLibraryOperators.LEFT, "left(s, n): the first n characters");
    library(SqlLibraryOperators.RIGHT, "right(s, n): the last n characters");
    library(SqlLibraryOperators.REPEAT, "repeat(s, n): s n times");
    library(SqlLibraryOperators.LPAD, "lpad(s, length [, fill]): s padded on the left");
    library(SqlLibraryOperators.RPAD, "rpad(s, length [, fill]): s padded on the right");
    library(SqlLibraryOperators.LTRIM, "ltrim(s): s without leading spaces");
    library(SqlLibraryOperators.RTRIM, "rtrim(s): s without trailing spaces");
    library(SqlLibraryOperators.STRPOS, "strpos(s, sub): the 1-based position of sub, or 0");
    library(
        SqlLibraryOperators.SUBSTR_BIG_QUERY,
        "substr(s, start [, length]): as SUBSTRING; a negative start counts from the end (Trino,"
            + " Spark, DuckDB)");
    library(
        new SqlDatePartFunction("DAY", TimeUnit.DAY),
        "day(d): the day of the month, as EXTRACT(DAY FROM d) (Trino, Spark, DuckDB)");
    library(SqlLibraryOperators.LENGTH, "length(s): the number of characters");
    library(SqlLibraryOperators.REVERSE, "reverse(s): the characters in reverse order");
    library(SqlLibraryOperators.LEVENSHTEIN, "levenshtein(a, b): the edit distance");
    library(SqlLibraryOperators.MD5, "md5(s): the MD5 digest as hex text");
    library(SqlLibraryOperators.SHA1, "sha1(s): the SHA-1 digest as hex text");
    library(SqlLibraryOperators.SHA256, "sha256(s): the SHA-256 digest as hex text");
    library(SqlLibraryOperators.SHA512, "sha512(s): the SHA-512 digest as hex text");
    library(SqlLibraryOperators.CHR, "chr(n): the character with code point n");
    library(SqlLibraryOperators.SPLIT, "split(s, delimiter): the fields as an array (Trino)");
    // ---- JSON held as text (the SQL standard's JSON_VALUE and JSON_QUERY are there too)
    scalar(
        "JSON_EXTRACT",
        JsonExtraction.class,
        "jsonExtract",
        ReturnTypes.VARCHAR.andThen(SqlTypeTransforms.FORCE_NULLABLE),
        "json_extract(json, path): the value at the JSONPath as JSON text (Trino, DuckDB)",
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.CHARACTER);
    scalar(
        "JSON_EXTRACT_SCALAR",
        JsonExtraction.class,
        "jsonExtractScalar",
        ReturnTypes.VARCHAR.andThen(SqlTypeTransforms.FORCE_NULLABLE),
        "json_extract_scalar(json, path): the scalar at the path as text; NULL for an object or"
            + " array (Trino)",
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.CHARACTER);
    scalar(
        "JSON_EXTRACT_STRING",
        JsonExtraction.class,
        "jsonExtractString",
        ReturnTypes.VARCHAR.andThen(SqlTypeTransforms.FORCE_NULLABLE),
        "json_extract_string(json, path): the scalar at the path as text, an object or array as"
            + " JSON text (DuckDB)",
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.CHARACTER);
    scalar(
        "GET_JSON_OBJECT",
        JsonExtraction.class,
        "jsonExtractString",
        ReturnTypes.VARCHAR.andThen(SqlTypeTransforms.FORCE_NULLABLE),
        "get_json_object(json, path): as json_extract_string (Spark)",
        SqlTypeFamily.CHARACTER,
        SqlTypeFamily.CHARACTER);
    // ---- conditions and NULLs
    library(SqlLibraryOperators.NVL, "nvl(v, default): v, or default when v is NULL");
    library(SqlLibraryOperators.IFNULL, "ifnull(v, default): as nvl (DuckDB, Spark)");
    library(SqlLibraryOperators.NVL2, "nvl2(v, a, b): a when v is not NULL, else b");
    library(SqlLibraryOperators.IF, "if(condition, a, b): a when the condition holds, else b");
    library(
        SqlLibraryOperators.GREATEST_PG,
        "greatest(v, ...): the largest value, NULLs ignored (PostgreSQL, DuckDB, Spark; Trino"
            + " answers NULL when any is NULL)");
    library(
        SqlLibraryOperators.LEAST_PG,
        "least(v, ...): the smallest value, NULLs ignored (PostgreSQL, DuckDB, Spark)");
    library(
        SqlLibraryOperators.TRY_CAST,
        "try_cast(v AS type): the cast, or NULL when v cannot be cast (Trino, DuckDB, Spark)");
    library(SqlLibraryOperators.SAFE_CAST, "safe_cast(v AS type): as try_cast (BigQuery)");
    library(SqlLibraryOperators.INFIX_CAST, null); // v::type, PostgreSQL's cast: no name to call
    // ---- dates and times
    library(
        SqlLibraryOperators.DATE_TRUNC,
        "date_trunc(unit, v): v truncated to the unit ('year', 'quarter', 'month', 'week' (to"
            + " Monday), 'day', 'hour', 'minute', 'second', 'millisecond'), of v's type (Trino,"
            + " PostgreSQL, DuckDB)");
    rewritten(
        "DATE_ADD",
        "date_add(unit, n, v): v plus n units (Trino); date_add(v, n): v plus n days (Spark);"
            + " date_add(v, INTERVAL ...) (DuckDB)");
    rewritten(
        "DATE_SUB",
        "date_sub(v, n): v minus n days (Spark); date_sub(unit, a, b): whole units from a to b"
            + " (DuckDB)");
    rewritten(
        "DATE_DIFF",
        "date_diff(unit, a, b): the whole units from a to b (Trino; DuckDB counts unit boundaries"
            + " crossed instead)");
    rewritten("DATEDIFF", "datediff(end, start): the days from start to end (Spark)");
    rewritten(
        "DATE_PART",
        "date_part(field, v): EXTRACT(field FROM v), with 'dow' counting Sunday as 0 (PostgreSQL)");
    rewritten("NOW", "now(): CURRENT_TIMESTAMP (PostgreSQL, Trino, DuckDB)");
    library(SqlLibraryOperators.ADD_MONTHS, "add_months(d, n): d plus n months (Spark, Oracle)");
    // ---- aggregates
    library(
        SqlLibraryOperators.STRING_AGG,
        "string_agg(s [, separator] [ORDER BY ...]): the values joined, ',' by default"
            + " (PostgreSQL, DuckDB)");
    library(
        SqlLibraryOperators.GROUP_CONCAT,
        "group_concat(s [ORDER BY ...] [SEPARATOR sep]): as string_agg (MySQL, DuckDB)");
    library(
        SqlLibraryOperators.ARRAY_AGG,
        "array_agg(v [ORDER BY ...]): the values, NULLs included, as an array (PostgreSQL, Trino,"
            + " DuckDB)");
    library(SqlLibraryOperators.ARRAY_CONCAT_AGG, "array_concat_agg(a): the arrays concatenated");
    library(SqlLibraryOperators.BOOL_AND, "bool_and(b): whether every value is true");
    library(SqlLibraryOperators.BOOL_OR, "bool_or(b): whether any value is true");
    library(SqlLibraryOperators.COUNTIF, "countif(b): how many values are true (BigQuery)");
    rewritten("COUNT_IF", "count_if(b): as countif (Trino, Spark, DuckDB)");
    library(SqlLibraryOperators.MAX_BY, "max_by(v, key): v of the row with the largest key");
    library(SqlLibraryOperators.MIN_BY, "min_by(v, key): v of the row with the smallest key");
    OPERATORS.add(PERCENTILE_CONT);
    describe(
        "PERCENTILE_CONT",
        true,
        "percentile_cont(f) WITHIN GROUP (ORDER BY v): the value at fraction f, interpolated, as"
            + " DOUBLE (PostgreSQL, DuckDB, Spark)");
    OPERATORS.add(PERCENTILE_DISC);
    describe(
        "PERCENTILE_DISC",
        true,
        "percentile_disc(f) WITHIN GROUP (ORDER BY v): the first value whose cumulative share"
            + " reaches f (PostgreSQL, DuckDB, Spark)");
    rewrittenAggregate("MEDIAN", "median(v): percentile_cont(0.5) (DuckDB, Spark)");
    rewrittenAggregate("QUANTILE_CONT", "quantile_cont(v, f): percentile_cont(f) (DuckDB)");
    rewrittenAggregate("QUANTILE_DISC", "quantile_disc(v, f): percentile_disc(f) (DuckDB)");
    rewrittenAggregate("PERCENTILE", "percentile(v, f): percentile_cont(f) (Spark)");
    rewrittenAggregate(
        "APPROX_PERCENTILE",
        "approx_percentile(v, f): percentile_disc(f), computed exactly (Trino)");
    rewrittenAggregate(
        "PERCENTILE_APPROX",
        "percentile_approx(v, f [, accuracy]): percentile_disc(f), computed exactly (Spark)");
    rewrittenAggregate(
        "APPROX_QUANTILE", "approx_quantile(v, f): percentile_disc(f), computed exactly (DuckDB)");
    rewrittenAggregate(
        "APPROX_DISTINCT", "approx_distinct(v): COUNT(DISTINCT v), computed exactly (Trino)");
    rewrittenAggregate("ARBITRARY", "arbitrary(v): ANY_VALUE(v) (Trino)");
    describe(
        "MODE",
        true,
        "mode() WITHIN GROUP (ORDER BY v) or mode(v): the most frequent value (PostgreSQL,"
            + " DuckDB)");
    // ---- numbers
    library(SqlLibraryOperators.POW, "pow(x, y): POWER(x, y)");
  }

  private static final SqlOperatorTable TABLE = SqlOperatorTables.of(OPERATORS);

  /** The operators of Floe's functions beyond the SQL standard, one meaning per name. */
  public static SqlOperatorTable table() {
    return TABLE;
  }

  /**
   * The one operator of Floe's table named {@code name} that takes {@code arity} operands, or null
   * when none or several do: a call bound to it before validation gets its operands' types, which a
   * {@code ?} parameter needs, where Calcite binds an overloaded name only after.
   */
  public static @Nullable SqlOperator byArity(String name, int arity) {
    SqlOperator found = null;
    for (SqlOperator operator : OPERATORS) {
      if (operator.getName().equalsIgnoreCase(name)
          && operator.getOperandCountRange().isValidCount(arity)) {
        if (found != null) {
          return null;
        }
        found = operator;
      }
    }
    return found;
  }

  /**
   * Every function a statement may call by name, the standard's and Floe's, sorted by name: what
   * {@code DatabaseMetaData.getFunctions} lists.
   */
  public static List<Function> vocabulary() {
    Map<String, Function> all = new TreeMap<>();
    for (SqlOperator operator : SqlStdOperatorTable.instance().getOperatorList()) {
      if (operator instanceof SqlFunction
          && (operator.getSyntax() == SqlSyntax.FUNCTION
              || operator.getSyntax() == SqlSyntax.FUNCTION_ID
              || operator.getSyntax() == SqlSyntax.ORDERED_FUNCTION)
          && operator.getName().matches("[A-Z][A-Z0-9_]*")
          && !operator.getName().startsWith("$")) {
        all.put(
            operator.getName(),
            new Function(
                operator.getName(), operator instanceof SqlAggFunction, "SQL standard (Calcite)"));
      }
    }
    for (Map.Entry<String, String> entry : DESCRIPTIONS.entrySet()) {
      all.put(
          entry.getKey(),
          new Function(entry.getKey(), AGGREGATES.get(entry.getKey()), entry.getValue()));
    }
    List<Function> list = new ArrayList<>(all.values());
    list.sort(Comparator.comparing(Function::name));
    return List.copyOf(list);
  }

  /** Functions Floe writes as other calls before validation ({@link FunctionRewrites}). */
  private static void rewritten(String name, String description) {
    describe(name, false, description);
  }

  private static void rewrittenAggregate(String name, String description) {
    describe(name, true, description);
  }

  private static void describe(String name, boolean aggregate, String description) {
    String key = name.toUpperCase(Locale.ROOT);
    DESCRIPTIONS.putIfAbsent(key, description);
    AGGREGATES.putIfAbsent(key, aggregate);
  }

  /** One of Calcite's library operators, with its description (null: an overload described). */
  private static void library(SqlOperator operator, String description) {
    OPERATORS.add(operator);
    if (description != null) {
      describe(operator.getName(), operator instanceof SqlAggFunction, description);
    }
  }

  /**
   * A function Floe runs itself: a public method of a class with a public no-argument constructor.
   */
  private static void scalar(
      String name,
      Class<?> type,
      String methodName,
      SqlReturnTypeInference returns,
      String description,
      SqlTypeFamily... families) {
    Method method = method(type, methodName, families.length);
    List<SqlTypeFamily> familyList = List.of(families);
    OPERATORS.add(
        new SqlUserDefinedFunction(
            new SqlIdentifier(name, SqlParserPos.ZERO),
            SqlKind.OTHER_FUNCTION,
            returns,
            inferred(familyList),
            OperandTypes.operandMetadata(
                familyList, factory -> types(factory, familyList), i -> "arg" + i, i -> false),
            ScalarFunctionImpl.create(method)));
    if (description != null) {
      describe(name, false, description);
    }
  }

  /**
   * A percentile aggregate of (value, fraction, descending): found by name for any operand types,
   * then checked here, so that a value of the wrong type is refused with a message saying so, not
   * cast (Calcite would cast a TIMESTAMP to a number to interpolate).
   */
  private static SqlAggFunction aggregate(
      String name, Class<?> type, SqlReturnTypeInference returns, SqlTypeFamily value) {
    List<SqlTypeFamily> lookup = List.of(SqlTypeFamily.ANY, SqlTypeFamily.ANY, SqlTypeFamily.ANY);
    List<SqlTypeFamily> checked = List.of(value, SqlTypeFamily.NUMERIC, SqlTypeFamily.BOOLEAN);
    String spelled = name.toLowerCase(Locale.ROOT);
    return new SqlUserDefinedAggFunction(
        new SqlIdentifier(name, SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION,
        returns,
        inferred(checked),
        OperandTypes.operandMetadata(
            lookup, factory -> types(factory, lookup), i -> "arg" + i, i -> false),
        AggregateFunctionImpl.create(type),
        false,
        false,
        Optionality.FORBIDDEN) {
      @Override
      public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
        for (int i = 0; i < checked.size(); i++) {
          SqlTypeName operand = binding.getOperandType(i).getSqlTypeName();
          if (operand != SqlTypeName.NULL
              && checked.get(i) != SqlTypeFamily.ANY
              && !checked.get(i).getTypeNames().contains(operand)) {
            SqlParserPos pos = binding.getCall().getParserPosition();
            throw FloeError.VALIDATION.error(
                (i == 0
                        ? spelled
                            + " interpolates between numbers, not values of type "
                            + operand
                            + ": order by a numeric value, or use percentile_disc, which takes"
                            + " any ordered type"
                        : spelled + " takes a numeric fraction between 0 and 1, not " + operand)
                    + " (at line "
                    + pos.getLineNum()
                    + ", column "
                    + pos.getColumnNum()
                    + ")");
          }
        }
        return true;
      }
    };
  }

  /** The type of an operand whose type is unknown (a parameter, NULL): its family's. */
  private static SqlOperandTypeInference inferred(List<SqlTypeFamily> families) {
    return (binding, returnType, operandTypes) -> {
      List<RelDataType> types = types(binding.getTypeFactory(), families);
      for (int i = 0; i < operandTypes.length && i < types.size(); i++) {
        operandTypes[i] = types.get(i);
      }
    };
  }

  private static List<RelDataType> types(RelDataTypeFactory factory, List<SqlTypeFamily> families) {
    List<RelDataType> types = new ArrayList<>();
    for (SqlTypeFamily family : families) {
      RelDataType type = family.getDefaultConcreteType(factory);
      types.add(type != null ? type : factory.createSqlType(SqlTypeName.ANY));
    }
    return types;
  }

  private static Method method(Class<?> type, String name, int parameters) {
    for (Method method : type.getMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == parameters) {
        return method;
      }
    }
    throw new IllegalStateException("no method " + type.getName() + "." + name);
  }
}
