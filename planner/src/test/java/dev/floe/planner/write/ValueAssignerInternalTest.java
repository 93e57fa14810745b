package dev.floe.planner.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The shortcut of {@link ValueAssigner#assignInternal} for values whose assignment is a change of
 * form only gives exactly what the general assignment gives, converted to Iceberg's internal
 * representation: the same value, or the same error.
 */
class ValueAssignerInternalTest {
  private static final List<Type> TYPES =
      List.of(
          Types.LongType.get(),
          Types.IntegerType.get(),
          Types.DoubleType.get(),
          Types.FloatType.get(),
          Types.BooleanType.get(),
          Types.StringType.get(),
          Types.DecimalType.of(5, 2),
          Types.DecimalType.of(38, 0),
          Types.DateType.get(),
          Types.TimeType.get(),
          Types.TimestampType.withoutZone(),
          Types.TimestampType.withZone(),
          Types.TimestampNanoType.withoutZone(),
          Types.TimestampNanoType.withZone(),
          Types.UUIDType.get(),
          Types.FixedType.ofLength(4),
          Types.BinaryType.get());

  private static final List<Object> VALUES =
      Arrays.asList(
          5L,
          Long.MAX_VALUE,
          Long.MIN_VALUE,
          7,
          Integer.MIN_VALUE,
          (short) 3,
          (byte) -4,
          -0.0d,
          Double.NaN,
          1e300,
          1.5f,
          Float.NEGATIVE_INFINITY,
          true,
          "text",
          " 42 ",
          "2024-02-29",
          "2024-02-29 10:11:12.123456789",
          "10:11:12.5",
          new BigDecimal("1.005"),
          new BigDecimal("123.45"),
          new BigDecimal("999.999"),
          new BigDecimal("-0.01"),
          new BigDecimal("12345678901234567890123456789012345678"),
          LocalDate.of(2024, 2, 29),
          LocalDate.of(1, 1, 1),
          LocalDate.of(1969, 12, 31),
          java.sql.Date.valueOf("2024-02-29"),
          LocalDateTime.of(2024, 2, 29, 10, 11, 12, 123_456_789),
          LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
          LocalDateTime.of(1, 1, 1, 0, 0),
          LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
          java.sql.Timestamp.valueOf("1969-12-31 23:59:59.000000001"),
          LocalTime.of(23, 59, 59, 999_999_999),
          UUID.fromString("00000000-0000-0001-0000-000000000002"),
          new byte[] {1, 2},
          ByteBuffer.wrap(new byte[] {3}));

  @Test
  void theShortcutGivesWhatTheGeneralAssignmentGives() {
    List<WritePlan.SourceType> sources =
        Arrays.asList(
            WritePlan.SourceType.JDBC,
            null,
            new WritePlan.SourceType("BIGINT", -1, -1),
            new WritePlan.SourceType("VARCHAR", -1, -1),
            new WritePlan.SourceType("DATE", -1, -1));
    int compared = 0;
    for (Type type : TYPES) {
      for (WritePlan.SourceType source : sources) {
        for (boolean required : new boolean[] {false, true}) {
          Types.NestedField field =
              required
                  ? Types.NestedField.required(1, "c", type)
                  : Types.NestedField.optional(1, "c", type);
          ValueAssigner assigner;
          try {
            assigner = new ValueAssigner("c", field, source);
          } catch (FloeException refusedWhenPlanned) {
            continue;
          }
          for (Object value : VALUES) {
            assertThat(outcome(() -> assigner.assignInternal(value)))
                .as("%s from %s into %s", value, source, type)
                .isEqualTo(outcome(() -> ValueAssigner.internal(type, assigner.assign(value))));
            compared++;
          }
          assertThat(outcome(() -> assigner.assignInternal(null)))
              .isEqualTo(outcome(() -> ValueAssigner.internal(type, assigner.assign(null))));
        }
      }
    }
    assertThat(compared).isGreaterThan(1000);
  }

  @Test
  void datesAndTimestampsBecomeDaysAndUnitsSinceTheEpoch() {
    ValueAssigner date =
        new ValueAssigner(
            "d",
            Types.NestedField.optional(1, "d", Types.DateType.get()),
            WritePlan.SourceType.JDBC);
    assertThat(date.assignInternal(LocalDate.of(1969, 12, 31))).isEqualTo(-1);
    ValueAssigner micros =
        new ValueAssigner(
            "ts",
            Types.NestedField.optional(1, "ts", Types.TimestampType.withoutZone()),
            WritePlan.SourceType.JDBC);
    assertThat(micros.assignInternal(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999)))
        .isEqualTo(-1L);
    ValueAssigner nanos =
        new ValueAssigner(
            "ts",
            Types.NestedField.optional(1, "ts", Types.TimestampNanoType.withoutZone()),
            WritePlan.SourceType.JDBC);
    assertThat(nanos.assignInternal(LocalDateTime.of(1970, 1, 1, 0, 0, 0, 7))).isEqualTo(7L);
  }

  @Test
  void aTimeOutOfADaysRangeIs22007NotABareError() {
    // a nested value's source is not known (null): an Integer is millis, a Long micros of the day
    for (WritePlan.SourceType source : new WritePlan.SourceType[] {null}) {
      ValueAssigner time =
          new ValueAssigner("t", Types.NestedField.optional(1, "t", Types.TimeType.get()), source);
      for (Object value : new Object[] {86_400_000, -1, 86_400_000_000L, -5L}) {
        assertThatThrownBy(() -> time.assign(value))
            .as("%s from %s", value, source)
            .isInstanceOf(FloeException.class)
            .hasMessageContaining(String.valueOf(value))
            .extracting(e -> ((FloeException) e).sqlState())
            .isEqualTo("22007");
      }
      assertThat(time.assign(86_399_999))
          .isEqualTo(java.time.LocalTime.of(23, 59, 59, 999_000_000));
    }
  }

  @Test
  void nestedValuesAreInternalAllTheWayDown() {
    Types.StructType struct =
        Types.StructType.of(
            Types.NestedField.optional(2, "d", Types.DateType.get()),
            Types.NestedField.optional(
                3, "l", Types.ListType.ofOptional(4, Types.TimestampType.withoutZone())));
    ValueAssigner assigner =
        new ValueAssigner(
            "s", Types.NestedField.optional(1, "s", struct), WritePlan.SourceType.JDBC);
    Object row =
        assigner.assignInternal(
            new Object[] {
              LocalDate.of(1970, 1, 3), List.of(LocalDateTime.of(1970, 1, 1, 0, 0, 1))
            });
    assertThat(row).isInstanceOf(AssignedRow.class);
    AssignedRow assigned = (AssignedRow) row;
    assertThat(assigned.get(0, Integer.class)).isEqualTo(2);
    assertThat(assigned.get(1, List.class)).containsExactly(1_000_000L);
    ValueAssigner map =
        new ValueAssigner(
            "m",
            Types.NestedField.optional(
                5,
                "m",
                Types.MapType.ofOptional(6, 7, Types.StringType.get(), Types.DateType.get())),
            WritePlan.SourceType.JDBC);
    assertThat(map.assignInternal(Map.of("a", LocalDate.of(1970, 1, 2)))).isEqualTo(Map.of("a", 1));
  }

  /**
   * A value's outcome: the value (buffers by content), the error's state, or the failure's kind.
   */
  private static Object outcome(java.util.function.Supplier<Object> assignment) {
    try {
      return comparable(assignment.get());
    } catch (FloeException e) {
      return e.sqlState() + ": " + e.getMessage();
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName();
    }
  }

  private static Object comparable(Object value) {
    if (value instanceof ByteBuffer) {
      ByteBuffer buffer = ((ByteBuffer) value).duplicate();
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return "bytes " + Arrays.toString(bytes);
    }
    if (value instanceof Double || value instanceof Float) {
      // -0.0 and NaN compared by their bits, not by ==.
      return value.getClass().getSimpleName()
          + " "
          + Double.doubleToRawLongBits(((Number) value).doubleValue());
    }
    if (value instanceof List) {
      List<Object> items = new ArrayList<>();
      ((List<?>) value).forEach(item -> items.add(comparable(item)));
      return items;
    }
    return value == null ? "null" : value.getClass().getSimpleName() + " " + value;
  }
}
