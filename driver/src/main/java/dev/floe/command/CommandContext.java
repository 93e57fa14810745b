package dev.floe.command;

import dev.floe.txn.FloeSession;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** What a command needs of its connection; the connection implements it. */
public interface CommandContext {
  /** The connection's transaction and catalog. */
  FloeSession session();

  /** The path under the root of the current schema. */
  List<String> schemaPath() throws SQLException;

  /**
   * A statement of the connection whose results go through Calcite's row cursor, so that {@link
   * #calciteResults} can read them: for a command that runs a query (CTAS).
   */
  Statement createStatement() throws SQLException;

  /**
   * A statement of Calcite's own, outside the connection's statement bracket: for a command that
   * runs its steps inside one bracket of its own (INSERT OVERWRITE, MERGE).
   */
  Statement calciteStatement() throws SQLException;

  /** Calcite's own result set behind one of the connection's, with Calcite's column types. */
  ResultSet calciteResults(ResultSet results) throws SQLException;

  /**
   * The rows of an executed query in Calcite's runtime forms, with their exact types: a result set
   * of {@link #createStatement} or of {@link #calciteStatement}, read through this view only.
   */
  QueryRows queryRows(ResultSet results) throws SQLException;
}
