package dev.floe.planner.spi;

import java.util.List;
import org.apache.iceberg.io.InputFile;

/**
 * The files the table functions {@code read_parquet} and {@code read_csv} read: found by a path or
 * a glob, and opened, under the connection's {@code externalAccess} rule (docs/etl.md, "Loading
 * files").
 */
public interface ExternalFiles {
  /**
   * The files a path or glob names, sorted by location. A glob may use {@code *}, {@code ?}, {@code
   * [...]} and {@code {a,b}} in any part, and {@code **} for any number of folders; a relative path
   * is read from the lake root.
   *
   * @throws dev.floe.error.FloeException IO (58030) naming the path when no file matches, or
   *     OUTSIDE_LAKE (42602) when the path lies outside the lake and external access is off
   */
  List<String> list(String pattern);

  /**
   * The local folder (or file) {@link #list} would search for a path or glob: the path itself, or
   * the longest folder before a glob's first wildcard, absolute (a relative path is read from the
   * lake root).
   *
   * @throws dev.floe.error.FloeException IO (58030) when it is no valid path
   */
  String searched(String pattern);

  /** Opens a file {@link #list} returned. */
  InputFile open(String location);
}
