package dev.floe.planner.prepare;

import dev.floe.error.FloeError;
import dev.floe.planner.name.TableVersion;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSnapshot;
import org.apache.calcite.sql.SqlTimestampLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Time travel, before validation: each {@code t FOR SYSTEM_TIME AS OF <time>} (and the version
 * forms of Floe's grammar) in a FROM clause becomes a reference to the table at that version, named
 * by the table's name followed by the clause ({@link TableVersion#appendTo}), aliased by the
 * table's own name. The lake schema resolves such a name to the table pinned at that snapshot, with
 * the snapshot's row type, so the same table may appear at two versions in one query and every
 * later step (pushdown, pruning, deletes) works as for the current snapshot.
 *
 * <p>The version must be a literal: a TIMESTAMP, TIMESTAMP WITH LOCAL TIME ZONE or DATE (or a
 * character literal cast to one), read in the session time zone.
 */
final class TimeTravel extends SqlBasicVisitor<Void> {
  private static final DateTimeFormatter TEXT =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd[ HH:mm[:ss]]")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
          .toFormatter(Locale.ROOT);

  /** The operator Floe's grammar wraps the version of {@code FOR VERSION AS OF} in. */
  private static final String VERSION_AS_OF = "VERSION_AS_OF";

  /** A timestamp's text followed by a time zone: a region id or an offset. */
  private static final java.util.regex.Pattern ZONED =
      java.util.regex.Pattern.compile(
          "(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?)\\s*"
              + "((?:[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+)*)|[+-]\\d{2}:\\d{2}|Z)");

  private TimeTravel() {}

  /** Rewrites every time travel in a statement in place. */
  static void rewrite(SqlNode statement) {
    statement.accept(new TimeTravel());
  }

  @Override
  public Void visit(SqlCall call) {
    SqlNode target = targetOf(call);
    if (target != null && (target.getKind() == SqlKind.SNAPSHOT || isVersioned(target))) {
      throw FloeError.NOT_SUPPORTED.error(
          "time travel on the table a statement writes ("
              + call.getKind()
              + " "
              + target
              + "): a past version is read-only");
    }
    if (call instanceof SqlSelect) {
      SqlSelect select = (SqlSelect) call;
      if (select.getFrom() != null) {
        select.setFrom(replace(select.getFrom(), false));
      }
    } else if (call instanceof SqlJoin) {
      SqlJoin join = (SqlJoin) call;
      join.setLeft(replace(join.getLeft(), false));
      join.setRight(replace(join.getRight(), false));
    } else if (call.getKind() == SqlKind.AS) {
      call.setOperand(0, replace(call.operand(0), true));
    }
    return super.visit(call);
  }

  /** The table a DML statement writes, or null for any other call. */
  private static @Nullable SqlNode targetOf(SqlCall call) {
    if (call instanceof SqlInsert) {
      return ((SqlInsert) call).getTargetTable();
    }
    if (call instanceof SqlDelete) {
      return ((SqlDelete) call).getTargetTable();
    }
    if (call instanceof SqlUpdate) {
      return ((SqlUpdate) call).getTargetTable();
    }
    if (call instanceof SqlMerge) {
      return ((SqlMerge) call).getTargetTable();
    }
    return null;
  }

  private static boolean isVersioned(SqlNode target) {
    SqlNode table = target.getKind() == SqlKind.AS ? ((SqlCall) target).operand(0) : target;
    return table instanceof SqlIdentifier
        && isVersioned(((SqlIdentifier) table).names.get(((SqlIdentifier) table).names.size() - 1));
  }

  /** A FROM item with its time travel resolved to a versioned table name. */
  private static SqlNode replace(SqlNode from, boolean aliased) {
    if (from.getKind() != SqlKind.SNAPSHOT) {
      return from;
    }
    SqlSnapshot snapshot = (SqlSnapshot) from;
    if (!(snapshot.getTableRef() instanceof SqlIdentifier)) {
      throw FloeError.NOT_SUPPORTED.error(
          "time travel on anything but a table (" + snapshot.getTableRef() + ")");
    }
    SqlIdentifier table = (SqlIdentifier) snapshot.getTableRef();
    TableVersion version =
        isVersion(snapshot.getPeriod())
            ? versionOf(((SqlCall) snapshot.getPeriod()).operand(0))
            : timeOf(snapshot.getPeriod());
    List<String> names = new ArrayList<>(table.names);
    String last = names.get(names.size() - 1);
    names.set(names.size() - 1, version.appendTo(last));
    List<SqlParserPos> positions = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      positions.add(table.getComponentParserPosition(i));
    }
    SqlIdentifier versioned = new SqlIdentifier(names, null, table.getParserPosition(), positions);
    if (aliased) {
      return versioned;
    }
    SqlParserPos pos = snapshot.getParserPosition();
    return new SqlBasicCall(
        SqlStdOperatorTable.AS, List.of(versioned, new SqlIdentifier(last, pos)), pos);
  }

  /**
   * Whether a snapshot's period is Floe's grammar's mark of {@code FOR VERSION AS OF} (and {@code
   * FOR SYSTEM_VERSION AS OF}): the call {@code VERSION_AS_OF(version)}.
   */
  private static boolean isVersion(SqlNode period) {
    return period instanceof SqlCall
        && ((SqlCall) period).getOperator().getName().equals(VERSION_AS_OF)
        && ((SqlCall) period).operandCount() == 1;
  }

  /** The version a {@code FOR VERSION AS OF} names: a BIGINT snapshot id or a ref name. */
  static TableVersion versionOf(SqlNode version) {
    boolean negative = false;
    SqlNode value = version;
    if (value.getKind() == SqlKind.MINUS_PREFIX) {
      negative = true;
      value = ((SqlCall) value).operand(0);
    }
    if (value instanceof SqlNumericLiteral && ((SqlNumericLiteral) value).isInteger()) {
      java.math.BigDecimal id = ((SqlNumericLiteral) value).getValueAs(java.math.BigDecimal.class);
      try {
        return TableVersion.snapshot((negative ? id.negate() : id).longValueExact());
      } catch (ArithmeticException e) {
        throw FloeError.VALIDATION.error(e, "snapshot id " + version + " is not a BIGINT");
      }
    }
    if (!negative
        && value instanceof SqlLiteral
        && ((SqlLiteral) value).getTypeName() == SqlTypeName.CHAR) {
      return TableVersion.ref(((SqlLiteral) value).getValueAs(String.class));
    }
    throw FloeError.VALIDATION.error(
        "FOR VERSION AS OF takes a snapshot id (a BIGINT literal) or a branch or tag name (a"
            + " string literal), not "
            + version);
  }

  /** The time a {@code FOR SYSTEM_TIME AS OF} (or {@code FOR TIMESTAMP AS OF}) names. */
  static TableVersion timeOf(SqlNode period) {
    if (period instanceof SqlUnknownLiteral) {
      // The parser leaves typed literals for the validator to resolve: TIMESTAMP '...', DATE
      // '...', TIMESTAMP WITH LOCAL TIME ZONE '...' (read in the session time zone, as a string
      // cast to that type is).
      SqlUnknownLiteral literal = (SqlUnknownLiteral) period;
      String tag = literal.tag.toUpperCase(Locale.ROOT);
      String text = literal.getValue().trim();
      if (tag.equals("TIMESTAMP")) {
        // Trino's TIMESTAMP '2022-03-23 09:59:29.803 Europe/Vienna': an instant.
        java.util.regex.Matcher zoned = ZONED.matcher(text);
        if (zoned.matches()) {
          try {
            java.time.ZoneId zone = java.time.ZoneId.of(zoned.group(2));
            return TableVersion.at(parse(zoned.group(1)).atZone(zone).toInstant());
          } catch (java.time.DateTimeException e) {
            throw FloeError.INVALID_DATETIME.error(e, "'" + text + "'", "unknown time zone");
          }
        }
      }
      if (tag.equals("DATE") || tag.startsWith("TIMESTAMP")) {
        return TableVersion.at(parse(text));
      }
    }
    if (period instanceof SqlTimestampLiteral) {
      return TableVersion.at(parse(((SqlTimestampLiteral) period).getTimestamp().toString()));
    }
    if (period instanceof SqlDateLiteral) {
      return TableVersion.at(
          LocalDate.parse(
                  ((SqlDateLiteral) period)
                      .getValueAs(org.apache.calcite.util.DateString.class)
                      .toString())
              .atStartOfDay());
    }
    if (period.getKind() == SqlKind.CAST) {
      SqlCall cast = (SqlCall) period;
      SqlNode value = cast.operand(0);
      SqlNode type = cast.operand(1);
      if (value instanceof SqlLiteral
          && ((SqlLiteral) value).getTypeName() == SqlTypeName.CHAR
          && type instanceof SqlDataTypeSpec
          && isTime((SqlDataTypeSpec) type)) {
        return TableVersion.at(parse(((SqlLiteral) value).getValueAs(String.class).trim()));
      }
    }
    if (period instanceof SqlNumericLiteral
        || (period instanceof SqlLiteral
            && ((SqlLiteral) period).getTypeName() == SqlTypeName.CHAR)) {
      throw FloeError.VALIDATION.error(
          "FOR SYSTEM_TIME AS OF takes a TIMESTAMP or DATE, not "
              + period
              + "; a snapshot id, branch or tag is read with FOR VERSION AS OF "
              + period);
    }
    throw FloeError.NOT_SUPPORTED.error(
        "time travel to "
            + period
            + ": the time must be a TIMESTAMP, TIMESTAMP WITH LOCAL TIME ZONE or DATE literal");
  }

  private static boolean isTime(SqlDataTypeSpec spec) {
    String name = spec.getTypeName().getSimple().toUpperCase(Locale.ROOT);
    return name.startsWith("TIMESTAMP") || name.equals("DATE");
  }

  private static LocalDateTime parse(String text) {
    try {
      return LocalDateTime.parse(text, TEXT);
    } catch (DateTimeParseException e) {
      throw FloeError.INVALID_DATETIME.error(e, "'" + text + "'", "it is not a date or timestamp");
    }
  }

  /** Whether a name carries a version clause, for callers that refuse time travel. */
  static boolean isVersioned(@Nullable String name) {
    return name != null && TableVersion.split(name).version() != null;
  }
}
