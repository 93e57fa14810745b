package dev.floe.planner.function;

import dev.floe.error.FloeError;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.FamilyOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Writes the spellings of other engines as Calcite's own calls, in a parsed statement before it is
 * validated: {@code date_trunc('month', d)} becomes {@code FLOOR(d TO MONTH)}, {@code
 * date_add('day', 1, d)} {@code TIMESTAMPADD(DAY, 1, d)}, {@code percentile_cont(0.5) WITHIN GROUP
 * (ORDER BY x)} a call of {@link FloeFunctions#PERCENTILE_CONT}, {@code median(x)} the same. Each
 * is rewritten where it stands, so what checks Calcite's calls (sub-millisecond units, datetime
 * ranges) checks these too. A unit is a string literal, as these engines take it.
 */
public final class FunctionRewrites {
  private FunctionRewrites() {}

  /** The units a string names, singular or plural, as PostgreSQL and Trino spell them. */
  private static final Map<String, TimeUnit> UNITS =
      Map.ofEntries(
          Map.entry("microsecond", TimeUnit.MICROSECOND),
          Map.entry("millisecond", TimeUnit.MILLISECOND),
          Map.entry("second", TimeUnit.SECOND),
          Map.entry("minute", TimeUnit.MINUTE),
          Map.entry("hour", TimeUnit.HOUR),
          Map.entry("day", TimeUnit.DAY),
          Map.entry("week", TimeUnit.WEEK),
          Map.entry("month", TimeUnit.MONTH),
          Map.entry("quarter", TimeUnit.QUARTER),
          Map.entry("year", TimeUnit.YEAR),
          Map.entry("decade", TimeUnit.DECADE),
          Map.entry("century", TimeUnit.CENTURY),
          Map.entry("millennium", TimeUnit.MILLENNIUM));

  /** The fields of {@code date_part} beyond the units. */
  private static final Map<String, TimeUnit> FIELDS =
      Map.of(
          "dow", TimeUnit.DOW,
          "isodow", TimeUnit.ISODOW,
          "doy", TimeUnit.DOY,
          "epoch", TimeUnit.EPOCH,
          "isoyear", TimeUnit.ISOYEAR);

  /** Rewrites every call in a statement that another engine spells differently. */
  public static void rewrite(SqlNode statement) {
    walk(statement);
  }

  /** Rewrites a node's descendants in place, then the node; returns the node to stand for it. */
  private static @Nullable SqlNode walk(@Nullable SqlNode node) {
    if (node instanceof SqlNodeList) {
      SqlNodeList list = (SqlNodeList) node;
      for (int i = 0; i < list.size(); i++) {
        SqlNode item = list.get(i);
        SqlNode rewritten = walk(item);
        if (rewritten != item) {
          list.set(i, rewritten);
        }
      }
      return node;
    }
    if (!(node instanceof SqlCall)) {
      return node;
    }
    SqlCall call = (SqlCall) node;
    List<SqlNode> operands = call.getOperandList();
    for (int i = 0; i < operands.size(); i++) {
      SqlNode operand = operands.get(i);
      SqlNode rewritten = walk(operand);
      if (rewritten != operand) {
        call.setOperand(i, rewritten);
      }
    }
    SqlNode rewritten = rewriteCall(call);
    return rewritten == null ? call : rewritten;
  }

  /** The call that stands for {@code call}, or null to keep it. */
  private static @Nullable SqlNode rewriteCall(SqlCall call) {
    SqlParserPos pos = call.getParserPosition();
    SqlOperator operator = call.getOperator();
    List<SqlNode> args = call.getOperandList();
    if (call.getKind() == SqlKind.WITHIN_GROUP) {
      return withinGroup(call);
    }
    if (operator == SqlLibraryOperators.PERCENTILE_CONT2
        || operator == SqlLibraryOperators.PERCENTILE_DISC2) {
      // percentile_cont(x, 0.5): BigQuery's spelling, with the value first.
      return percentile(
          operator == SqlLibraryOperators.PERCENTILE_CONT2,
          pos,
          args.get(0),
          args.get(1),
          false,
          call);
    }
    if (operator == SqlLibraryOperators.DATE_TRUNC) {
      return args.size() == 2 && args.get(0) instanceof SqlCharStringLiteral
          ? SqlStdOperatorTable.FLOOR.createCall(
              pos, args.get(1), truncationUnit(unit("date_trunc", args.get(0)), pos))
          : null;
    }
    if (!(operator instanceof SqlUnresolvedFunction)) {
      return null;
    }
    String name = operator.getName().toLowerCase(Locale.ROOT);
    SqlOperator bound = FloeFunctions.byArity(name, args.size());
    if (bound != null && call instanceof SqlBasicCall) {
      ((SqlBasicCall) call).setOperator(bound);
      typeParameters(call, bound);
      return null;
    }
    switch (name) {
      case "date_add":
        return dateAdd(name, args, pos, false);
      case "date_sub":
        if (args.size() == 3 && args.get(0) instanceof SqlCharStringLiteral) {
          return diff(name, args, pos);
        }
        return dateAdd(name, args, pos, true);
      case "date_diff":
        return args.size() == 3 ? diff(name, args, pos) : null;
      case "datediff":
        if (args.size() == 2) {
          // Spark: datediff(end, start), in days.
          return SqlStdOperatorTable.TIMESTAMP_DIFF.createCall(
              pos, new SqlIntervalQualifier(TimeUnit.DAY, null, pos), args.get(1), args.get(0));
        }
        return args.size() == 3 ? diff(name, args, pos) : null;
      case "date_part":
        return args.size() == 2 ? datePart(args, pos) : null;
      case "now":
        return args.isEmpty() ? SqlStdOperatorTable.CURRENT_TIMESTAMP.createCall(pos) : null;
      case "count_if":
        return args.size() == 1
            ? SqlLibraryOperators.COUNTIF.createCall(call.getFunctionQuantifier(), pos, args.get(0))
            : null;
      case "approx_distinct":
        return args.size() == 1
            ? SqlStdOperatorTable.COUNT.createCall(
                SqlSelectKeyword.DISTINCT.symbol(pos), pos, args.get(0))
            : null;
      case "arbitrary":
        return args.size() == 1
            ? SqlStdOperatorTable.ANY_VALUE.createCall(
                call.getFunctionQuantifier(), pos, args.get(0))
            : null;
      case "median":
        return args.size() == 1
            ? percentile(
                true, pos, args.get(0), SqlLiteral.createExactNumeric("0.5", pos), false, call)
            : null;
      case "quantile_cont":
      case "percentile":
        return args.size() == 2
            ? percentile(true, pos, args.get(0), args.get(1), false, call)
            : null;
      case "quantile_disc":
      case "quantile":
      case "approx_percentile":
      case "approx_quantile":
        return args.size() == 2
            ? percentile(false, pos, args.get(0), args.get(1), false, call)
            : null;
      case "percentile_approx":
        return args.size() == 2 || args.size() == 3
            ? percentile(false, pos, args.get(0), args.get(1), false, call)
            : null;
      default:
        return null;
    }
  }

  /**
   * Casts each {@code ?} operand of a call of one of Calcite's library functions to the type of the
   * operand's family ({@code split_part(?, ',', ?)}: VARCHAR, INTEGER), as the validator does for a
   * function that infers its operands' types, which those functions do not.
   */
  private static void typeParameters(SqlCall call, SqlOperator operator) {
    if (operator.getOperandTypeInference() != null
        || !(operator.getOperandTypeChecker() instanceof FamilyOperandTypeChecker)) {
      return;
    }
    FamilyOperandTypeChecker families = (FamilyOperandTypeChecker) operator.getOperandTypeChecker();
    for (int i = 0; i < call.operandCount(); i++) {
      if (!(call.operand(i) instanceof SqlDynamicParam)) {
        continue;
      }
      SqlTypeName type = PARAMETER_TYPES.get(families.getOperandSqlTypeFamily(i));
      if (type != null) {
        SqlParserPos pos = call.operand(i).getParserPosition();
        call.setOperand(
            i,
            SqlStdOperatorTable.CAST.createCall(
                pos,
                call.operand(i),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, pos), pos)));
      }
    }
  }

  /** The type a {@code ?} of a family takes. */
  private static final Map<SqlTypeFamily, SqlTypeName> PARAMETER_TYPES =
      Map.of(
          SqlTypeFamily.CHARACTER, SqlTypeName.VARCHAR,
          SqlTypeFamily.STRING, SqlTypeName.VARCHAR,
          SqlTypeFamily.INTEGER, SqlTypeName.INTEGER,
          SqlTypeFamily.BOOLEAN, SqlTypeName.BOOLEAN,
          SqlTypeFamily.DATE, SqlTypeName.DATE);

  /**
   * {@code percentile_cont(f) WITHIN GROUP (ORDER BY x [DESC])}, {@code percentile_disc} and {@code
   * mode() WITHIN GROUP (ORDER BY x)}; other ordered aggregates (LISTAGG, ARRAY_AGG) are Calcite's.
   */
  private static @Nullable SqlNode withinGroup(SqlCall within) {
    if (!(within.operand(0) instanceof SqlCall)) {
      return null;
    }
    SqlCall aggregate = within.operand(0);
    SqlOperator operator = aggregate.getOperator();
    SqlNodeList order = within.operand(1);
    boolean cont = operator == SqlStdOperatorTable.PERCENTILE_CONT;
    boolean disc = operator == SqlStdOperatorTable.PERCENTILE_DISC;
    boolean mode =
        operator.getName().equalsIgnoreCase("MODE") && aggregate.getOperandList().isEmpty();
    if (!cont && !disc && !mode) {
      return null;
    }
    String name = mode ? "mode" : cont ? "percentile_cont" : "percentile_disc";
    if (order.size() != 1) {
      throw FloeError.VALIDATION.error(
          name + " orders by exactly one value: WITHIN GROUP (ORDER BY v), not " + order.size());
    }
    SqlNode key = order.get(0);
    boolean descending = false;
    while (key instanceof SqlCall
        && (key.getKind() == SqlKind.DESCENDING
            || key.getKind() == SqlKind.NULLS_FIRST
            || key.getKind() == SqlKind.NULLS_LAST)) {
      descending |= key.getKind() == SqlKind.DESCENDING;
      key = ((SqlCall) key).operand(0);
    }
    SqlParserPos pos = within.getParserPosition();
    if (mode) {
      return SqlStdOperatorTable.MODE.createCall(pos, key);
    }
    if (aggregate.operandCount() != 1) {
      throw FloeError.VALIDATION.error(name + " takes one fraction: " + name + "(0.5)");
    }
    return percentile(cont, pos, key, aggregate.operand(0), descending, aggregate);
  }

  /** A call of Floe's percentile aggregate, keeping the original call's DISTINCT if any. */
  private static SqlNode percentile(
      boolean cont,
      SqlParserPos pos,
      SqlNode value,
      SqlNode fraction,
      boolean descending,
      SqlCall original) {
    return (cont ? FloeFunctions.PERCENTILE_CONT : FloeFunctions.PERCENTILE_DISC)
        .createCall(
            original.getFunctionQuantifier(),
            pos,
            value,
            fraction,
            SqlLiteral.createBoolean(descending, pos));
  }

  /**
   * {@code date_add(unit, n, v)} (Trino), {@code date_add(v, INTERVAL ...)} (DuckDB) and {@code
   * date_add(v, n)} in days (Spark); {@code date_sub} subtracts.
   */
  private static @Nullable SqlNode dateAdd(
      String function, List<SqlNode> args, SqlParserPos pos, boolean subtract) {
    if (args.size() == 3 && args.get(0) instanceof SqlCharStringLiteral && !subtract) {
      return SqlStdOperatorTable.TIMESTAMP_ADD.createCall(
          pos,
          new SqlIntervalQualifier(unit(function, args.get(0)), null, pos),
          args.get(1),
          args.get(2));
    }
    if (args.size() != 2) {
      return null;
    }
    if (args.get(1) instanceof SqlIntervalLiteral) {
      return (subtract ? SqlStdOperatorTable.MINUS : SqlStdOperatorTable.PLUS)
          .createCall(pos, args.get(0), args.get(1));
    }
    SqlNode days =
        subtract ? SqlStdOperatorTable.UNARY_MINUS.createCall(pos, args.get(1)) : args.get(1);
    return SqlStdOperatorTable.TIMESTAMP_ADD.createCall(
        pos, new SqlIntervalQualifier(TimeUnit.DAY, null, pos), days, args.get(0));
  }

  /** {@code date_diff(unit, a, b)}: whole units from a to b, as a BIGINT (Trino). */
  private static @Nullable SqlNode diff(String function, List<SqlNode> args, SqlParserPos pos) {
    if (!(args.get(0) instanceof SqlCharStringLiteral)) {
      return null;
    }
    SqlNode diff =
        SqlStdOperatorTable.TIMESTAMP_DIFF.createCall(
            pos,
            new SqlIntervalQualifier(unit(function, args.get(0)), null, pos),
            args.get(1),
            args.get(2));
    return SqlStdOperatorTable.CAST.createCall(
        pos, diff, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BIGINT, pos), pos));
  }

  /** {@code date_part('field', v)}: EXTRACT, with PostgreSQL's day of week (Sunday 0). */
  private static SqlNode datePart(List<SqlNode> args, SqlParserPos pos) {
    if (!(args.get(0) instanceof SqlCharStringLiteral)) {
      throw FloeError.NOT_SUPPORTED.error(
          "date_part with a field that is not a string literal: date_part('year', v)");
    }
    String text = text(args.get(0));
    TimeUnit unit = FIELDS.get(text);
    if (unit == null) {
      unit = unit("date_part", args.get(0));
    }
    SqlNode extract =
        SqlStdOperatorTable.EXTRACT.createCall(
            pos, new SqlIntervalQualifier(unit, null, pos), args.get(1));
    if (unit == TimeUnit.DOW) {
      // Calcite counts Sunday as 1, PostgreSQL as 0.
      return SqlStdOperatorTable.MINUS.createCall(
          pos, extract, SqlLiteral.createExactNumeric(BigDecimal.ONE.toString(), pos));
    }
    return extract;
  }

  /** The unit of {@code date_trunc}: a week begins on Monday, as in ISO 8601. */
  private static SqlIntervalQualifier truncationUnit(TimeUnit unit, SqlParserPos pos) {
    return unit == TimeUnit.WEEK
        ? new SqlIntervalQualifier("ISOWEEK", pos)
        : new SqlIntervalQualifier(unit, null, pos);
  }

  /** The unit a string literal names. */
  private static TimeUnit unit(String function, SqlNode literal) {
    String text = text(literal);
    TimeUnit unit = UNITS.get(text);
    if (unit == null && text.endsWith("s")) {
      unit = UNITS.get(text.substring(0, text.length() - 1));
    }
    if (unit == null) {
      throw FloeError.INVALID_FUNCTION_ARGUMENT.error(
          function,
          "'"
              + text
              + "' is not a unit; use one of 'millisecond', 'second', 'minute', 'hour', 'day',"
              + " 'week', 'month', 'quarter', 'year'");
    }
    return unit;
  }

  private static String text(SqlNode literal) {
    return ((SqlCharStringLiteral) literal)
        .getValueAs(String.class)
        .trim()
        .toLowerCase(Locale.ROOT);
  }
}
