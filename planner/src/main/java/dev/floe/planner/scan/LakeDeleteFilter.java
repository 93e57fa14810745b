package dev.floe.planner.scan;

import java.util.function.Supplier;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;

/**
 * Iceberg's delete filter over rows already in internal representation: position deletes, deletion
 * vectors and equality deletes (with the sequence-number and partition rules Iceberg's planning
 * applied when it attached the delete files to the task). Delete files are loaded through the
 * statement's cache.
 */
final class LakeDeleteFilter extends DeleteFilter<StructLike> {
  private final FileIO io;
  private final StatementDeleteCache cache;

  LakeDeleteFilter(
      FileScanTask task,
      Schema tableSchema,
      Schema requestedSchema,
      FileIO io,
      StatementDeleteCache cache) {
    super(
        task.file().location(),
        task.deletes(),
        tableSchema,
        requestedSchema,
        new org.apache.iceberg.deletes.DeleteCounter(),
        true);
    this.io = io;
    this.cache = cache;
  }

  @Override
  protected StructLike asStructLike(StructLike record) {
    return record;
  }

  @Override
  protected InputFile getInputFile(String location) {
    return io.newInputFile(location);
  }

  @Override
  protected DeleteLoader newDeleteLoader() {
    return new BaseDeleteLoader(this::loadInputFile) {
      @Override
      protected boolean canCache(long size) {
        return true;
      }

      @Override
      protected <V> V getOrLoad(String key, Supplier<V> valueSupplier, long valueSize) {
        return cache.getOrLoad(key, valueSupplier);
      }
    };
  }
}
