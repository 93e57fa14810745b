package dev.floe.planner.adapter;

import dev.floe.error.FloeError;
import dev.floe.planner.scan.FileScan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The file table functions in a FROM clause, {@code read_parquet('<path or glob>')} and {@code
 * read_csv('<path or glob>' [, name => value ...])}: each call is planned ({@link FileScan#plan})
 * before Calcite validates the statement and replaced by the name of its {@link FileTable} on the
 * lake's root schema, as table names are replaced by their paths ({@link SqlNames}).
 */
final class FileFunctions {
  private FileFunctions() {}

  /**
   * The identifier that replaces a {@code TABLE(f(...))} node calling a file function, or null when
   * it calls another function.
   */
  static @Nullable SqlNode table(LakeSchema lake, String mount, SqlCall collectionTable) {
    if (!(collectionTable.operand(0) instanceof SqlCall)) {
      return null;
    }
    SqlCall call = collectionTable.operand(0);
    String name = call.getOperator().getName();
    FileScan.Kind kind = FileScan.Kind.of(name);
    if (kind == null) {
      return null;
    }
    String pattern = null;
    Map<String, Object> options = new LinkedHashMap<>();
    List<String> shown = new ArrayList<>();
    for (SqlNode operand : call.getOperandList()) {
      if (operand instanceof SqlCall && operand.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
        SqlCall assignment = (SqlCall) operand;
        String option =
            ((SqlIdentifier) assignment.operand(1)).getSimple().toLowerCase(Locale.ROOT);
        Object value = literal(kind, assignment.operand(0));
        if (option.equals("path") && pattern == null && value instanceof String) {
          pattern = (String) value;
          shown.add(0, quote(pattern));
          continue;
        }
        if (options.put(option, value) != null) {
          throw FloeError.VALIDATION.error(
              kind.functionName() + ": option " + option + " is given twice");
        }
        shown.add(option + " => " + (value instanceof String ? quote((String) value) : value));
        continue;
      }
      Object value = literal(kind, operand);
      if (pattern != null || !(value instanceof String)) {
        throw FloeError.VALIDATION.error(
            kind.functionName()
                + " takes one path (a string) and then named options (name => value), not "
                + operand);
      }
      pattern = (String) value;
      shown.add(0, quote(pattern));
    }
    if (pattern == null) {
      throw FloeError.VALIDATION.error(
          kind.functionName() + " needs a path: " + kind.functionName() + "('<path or glob>')");
    }
    FileScan.Spec spec = FileScan.plan(lake.session(), kind, pattern, options);
    String tableName = kind.functionName() + "(" + String.join(", ", shown) + ")";
    lake.addFileTable(tableName, new FileTable(spec));
    SqlParserPos pos = collectionTable.getParserPosition();
    return new SqlIdentifier(
        List.of(mount, tableName),
        null,
        pos,
        List.of(pos.withQuoting(true), pos.withQuoting(true)));
  }

  private static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  /** A literal argument's value: a String, a Boolean or a BigDecimal. */
  private static Object literal(FileScan.Kind kind, SqlNode node) {
    if (node instanceof SqlCharStringLiteral) {
      return ((SqlCharStringLiteral) node).getValueAs(String.class);
    }
    if (node instanceof SqlNumericLiteral) {
      return ((SqlNumericLiteral) node).getValueAs(BigDecimal.class);
    }
    if (node instanceof SqlLiteral && ((SqlLiteral) node).getTypeName() == SqlTypeName.BOOLEAN) {
      return ((SqlLiteral) node).booleanValue();
    }
    throw FloeError.VALIDATION.error(
        kind.functionName()
            + " takes literal arguments (a string, a number, true or false), not "
            + node);
  }
}
