package dev.floe.tck;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A child-JVM program for {@link JarAloneTest}: runs statements of every kind on a new lake through
 * {@code DriverManager}, with the kit's whole class path (Iceberg, Parquet, Hadoop) beside the
 * driver jar, and prints {@code done} at the end. Its class-loading log then shows where each class
 * the statements needed came from.
 *
 * <p>Arguments: the lake folder.
 */
public final class JarAloneWorkload {
  private JarAloneWorkload() {}

  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:floe:" + args[0] + "?create=true");
        Statement s = c.createStatement()) {
      for (String codec :
          new String[] {"gzip", "snappy", "zstd", "lz4", "lz4_raw", "uncompressed"}) {
        String t = "t_" + codec;
        s.execute(
            "CREATE TABLE "
                + t
                + " (id INT, name VARCHAR, d DATE, amount DECIMAL(10,2)) PARTITIONED BY (bucket(2,"
                + " id)) WITH ('write.parquet.compression-codec' = '"
                + codec
                + "', 'format-version' = '"
                + (codec.startsWith("lz4") ? "3" : "2")
                + "')");
        s.execute(
            "INSERT INTO "
                + t
                + " VALUES (1, 'a', DATE '2024-01-01', 1.50), (2, 'b', DATE '2024-01-02', 2.25),"
                + " (3, NULL, NULL, NULL)");
        s.execute("DELETE FROM " + t + " WHERE id = 2");
        s.execute("UPDATE " + t + " SET name = 'c' WHERE id = 3");
        s.execute(
            "MERGE INTO "
                + t
                + " USING (VALUES (1, 'm')) AS src (id, name) ON "
                + t
                + ".id = src.id WHEN MATCHED THEN UPDATE SET name = src.name");
        try (ResultSet rs =
            s.executeQuery(
                "SELECT COUNT(*), SUM(amount), MAX(name), MIN(d) FROM " + t + " WHERE id > 0")) {
          rs.next();
          if (rs.getLong(1) != 2 || !"m".equals(rs.getString(3))) {
            throw new IllegalStateException(codec + ": " + rs.getLong(1) + " " + rs.getString(3));
          }
        }
        try (ResultSet rs = s.executeQuery("SELECT name, COUNT(*) FROM " + t + " GROUP BY name")) {
          while (rs.next()) {
            rs.getString(1);
          }
        }
        s.execute("ALTER TABLE " + t + " EXECUTE optimize");
        try (ResultSet rs = s.executeQuery("SELECT * FROM \"" + t + "$files\"")) {
          while (rs.next()) {
            rs.getObject(1);
          }
        }
      }
    }
    System.out.println("done");
  }
}
