package dev.floe.planner.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The run-at-a-time decoder gives back exactly the values Parquet's own encoder wrote, with long
 * repeated runs, bit-packed stretches and a last run cut short, one value at a time, in bulk across
 * run boundaries, and as definition levels.
 */
class HybridDecoderTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 8, 10, 17, 31, 32})
  void decodesWhatParquetsEncoderWrote(int bitWidth) throws Exception {
    Random random = new Random(bitWidth);
    int count = 5003;
    int[] values = new int[count];
    long max = bitWidth == 32 ? 0xFFFFFFFFL : (1L << bitWidth) - 1;
    for (int i = 0; i < count; i++) {
      int stretch = (i / 500) % 3;
      if (stretch == 0) {
        values[i] = (int) Math.min(max, 1); // one long run
      } else if (stretch == 1) {
        values[i] = (int) (random.nextLong() & max); // bit-packed
      } else {
        values[i] = (int) Math.min(max, (i / 37) % 3); // short runs
      }
    }
    RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(
            bitWidth, 64, 1 << 20, HeapByteBufferAllocator.getInstance());
    for (int value : values) {
      encoder.writeInt(value);
    }
    byte[] bytes = encoder.toBytes().toByteArray();

    HybridDecoder one = new HybridDecoder(bitWidth, ByteBuffer.wrap(bytes));
    int[] decoded = new int[count];
    for (int i = 0; i < count; i++) {
      decoded[i] = one.next();
    }
    assertThat(decoded).isEqualTo(values);

    HybridDecoder bulk = new HybridDecoder(bitWidth, ByteBuffer.wrap(bytes));
    int[] inBulk = new int[count];
    for (int from = 0; from < count; from += 333) {
      bulk.read(inBulk, from, Math.min(333, count - from));
    }
    assertThat(inBulk).isEqualTo(values);

    int present = (int) Math.min(max, 1);
    HybridDecoder levels = new HybridDecoder(bitWidth, ByteBuffer.wrap(bytes));
    boolean[] nulls = new boolean[count];
    int counted = 0;
    for (int from = 0; from < count; from += 1000) {
      counted += levels.levels(nulls, from, Math.min(1000, count - from), present);
    }
    boolean[] expectedNulls = new boolean[count];
    int expectedPresent = 0;
    for (int i = 0; i < count; i++) {
      expectedNulls[i] = values[i] != present;
      expectedPresent += values[i] == present ? 1 : 0;
    }
    assertThat(counted).isEqualTo(expectedPresent);
    assertThat(Arrays.equals(nulls, expectedNulls)).isTrue();
  }
}
