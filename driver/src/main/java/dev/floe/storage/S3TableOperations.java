package dev.floe.storage;

import dev.floe.error.FloeError;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Table operations for one table under an S3 prefix. Publishing version N+1 is one PUT of the whole
 * {@code vN+1.metadata.json} with {@code If-None-Match: *}, which the store refuses (412, or 409
 * for a concurrent conditional write) when the key exists: two writers can never both publish N+1.
 * Iceberg's own {@code S3OutputFile.create()} checks with a HEAD and then PUTs, which lets both
 * writers win.
 *
 * <p>A refused PUT is not always a lost race: the client retries a request whose answer was lost,
 * and the retry of an applied PUT is refused too. So a refusal reads the key back, and a file with
 * exactly the bytes this writer sent is its own commit. When neither the PUT nor that check gives
 * an answer, the outcome is unknown ({@link CommitStateUnknownException}): Floe then keeps the
 * commit's files and reports it, rather than retry and maybe commit twice. Not thread-safe.
 */
public final class S3TableOperations extends LakeTableOperations {
  private final S3Store store;
  private final String metadataPrefix;

  S3TableOperations(String location, S3Store store, boolean view) {
    super(location, store.io(), view);
    this.store = store;
    this.metadataPrefix = store.folderPrefix(location) + "metadata/";
  }

  @Override
  protected boolean metadataExists(String name) {
    return store.exists(metadataPrefix + name);
  }

  /** The object's ETag, size and modification time. */
  @Override
  protected String stamp(String name) {
    return store.stamp(metadataPrefix + name);
  }

  @Override
  protected List<String> metadataNames() {
    return store.names(metadataPrefix);
  }

  @Override
  protected String readHint() {
    try {
      byte[] bytes = store.get(metadataPrefix + hintName());
      return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    } catch (SdkException e) {
      return null;
    }
  }

  @Override
  protected void checkCanPublish() {
    store.key(location()); // a table outside the lake is read, never written
    store.checkCanCommit();
  }

  @Override
  protected void checkWritable(TableMetadata metadata) {
    if (!store.contains(location())) {
      throw FloeError.OUTSIDE_LAKE.error("write table " + location(), location(), store.root());
    }
    if (!store.contains(metadata.location())) {
      throw FloeError.OUTSIDE_LAKE.error(
          "write table " + location(), "its location " + metadata.location(), store.root());
    }
    if (!store.key(metadata.location()).equals(store.key(location()))) {
      // A prefix copied within the lake: its metadata still places its files in the original's.
      throw FloeError.NOT_OWNED.error(
          "write table " + location(),
          "its metadata places its files at "
              + metadata.location()
              + ", not under its own prefix; a table writes only under its own prefix");
    }
    for (String key : Sandbox.PATH_PROPERTIES) {
      String value = metadata.properties().get(key);
      if (value != null && !store.contains(value)) {
        throw FloeError.OUTSIDE_LAKE.error(
            "write table " + location(), key + " = '" + value + "'", store.root());
      }
    }
  }

  @Override
  protected void publish(int next, String json) {
    String name = "v" + next + ".metadata.json";
    String key = metadataPrefix + name;
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    RuntimeException failure;
    try {
      store.putIfAbsent(key, bytes);
      return;
    } catch (S3Exception e) {
      if (e.statusCode() == 412 || e.statusCode() == 409) {
        if (holds(key, bytes) == Boolean.TRUE) {
          return; // a retry of our own applied PUT was refused
        }
        throw new CommitFailedException(
            "Cannot commit to %s: version %s was published by another writer", location(), next);
      }
      failure = e;
    } catch (SdkException e) {
      failure = e;
    }
    Boolean ours = holds(key, bytes);
    if (ours == Boolean.TRUE) {
      return;
    }
    if (ours == Boolean.FALSE) {
      throw new CommitFailedException(
          "Cannot commit to %s: version %s was published by another writer", location(), next);
    }
    if (ours == null
        && failure instanceof S3Exception s3
        && s3.statusCode() == 503
        && holdsNothing(key)) {
      // SlowDown: the store did not take the request; publishing again is safe.
      throw new CommitFailedException(
          "Cannot commit to %s: the store asked to slow down (%s)", location(), store.describe(s3));
    }
    throw new CommitStateUnknownException(
        new RuntimeException(
            FloeError.COMMIT_STATE_UNKNOWN.format(
                metadataFileLocation(name), store.describe(failure))));
  }

  /**
   * Whether the key holds exactly these bytes: true, false when it holds something else, null when
   * it does not exist or cannot be read.
   */
  private Boolean holds(String key, byte[] bytes) {
    try {
      byte[] existing = store.get(key);
      return existing == null ? null : Arrays.equals(existing, bytes);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private boolean holdsNothing(String key) {
    try {
      return store.get(key) == null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  protected void writeHint(int next) {
    try {
      store.put(
          metadataPrefix + hintName(), Integer.toString(next).getBytes(StandardCharsets.UTF_8));
    } catch (SdkException e) {
      // The hint is advisory: readers probe forward from a stale one.
    }
  }
}
