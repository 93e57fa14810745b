package dev.floe.storage;

import dev.floe.error.FloeError;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * Where a lake lives, in its one canonical spelling. Every way of writing a local place ({@code
 * /x}, {@code file:/x}, {@code file:///x}, {@code file://localhost/x}, a relative path, {@code
 * C:\x}, {@code c:/x}) parses to the same location; percent-escapes in {@code file:} URIs are
 * decoded exactly once and nothing else is ever escaped, so a space stays a space.
 *
 * <p>The canonical form of a local location is {@code file:} followed by the absolute path with
 * forward slashes ({@code file:/data/lake}, {@code file:/C:/lake}); it is what Floe writes into
 * Iceberg metadata, the spelling Hadoop-based engines write too. Immutable.
 */
public final class LakeLocation {
  private final String scheme;
  private final String path;

  private LakeLocation(String scheme, String path) {
    this.scheme = scheme;
    this.path = path;
  }

  /**
   * Parses a location as a user writes it in a JDBC URL.
   *
   * @throws dev.floe.error.FloeException CANNOT_OPEN when it is empty or of an unknown scheme
   */
  public static LakeLocation parse(String text) {
    if (text == null || text.isBlank()) {
      throw FloeError.CANNOT_OPEN.error("''", "the URL names no location");
    }
    if (text.indexOf('\0') >= 0) {
      // trim() would drop it, and an empty location is the working directory.
      throw FloeError.CANNOT_OPEN.error(
          "'" + text.replace("\0", "\\0") + "'", "a location cannot hold a NUL character");
    }
    String s = text.trim();
    if (s.isEmpty()) {
      throw FloeError.CANNOT_OPEN.error("''", "the URL names no location, only control characters");
    }
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.startsWith("s3://") || lower.startsWith("s3a://") || lower.startsWith("s3n://")) {
      return s3(s);
    }
    if (lower.startsWith("file:")) {
      String rest = s.substring(5);
      if (rest.startsWith("//")) {
        int slash = rest.indexOf('/', 2);
        String authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
        if (!authority.isEmpty() && !authority.equalsIgnoreCase("localhost")) {
          throw FloeError.CANNOT_OPEN.error(text, "remote file URIs are not supported");
        }
        rest = slash < 0 ? "/" : rest.substring(slash);
      }
      return local(percentDecode(rest, text));
    }
    if (hasScheme(s)) {
      // A location with user information (user:secret@host) is not echoed.
      throw FloeError.CANNOT_OPEN.error(
          s.contains("@") ? s.substring(0, s.indexOf(':')) + "://..." : text,
          "unknown scheme; use a path, file: or s3://");
    }
    return local(s);
  }

  /** Whether this is a location on the local file system. */
  public boolean isLocal() {
    return scheme.equals("file");
  }

  /** Whether this is an S3 location. */
  public boolean isS3() {
    return scheme.equals("s3");
  }

  /** The canonical string: {@code file:/abs/path} or {@code s3://bucket/prefix}. */
  public String canonical() {
    return isLocal() ? "file:" + path : "s3://" + path;
  }

  /** The local path of a local location. */
  public Path localPath() {
    if (!isLocal()) {
      throw new IllegalStateException("Not a local location: " + canonical());
    }
    return LocalFileIO.toPath(canonical());
  }

  /** A location below this one. */
  public LakeLocation resolve(String child) {
    return new LakeLocation(scheme, path.endsWith("/") ? path + child : path + "/" + child);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LakeLocation
        && ((LakeLocation) o).scheme.equals(scheme)
        && ((LakeLocation) o).path.equals(path);
  }

  @Override
  public int hashCode() {
    return canonical().hashCode();
  }

  @Override
  public String toString() {
    return canonical();
  }

  /**
   * An S3 location: {@code s3://bucket/prefix}, also spelt {@code s3a://} or {@code s3n://} as
   * Hadoop writes it. Percent-escapes are decoded once, as in {@code file:} URIs; repeated and
   * trailing slashes are dropped, so every key Floe writes is exact (a space stays a space).
   * Credentials in the location ({@code user:secret@bucket}) are refused without echoing them.
   */
  private static LakeLocation s3(String text) {
    String rest = text.substring(text.indexOf("://") + 3);
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (bucket.contains("@") || bucket.contains(":")) {
      throw FloeError.CANNOT_OPEN.error(
          "s3://...",
          "credentials do not belong in the location; use s3.access-key-id and"
              + " s3.secret-access-key, or the AWS default credential chain");
    }
    if (bucket.isEmpty()) {
      throw FloeError.CANNOT_OPEN.error("s3://", "an S3 location needs a bucket");
    }
    if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
      // Not echoed: whatever was typed there might be a secret.
      throw FloeError.CANNOT_OPEN.error(
          "s3://...", "the bucket name is not valid (3 to 63 of a-z, 0-9, '.' and '-')");
    }
    String label = "s3://" + bucket + "/...";
    String prefix = slash < 0 ? "" : percentDecode(rest.substring(slash + 1), label);
    StringBuilder path = new StringBuilder(bucket);
    for (String part : prefix.split("/")) {
      if (part.isEmpty()) {
        continue;
      }
      if (part.equals(".") || part.equals("..")) {
        throw FloeError.CANNOT_OPEN.error(label, "an S3 prefix has no '.' or '..' segments");
      }
      path.append('/').append(part);
    }
    return new LakeLocation("s3", path.toString());
  }

  /** A local path: Windows drive paths in either slash style, absolute or relative POSIX paths. */
  private static LakeLocation local(String raw) {
    String p = raw;
    if (p.length() >= 3 && p.charAt(0) == '/' && isWindowsDrivePath(p.substring(1))) {
      p = p.substring(1); // file:/C:/x
    }
    if (isWindowsDrivePath(p)) {
      String drive = p.substring(0, 1).toUpperCase(Locale.ROOT);
      String rest = p.substring(2).replace('\\', '/');
      return new LakeLocation("file", "/" + drive + ":" + normalize(rest.isEmpty() ? "/" : rest));
    }
    Path absolute;
    try {
      absolute = Paths.get(p).toAbsolutePath().normalize();
    } catch (java.nio.file.InvalidPathException e) {
      throw FloeError.CANNOT_OPEN.error(
          e, "'" + raw + "'", "it is not a valid path: " + e.getReason());
    }
    String text = absolute.toString().replace('\\', '/');
    if (isWindowsDrivePath(text)) {
      String drive = text.substring(0, 1).toUpperCase(Locale.ROOT);
      return new LakeLocation("file", "/" + drive + ":" + normalize(text.substring(2)));
    }
    return new LakeLocation("file", normalize(text));
  }

  private static String normalize(String slashPath) {
    String p = slashPath.replaceAll("/+", "/");
    java.util.Deque<String> parts = new java.util.ArrayDeque<>();
    for (String part : p.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        parts.pollLast();
      } else {
        parts.addLast(part);
      }
    }
    return "/" + String.join("/", parts);
  }

  private static boolean isWindowsDrivePath(String p) {
    return p.length() >= 2
        && Character.isLetter(p.charAt(0))
        && p.charAt(1) == ':'
        && (p.length() == 2 || p.charAt(2) == '/' || p.charAt(2) == '\\');
  }

  private static boolean hasScheme(String s) {
    int colon = s.indexOf(':');
    if (colon <= 1) {
      return false; // no scheme, or a drive letter
    }
    for (int i = 0; i < colon; i++) {
      char c = s.charAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.')) {
        return false;
      }
    }
    return true;
  }

  private static boolean isWindows() {
    return java.io.File.separatorChar == '\\';
  }

  /** Decodes %XX escapes once; a lone % that is not an escape is an error in a URI. */
  static String percentDecode(String s, String original) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '%') {
        if (i + 2 >= bytes.length || hex(bytes[i + 1]) < 0 || hex(bytes[i + 2]) < 0) {
          throw FloeError.CANNOT_OPEN.error(original, "invalid percent-escape in URI");
        }
        out.write(hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]));
        i += 2;
      } else {
        out.write(bytes[i]);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static int hex(byte b) {
    return Character.digit((char) b, 16);
  }
}
