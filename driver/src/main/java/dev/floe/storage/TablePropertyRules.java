package dev.floe.storage;

import dev.floe.error.FloeError;
import dev.floe.planner.scan.ParquetCodecs;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.TableProperties;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The table properties Floe gives a meaning to, and their accepted values: a CREATE (or a change of
 * properties) with any other value is refused before anything is written, instead of being stored
 * and then ignored or failing every later write.
 */
public final class TablePropertyRules {
  private static final List<String> MODES = List.of("copy-on-write", "merge-on-read");

  private TablePropertyRules() {}

  /**
   * Checks every property with a Floe meaning.
   *
   * @throws dev.floe.error.FloeException INVALID_PROPERTY naming the property and the accepted
   *     values
   */
  public static void check(Map<String, String> properties) {
    properties.forEach(TablePropertyRules::check);
  }

  private static void check(String key, String value) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    String accepted =
        switch (key) {
          case TableProperties.DELETE_MODE,
              TableProperties.UPDATE_MODE,
              TableProperties.MERGE_MODE ->
              MODES.contains(v) ? null : String.join(" or ", MODES);
          case TableProperties.FORMAT_VERSION -> List.of("2", "3").contains(v) ? null : "2 or 3";
          case TableProperties.DEFAULT_FILE_FORMAT ->
              v.equals("parquet") ? null : "parquet (Floe writes Parquet files only)";
          case TableProperties.PARQUET_COMPRESSION, TableProperties.DELETE_PARQUET_COMPRESSION ->
              codec(key, v);
          case TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
              TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES,
              TableProperties.PARQUET_PAGE_SIZE_BYTES ->
              positive(v) ? null : "a whole number of bytes above 0";
          default -> null;
        };
    if (accepted != null) {
      throw FloeError.INVALID_PROPERTY.error(
          "table property " + key + " = '" + value + "'", "the accepted values are " + accepted);
    }
  }

  /**
   * Null for a codec Floe writes, the accepted values for a name Parquet does not know.
   *
   * @throws dev.floe.error.FloeException NOT_SUPPORTED for a codec Parquet knows and Floe cannot
   *     write
   */
  private static String codec(String key, String v) {
    CompressionCodecName codec = ParquetCodecs.named(v);
    if (codec == null) {
      return String.join(", ", ParquetCodecs.supportedNames());
    }
    if (!ParquetCodecs.supported(codec)) {
      throw FloeError.NOT_SUPPORTED.error(
          "table property "
              + key
              + " = '"
              + v
              + "': Floe cannot write Parquet compressed with "
              + codec
              + "; it writes "
              + String.join(", ", ParquetCodecs.supportedNames()));
    }
    return null;
  }

  private static boolean positive(String v) {
    try {
      return Long.parseLong(v) > 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
