package dev.floe.txn;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * The table's own operations, recording the manifests a commit writes: when another table of the
 * same transaction fails its validation, this table's prepared commit is never published, and the
 * manifests it wrote are deleted.
 */
final class PublishOperations implements TableOperations {
  private final TableOperations delegate;
  private final List<String> written = new ArrayList<>();
  private final FileIO io;

  PublishOperations(TableOperations delegate) {
    this.delegate = delegate;
    this.io =
        new PreviewOperations.RecordingIO(
            delegate.io(), written, delegate.metadataFileLocation(""));
  }

  /** Manifests and manifest lists written so far. */
  List<String> written() {
    synchronized (written) {
      return new ArrayList<>(written);
    }
  }

  @Override
  public TableMetadata current() {
    return delegate.current();
  }

  @Override
  public TableMetadata refresh() {
    return delegate.refresh();
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    delegate.commit(base, metadata);
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  public EncryptionManager encryption() {
    return delegate.encryption();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return delegate.metadataFileLocation(fileName);
  }

  @Override
  public LocationProvider locationProvider() {
    return delegate.locationProvider();
  }

  @Override
  public long newSnapshotId() {
    return delegate.newSnapshotId();
  }
}
