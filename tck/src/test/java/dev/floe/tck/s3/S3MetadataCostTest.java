package dev.floe.tck.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * What DBeaver's metadata sequence costs on an S3 lake of 200 tables (4 schemas of 50): schemas,
 * the tables of every schema (with functions and procedures), then one table's columns, keys and
 * indexes, counted in requests by a proxy in front of the server.
 */
class S3MetadataCostTest {
  private final S3TestServer server = S3TestServer.get();

  private static int size(ResultSet rs) throws SQLException {
    int n = 0;
    try (rs) {
      while (rs.next()) {
        n++;
      }
    }
    return n;
  }

  @Test
  void dbeaversMetadataSequenceOnTwoHundredTablesCostsABoundedNumberOfLists() throws Exception {
    String bucket = server.newBucket();
    try (FaultProxy proxy = new FaultProxy(server.port())) {
      String url = server.url(bucket, "lake", proxy.endpoint());
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        for (int schema = 0; schema < 4; schema++) {
          for (int table = 0; table < 50; table++) {
            s.executeUpdate(
                "CREATE TABLE s" + schema + ".t" + table + " (id BIGINT NOT NULL, v VARCHAR)");
          }
        }
      }
      proxy.resetCounts();
      int tables = 0;
      try (Connection c = DriverManager.getConnection(url)) {
        DatabaseMetaData meta = c.getMetaData();
        try (ResultSet schemas = meta.getSchemas(null, "%")) {
          java.util.List<String> names = new java.util.ArrayList<>();
          while (schemas.next()) {
            names.add(schemas.getString("TABLE_SCHEM"));
          }
          assertThat(names).containsExactly("main", "s0", "s1", "s2", "s3");
          for (String schema : names) {
            tables += size(meta.getTables(null, schema, "%", null));
            size(meta.getFunctions(null, schema, "%"));
            size(meta.getProcedures(null, schema, "%"));
          }
        }
        assertThat(size(meta.getColumns(null, "s1", "t7", "%"))).isEqualTo(2);
        size(meta.getPrimaryKeys(null, "s1", "%"));
        size(meta.getImportedKeys(null, "s1", "t7"));
        size(meta.getIndexInfo(null, "s1", "t7", false, true));
      }
      assertThat(tables).isEqualTo(200);
      System.out.printf(
          "DBeaver metadata sequence on 200 S3 tables: %d LIST, %d GET, %d HEAD requests%n",
          proxy.count("LIST"), proxy.count("GET"), proxy.count("HEAD"));
      assertThat(proxy.count("LIST")).isLessThanOrEqualTo(60);
      assertThat(proxy.count("PUT") + proxy.count("DELETE") + proxy.count("POST")).isZero();
    }
  }
}
