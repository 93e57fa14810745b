package dev.floe.tck.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Recursive listings of folders, to prove what a statement left behind. */
final class FolderListing {
  private FolderListing() {}

  /** Every regular file under a folder, as paths relative to it (hidden files included). */
  static SortedSet<String> files(Path folder) {
    return list(folder, false);
  }

  /** Every file and folder under a folder, folders with a trailing slash. */
  static SortedSet<String> entries(Path folder) {
    return list(folder, true);
  }

  private static SortedSet<String> list(Path folder, boolean withFolders) {
    SortedSet<String> names = new TreeSet<>();
    if (!Files.exists(folder)) {
      return names;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      walk.filter(p -> !p.equals(folder))
          .forEach(
              p -> {
                String name = folder.relativize(p).toString();
                if (Files.isDirectory(p)) {
                  if (withFolders) {
                    names.add(name + "/");
                  }
                } else {
                  names.add(name);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return names;
  }

  /** Every file or folder name under a folder, at any depth. */
  static SortedSet<String> names(Path folder) {
    SortedSet<String> names = new TreeSet<>();
    for (String entry : entries(folder)) {
      for (String part : entry.split("/")) {
        if (!part.isEmpty()) {
          names.add(part);
        }
      }
    }
    return names;
  }
}
