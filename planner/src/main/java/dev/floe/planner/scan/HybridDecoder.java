package dev.floe.planner.scan;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Parquet's RLE / bit-packing hybrid encoding, the encoding of definition levels and dictionary
 * ids, decoded a run at a time: a repeated run fills its values in one go, a bit-packed run is
 * unpacked whole, so a page whose values are all present costs one comparison per run, not per
 * value.
 */
final class HybridDecoder {
  private final int bitWidth;
  private final BytePacker packer;
  private final ByteBuffer in;
  private final byte[] bytes;
  private final int bytesOffset;
  private int left;
  private boolean repeated;
  private int value;
  private int[] unpacked = new int[0];
  private int unpackedAt;

  /**
   * A decoder of the values in {@code in} from its position to its limit.
   *
   * @param bitWidth the bits per value
   */
  HybridDecoder(int bitWidth, ByteBuffer in) {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IllegalStateException("Cannot decode values of " + bitWidth + " bits");
    }
    this.bitWidth = bitWidth;
    this.packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
    this.in = in;
    if (in.hasArray()) {
      this.bytes = in.array();
      this.bytesOffset = in.arrayOffset();
    } else {
      this.bytes = null;
      this.bytesOffset = 0;
    }
  }

  /** The next value. */
  int next() {
    if (left == 0) {
      nextRun();
    }
    left--;
    return repeated ? value : unpacked[unpackedAt++];
  }

  /** Reads the next {@code n} values into {@code out[from..from+n)}. */
  void read(int[] out, int from, int n) {
    while (n > 0) {
      if (left == 0) {
        nextRun();
      }
      int take = Math.min(n, left);
      if (repeated) {
        Arrays.fill(out, from, from + take, value);
      } else {
        System.arraycopy(unpacked, unpackedAt, out, from, take);
        unpackedAt += take;
      }
      left -= take;
      from += take;
      n -= take;
    }
  }

  /**
   * Reads the next {@code n} definition levels, marking {@code nulls[from + i]} where a level is
   * below {@code present}; returns how many were {@code present}.
   */
  int levels(boolean[] nulls, int from, int n, int present) {
    int count = 0;
    while (n > 0) {
      if (left == 0) {
        nextRun();
      }
      int take = Math.min(n, left);
      if (repeated) {
        if (value == present) {
          count += take;
        } else {
          Arrays.fill(nulls, from, from + take, true);
        }
      } else {
        for (int i = 0; i < take; i++) {
          if (unpacked[unpackedAt + i] == present) {
            count++;
          } else {
            nulls[from + i] = true;
          }
        }
        unpackedAt += take;
      }
      left -= take;
      from += take;
      n -= take;
    }
    return count;
  }

  private void nextRun() {
    if (!in.hasRemaining()) {
      throw new IllegalStateException("Cannot decode a Parquet page: its levels or ids end early");
    }
    int header = varint();
    if ((header & 1) == 0) {
      repeated = true;
      left = header >>> 1;
      int v = 0;
      for (int b = 0, width = (bitWidth + 7) / 8; b < width; b++) {
        v |= (in.get() & 0xFF) << (8 * b);
      }
      value = v;
    } else {
      repeated = false;
      int groups = header >>> 1;
      int values = groups * 8;
      if (unpacked.length < values) {
        unpacked = new int[values];
      }
      int length = groups * bitWidth;
      int available = Math.min(length, in.remaining());
      byte[] source;
      int at;
      if (bytes != null && available == length) {
        source = bytes;
        at = bytesOffset + in.position();
      } else {
        // the last run may be cut short: pad it with zero bytes
        source = new byte[length];
        in.duplicate().get(source, 0, available);
        at = 0;
      }
      for (int g = 0; g < groups; g++) {
        packer.unpack8Values(source, at + g * bitWidth, unpacked, g * 8);
      }
      in.position(in.position() + available);
      unpackedAt = 0;
      left = values;
    }
  }

  private int varint() {
    int result = 0;
    for (int shift = 0; ; shift += 7) {
      int b = in.get() & 0xFF;
      result |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
  }
}
