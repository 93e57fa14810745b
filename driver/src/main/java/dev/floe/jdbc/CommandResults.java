package dev.floe.jdbc;

import dev.floe.command.introspection.Show;
import dev.floe.command.procedure.Maintenance;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.util.ArrayIteratorCursor;

/**
 * The rows of SHOW and DESCRIBE (every column VARCHAR) and the one row of counts a table procedure
 * answers (every column BIGINT) as a result set: Avatica's, over rows built in memory, which the
 * statement wraps as it wraps a query's (so {@code getStatement}, closing and the getters behave
 * alike).
 */
final class CommandResults {
  private CommandResults() {}

  static ResultSet of(FloeConnection connection, Show.Result result) throws SQLException {
    return of(connection, result.labels(), String.class, result.rows());
  }

  static ResultSet of(FloeConnection connection, Maintenance.Result result) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    rows.add(result.row().toArray());
    return of(connection, result.labels(), Long.class, rows);
  }

  private static ResultSet of(
      FloeConnection connection, List<String> labels, Class<?> type, List<Object[]> data)
      throws SQLException {
    List<ColumnMetaData> meta = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      meta.add(MetaImpl.columnMetaData(labels.get(i), i, type, true));
    }
    Meta.Signature signature =
        Meta.Signature.create(
            meta, "", List.of(), Meta.CursorFactory.ARRAY, Meta.StatementType.SELECT);
    Statement calcite = connection.calcite().createStatement();
    try {
      AvaticaStatement statement = calcite.unwrap(AvaticaStatement.class);
      statement.closeOnCompletion();
      AvaticaResultSet rows =
          new AvaticaResultSet(
              statement,
              null,
              signature,
              new AvaticaResultSetMetaData(statement, null, signature),
              TimeZone.getTimeZone("UTC"),
              null);
      rows.execute2(new ArrayIteratorCursor(data.iterator()), meta);
      return rows;
    } catch (SQLException | RuntimeException e) {
      calcite.close();
      throw e;
    }
  }
}
