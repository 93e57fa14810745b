package dev.floe.planner.scan;

import dev.floe.error.FloeError;
import dev.floe.planner.session.Cancellation;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.parquet.InternalReader;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;

/**
 * The live rows of one data file task, whole, in Iceberg's internal representation (the form Floe's
 * writers take): how a statement that rewrites table data reads it ({@code optimize}, a
 * copy-on-write DELETE, UPDATE or MERGE, and the count of a file's live rows). It reads as the
 * scan's row reader does: Iceberg's internal Parquet reader of the task's split, the table's name
 * mapping for files without field ids, every delete applied by {@link LakeDeleteFilter} (position
 * deletes, deletion vectors and equality deletes, each delete file loaded once for the statement),
 * and the statement's cancel checked on every row. No residual filter applies: a rewrite keeps
 * every live row.
 */
public final class InternalRows {
  private final Table table;
  private final StatementDeleteCache deletes = new StatementDeleteCache();

  /** A reader of a table's files for one statement: each delete file is loaded once in it. */
  public InternalRows(Table table) {
    this.table = table;
  }

  /**
   * Reads a task. Row position {@code i} holds the table's column {@code i} when {@code columns}
   * (none otherwise); the next position holds the row's position in its file when {@code position}.
   * Each row is a fresh object.
   */
  public CloseableIterable<StructLike> read(FileScanTask task, boolean columns, boolean position) {
    if (task.file().format() != FileFormat.PARQUET) {
      throw FloeError.NOT_SUPPORTED.error(
          "rewriting " + task.file().location() + ": only Parquet data files are read");
    }
    Schema schema = table.schema();
    List<Types.NestedField> wanted = new ArrayList<>(columns ? schema.columns() : List.of());
    if (position) {
      wanted.add(MetadataColumns.ROW_POSITION);
    }
    Schema requested = new Schema(wanted);
    LakeDeleteFilter filter = new LakeDeleteFilter(task, schema, requested, table.io(), deletes);
    Schema readSchema = filter.requiredSchema();
    Parquet.ReadBuilder read =
        Parquet.read(table.io().newInputFile(task.file().location()))
            .project(readSchema)
            .split(task.start(), task.length())
            .caseSensitive(true)
            .createReaderFunc(
                fileSchema ->
                    InternalReader.create(
                        readSchema, fileSchema, PartitionUtil.constantsMap(task)));
    String mapping = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    if (mapping != null) {
      read = read.withNameMapping(NameMappingParser.fromJson(mapping));
    }
    CloseableIterable<StructLike> live = filter.filter(read.build());
    int[] at = new int[wanted.size()];
    for (int i = 0; i < at.length; i++) {
      at[i] = TaskReader.indexOf(readSchema.columns(), wanted.get(i).fieldId());
    }
    Cancellation cancel = Cancellation.current();
    return CloseableIterable.transform(
        live,
        row -> {
          cancel.check();
          return new Projected(row, at);
        });
  }

  /** A row read with the delete filter's columns, seen as the columns asked for. */
  private static final class Projected implements StructLike {
    private final StructLike row;
    private final int[] at;

    Projected(StructLike row, int[] at) {
      this.row = row;
      this.at = at;
    }

    @Override
    public int size() {
      return at.length;
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      return row.get(at[pos], javaClass);
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("rows read for a rewrite are read only");
    }
  }
}
