package dev.floe.command.procedure;

import dev.floe.error.FloeError;
import dev.floe.planner.scan.FileScan;
import dev.floe.planner.spi.ExternalFiles;
import dev.floe.storage.FileOwnership;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.schema.MessageType;

/**
 * {@code ALTER TABLE t EXECUTE add_files(location => '<folder or file>', format => 'PARQUET')}
 * (Trino's procedure): registers existing Parquet files in the table without rewriting them, in one
 * commit. Each file's columns are matched to the table's by field id, or by name through the
 * table's name mapping when the file has none (the mapping is created from the current schema when
 * the table has none, as Spark's add_files does); a column of the file the table lacks, a type that
 * differs, or a required column the file lacks is 42804, and nothing is added. A file under another
 * table's folder, or under any table's {@code metadata/}, is refused (42602): a table takes no file
 * another table owns, so no DROP or maintenance of one table can delete another's rows.
 */
final class AddFiles {
  private final Table table;
  private final String name;
  private final List<String> path;
  private final ExternalFiles files;
  private final FileOwnership ownership;

  /**
   * @param path the table's path under the root
   * @param ownership what decides which files the table may take (docs/safety.md, "The lake is a
   *     sandbox")
   */
  AddFiles(
      Table table, String name, List<String> path, ExternalFiles files, FileOwnership ownership) {
    this.table = table;
    this.name = name;
    this.path = path;
    this.files = files;
    this.ownership = ownership;
  }

  Maintenance.Result run(String location, String format) {
    if (format != null && !format.equalsIgnoreCase("PARQUET")) {
      throw FloeError.PROCEDURE.error(
          "add_files", "format " + format + " is not supported; Floe reads Parquet files only");
    }
    if (table.spec().isPartitioned()) {
      throw FloeError.NOT_SUPPORTED.error(
          "add_files into the partitioned table " + name + ": its files carry no partition values");
    }
    if (location == null || location.isBlank()) {
      throw FloeError.NOT_OWNED.error(
          "add files from '" + location + "'", "it names no file or folder");
    }
    List<String> found = listed(location);
    String mappingJson = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    NameMapping mapping =
        mappingJson == null
            ? MappingUtil.create(table.schema())
            : NameMappingParser.fromJson(mappingJson);
    Set<String> present = present();
    MetricsConfig metrics = MetricsConfig.forTable(table);
    List<DataFile> added = new ArrayList<>();
    for (String file : found) {
      ownership.checkAddable(path, name, file);
    }
    for (String file : found) {
      String fileLocation = file.startsWith("/") ? "file:" + file : file;
      if (present.contains(ownership.key(fileLocation))) {
        throw FloeError.PROCEDURE.error(
            "add_files", "the file " + file + " is already in table " + name);
      }
      InputFile input = files.open(file);
      check(file, FileScan.footer(input, file), mapping);
      Metrics fileMetrics = ParquetUtil.fileMetrics(input, metrics, mapping);
      added.add(
          DataFiles.builder(table.spec())
              .withPath(fileLocation)
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(input.getLength())
              .withMetrics(fileMetrics)
              .build());
    }
    Transaction txn = table.newTransaction();
    if (mappingJson == null) {
      txn.updateProperties()
          .set(TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(mapping))
          .commit();
    }
    AppendFiles append = txn.newAppend();
    added.forEach(append::appendFile);
    append.commit();
    txn.commitTransaction();
    long rows = added.stream().mapToLong(DataFile::recordCount).sum();
    Map<String, Long> result = new LinkedHashMap<>();
    result.put("added_files_count", (long) added.size());
    result.put("added_rows_count", rows);
    return Maintenance.Result.of(result);
  }

  /**
   * The Parquet files at a location: the file itself, or every one under the folder; a folder that
   * is a file system's root or holds the lake is refused before it is searched.
   */
  private List<String> listed(String location) {
    String trimmed =
        location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
    String pattern =
        trimmed.toLowerCase(Locale.ROOT).endsWith(".parquet") || trimmed.contains("*")
            ? trimmed
            : trimmed + "/**.parquet";
    ownership.checkAddSearch(location, files.searched(pattern), pattern.contains("**"));
    return files.list(pattern);
  }

  /** The locations of the current snapshot's data files, in canonical spelling. */
  private Set<String> present() {
    Set<String> present = new HashSet<>();
    if (table.currentSnapshot() == null) {
      return present;
    }
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        present.add(ownership.key(task.file().location()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return present;
  }

  /** Refuses a file whose columns do not fit the table's (42804). */
  private void check(String file, MessageType type, NameMapping mapping) {
    MessageType withIds =
        ParquetSchemaUtil.hasIds(type) ? type : ParquetSchemaUtil.applyNameMapping(type, mapping);
    Schema fileSchema = ParquetSchemaUtil.convert(withIds);
    Schema tableSchema = table.schema();
    for (Types.NestedField column : fileSchema.columns()) {
      Types.NestedField target = tableSchema.findField(column.fieldId());
      if (target == null || !target.name().equalsIgnoreCase(column.name())) {
        throw FloeError.DATATYPE_MISMATCH.error(
            column.name() + " of " + name,
            "the file " + file + " has a column " + column.name() + " the table does not have");
      }
      if (!sameType(column.type(), target.type())) {
        throw FloeError.DATATYPE_MISMATCH.error(
            target.name() + " of " + name,
            "the file "
                + file
                + " holds it as "
                + column.type()
                + ", the table as "
                + target.type());
      }
      if (target.isRequired() && column.isOptional()) {
        throw FloeError.DATATYPE_MISMATCH.error(
            target.name() + " of " + name,
            "it is required, and the file " + file + " may hold NULL in it");
      }
    }
    for (Types.NestedField target : tableSchema.columns()) {
      if (target.isRequired() && fileSchema.findField(target.fieldId()) == null) {
        throw FloeError.DATATYPE_MISMATCH.error(
            target.name() + " of " + name,
            "it is required, and the file " + file + " does not have it");
      }
    }
  }

  /** Whether two types are the same, nested fields matched by name and position, ids ignored. */
  private static boolean sameType(Type a, Type b) {
    if (a.typeId() != b.typeId()) {
      return false;
    }
    if (a.isPrimitiveType()) {
      return a.equals(b);
    }
    switch (a.typeId()) {
      case STRUCT:
        {
          List<Types.NestedField> x = a.asStructType().fields();
          List<Types.NestedField> y = b.asStructType().fields();
          if (x.size() != y.size()) {
            return false;
          }
          for (int i = 0; i < x.size(); i++) {
            if (!x.get(i).name().equalsIgnoreCase(y.get(i).name())
                || !sameType(x.get(i).type(), y.get(i).type())) {
              return false;
            }
          }
          return true;
        }
      case LIST:
        return sameType(a.asListType().elementType(), b.asListType().elementType());
      case MAP:
        return sameType(a.asMapType().keyType(), b.asMapType().keyType())
            && sameType(a.asMapType().valueType(), b.asMapType().valueType());
      default:
        return false;
    }
  }
}
