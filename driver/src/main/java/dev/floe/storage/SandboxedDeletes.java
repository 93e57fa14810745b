package dev.floe.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The FileIO a purge deletes through: files under the lake's root are deleted, files outside it are
 * left in place and listed, so the caller can report them. Thread-safe.
 */
final class SandboxedDeletes implements FileIO {
  private static final long serialVersionUID = 1L;

  private final transient LakeStore store;
  private final transient FileIO io;
  private final List<String> left = Collections.synchronizedList(new ArrayList<>());

  SandboxedDeletes(LakeStore store) {
    this.store = store;
    this.io = store.io();
  }

  /** The files left in place because they lie outside the root, in the order met. */
  List<String> left() {
    synchronized (left) {
      return List.copyOf(left);
    }
  }

  @Override
  public InputFile newInputFile(String location) {
    return io.newInputFile(location);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return io.newOutputFile(location);
  }

  @Override
  public void deleteFile(String location) {
    if (store.contains(location)) {
      io.deleteFile(location);
    } else {
      left.add(location);
    }
  }

  @Override
  public Map<String, String> properties() {
    return io.properties();
  }
}
