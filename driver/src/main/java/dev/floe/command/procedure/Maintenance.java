package dev.floe.command.procedure;

import dev.floe.command.CommandContext;
import dev.floe.config.Quantities;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.planner.adapter.SqlNames;
import dev.floe.planner.name.TableNames;
import dev.floe.planner.parser.ddl.SqlAlterTableExecute;
import dev.floe.planner.parser.ddl.SqlAlterTableRef;
import dev.floe.planner.type.DatetimeLiterals;
import dev.floe.storage.FileOwnership;
import dev.floe.storage.FolderCatalog;
import dev.floe.txn.FloeSession;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.stream.Collectors;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlTimestampLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;
import org.apache.iceberg.Table;

/**
 * Runs table maintenance (docs/maintenance.md, "Maintenance"): {@code ALTER TABLE t EXECUTE
 * procedure(name => value, ...) [WHERE ...]}, Trino's table procedures, and the branch and tag DDL.
 * Each procedure checks its arguments against its parameter list, refuses a read-only connection
 * (25006, except a dry run) and a table the open transaction has changed (25000), and answers one
 * row of counts.
 */
public final class Maintenance {
  /** Trino's minimum retention for snapshot expiry and orphan removal. */
  public static final Duration DEFAULT_MIN_RETENTION = Duration.ofDays(7);

  /** The kind of value a parameter takes. */
  enum Kind {
    DURATION,
    SIZE,
    INTEGER,
    BOOLEAN,
    STRING,
    TIMESTAMP
  }

  /** One parameter of a procedure. */
  record Parameter(String name, Kind kind, boolean required) {}

  /** A procedure: its name, parameters in positional order, and whether it takes WHERE. */
  enum Procedure {
    OPTIMIZE(
        "optimize",
        true,
        new Parameter("file_size_threshold", Kind.SIZE, false),
        new Parameter("dry_run", Kind.BOOLEAN, false)),
    OPTIMIZE_MANIFESTS("optimize_manifests", false),
    EXPIRE_SNAPSHOTS(
        "expire_snapshots",
        false,
        new Parameter("retention_threshold", Kind.DURATION, false),
        new Parameter("retain_last", Kind.INTEGER, false),
        new Parameter("dry_run", Kind.BOOLEAN, false)),
    REMOVE_ORPHAN_FILES(
        "remove_orphan_files",
        false,
        new Parameter("retention_threshold", Kind.DURATION, false),
        new Parameter("dry_run", Kind.BOOLEAN, false)),
    ROLLBACK_TO_SNAPSHOT(
        "rollback_to_snapshot", false, new Parameter("snapshot_id", Kind.INTEGER, true)),
    ROLLBACK_TO_TIMESTAMP(
        "rollback_to_timestamp", false, new Parameter("ts", Kind.TIMESTAMP, true)),
    SET_CURRENT_SNAPSHOT(
        "set_current_snapshot",
        false,
        new Parameter("snapshot_id", Kind.INTEGER, false),
        new Parameter("ref", Kind.STRING, false)),
    ADD_FILES(
        "add_files",
        false,
        new Parameter("location", Kind.STRING, true),
        new Parameter("format", Kind.STRING, false));

    final String sqlName;
    final boolean takesWhere;
    final List<Parameter> parameters;

    Procedure(String sqlName, boolean takesWhere, Parameter... parameters) {
      this.sqlName = sqlName;
      this.takesWhere = takesWhere;
      this.parameters = List.of(parameters);
    }

    static String names() {
      return Arrays.stream(values()).map(p -> p.sqlName).collect(Collectors.joining(", "));
    }

    String parameterNames() {
      return parameters.isEmpty()
          ? "none"
          : parameters.stream().map(Parameter::name).collect(Collectors.joining(", "));
    }
  }

  /** A procedure's answer: column labels and one row of values (BIGINT, or null). */
  public record Result(List<String> labels, List<Long> row) {
    static Result of(Map<String, Long> columns) {
      return new Result(List.copyOf(columns.keySet()), new ArrayList<>(columns.values()));
    }
  }

  /** The arguments given to one procedure call, checked and converted. */
  record Arguments(Procedure procedure, Map<String, Object> values) {
    boolean has(String name) {
      return values.containsKey(name);
    }

    Duration duration(String name, Duration otherwise) {
      Object value = values.get(name);
      return value == null ? otherwise : (Duration) value;
    }

    long integer(String name, long otherwise) {
      Object value = values.get(name);
      return value == null ? otherwise : (Long) value;
    }

    boolean bool(String name) {
      return Boolean.TRUE.equals(values.get(name));
    }

    String string(String name) {
      return (String) values.get(name);
    }
  }

  private final CommandContext connection;
  private final Duration minRetention;
  private SQLWarning warning;

  /**
   * @param minRetention the shortest retention threshold expiry and orphan removal accept (the
   *     connection property {@code maintenance.min-retention})
   */
  public Maintenance(CommandContext connection, Duration minRetention) {
    this.connection = connection;
    this.minRetention = minRetention;
  }

  /** Runs a procedure; its one row of counts. */
  public Result execute(SqlAlterTableExecute call) throws SQLException {
    warning = null;
    try {
      Procedure procedure = procedure(call.procedure);
      Arguments arguments = arguments(procedure, call);
      if (call.where != null && !procedure.takesWhere) {
        throw SqlErrors.of(FloeError.PROCEDURE, procedure.sqlName, "it takes no WHERE clause");
      }
      boolean dryRun = arguments.bool("dry_run");
      List<String> path = tablePath(call.table, procedure.sqlName, !dryRun);
      Table table = session().catalog().loadTable(path);
      String name = String.join(".", path);
      FolderCatalog folders = session().folders();
      FileOwnership ownership = new FileOwnership(folders);
      return switch (procedure) {
        case EXPIRE_SNAPSHOTS ->
            new Cleanup(table, name, path, folders, ownership, this::warn)
                .expireSnapshots(retention(arguments), retainLast(arguments), dryRun);
        case REMOVE_ORPHAN_FILES ->
            new Cleanup(table, name, path, folders, ownership, this::warn)
                .removeOrphanFiles(retention(arguments), dryRun);
        case OPTIMIZE_MANIFESTS ->
            new Cleanup(table, name, path, folders, ownership, this::warn).optimizeManifests();
        case OPTIMIZE ->
            new Compaction(table, name, this::warn)
                .run(
                    arguments.has("file_size_threshold")
                        ? (Long) arguments.values().get("file_size_threshold")
                        : 100L * 1024 * 1024,
                    call.where == null
                        ? null
                        : PartitionPredicate.of(connection, table, name, call.table, call.where),
                    dryRun);
        case ROLLBACK_TO_SNAPSHOT ->
            SnapshotRefs.rollbackTo(table, name, arguments.integer("snapshot_id", 0));
        case ROLLBACK_TO_TIMESTAMP ->
            SnapshotRefs.rollbackToTime(table, name, arguments.integer("ts", 0));
        case SET_CURRENT_SNAPSHOT -> setCurrent(table, name, arguments);
        case ADD_FILES ->
            new AddFiles(table, name, path, session().catalog().externalFiles(), ownership)
                .run(arguments.string("location"), arguments.string("format"));
      };
    } catch (RuntimeException e) {
      throw SqlErrors.toSql(e);
    }
  }

  /** Runs branch or tag DDL. */
  public void execute(SqlAlterTableRef ddl) throws SQLException {
    try {
      String verb = "alter the branches and tags of";
      List<String> path = tablePath(ddl.table, verb, true);
      Table table = session().catalog().loadTable(path);
      SnapshotRefs.alter(table, String.join(".", path), ddl);
    } catch (RuntimeException e) {
      throw SqlErrors.toSql(e);
    }
  }

  /** The warnings of the last procedure (optimize's progress lines), and forgets them. */
  public SQLWarning takeWarning() {
    SQLWarning taken = warning;
    warning = null;
    return taken;
  }

  private void warn(String line) {
    SQLWarning next = SqlErrors.warning(line);
    if (warning == null) {
      warning = next;
    } else {
      warning.setNextWarning(next);
    }
  }

  private FloeSession session() {
    return connection.session();
  }

  private static Result setCurrent(Table table, String name, Arguments arguments) {
    boolean byId = arguments.has("snapshot_id");
    if (byId == arguments.has("ref")) {
      throw FloeError.PROCEDURE.error(
          "set_current_snapshot", "give exactly one of snapshot_id and ref");
    }
    return byId
        ? SnapshotRefs.setCurrent(table, name, arguments.integer("snapshot_id", 0))
        : SnapshotRefs.setCurrent(table, name, arguments.string("ref"));
  }

  private Duration retention(Arguments arguments) {
    Duration retention =
        arguments.duration(
            "retention_threshold",
            minRetention.compareTo(DEFAULT_MIN_RETENTION) > 0
                ? minRetention
                : DEFAULT_MIN_RETENTION);
    if (retention.compareTo(minRetention) < 0) {
      throw FloeError.INVALID_PROPERTY.error(
          "retention_threshold " + format(retention),
          "it is below the minimum retention "
              + format(minRetention)
              + "; the connection property maintenance.min-retention lowers the minimum");
    }
    return retention;
  }

  private static int retainLast(Arguments arguments) {
    long retain = arguments.integer("retain_last", 1);
    if (retain < 1 || retain > Integer.MAX_VALUE) {
      throw FloeError.PROCEDURE.error(
          "expire_snapshots", "retain_last must be at least 1, not " + retain);
    }
    return (int) retain;
  }

  private static String format(Duration duration) {
    if (duration.toNanos() % 86_400_000_000_000L == 0) {
      return duration.toDays() + "d";
    }
    if (duration.toNanos() % 3_600_000_000_000L == 0) {
      return duration.toHours() + "h";
    }
    if (duration.toNanos() % 1_000_000_000L == 0) {
      return duration.toSeconds() + "s";
    }
    return duration.toMillis() + "ms";
  }

  /** Resolves the table; refuses read-only connections and tables with pending changes. */
  private List<String> tablePath(SqlIdentifier name, String action, boolean writes)
      throws SQLException {
    List<String> path =
        new TableNames(session().catalog())
            .tableToChange(connection.schemaPath(), SqlNames.parts(name), action);
    if (writes && session().readOnly()) {
      throw SqlErrors.of(FloeError.READ_ONLY, "run " + action + " on " + String.join(".", path));
    }
    if (!session().autoCommit() && session().hasPendingChange(path)) {
      throw SqlErrors.of(
          FloeError.INVALID_TRANSACTION_STATE,
          "run " + action + " on " + String.join(".", path),
          "the open transaction has uncommitted changes to it; commit or roll back first");
    }
    return path;
  }

  private static Procedure procedure(SqlIdentifier name) {
    String text = name.names.get(name.names.size() - 1);
    for (Procedure procedure : Procedure.values()) {
      boolean quoted = name.isComponentQuoted(name.names.size() - 1);
      if (name.names.size() == 1
          && (quoted ? procedure.sqlName.equals(text) : procedure.sqlName.equalsIgnoreCase(text))) {
        return procedure;
      }
    }
    throw FloeError.PROCEDURE.error(
        name.toString(), "no such procedure; the procedures are " + Procedure.names());
  }

  private Arguments arguments(Procedure procedure, SqlAlterTableExecute call) {
    Map<String, Object> values = new LinkedHashMap<>();
    int position = 0;
    boolean named = false;
    for (SqlAlterTableExecute.Argument argument : call.arguments) {
      Parameter parameter;
      if (argument.name() == null) {
        if (named) {
          throw FloeError.PROCEDURE.error(
              procedure.sqlName, "a positional argument cannot follow a named one");
        }
        if (position >= procedure.parameters.size()) {
          throw FloeError.PROCEDURE.error(
              procedure.sqlName,
              "it takes at most "
                  + procedure.parameters.size()
                  + " arguments: "
                  + procedure.parameterNames());
        }
        parameter = procedure.parameters.get(position++);
      } else {
        named = true;
        String given = argument.name().getSimple();
        parameter =
            procedure.parameters.stream()
                .filter(p -> p.name().equalsIgnoreCase(given))
                .findFirst()
                .orElseThrow(
                    () ->
                        FloeError.PROCEDURE.error(
                            procedure.sqlName,
                            "no argument "
                                + given
                                + "; its arguments are "
                                + procedure.parameterNames()));
      }
      if (values.containsKey(parameter.name())) {
        throw FloeError.PROCEDURE.error(
            procedure.sqlName, "argument " + parameter.name() + " is given twice");
      }
      values.put(parameter.name(), value(procedure, parameter, argument.value()));
    }
    for (Parameter parameter : procedure.parameters) {
      if (parameter.required() && !values.containsKey(parameter.name())) {
        throw FloeError.PROCEDURE.error(
            procedure.sqlName, "argument " + parameter.name() + " is required");
      }
    }
    return new Arguments(procedure, values);
  }

  private Object value(Procedure procedure, Parameter parameter, SqlNode node) {
    Object value =
        switch (parameter.kind()) {
          case DURATION -> {
            String text = string(node);
            yield text == null ? null : Quantities.duration(parameter.name(), text);
          }
          case SIZE -> {
            String text = string(node);
            yield text == null ? null : Quantities.size(parameter.name(), text);
          }
          case INTEGER -> integer(parameter.name(), node);
          case BOOLEAN ->
              node instanceof SqlLiteral l && l.getTypeName() == SqlTypeName.BOOLEAN
                  ? l.booleanValue()
                  : null;
          case STRING -> string(node);
          case TIMESTAMP -> timestamp(node);
        };
    if (value == null) {
      throw FloeError.PROCEDURE.error(
          procedure.sqlName,
          "argument "
              + parameter.name()
              + " must be "
              + expected(parameter.kind())
              + ", not "
              + node);
    }
    return value;
  }

  private static String expected(Kind kind) {
    return switch (kind) {
      case DURATION -> "a duration such as '7d', '12h' or '30m'";
      case SIZE -> "a size such as '100MB'";
      case INTEGER -> "an integer";
      case BOOLEAN -> "true or false";
      case STRING -> "a string";
      case TIMESTAMP -> "a TIMESTAMP literal";
    };
  }

  private static String string(SqlNode node) {
    return node instanceof SqlCharStringLiteral literal ? literal.getValueAs(String.class) : null;
  }

  /**
   * A whole-number literal, or null when the node is none.
   *
   * @throws dev.floe.error.FloeException ARGUMENT_OUT_OF_RANGE naming the argument when it does not
   *     fit in a BIGINT
   */
  private static Long integer(String argument, SqlNode node) {
    boolean negative = false;
    if (node instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS_PREFIX) {
      negative = true;
      node = call.operand(0);
    }
    if (node instanceof SqlNumericLiteral literal && literal.isInteger()) {
      BigDecimal value = literal.getValueAs(BigDecimal.class);
      try {
        return (negative ? value.negate() : value).longValueExact();
      } catch (ArithmeticException e) {
        throw FloeError.ARGUMENT_OUT_OF_RANGE.error(
            argument + " " + (negative ? "-" : "") + value.toPlainString(),
            "it does not fit in a BIGINT");
      }
    }
    return null;
  }

  /** A TIMESTAMP literal as epoch milliseconds, read in the session's time zone. */
  private Long timestamp(SqlNode node) {
    if (node instanceof SqlUnknownLiteral unknown && unknown.tag.equalsIgnoreCase("TIMESTAMP")) {
      DatetimeLiterals.check(unknown);
      try {
        node = unknown.resolve(SqlTypeName.TIMESTAMP);
      } catch (RuntimeException e) {
        return null;
      }
    }
    if (node instanceof SqlTimestampLiteral literal) {
      TimestampString text = literal.getValueAs(TimestampString.class);
      long local = text.getMillisSinceEpoch();
      TimeZone zone = session().timeZone();
      return local - zone.getOffset(local - zone.getOffset(local));
    }
    return null;
  }
}
