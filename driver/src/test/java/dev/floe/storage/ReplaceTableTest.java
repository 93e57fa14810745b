package dev.floe.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeError;
import dev.floe.error.FloeException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replace transaction of the folder catalog: one commit, never over a newer version. */
class ReplaceTableTest {
  @TempDir Path root;

  private static final Schema SCHEMA =
      new Schema(Types.NestedField.optional(1, "id", Types.IntegerType.get()));

  private static DataFile file(Table table, String name) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + name)
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }

  @Test
  void aVersionPublishedMeanwhileMakesTheReplace40001AndKeepsIt() {
    FolderCatalog catalog = new FolderCatalog(LakeLocation.parse(root.toString()));
    catalog
        .newCreateTableTransaction(List.of("t"), SCHEMA, PartitionSpec.unpartitioned(), Map.of())
        .commitTransaction();
    Table before = catalog.loadTable(List.of("t"));
    // another writer commits after the statement loaded the table
    Table other = catalog.loadTable(List.of("t"));
    other.newAppend().appendFile(file(other, "a.parquet")).commit();
    long concurrent = catalog.loadTable(List.of("t")).currentSnapshot().snapshotId();

    Schema replacement = new Schema(Types.NestedField.optional(1, "name", Types.StringType.get()));
    Transaction txn =
        catalog.newReplaceTableTransaction(
            List.of("t"), before, replacement, PartitionSpec.unpartitioned(), Map.of());
    assertThatThrownBy(txn::commitTransaction)
        .isInstanceOf(FloeException.class)
        .satisfies(
            e -> assertThat(((FloeException) e).error()).isEqualTo(FloeError.COMMIT_CONFLICT));
    Table after = catalog.loadTable(List.of("t"));
    assertThat(after.currentSnapshot().snapshotId()).isEqualTo(concurrent);
    assertThat(after.schema().findField("id")).isNotNull();

    // from the newest version it commits, keeping every snapshot
    Transaction again =
        catalog.newReplaceTableTransaction(
            List.of("t"), after, replacement, PartitionSpec.unpartitioned(), Map.of());
    again.newAppend().appendFile(file(again.table(), "b.parquet")).commit();
    again.commitTransaction();
    Table replaced = catalog.loadTable(List.of("t"));
    assertThat(replaced.schema().findField("name")).isNotNull();
    assertThat(replaced.snapshot(concurrent)).isNotNull();
    assertThat(replaced.currentSnapshot().parentId()).isNull();
  }
}
