package dev.floe.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One attack's world: a fresh folder holding the lake and, beside it, an {@code outside} folder
 * with a canary file that no statement may touch. Listings of the whole folder (never following
 * symbolic links) prove what a statement created, changed or deleted.
 */
final class AttackLake {
  final Path base;
  final Path root;
  final Path outside;

  AttackLake(Path base) throws IOException {
    this.base = base;
    this.root = Files.createDirectories(base.resolve("lake"));
    this.outside = Files.createDirectories(base.resolve("outside"));
    Files.writeString(outside.resolve("canary.txt"), "must stay");
  }

  String url() {
    return "jdbc:floe:" + root;
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(url());
  }

  /** Runs statements on one new connection. */
  void sql(String... statements) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** Runs statements on one new connection to another URL (a spelling, or properties). */
  static void sqlAt(String url, String... statements) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** The rows of a query on a new connection to another URL. */
  static List<String> rowsAt(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      return rows(c, sql);
    }
  }

  /**
   * A symbolic link beside the lake, {@code <base>/lake-alias}, leading to it: a second spelling of
   * the same lake.
   */
  Path alias() throws IOException {
    Path alias = base.resolve("lake-alias");
    if (!Files.isSymbolicLink(alias)) {
      Files.createSymbolicLink(alias, root);
    }
    return alias;
  }

  /** The rows of a query, each row's columns joined by {@code |}, read with getString. */
  List<String> rows(String sql) throws SQLException {
    try (Connection c = connect()) {
      return rows(c, sql);
    }
  }

  static List<String> rows(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<String> rows = new ArrayList<>();
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
      return rows;
    }
  }

  /** Runs one prepared statement with parameters bound by {@code setObject}. */
  int prepared(String sql, Object... values) throws SQLException {
    try (Connection c = connect();
        PreparedStatement p = c.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        p.setObject(i + 1, values[i]);
      }
      return p.executeUpdate();
    }
  }

  /**
   * Every entry under the base folder (lake and outside), folders with a trailing slash, files with
   * their size and modification time, symbolic links with their target; links are not followed.
   */
  TreeMap<String, String> listing() {
    TreeMap<String, String> entries = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(base)) {
      for (Path p : walk.toList()) {
        if (p.equals(base)) {
          continue;
        }
        String name = base.relativize(p).toString();
        BasicFileAttributes attrs =
            Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attrs.isSymbolicLink()) {
          entries.put(name, "-> " + Files.readSymbolicLink(p));
        } else if (attrs.isDirectory()) {
          entries.put(name + "/", "dir");
        } else {
          entries.put(name, attrs.size() + " bytes, " + attrs.lastModifiedTime().toMillis());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return entries;
  }

  /** The part of a listing under the outside folder. */
  static TreeMap<String, String> outsidePart(TreeMap<String, String> listing) {
    TreeMap<String, String> part = new TreeMap<>();
    listing.forEach(
        (k, v) -> {
          if (!k.startsWith("lake/") && !k.equals("lake/")) {
            part.put(k, v);
          }
        });
    return part;
  }

  /** What changed between two listings: {@code +added}, {@code -removed}, {@code ~changed}. */
  static List<String> diff(TreeMap<String, String> before, TreeMap<String, String> after) {
    List<String> changes = new ArrayList<>();
    Set<String> names = new java.util.TreeSet<>(before.keySet());
    names.addAll(after.keySet());
    for (String name : names) {
      String b = before.get(name);
      String a = after.get(name);
      if (b == null) {
        changes.add("+" + name);
      } else if (a == null) {
        changes.add("-" + name);
      } else if (!a.equals(b)) {
        changes.add("~" + name);
      }
    }
    return changes;
  }

  /** The single file under a folder whose name ends with a suffix, newest first if several. */
  Path newest(Path folder, String suffix) throws IOException {
    try (Stream<Path> walk = Files.walk(folder)) {
      return walk.filter(p -> p.getFileName().toString().endsWith(suffix))
          .max(
              (x, y) -> {
                try {
                  return Files.getLastModifiedTime(x).compareTo(Files.getLastModifiedTime(y));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .orElseThrow(() -> new AssertionError("no *" + suffix + " under " + folder));
    }
  }
}
