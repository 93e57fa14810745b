package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SQL types and {@code getObject} classes of the type table (docs/sql.md, "Types") for columns
 * of Iceberg tables written by Iceberg's own Java API, including the JDBC getters that must not
 * shift old dates or drop microseconds, and access into nested values.
 */
class TypeMappingTest {
  private static Connection connection;

  @BeforeAll
  static void open() throws SQLException {
    connection = DriverManager.getConnection(ReferenceLake.shared().url());
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void everyIcebergTypeHasItsSqlTypeAndDefaultJavaClass(int version) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM all_types_v" + version + " WHERE id = 4")) {
      ResultSetMetaData meta = rs.getMetaData();
      assertThat(meta.getColumnType(2)).isEqualTo(Types.BOOLEAN);
      assertThat(meta.getColumnType(3)).isEqualTo(Types.INTEGER);
      assertThat(meta.getColumnType(4)).isEqualTo(Types.BIGINT);
      assertThat(meta.getColumnType(5)).isEqualTo(Types.REAL);
      assertThat(meta.getColumnType(6)).isEqualTo(Types.DOUBLE);
      assertThat(meta.getColumnType(7)).isEqualTo(Types.DECIMAL);
      assertThat(meta.getPrecision(7)).isEqualTo(38);
      assertThat(meta.getScale(7)).isEqualTo(10);
      assertThat(meta.getPrecision(8)).isEqualTo(9);
      assertThat(meta.getScale(8)).isEqualTo(2);
      assertThat(meta.getColumnType(9)).isEqualTo(Types.DATE);
      assertThat(meta.getColumnType(10)).isEqualTo(Types.TIME);
      assertThat(meta.getColumnType(11)).isEqualTo(Types.TIMESTAMP);
      assertThat(meta.getColumnType(13)).isEqualTo(Types.VARCHAR);
      assertThat(meta.getColumnType(15)).isEqualTo(Types.BINARY);
      assertThat(meta.getColumnType(16)).isEqualTo(Types.VARBINARY);

      assertThat(rs.next()).isTrue();
      assertThat(rs.getObject(2)).isInstanceOf(Boolean.class);
      assertThat(rs.getObject(3)).isInstanceOf(Integer.class);
      assertThat(rs.getObject(4)).isInstanceOf(Long.class);
      assertThat(rs.getObject(5)).isEqualTo(-0.0f);
      assertThat(rs.getObject(6)).isEqualTo(-0.0d);
      assertThat(rs.getObject(7)).isEqualTo(new BigDecimal("0E-10"));
      assertThat(rs.getObject(8)).isEqualTo(new BigDecimal("0.00"));
      assertThat(rs.getObject(9)).isInstanceOf(java.sql.Date.class);
      assertThat(rs.getObject(10)).isInstanceOf(java.sql.Time.class);
      assertThat(rs.getObject(11)).isInstanceOf(Timestamp.class);
      assertThat(rs.getObject(12)).isInstanceOf(Timestamp.class);
      assertThat(rs.getObject(13)).isEqualTo("日本語 ünïcödé 😀 𝄞 عربى");
      assertThat(rs.getObject(14))
          .isEqualTo(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
      assertThat(rs.getString(14)).isEqualTo("123e4567-e89b-12d3-a456-426614174000");
      assertThat(rs.getObject(15)).isInstanceOf(byte[].class);
      assertThat(rs.getObject(16)).isEqualTo(new byte[] {0, 1, 0, (byte) 0xFE});
      assertThat(rs.next()).isFalse();
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void oldDatesAndMicrosecondsSurviveTheJavaSqlGetters(int version) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT dt, ts, tstz FROM all_types_v"
                    + version
                    + " WHERE id IN (2, 3) ORDER BY id")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getDate(1).toLocalDate()).isEqualTo(LocalDate.of(1, 1, 1));
      assertThat(rs.getTimestamp(2).toLocalDateTime()).isEqualTo(LocalDateTime.of(1, 1, 1, 0, 0));
      assertThat(rs.getObject(3, Instant.class)).isEqualTo(Instant.parse("0001-01-01T00:00:00Z"));
      assertThat(rs.next()).isTrue();
      assertThat(rs.getDate(1).toLocalDate()).isEqualTo(LocalDate.of(9999, 12, 31));
      Timestamp last = rs.getTimestamp(2);
      assertThat(last.toLocalDateTime())
          .isEqualTo(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000));
      assertThat(last.getNanos()).isEqualTo(999_999_000);
      assertThat(rs.getTimestamp(3).toInstant())
          .isEqualTo(Instant.parse("9999-12-31T23:59:59.999999Z"));
      assertThat(rs.getString(2)).startsWith("9999-12-31 23:59:59.999999");
    }
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void timesAreExactToTheMicrosecondThroughEveryGetter(int version) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT tm, CAST(tm AS VARCHAR) FROM all_types_v"
                    + version
                    + " WHERE id IN (3, 4, 5) ORDER BY tm")) {
      ResultSetMetaData meta = rs.getMetaData();
      assertThat(meta.getColumnType(1)).isEqualTo(Types.TIME);
      assertThat(meta.getScale(1)).isEqualTo(6);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getObject(1, java.time.LocalTime.class))
          .isEqualTo(java.time.LocalTime.of(0, 0, 0, 1_000));
      assertThat(rs.getString(1)).isEqualTo("00:00:00.000001");
      assertThat(rs.getString(2)).isEqualTo("00:00:00.000001");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getObject(1, java.time.LocalTime.class))
          .isEqualTo(java.time.LocalTime.of(12, 34, 56, 123_456_000));
      assertThat(rs.getString(1)).isEqualTo("12:34:56.123456");
      // java.sql.Time holds milliseconds: the microseconds are cut, not rounded.
      assertThat(Math.floorMod(rs.getTime(1).getTime(), 1000L)).isEqualTo(123L);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("23:59:59.999999");
      assertThat(Math.floorMod(rs.getTime(1).getTime(), 1000L)).isEqualTo(999L);
      assertThat(rs.next()).isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"st", "tags", "items", "counts", "series"})
  void nestedColumnsComeBackAsStructArrayAndMap(String column) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + column + " FROM nested WHERE id = 2")) {
      assertThat(rs.next()).isTrue();
      Object value = rs.getObject(1);
      switch (column) {
        case "st" -> assertThat(value).isInstanceOf(Struct.class);
        case "tags", "items" -> assertThat(value).isInstanceOf(Array.class);
        default -> assertThat(value).isInstanceOf(Map.class);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "st.a|7",
        "st.b|seven",
        "st.c.x|1.5",
        "tags[1]|a",
        "tags[3]|日本",
        "items[2].k|2",
        "counts['x']|1",
        "cardinality(tags)|3"
      })
  void nestedValuesAreReachableByFieldIndexAndKey(String expressionAndValue) throws SQLException {
    String[] parts = expressionAndValue.split("\\|");
    String expression = parts[0].startsWith("st.") ? "n." + parts[0] : parts[0];
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + expression + " FROM nested n WHERE id = 2")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo(parts[1]);
    }
  }

  /** Each row's value of an expression over {@code nested_times}, in id order (id 99: nulls). */
  private static <T> java.util.List<T> nestedTimes(String expression, Class<T> type)
      throws SQLException {
    java.util.List<T> values = new java.util.ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT " + expression + " FROM nested_times n ORDER BY id")) {
      while (rs.next()) {
        values.add(rs.getObject(1, type));
      }
    }
    return values;
  }

  private static <T> java.util.List<T> expectedNested(
      java.util.function.Function<LocalDateTime, T> f) {
    java.util.List<T> values = new java.util.ArrayList<>();
    for (LocalDateTime ts : ReferenceLake.NESTED_TIMESTAMPS) {
      values.add(f.apply(ts));
    }
    values.add(null);
    return values;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"n.st.ts", "n.sts[1].ts", "n.tss[1]", "n.m['k']"})
  void timestampsInsideNestedValuesAreExactByFieldIndexAndKey(String expression)
      throws SQLException {
    assertThat(nestedTimes(expression, LocalDateTime.class)).isEqualTo(expectedNested(ts -> ts));
    assertThat(nestedTimes(expression, Timestamp.class))
        .isEqualTo(expectedNested(Timestamp::valueOf));
    assertThat(nestedTimes(expression, String.class))
        .isEqualTo(expectedNested(ts -> ts.toString().replace('T', ' ')));
  }

  @Test
  void laterElementsAndKeysAreExactToo() throws SQLException {
    assertThat(nestedTimes("n.tss[3]", LocalDateTime.class))
        .isEqualTo(expectedNested(ts -> ts.plusNanos(1_001_000L)));
    assertThat(nestedTimes("n.m['later']", LocalDateTime.class))
        .isEqualTo(expectedNested(ts -> ts.plusNanos(1_001_000L)));
    assertThat(nestedTimes("n.tss[2]", LocalDateTime.class)).containsOnlyNulls();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"n.st.t", "n.sts[1].t", "n.tms[1]"})
  void timesInsideNestedValuesAreExactByFieldAndIndex(String expression) throws SQLException {
    assertThat(nestedTimes(expression, java.time.LocalTime.class))
        .isEqualTo(expectedNested(LocalDateTime::toLocalTime));
    // java.sql.Time holds milliseconds: the rest is cut, never rounded up.
    assertThat(nestedTimes(expression, java.sql.Time.class))
        .extracting(t -> t == null ? null : Math.floorMod(t.getTime(), 1000L))
        .isEqualTo(expectedNested(ts -> (long) ts.getNano() / 1_000_000));
  }

  @Test
  void zonedTimestampsAndDatesInsideNestedValuesAreExact() throws SQLException {
    assertThat(nestedTimes("n.st.tz", Instant.class))
        .isEqualTo(expectedNested(ts -> ts.toInstant(java.time.ZoneOffset.UTC)));
    assertThat(nestedTimes("n.st.d", LocalDate.class))
        .isEqualTo(expectedNested(LocalDateTime::toLocalDate));
    assertThat(nestedTimes("n.st.d", java.sql.Date.class))
        .extracting(d -> d == null ? null : d.toLocalDate())
        .isEqualTo(expectedNested(LocalDateTime::toLocalDate));
  }

  @Test
  void nestedTimestampsCompareExactly() throws SQLException {
    LocalDateTime bound = LocalDateTime.parse("1969-12-31T23:59:59.999998");
    java.util.List<Integer> expected = new java.util.ArrayList<>();
    for (int id = 0; id < ReferenceLake.NESTED_TIMESTAMPS.size(); id++) {
      if (ReferenceLake.NESTED_TIMESTAMPS.get(id).isAfter(bound)) {
        expected.add(id);
      }
    }
    java.util.List<Integer> ids = new java.util.ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT id FROM nested_times n WHERE n.st.ts > TIMESTAMP '"
                    + bound.toString().replace('T', ' ')
                    + "' AND n.tss[1] > TIMESTAMP '"
                    + bound.toString().replace('T', ' ')
                    + "' ORDER BY id")) {
      while (rs.next()) {
        ids.add(rs.getInt(1));
      }
    }
    assertThat(ids).isEqualTo(expected);
  }

  @Test
  void wholeNestedValuesHoldingTimesComeBackExact() throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT st, tss, tms, m, sts FROM nested_times ORDER BY id")) {
      for (LocalDateTime ts : ReferenceLake.NESTED_TIMESTAMPS) {
        LocalDateTime later = ts.plusNanos(1_001_000L);
        assertThat(rs.next()).isTrue();
        Object[] st = ((Struct) rs.getObject(1)).getAttributes();
        assertThat(((java.sql.Time) st[0]).getTime()).isEqualTo(millisOfDay(ts));
        assertThat(((Timestamp) st[1]).toLocalDateTime()).isEqualTo(ts);
        assertThat(((Timestamp) st[1]).getNanos()).isEqualTo(ts.getNano());
        assertThat(((Timestamp) st[2]).toInstant())
            .isEqualTo(ts.toInstant(java.time.ZoneOffset.UTC));
        assertThat(((java.sql.Date) st[3]).toLocalDate()).isEqualTo(ts.toLocalDate());
        Object[] tss = (Object[]) rs.getArray(2).getArray();
        assertThat(tss).hasSize(3);
        assertThat(((Timestamp) tss[0]).toLocalDateTime()).isEqualTo(ts);
        assertThat(tss[1]).isNull();
        assertThat(((Timestamp) tss[2]).toLocalDateTime()).isEqualTo(later);
        assertThat(rs.getString(2)).contains(Timestamp.valueOf(later).toString());
        Object[] tms = (Object[]) ((Array) rs.getObject(3)).getArray();
        assertThat(((java.sql.Time) tms[0]).getTime()).isEqualTo(millisOfDay(ts));
        assertThat(((java.sql.Time) tms[1]).getTime()).isEqualTo(millisOfDay(later));
        Map<?, ?> m = (Map<?, ?>) rs.getObject(4);
        assertThat(((Timestamp) m.get("k")).toLocalDateTime()).isEqualTo(ts);
        assertThat(((Timestamp) m.get("later")).toLocalDateTime()).isEqualTo(later);
        Object[] sts = (Object[]) rs.getArray(5).getArray();
        Object[] listed = ((Struct) sts[0]).getAttributes();
        assertThat(((Timestamp) listed[1]).toLocalDateTime()).isEqualTo(ts);
        assertThat(((java.sql.Date) listed[3]).toLocalDate()).isEqualTo(ts.toLocalDate());
      }
      assertThat(rs.next()).isTrue();
      assertThat(((Struct) rs.getObject(1)).getAttributes()).containsOnlyNulls();
      for (int column = 2; column <= 5; column++) {
        assertThat(rs.getObject(column)).isNull();
        assertThat(rs.wasNull()).isTrue();
      }
      assertThat(rs.next()).isFalse();
    }
  }

  /** What a java.sql.Time of a timestamp's time of day holds: milliseconds, cut. */
  private static long millisOfDay(LocalDateTime ts) {
    return java.sql.Time.valueOf(ts.toLocalTime()).getTime() + ts.getNano() / 1_000_000;
  }
}
