package dev.floe.planner.write;

import java.util.Arrays;
import org.apache.iceberg.StructLike;

/**
 * A row (or a struct value) of assigned values in Iceberg's internal representation, the form
 * Iceberg's internal Parquet writer and its partition transforms take: {@code Integer} days for a
 * DATE, {@code Long} microseconds for TIME and TIMESTAMP (nanoseconds for v3's nanosecond
 * timestamps), {@code BigDecimal}, {@code CharSequence}, {@code ByteBuffer} for binary and fixed,
 * {@code UUID}, another {@code AssignedRow} for a struct, {@code List} and {@code Map}. Not
 * thread-safe.
 */
final class AssignedRow implements StructLike {
  private final Object[] values;

  AssignedRow(int size) {
    this.values = new Object[size];
  }

  @Override
  public int size() {
    return values.length;
  }

  @Override
  public <T> T get(int pos, Class<T> javaClass) {
    return javaClass.cast(values[pos]);
  }

  @Override
  public <T> void set(int pos, T value) {
    values[pos] = value;
  }

  @Override
  public String toString() {
    return Arrays.toString(values);
  }
}
