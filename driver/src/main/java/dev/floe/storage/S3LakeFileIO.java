package dev.floe.storage;

import dev.floe.error.FloeError;
import java.util.Map;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * The FileIO of an S3 lake: Iceberg's {@link S3FileIO}, which reads anywhere in the bucket, but
 * creates and deletes objects only under the lake's prefix, as {@link LocalFileIO} does under the
 * root folder. A table whose metadata names files elsewhere (written by another tool, or crafted)
 * is read, never written or purged there. Thread-safe.
 */
final class S3LakeFileIO implements FileIO, SupportsPrefixOperations, SupportsBulkOperations {
  private static final long serialVersionUID = 1L;

  private final transient S3FileIO io;
  private final transient S3Store store;

  S3LakeFileIO(S3FileIO io, S3Store store) {
    this.io = io;
    this.store = store;
  }

  @Override
  public InputFile newInputFile(String location) {
    return io.newInputFile(location);
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return io.newInputFile(location, length);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    checkInside("write " + location, location);
    return io.newOutputFile(location);
  }

  @Override
  public void deleteFile(String location) {
    checkInside("delete " + location, location);
    io.deleteFile(location);
  }

  @Override
  public void deleteFiles(Iterable<String> locations) throws BulkDeletionFailureException {
    for (String location : locations) {
      checkInside("delete " + location, location);
    }
    io.deleteFiles(locations);
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    return io.listPrefix(prefix);
  }

  @Override
  public void deletePrefix(String prefix) {
    checkInside("delete " + prefix, prefix);
    io.deletePrefix(prefix);
  }

  @Override
  public Map<String, String> properties() {
    return io.properties();
  }

  @Override
  public void close() {
    io.close();
  }

  private void checkInside(String action, String location) {
    if (!store.contains(location)) {
      throw FloeError.OUTSIDE_LAKE.error(action, location, store.root());
    }
  }
}
