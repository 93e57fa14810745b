package dev.floe.planner.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class FilterSqlTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(3, "tz", Types.TimestampType.withZone()),
          Types.NestedField.optional(4, "d", Types.DateType.get()),
          Types.NestedField.optional(5, "name", Types.StringType.get()));

  @Test
  void literalsAreSpelledForTheirColumnsType() {
    long june3 = 1_717_372_800_000_000L; // 2024-06-03T00:00:00Z in micros
    String sql =
        FilterSql.of(
            Expressions.and(
                Expressions.greaterThanOrEqual("ts", june3),
                Expressions.and(
                    Expressions.equal("d", 19724),
                    Expressions.or(
                        Expressions.lessThan("tz", june3 + 1_500_000L),
                        Expressions.in("name", "o'k", "b")))),
            SCHEMA,
            ZoneId.of("Europe/Paris"));
    assertThat(sql)
        .isEqualTo(
            "ts >= TIMESTAMP '2024-06-03 00:00:00' AND d = DATE '2024-01-02' AND (tz <"
                + " TIMESTAMP WITH LOCAL TIME ZONE '2024-06-03 02:00:01.5' OR name IN ('b', 'o''k'))");
  }

  @Test
  void nullTestsAndNegation() {
    assertThat(FilterSql.of(Expressions.not(Expressions.isNull("name")), SCHEMA, ZoneId.of("UTC")))
        .isEqualTo("NOT (name IS NULL)");
  }
}
