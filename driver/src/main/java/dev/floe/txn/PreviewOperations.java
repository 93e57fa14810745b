package dev.floe.txn;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Operations that let a transaction preview its pending change on a table without publishing it:
 * they hold the pinned metadata, refuse to commit, and record every file written for the preview
 * (manifests) so it can be deleted when the preview is replaced or the transaction ends.
 */
final class PreviewOperations implements TableOperations {
  private final TableOperations base;
  private final TableMetadata metadata;
  private final List<String> written = new ArrayList<>();
  private final FileIO io;

  PreviewOperations(TableOperations base, TableMetadata metadata) {
    this.base = base;
    this.metadata = metadata;
    this.io = new RecordingIO(base.io(), written, base.metadataFileLocation(""));
  }

  /** Files written for the preview. */
  List<String> written() {
    return written;
  }

  @Override
  public TableMetadata current() {
    return metadata;
  }

  @Override
  public TableMetadata refresh() {
    return metadata;
  }

  @Override
  public void commit(TableMetadata from, TableMetadata to) {
    throw new UnsupportedOperationException("A preview is never published");
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  public EncryptionManager encryption() {
    return base.encryption();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return base.metadataFileLocation(fileName);
  }

  @Override
  public LocationProvider locationProvider() {
    return base.locationProvider();
  }

  @Override
  public long newSnapshotId() {
    return base.newSnapshotId();
  }

  /**
   * Delegates to a FileIO and records the location of every output file. Lists prefixes when the
   * delegate can, so a statement failing inside a transaction still finds and deletes its files.
   */
  static final class RecordingIO implements FileIO, SupportsPrefixOperations {
    private static final long serialVersionUID = 1L;

    private final FileIO delegate;
    private final List<String> written;
    private final String metadataPrefix;

    RecordingIO(FileIO delegate, List<String> written, String metadataPrefix) {
      this.delegate = delegate;
      this.written = written;
      this.metadataPrefix = metadataPrefix;
    }

    @Override
    public InputFile newInputFile(String path) {
      return delegate.newInputFile(path);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
      return delegate.newInputFile(path, length);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      if (path.startsWith(metadataPrefix)) {
        // Manifests and manifest lists; data files belong to the statement that wrote them.
        synchronized (written) {
          written.add(path);
        }
      }
      return delegate.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path) {
      delegate.deleteFile(path);
    }

    @Override
    public Iterable<FileInfo> listPrefix(String prefix) {
      return prefixOperations().listPrefix(prefix);
    }

    @Override
    public void deletePrefix(String prefix) {
      prefixOperations().deletePrefix(prefix);
    }

    private SupportsPrefixOperations prefixOperations() {
      if (!(delegate instanceof SupportsPrefixOperations)) {
        throw new UnsupportedOperationException(
            "Cannot list files: " + delegate.getClass().getSimpleName() + " has no prefix operations");
      }
      return (SupportsPrefixOperations) delegate;
    }
  }
}
