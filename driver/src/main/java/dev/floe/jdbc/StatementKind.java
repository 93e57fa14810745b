package dev.floe.jdbc;

import dev.floe.command.introspection.ExplainAnalyze;
import dev.floe.command.procedure.Analyze;
import dev.floe.error.FloeError;
import dev.floe.error.SqlErrors;
import dev.floe.planner.parser.FloeParser;
import dev.floe.planner.parser.ddl.FloeStatementNode;
import dev.floe.planner.parser.ddl.SqlAlterTableExecute;
import dev.floe.planner.parser.ddl.SqlAlterTableRef;
import dev.floe.planner.parser.ddl.SqlTruncateTable;
import dev.floe.planner.parser.stmt.SqlInsertOverwrite;
import dev.floe.planner.parser.stmt.SqlMergeInto;
import dev.floe.planner.parser.stmt.SqlShow;
import java.sql.SQLException;
import org.apache.calcite.sql.SqlDescribeSchema;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a statement is, decided once, from the tree Floe's parser makes of its text: which part of
 * Floe runs it, and whether it answers with rows or with an update count. {@code executeQuery} with
 * a statement that answers with a count and {@code executeUpdate} with one that answers with rows
 * are refused before anything runs, so a refused call never commits a row that a retry would then
 * duplicate.
 *
 * <p>Two statements lie outside the grammar and are known by their first words: {@code ANALYZE
 * table} and {@code EXPLAIN ANALYZE query}.
 */
enum StatementKind {
  /** A query Calcite runs: SELECT, VALUES, WITH, TABLE, EXPLAIN, set operations. */
  QUERY(Answer.ROWS, false),
  /** A change Calcite runs: INSERT, UPDATE, DELETE. */
  CHANGE(Answer.COUNT, false),
  /** Another statement Calcite runs, whose answer Floe does not know before it runs. */
  OTHER(Answer.EITHER, false),
  /** SHOW and DESCRIBE, answered with rows by {@code command.introspection.Show}. */
  SHOW(Answer.ROWS, true),
  /** Floe's DDL, run by {@code command.ddl.Ddl}. */
  DDL(Answer.COUNT, true),
  /** {@code ALTER TABLE t EXECUTE procedure(...)}: table maintenance, one row of counts. */
  PROCEDURE(Answer.ROWS, true),
  /** Branch and tag DDL ({@code ALTER TABLE t CREATE BRANCH b}). */
  REFERENCE(Answer.COUNT, true),
  /** TRUNCATE, INSERT OVERWRITE and MERGE, run by {@code command.dml.Etl}. */
  ROW_WRITE(Answer.COUNT, true),
  /** {@code ANALYZE table [(column, ...)]}. */
  ANALYZE(Answer.COUNT, true),
  /** {@code EXPLAIN ANALYZE query}: the plan and what each scan did, as rows. */
  EXPLAIN_ANALYZE(Answer.ROWS, true);

  /** What a statement answers with. */
  enum Answer {
    ROWS,
    COUNT,
    EITHER
  }

  /**
   * A statement's text, the tree Floe's parser made of it (null for the two statements outside the
   * grammar, and for a text known to be one Calcite runs), and its kind.
   */
  record Parsed(String sql, @Nullable SqlNode node, StatementKind kind) {}

  private final Answer answer;
  private final boolean command;

  StatementKind(Answer answer, boolean command) {
    this.answer = answer;
    this.command = command;
  }

  /** Whether Floe runs the statement itself rather than Calcite. */
  boolean command() {
    return command;
  }

  /** Parses a statement's text once and classifies it. */
  static Parsed parse(String sql) throws SQLException {
    if (ExplainAnalyze.queryOf(sql) != null) {
      return new Parsed(sql, null, EXPLAIN_ANALYZE);
    }
    if (Analyze.handles(sql)) {
      return new Parsed(sql, null, ANALYZE);
    }
    SqlNode node;
    try {
      node = FloeParser.parse(sql);
    } catch (RuntimeException e) {
      throw SqlErrors.toSql(e);
    }
    return new Parsed(sql, node, of(node));
  }

  /** The kind of a parsed statement. */
  static StatementKind of(SqlNode node) {
    if (node instanceof SqlAlterTableExecute) {
      return PROCEDURE;
    }
    if (node instanceof SqlAlterTableRef) {
      return REFERENCE;
    }
    if (node instanceof SqlTruncateTable
        || node instanceof SqlInsertOverwrite
        || node instanceof SqlMergeInto
        || node instanceof SqlMerge) {
      return ROW_WRITE;
    }
    if (node instanceof SqlShow
        || node instanceof SqlDescribeTable
        || node instanceof SqlDescribeSchema) {
      return SHOW;
    }
    if (node instanceof FloeStatementNode) {
      return DDL;
    }
    SqlKind kind = node.getKind();
    if (kind == SqlKind.EXPLAIN || SqlKind.QUERY.contains(kind)) {
      return QUERY;
    }
    if (kind == SqlKind.INSERT || kind == SqlKind.UPDATE || kind == SqlKind.DELETE) {
      return CHANGE;
    }
    return OTHER;
  }

  /**
   * Refuses the statement when the call expects the other answer: {@code executeQuery} ({@link
   * Answer#ROWS}) a statement answering with a count, {@code executeUpdate} ({@link Answer#COUNT})
   * a statement answering with rows. {@code execute} ({@link Answer#EITHER}) takes every statement.
   */
  void check(Answer expected, String sql) throws SQLException {
    if (expected == Answer.ROWS && answer == Answer.COUNT) {
      throw SqlErrors.of(
          FloeError.VALIDATION,
          "executeQuery runs queries only; this statement returns no result set and was not run"
              + " (use executeUpdate or execute): "
              + sql);
    }
    if (expected == Answer.COUNT && answer == Answer.ROWS) {
      throw SqlErrors.of(
          FloeError.VALIDATION,
          "executeUpdate runs changes only; this statement returns a result set and was not run"
              + " (use executeQuery or execute): "
              + sql);
    }
  }
}
