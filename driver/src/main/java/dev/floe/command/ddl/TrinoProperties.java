package dev.floe.command.ddl;

import dev.floe.error.FloeError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.TableProperties;

/**
 * Table properties as Trino's Iceberg connector names them ({@code CREATE TABLE ... WITH (...)},
 * {@code ALTER TABLE ... SET PROPERTIES ...}) in Iceberg's own names, which Spark's {@code
 * TBLPROPERTIES} use and which pass as they are (docs/sql.md, "DDL"). A Trino property with an
 * Iceberg meaning Floe gives another way ({@code partitioning}, {@code sorted_by}), or none ({@code
 * location}, ORC's bloom filters), is refused (0A000) naming it.
 */
final class TrinoProperties {
  private static final String BLOOM_FILTER_COLUMN = "write.parquet.bloom-filter-enabled.column.";

  private TrinoProperties() {}

  /** The Iceberg properties that properties written with Trino's names set. */
  static Map<String, String> toIceberg(Map<String, String> given) {
    Map<String, String> iceberg = new LinkedHashMap<>();
    for (Map.Entry<String, String> property : given.entrySet()) {
      String value = property.getValue();
      switch (property.getKey()) {
        case "format_version":
          iceberg.put(TableProperties.FORMAT_VERSION, value);
          break;
        case "format":
          iceberg.put(TableProperties.DEFAULT_FILE_FORMAT, value.toLowerCase(Locale.ROOT));
          break;
        case "object_store_layout_enabled":
          iceberg.put(TableProperties.OBJECT_STORE_ENABLED, value.toLowerCase(Locale.ROOT));
          break;
        case "max_commit_retry":
          iceberg.put(TableProperties.COMMIT_NUM_RETRIES, value);
          break;
        case "parquet_bloom_filter_columns":
          for (String column : value.split(",", -1)) {
            if (!column.isBlank()) {
              iceberg.put(BLOOM_FILTER_COLUMN + column.strip(), "true");
            }
          }
          break;
        case "partitioning":
          throw refused(
              "partitioning",
              "write PARTITIONED BY (...) in CREATE TABLE, or ALTER TABLE ... ADD PARTITION FIELD");
        case "sorted_by":
          throw refused("sorted_by", "write ALTER TABLE ... WRITE ORDERED BY (...)");
        case "location":
        case "data_location":
          throw refused(
              property.getKey(),
              "a table's files live where the lake puts them, in the folder of its name");
        case "orc_bloom_filter_columns":
        case "orc_bloom_filter_fpp":
          throw refused(property.getKey(), "Floe writes Parquet data files, not ORC");
        default:
          iceberg.put(property.getKey(), value);
      }
    }
    return iceberg;
  }

  /** The Iceberg properties that names in UNSET, written with Trino's names, denote. */
  static List<String> toIceberg(List<String> given) {
    List<String> iceberg = new ArrayList<>();
    for (String key : given) {
      switch (key) {
        case "format_version":
          iceberg.add(TableProperties.FORMAT_VERSION);
          break;
        case "format":
          iceberg.add(TableProperties.DEFAULT_FILE_FORMAT);
          break;
        case "object_store_layout_enabled":
          iceberg.add(TableProperties.OBJECT_STORE_ENABLED);
          break;
        case "max_commit_retry":
          iceberg.add(TableProperties.COMMIT_NUM_RETRIES);
          break;
        default:
          iceberg.add(key);
      }
    }
    return iceberg;
  }

  private static RuntimeException refused(String property, String instead) {
    return FloeError.NOT_SUPPORTED.error(
        "Trino's table property " + property + " (" + instead + ")");
  }
}
