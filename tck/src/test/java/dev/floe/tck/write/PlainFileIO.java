package dev.floe.tck.write;

import java.io.File;
import org.apache.iceberg.Files;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The checking side's FileIO: reads local files named by the locations Iceberg metadata holds,
 * taking every character literally (no percent-decoding), as Hadoop's {@code Path} does. It knows
 * nothing of Floe's storage classes, so what it reads is what any other engine would read.
 * Read-only: the checking side never changes a table.
 */
final class PlainFileIO implements FileIO {
  @Override
  public InputFile newInputFile(String location) {
    return Files.localInput(toFile(location));
  }

  @Override
  public OutputFile newOutputFile(String location) {
    throw new UnsupportedOperationException(
        "Cannot write " + location + ": the checker only reads");
  }

  @Override
  public void deleteFile(String location) {
    throw new UnsupportedOperationException(
        "Cannot delete " + location + ": the checker only reads");
  }

  /** The local file a location names: {@code file:/x}, {@code file:///x} or a plain path. */
  static File toFile(String location) {
    if (location.startsWith("file:///")) {
      return new File(location.substring("file://".length()));
    }
    if (location.startsWith("file://localhost/")) {
      return new File(location.substring("file://localhost".length()));
    }
    if (location.startsWith("file:/")) {
      return new File(location.substring("file:".length()));
    }
    if (location.contains(":") && !location.startsWith("/")) {
      throw new IllegalArgumentException("Cannot read " + location + ": not a local location");
    }
    return new File(location);
  }
}
