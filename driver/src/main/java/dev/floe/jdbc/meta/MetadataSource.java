package dev.floe.jdbc.meta;

import dev.floe.planner.spi.LakeCatalog;
import dev.floe.storage.LakeLocation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.jdbc.CalciteConnection;

/** What metadata needs of its connection; the connection implements it. */
public interface MetadataSource {
  /** The connection {@code DatabaseMetaData.getConnection()} returns. */
  Connection connection();

  /** Fails with 08003 when the connection is closed. */
  void checkOpen() throws SQLException;

  boolean isClosed();

  boolean isReadOnly() throws SQLException;

  /** The connection's properties, secrets included: never show them unmasked. */
  Properties properties();

  LakeLocation location();

  LakeCatalog catalog();

  /** Calcite's connection, for result sets of rows built in memory and for SQL types. */
  CalciteConnection calcite();
}
