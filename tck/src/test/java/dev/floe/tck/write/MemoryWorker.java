package dev.floe.tck.write;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A child-JVM program (run with a small heap): fills a table of 10⁵ rows, then runs a MERGE whose
 * source is that table joined with itself (10¹⁰ rows), which cannot fit in the heap. Prints {@code
 * failed SQLSTATE message} (or {@code succeeded}, or {@code escaped} for anything but an
 * SQLException), then {@code rows N} read afterwards on the same connection; then a query that
 * groups the same 10¹⁰ rows by two grouping sets (an aggregate that does not account against the
 * budget), printing {@code query failed SQLSTATE message} and {@code after query N} read
 * afterwards.
 *
 * <p>Arguments: the lake's URL.
 */
public final class MemoryWorker {
  private MemoryWorker() {}

  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection(args[0]);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE cj (id BIGINT)");
      s.execute("CREATE TABLE t (id BIGINT, v BIGINT)");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO cj VALUES (?)")) {
        for (int i = 0; i < 100_000; i++) {
          p.setLong(1, i);
          p.addBatch();
        }
        p.executeBatch();
      }
      s.execute("INSERT INTO t SELECT id, 0 FROM cj WHERE id < 10");
      System.out.println("ready");
      try {
        s.execute(
            "MERGE INTO t USING (SELECT a.id AS id, b.id AS v FROM cj a, cj b) s ON t.id = s.id"
                + " WHEN MATCHED THEN UPDATE SET v = s.v"
                + " WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)");
        System.out.println("succeeded");
      } catch (SQLException e) {
        System.out.println("failed " + e.getSQLState() + " " + e.getMessage().lines().findFirst());
      } catch (Throwable e) {
        System.out.println("escaped " + e);
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(v) FROM t")) {
        rs.next();
        System.out.println("rows " + rs.getLong(1) + " " + rs.getLong(2));
      }
      // A query whose aggregate of two grouping sets must hold 10^10 groups: the read path runs out
      // of memory the same way (a sort of them, or an aggregate of one grouping set, would write
      // them to disk instead, for a very long time; grouping sets do not account yet).
      try (ResultSet rs =
          s.executeQuery(
              "SELECT a.id, b.id, COUNT(*) FROM cj a, cj b"
                  + " GROUP BY GROUPING SETS ((a.id, b.id), (a.id))")) {
        rs.next();
        System.out.println("query succeeded");
      } catch (SQLException e) {
        System.out.println(
            "query failed " + e.getSQLState() + " " + e.getMessage().lines().findFirst());
      } catch (Throwable e) {
        System.out.println("query escaped " + e);
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM cj")) {
        rs.next();
        System.out.println("after query " + rs.getLong(1));
      }
    }
  }
}
