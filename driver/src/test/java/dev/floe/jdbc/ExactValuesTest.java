package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ExactValuesTest extends LakeFixture {
  @Test
  void microsecondTimestampsRoundTripThroughLiteralsParametersAndGetters() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, ts TIMESTAMP)");
      update(c, "INSERT INTO t VALUES (1, TIMESTAMP '2024-02-29 23:59:59.123456')");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
        p.setInt(1, 2);
        p.setObject(2, LocalDateTime.parse("2024-02-29T23:59:59.654321"));
        p.executeUpdate();
        Timestamp ts = Timestamp.valueOf("1969-12-31 23:59:59.999999");
        p.setInt(1, 3);
        p.setTimestamp(2, ts);
        p.executeUpdate();
      }
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT id, ts FROM t ORDER BY id")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(2, LocalDateTime.class))
            .isEqualTo(LocalDateTime.parse("2024-02-29T23:59:59.123456"));
        assertThat(rs.getTimestamp(2).getNanos()).isEqualTo(123_456_000);
        assertThat(rs.getString(2)).isEqualTo("2024-02-29 23:59:59.123456");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getTimestamp(2).toLocalDateTime())
            .isEqualTo(LocalDateTime.parse("2024-02-29T23:59:59.654321"));
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(2, LocalDateTime.class))
            .isEqualTo(LocalDateTime.parse("1969-12-31T23:59:59.999999"));
      }
      assertThat(
              single(
                  c,
                  "SELECT count(*) FROM t WHERE ts > TIMESTAMP '2024-02-29 23:59:59.123455'"
                      + " AND ts < TIMESTAMP '2024-02-29 23:59:59.123457'"))
          .isEqualTo("1");
      try (PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE ts = ?")) {
        p.setTimestamp(1, Timestamp.valueOf("2024-02-29 23:59:59.654321"));
        try (ResultSet rs = p.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(2);
          assertThat(rs.next()).isFalse();
        }
      }
    }
  }

  @Test
  void arithmeticAndCastsKeepEveryDigit() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (ts TIMESTAMP)");
      update(c, "INSERT INTO t VALUES (TIMESTAMP '2024-02-29 23:59:59.123456')");
      assertThat(
              rows(
                  c,
                  "SELECT ts + INTERVAL '1' DAY, CAST(ts AS VARCHAR), CAST(ts AS DATE),"
                      + " EXTRACT(HOUR FROM ts), CAST('2001-02-03 04:05:06.789012' AS TIMESTAMP)"
                      + " FROM t"))
          .containsExactly(
              List.of(
                  "2024-03-01 23:59:59.123456",
                  "2024-02-29 23:59:59.123456",
                  "2024-02-29",
                  "23",
                  "2001-02-03 04:05:06.789012"));
      // Constant folding must not round to milliseconds either.
      assertThat(
              single(
                  c, "SELECT TIMESTAMP '2000-01-01 00:00:00.000001' + INTERVAL '1' SECOND FROM t"))
          .isEqualTo("2000-01-01 00:00:01.000001");
    }
  }

  @Test
  void datesAndTimestampsAtTheEdgesOfTheCalendarComeBackUnchanged() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (d DATE, ts TIMESTAMP)");
      update(
          c,
          "INSERT INTO t VALUES (DATE '0001-01-01', TIMESTAMP '0001-01-01 00:00:00'),"
              + " (DATE '9999-12-31', TIMESTAMP '9999-12-31 23:59:59.999999')");
      // The SQL parser checks literals against the Julian/Gregorian hybrid calendar, so a date in
      // its gap goes in as a parameter; storage and getters are proleptic Gregorian throughout.
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
        p.setObject(1, LocalDate.of(1582, 10, 10));
        p.setObject(2, LocalDateTime.of(1582, 10, 10, 12, 0));
        p.executeUpdate();
      }
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT d, ts FROM t ORDER BY d")) {
        rs.next();
        assertThat(rs.getObject(1, LocalDate.class)).isEqualTo(LocalDate.of(1, 1, 1));
        assertThat(rs.getDate(1).toLocalDate()).isEqualTo(LocalDate.of(1, 1, 1));
        assertThat(rs.getDate(1).toString()).isEqualTo("0001-01-01");
        assertThat(rs.getTimestamp(2).toLocalDateTime()).isEqualTo(LocalDateTime.of(1, 1, 1, 0, 0));
        rs.next();
        // 1582-10-10 does not exist in the Julian/Gregorian hybrid calendar; Floe is proleptic.
        assertThat(rs.getObject(1, LocalDate.class)).isEqualTo(LocalDate.of(1582, 10, 10));
        assertThat(rs.getString(1)).isEqualTo("1582-10-10");
        assertThat(rs.getObject(2, LocalDateTime.class))
            .isEqualTo(LocalDateTime.of(1582, 10, 10, 12, 0));
        rs.next();
        assertThat(rs.getDate(1)).isEqualTo(Date.valueOf(LocalDate.of(9999, 12, 31)));
        assertThat(rs.getObject(2, LocalDateTime.class))
            .isEqualTo(LocalDateTime.parse("9999-12-31T23:59:59.999999"));
      }
    }
  }

  @Test
  void timestampsWithLocalTimeZoneAreInstantsShownInTheSessionZone() throws Exception {
    try (Connection c = connect("timeZone=Asia/Kolkata")) {
      execute(c, "CREATE TABLE t (happened TIMESTAMP WITH LOCAL TIME ZONE)");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?)")) {
        p.setObject(1, OffsetDateTime.parse("2024-01-01T00:00:00.000001Z"));
        p.executeUpdate();
      }
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT happened FROM t")) {
        rs.next();
        assertThat(rs.getObject(1, Instant.class))
            .isEqualTo(Instant.parse("2024-01-01T00:00:00.000001Z"));
        assertThat(rs.getObject(1, OffsetDateTime.class).getOffset()).isEqualTo(ZoneOffset.UTC);
        assertThat(rs.getObject(1, LocalDateTime.class))
            .isEqualTo(LocalDateTime.parse("2024-01-01T05:30:00.000001"));
      }
    }
  }

  @Test
  void decimalsKeepThirtyEightDigitsAndStringsKeepEveryCharacter() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (d DECIMAL(38, 10), s VARCHAR, u UUID, b VARBINARY)");
      update(
          c,
          "INSERT INTO t VALUES (1234567890123456789012345678.0123456789, '日本 😀 ünï', "
              + "CAST('123e4567-e89b-12d3-a456-426614174000' AS UUID), X'00FF10')");
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT d, s, u, b FROM t")) {
        rs.next();
        assertThat(rs.getBigDecimal(1))
            .isEqualTo(new BigDecimal("1234567890123456789012345678.0123456789"));
        assertThat(rs.getString(2)).isEqualTo("日本 😀 ünï");
        assertThat(rs.getObject(3, UUID.class))
            .isEqualTo(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
        assertThat(rs.getBytes(4)).containsExactly(0x00, 0xFF, 0x10);
      }
      assertThat(single(c, "SELECT count(*) FROM t WHERE s = '日本 😀 ünï'")).isEqualTo("1");
    }
  }

  @Test
  void specialFloatingPointValuesArePreserved() throws Exception {
    try (Connection c = connect()) {
      execute(c, "CREATE TABLE t (id INT, x DOUBLE, y REAL)");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
        double[] values = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0d};
        for (int i = 0; i < values.length; i++) {
          p.setInt(1, i);
          p.setDouble(2, values[i]);
          p.setFloat(3, (float) values[i]);
          p.addBatch();
        }
        p.executeBatch();
      }
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT x, y FROM t ORDER BY id")) {
        rs.next();
        assertThat(rs.getDouble(1)).isNaN();
        assertThat(rs.getFloat(2)).isNaN();
        rs.next();
        assertThat(rs.getDouble(1)).isEqualTo(Double.POSITIVE_INFINITY);
        rs.next();
        assertThat(rs.getDouble(1)).isEqualTo(Double.NEGATIVE_INFINITY);
        rs.next();
        assertThat(Double.doubleToRawLongBits(rs.getDouble(1)))
            .isEqualTo(Double.doubleToRawLongBits(-0.0d));
      }
    }
  }
}
