package dev.floe.planner.scan;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.iceberg.io.InputFile;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The Parquet compression codecs Floe reads and writes, in one place: the table property check at
 * CREATE, {@code add_files} and {@code read_parquet} refuse the others by name before reading, and
 * a scan that fails on a file names the file's codec when it is one Floe cannot read.
 *
 * <p>LZO and Brotli are the codecs Parquet names that Floe cannot use: Hadoop has no codec of its
 * own for them, and the libraries that add one are not on Maven Central (Brotli's) or are GPL
 * (LZO's).
 */
public final class ParquetCodecs {
  private static final Set<CompressionCodecName> SUPPORTED =
      EnumSet.of(
          CompressionCodecName.UNCOMPRESSED,
          CompressionCodecName.SNAPPY,
          CompressionCodecName.GZIP,
          CompressionCodecName.LZ4,
          CompressionCodecName.LZ4_RAW,
          CompressionCodecName.ZSTD);

  private ParquetCodecs() {}

  /** The names of the codecs Floe reads and writes, as Iceberg's table properties spell them. */
  public static List<String> supportedNames() {
    return SUPPORTED.stream().map(c -> c.name().toLowerCase(Locale.ROOT)).toList();
  }

  /**
   * The codec a table property value names, if Parquet knows it (supported or not), else null.
   *
   * @param value the property value, any case
   */
  public static @Nullable CompressionCodecName named(String value) {
    for (CompressionCodecName codec : CompressionCodecName.values()) {
      if (codec.name().equalsIgnoreCase(value.trim())) {
        return codec;
      }
    }
    return null;
  }

  /** Whether Floe reads and writes a codec. */
  public static boolean supported(CompressionCodecName codec) {
    return SUPPORTED.contains(codec);
  }

  /**
   * Refuses a file whose footer names a codec Floe cannot read.
   *
   * @throws FloeException NOT_SUPPORTED (0A000) naming the file, the codec and the codecs Floe
   *     reads
   */
  public static void check(ParquetMetadata footer, String location) {
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData column : block.getColumns()) {
        if (!supported(column.getCodec())) {
          throw unreadable(location, column.getCodec());
        }
      }
    }
  }

  /**
   * Why a file could not be read, when the reason is its codec: the NOT_SUPPORTED error naming file
   * and codec, or null when the file's footer names only codecs Floe reads (or cannot be read).
   */
  public static @Nullable FloeException diagnose(InputFile input, String location) {
    try (ParquetFileReader reader = ParquetFileReader.open(parquetInput(input))) {
      check(reader.getFooter(), location);
      return null;
    } catch (FloeException e) {
      return e;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static FloeException unreadable(String location, CompressionCodecName codec) {
    return FloeError.NOT_SUPPORTED.error(
        "reading "
            + location
            + ": its Parquet pages are compressed with "
            + codec
            + ", which Floe cannot read (it reads "
            + String.join(", ", supportedNames())
            + ")");
  }

  /** An Iceberg input file as Parquet's footer reader takes it. */
  static org.apache.parquet.io.InputFile parquetInput(InputFile file) {
    return new org.apache.parquet.io.InputFile() {
      @Override
      public long getLength() {
        return file.getLength();
      }

      @Override
      public org.apache.parquet.io.SeekableInputStream newStream() {
        org.apache.iceberg.io.SeekableInputStream stream = file.newStream();
        return new org.apache.parquet.io.DelegatingSeekableInputStream(stream) {
          @Override
          public long getPos() throws IOException {
            return stream.getPos();
          }

          @Override
          public void seek(long newPos) throws IOException {
            stream.seek(newPos);
          }
        };
      }
    };
  }
}
