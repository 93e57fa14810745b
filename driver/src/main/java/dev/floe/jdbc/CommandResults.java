package dev.floe.jdbc;

import dev.floe.command.Show;
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
 * The rows of SHOW and DESCRIBE as a result set: Avatica's, over rows built in memory, which the
 * statement wraps as it wraps a query's (so {@code getStatement}, closing and the getters behave
 * alike). Every column is VARCHAR.
 */
final class CommandResults {
  private CommandResults() {}

  static ResultSet of(FloeConnection connection, Show.Result result) throws SQLException {
    List<ColumnMetaData> meta = new ArrayList<>();
    for (int i = 0; i < result.labels().size(); i++) {
      meta.add(MetaImpl.columnMetaData(result.labels().get(i), i, String.class, true));
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
      rows.execute2(new ArrayIteratorCursor(result.rows().iterator()), meta);
      return rows;
    } catch (SQLException | RuntimeException e) {
      calcite.close();
      throw e;
    }
  }
}
