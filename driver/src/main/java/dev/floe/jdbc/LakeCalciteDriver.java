package dev.floe.jdbc;

import dev.floe.planner.prepare.LakePrepare;
import dev.floe.planner.type.LakeJavaTypeFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.ConnectStringParser;
import org.apache.calcite.jdbc.CalciteFactory;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.Driver;

/**
 * Calcite's driver, preparing statements with {@link LakePrepare} and holding values with {@link
 * LakeJavaTypeFactory}. Used only by Floe.
 */
final class LakeCalciteDriver extends Driver {
  LakeCalciteDriver() {
    super(LakePrepare::new);
  }

  /**
   * As Calcite's, but every connection gets its own {@link LakeJavaTypeFactory}, and a root schema
   * that caches nothing: Calcite's caching schemas snapshot a schema's names and match them
   * ignoring case, where Floe's schemas look names up exactly, after its one resolver has found
   * them, and see other writers' tables at once.
   */
  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    Properties properties =
        ConnectStringParser.parse(url.substring(getConnectStringPrefix().length()), info);
    AvaticaConnection connection =
        ((CalciteFactory) factory)
            .newConnection(
                this,
                factory,
                url,
                properties,
                CalciteSchema.createRootSchema(true, false),
                new LakeJavaTypeFactory());
    handler.onConnectionInit(connection);
    return connection;
  }
}
