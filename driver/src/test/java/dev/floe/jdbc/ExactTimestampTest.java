package dev.floe.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * Operations on TIMESTAMP(6) values whose answer depends on the digits below the millisecond are
 * exact, or refused (0A000); each expected value is computed in Java from the exact inputs.
 */
class ExactTimestampTest extends LakeFixture {
  /** Pairs (ts, ts2) chosen so that milliseconds alone would give a different answer. */
  private static final List<LocalDateTime[]> ROWS =
      List.of(
          pair("2024-01-01T12:00:00.000500", "2024-01-01T12:00:01.000499"),
          pair("1969-12-31T23:59:59.999999", "1970-01-01T00:00:00.000001"),
          pair("2024-01-15T10:00:00.000500", "2024-02-15T10:00:00.000100"),
          pair("1901-06-30T23:59:58.999001", "1901-06-30T21:00:00.000002"),
          pair("2024-02-28T23:59:59.999999", "2024-02-27T23:59:59.999998"),
          pair("2023-03-10T08:00:00.000002", "2024-03-10T08:00:00.000001"));

  private static LocalDateTime[] pair(String a, String b) {
    return new LocalDateTime[] {LocalDateTime.parse(a), LocalDateTime.parse(b)};
  }

  private Connection table() throws SQLException {
    Connection c = connect();
    execute(c, "CREATE TABLE t (id INT, ts TIMESTAMP, ts2 TIMESTAMP)");
    for (int i = 0; i < ROWS.size(); i++) {
      update(
          c,
          "INSERT INTO t VALUES ("
              + i
              + ", TIMESTAMP '"
              + text(ROWS.get(i)[0])
              + "', TIMESTAMP '"
              + text(ROWS.get(i)[1])
              + "')");
    }
    return c;
  }

  private static String text(LocalDateTime value) {
    return value.toString().replace('T', ' ');
  }

  /** Each row's value of an expression, read with {@code getObject(1, type)}, in id order. */
  private static <T> List<T> column(Connection c, String expression, Class<T> type)
      throws SQLException {
    List<T> values = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + expression + " FROM t ORDER BY id")) {
      while (rs.next()) {
        values.add(rs.getObject(1, type));
      }
    }
    return values;
  }

  private static <T> List<T> expected(BiFunction<LocalDateTime, LocalDateTime, T> f) {
    List<T> values = new ArrayList<>();
    for (LocalDateTime[] row : ROWS) {
      values.add(f.apply(row[0], row[1]));
    }
    return values;
  }

  private static LocalDateTime ceil(LocalDateTime value, TemporalUnit unit) {
    LocalDateTime floor = value.truncatedTo(unit);
    return floor.equals(value) ? floor : floor.plus(unit.getDuration());
  }

  private static long micros(LocalDateTime a, LocalDateTime b) {
    return ChronoUnit.MICROS.between(a, b);
  }

  @Test
  void extractSeesEveryDigit() throws Exception {
    try (Connection c = table()) {
      assertThat(column(c, "EXTRACT(MICROSECOND FROM ts)", Long.class))
          .isEqualTo(expected((a, b) -> a.getSecond() * 1_000_000L + a.getNano() / 1_000));
      assertThat(column(c, "EXTRACT(NANOSECOND FROM ts)", Long.class))
          .isEqualTo(expected((a, b) -> a.getSecond() * 1_000_000_000L + a.getNano()));
      assertThat(column(c, "EXTRACT(MILLISECOND FROM ts)", Long.class))
          .isEqualTo(expected((a, b) -> a.getSecond() * 1_000L + a.getNano() / 1_000_000));
      assertThat(column(c, "EXTRACT(SECOND FROM ts)", Long.class))
          .isEqualTo(expected((a, b) -> (long) a.getSecond()));
      assertThat(column(c, "EXTRACT(MINUTE FROM ts)", Long.class))
          .isEqualTo(expected((a, b) -> (long) a.getMinute()));
      assertThat(column(c, "EXTRACT(HOUR FROM ts)", Long.class))
          .isEqualTo(expected((a, b) -> (long) a.getHour()));
      assertThat(column(c, "EXTRACT(DAY FROM ts)", Long.class))
          .isEqualTo(expected((a, b) -> (long) a.getDayOfMonth()));
      assertThat(column(c, "EXTRACT(MONTH FROM ts)", Long.class))
          .isEqualTo(expected((a, b) -> (long) a.getMonthValue()));
      assertThat(column(c, "EXTRACT(YEAR FROM ts)", Long.class))
          .isEqualTo(expected((a, b) -> (long) a.getYear()));
      // Whole seconds since the epoch, cut towards zero as Calcite does for milliseconds.
      assertThat(column(c, "EXTRACT(EPOCH FROM ts)", Long.class))
          .isEqualTo(
              expected(
                  (a, b) ->
                      BigDecimal.valueOf(micros(LocalDateTime.of(1970, 1, 1, 0, 0), a), 6)
                          .setScale(0, RoundingMode.DOWN)
                          .longValueExact()));
    }
  }

  @Test
  void floorAndCeilRoundEveryDigit() throws Exception {
    try (Connection c = table()) {
      assertThat(column(c, "CEIL(ts TO SECOND)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> ceil(a, ChronoUnit.SECONDS)));
      assertThat(column(c, "CEIL(ts TO MILLISECOND)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> ceil(a, ChronoUnit.MILLIS)));
      assertThat(column(c, "CEIL(ts TO MINUTE)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> ceil(a, ChronoUnit.MINUTES)));
      assertThat(column(c, "CEIL(ts TO DAY)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> ceil(a, ChronoUnit.DAYS)));
      assertThat(column(c, "CEIL(ts TO MICROSECOND)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a));
      assertThat(column(c, "FLOOR(ts TO MICROSECOND)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a));
      assertThat(column(c, "FLOOR(ts TO MILLISECOND)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.truncatedTo(ChronoUnit.MILLIS)));
      assertThat(column(c, "FLOOR(ts TO SECOND)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.truncatedTo(ChronoUnit.SECONDS)));
      assertThat(column(c, "FLOOR(ts TO HOUR)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.truncatedTo(ChronoUnit.HOURS)));
      assertThat(column(c, "FLOOR(ts TO DAY)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.truncatedTo(ChronoUnit.DAYS)));
      assertThat(column(c, "FLOOR(ts TO MONTH)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.toLocalDate().withDayOfMonth(1).atStartOfDay()));
    }
  }

  @Test
  void timestampDiffCountsWholeUnitsFromEveryDigit() throws Exception {
    try (Connection c = table()) {
      assertThat(column(c, "TIMESTAMPDIFF(SECOND, ts, ts2)", Long.class))
          .isEqualTo(expected((a, b) -> micros(a, b) / 1_000_000));
      assertThat(column(c, "TIMESTAMPDIFF(MINUTE, ts, ts2)", Long.class))
          .isEqualTo(expected((a, b) -> micros(a, b) / 60_000_000));
      assertThat(column(c, "TIMESTAMPDIFF(HOUR, ts, ts2)", Long.class))
          .isEqualTo(expected((a, b) -> micros(a, b) / 3_600_000_000L));
      assertThat(column(c, "TIMESTAMPDIFF(DAY, ts, ts2)", Long.class))
          .isEqualTo(expected((a, b) -> micros(a, b) / 86_400_000_000L));
      // The rows avoid month ends, where Calcite and java.time count months differently.
      assertThat(column(c, "TIMESTAMPDIFF(MONTH, ts, ts2)", Long.class))
          .isEqualTo(expected((a, b) -> ChronoUnit.MONTHS.between(a, b)));
      assertThat(column(c, "TIMESTAMPDIFF(YEAR, ts2, ts)", Long.class))
          .isEqualTo(expected((a, b) -> ChronoUnit.YEARS.between(b, a)));
    }
  }

  @Test
  void monthArithmeticAndCastsKeepOrCutDigitsExactly() throws Exception {
    try (Connection c = table()) {
      assertThat(column(c, "ts + INTERVAL '1' MONTH", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.plusMonths(1)));
      assertThat(column(c, "TIMESTAMPADD(YEAR, -1, ts)", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.minusYears(1)));
      assertThat(column(c, "ts + INTERVAL '1.5' SECOND", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.plusNanos(1_500_000_000L)));
      assertThat(column(c, "CAST(ts AS DATE)", LocalDate.class))
          .isEqualTo(expected((a, b) -> a.toLocalDate()));
      assertThat(column(c, "CAST(ts AS TIMESTAMP(3))", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.truncatedTo(ChronoUnit.MILLIS)));
      assertThat(column(c, "CAST(ts AS TIMESTAMP(0))", LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a.truncatedTo(ChronoUnit.SECONDS)));
      assertThat(column(c, "CAST(ts AS TIMESTAMP WITH LOCAL TIME ZONE)", Instant.class))
          .isEqualTo(expected((a, b) -> a.toInstant(ZoneOffset.UTC)));
      assertThat(
              column(
                  c,
                  "CAST(CAST(ts AS TIMESTAMP WITH LOCAL TIME ZONE) AS TIMESTAMP)",
                  LocalDateTime.class))
          .isEqualTo(expected((a, b) -> a));
      assertThat(column(c, "CAST(ts AS TIME)", java.time.LocalTime.class))
          .isEqualTo(expected((a, b) -> a.toLocalTime()));
    }
  }

  @Test
  void comparisonsOrderingGroupingAndMinMaxUseEveryDigit() throws Exception {
    try (Connection c = table()) {
      assertThat(column(c, "ts < ts2", Boolean.class)).isEqualTo(expected((a, b) -> a.isBefore(b)));
      List<Integer> byTs = new ArrayList<>();
      for (int i = 0; i < ROWS.size(); i++) {
        byTs.add(i);
      }
      byTs.sort((x, y) -> ROWS.get(x)[0].compareTo(ROWS.get(y)[0]));
      List<Integer> ordered = new ArrayList<>();
      for (List<String> row : rows(c, "SELECT id FROM t ORDER BY ts")) {
        ordered.add(Integer.parseInt(row.get(0)));
      }
      assertThat(ordered).isEqualTo(byTs);
      LocalDateTime min = ROWS.get(byTs.get(0))[0];
      LocalDateTime max = ROWS.get(byTs.get(byTs.size() - 1))[0];
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT MIN(ts), MAX(ts) FROM t")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getObject(1, LocalDateTime.class)).isEqualTo(min);
        assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(max);
      }
      long days = ROWS.stream().map(r -> r[0].toLocalDate()).distinct().count();
      assertThat(rows(c, "SELECT FLOOR(ts TO DAY), COUNT(*) FROM t GROUP BY FLOOR(ts TO DAY)"))
          .hasSize((int) days);
    }
  }

  @Test
  void operationsThatWouldComputeInMillisecondsAreRefused() throws Exception {
    try (Connection c = table()) {
      for (String sql :
          List.of(
              "SELECT (ts2 - ts) SECOND FROM t",
              "SELECT (ts2 - ts) DAY TO SECOND FROM t",
              "SELECT id FROM t WHERE (ts2 - ts) HOUR > INTERVAL '1' HOUR",
              "SELECT TIMESTAMPDIFF(MICROSECOND, ts, ts2) FROM t",
              "SELECT TIMESTAMPDIFF(MILLISECOND, ts, ts2) FROM t",
              "SELECT TIMESTAMPADD(MICROSECOND, 1, ts) FROM t",
              "SELECT ts + INTERVAL '0.000001' SECOND FROM t")) {
        assertThatThrownBy(() -> rows(c, sql))
            .as(sql)
            .isInstanceOf(SQLException.class)
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("0A000");
      }
    }
  }
}
