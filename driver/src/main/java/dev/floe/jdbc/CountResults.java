package dev.floe.jdbc;

import dev.floe.command.Maintenance;
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
 * The one row of counts a table procedure answers, as a result set: Avatica's, over the row built
 * in memory, which the statement wraps as it wraps a query's. Every column is BIGINT.
 */
final class CountResults {
  private CountResults() {}

  static ResultSet of(FloeConnection connection, Maintenance.Result result) throws SQLException {
    List<ColumnMetaData> meta = new ArrayList<>();
    for (int i = 0; i < result.labels().size(); i++) {
      meta.add(MetaImpl.columnMetaData(result.labels().get(i), i, Long.class, true));
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
      List<Object[]> data = new ArrayList<>();
      data.add(result.row().toArray());
      rows.execute2(new ArrayIteratorCursor(data.iterator()), meta);
      return rows;
    } catch (SQLException | RuntimeException e) {
      calcite.close();
      throw e;
    }
  }
}
