package dev.floe.jdbc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * How a name written in SQL finds a folder, the way queries find tables: the exact spelling first,
 * then the one folder whose name matches ignoring case.
 */
final class FolderNames {
  private FolderNames() {}

  /** The folder under {@code folder} named like {@code name}, or null. */
  static String match(Path folder, String name) {
    if (!Files.isDirectory(folder)) {
      return null;
    }
    if (Files.isDirectory(folder.resolve(name))) {
      return name;
    }
    try (Stream<Path> children = Files.list(folder)) {
      List<String> matches =
          children
              .filter(Files::isDirectory)
              .map(p -> p.getFileName().toString())
              .filter(n -> n.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)))
              .toList();
      return matches.size() == 1 ? matches.get(0) : null;
    } catch (IOException e) {
      return null;
    }
  }
}
