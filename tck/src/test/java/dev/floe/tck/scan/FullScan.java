package dev.floe.tck.scan;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The child program of {@link ScanMemoryTest}: for each JDBC URL given, runs {@code SELECT *} over
 * table {@code big}, fetches every value with its typed getter and prints the row count and the
 * checksum of {@link BigTable#rowHash}. It uses nothing but {@code java.sql} (and this class), so
 * its classpath can be the shaded driver jar alone.
 */
public final class FullScan {
  private FullScan() {}

  public static void main(String[] args) throws Exception {
    System.out.println("maxMemory " + Runtime.getRuntime().maxMemory());
    for (String url : args) {
      long rows = 0;
      long checksum = 0;
      long start = System.nanoTime();
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT * FROM big")) {
        while (rs.next()) {
          long id = rs.getLong(1);
          int k = rs.getInt(2);
          boolean kNull = rs.wasNull();
          String text = rs.getString(3);
          double v = rs.getDouble(4);
          boolean vNull = rs.wasNull();
          java.sql.Date d = rs.getDate(5);
          java.sql.Timestamp ts = rs.getTimestamp(6);
          checksum +=
              hash(
                  id,
                  kNull ? null : k,
                  text,
                  vNull ? null : v,
                  d == null ? null : d.toLocalDate().toEpochDay(),
                  ts == null ? null : micros(ts.toLocalDateTime()));
          rows++;
        }
      }
      System.out.printf(
          "scan %s rows %d checksum %d millis %d%n",
          url, rows, checksum, (System.nanoTime() - start) / 1_000_000);
    }
  }

  private static long micros(LocalDateTime t) {
    return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1_000;
  }

  /** The hash of one row; the checksum of a table is the sum over its rows. */
  static long hash(long id, Integer k, String text, Double v, Long day, Long micros) {
    long h = mix(id);
    h = mix(h ^ (k == null ? 0x5bd1e995L : k));
    h = mix(h ^ (text == null ? 0x27d4eb2fL : text.hashCode() + ((long) text.length() << 32)));
    h = mix(h ^ (v == null ? 0x165667b1L : Double.doubleToLongBits(v)));
    h = mix(h ^ (day == null ? 0x9e3779b9L : day));
    return mix(h ^ (micros == null ? 0x85ebca6bL : micros));
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
