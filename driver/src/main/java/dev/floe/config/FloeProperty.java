package dev.floe.config;

import dev.floe.error.FloeError;
import dev.floe.planner.session.SpillLimit;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every connection property Floe understands, with its meaning and default. They may come in the
 * URL ({@code jdbc:floe:/lake?readOnly=true}) or in {@link Properties}; a key given in both takes
 * the URL's value. The table of properties (docs/connecting.md, "Connection properties") is written
 * from this enum, and so is {@link java.sql.Driver#getPropertyInfo}.
 */
public enum FloeProperty {
  /** Session time zone. */
  TIME_ZONE(
      "timeZone",
      "UTC",
      false,
      "Session time zone (an IANA name such as Europe/Paris): how TIMESTAMP WITH LOCAL TIME ZONE"
          + " values are shown and how plain timestamps compare with them."),
  /** Refuse every write. */
  READ_ONLY(
      "readOnly", "false", false, "true: every INSERT, DELETE, UPDATE and DDL is refused (25006)."),
  /** Create the root folder if missing. */
  CREATE(
      "create",
      "false",
      false,
      "true: create the root folder if it does not exist; false: a missing root is an error (08001)."),
  /** Files read at once per scan. */
  SCAN_THREADS(
      "scanThreads",
      "",
      false,
      "How many data files (or row-group ranges of large files) one query reads at once, from 1 to"
          + " 1024. Default: the number of available processors."),
  /** The memory one statement's operators may hold. */
  MEMORY_BUDGET(
      "memoryBudget",
      "50%",
      false,
      "The most memory the rows one statement's operators keep (hash join build sides, sorts,"
          + " an aggregate's groups) may take, as a share of the JVM's maximum heap (50%) or a size"
          + " (512MB, 2GB); a hash join whose build side, a sort whose rows or an aggregate whose"
          + " groups would pass its share of it spills to disk in the JVM's temp folder; what"
          + " cannot spill fails with 53200 and the connection stays usable."),
  /** The disk one statement's spill files may take. */
  SPILL_LIMIT(
      "spillLimit",
      "90%",
      false,
      "The most disk the spill files of one statement's hash joins, sorts and aggregates may take"
          + " at once, as a share of the usable space of the temp folder's disk (java.io.tmpdir)"
          + " when the statement first spills (90%) or a size (10GB); 0: nothing spills, and a"
          + " join, sort or aggregate past memoryBudget fails with 53200. A statement whose spill would pass it fails with"
          + " 53200, its files deleted, and the connection stays usable."),
  /** S3 endpoint. */
  S3_ENDPOINT(
      "s3.endpoint",
      "",
      false,
      "S3 endpoint URL, for S3-compatible stores (http://host:port); default: AWS's endpoint for"
          + " the region."),
  /** S3 path-style addressing. */
  S3_PATH_STYLE_ACCESS(
      "s3.path-style-access",
      "false",
      false,
      "true: address buckets by path, not by host name (always so for an endpoint given as an IP"
          + " address or localhost)."),
  /** S3 access key. */
  S3_ACCESS_KEY_ID("s3.access-key-id", "", true, "S3 access key id."),
  /** S3 secret key. */
  S3_SECRET_ACCESS_KEY("s3.secret-access-key", "", true, "S3 secret access key."),
  /** S3 session token. */
  S3_SESSION_TOKEN("s3.session-token", "", true, "S3 session token, for temporary credentials."),
  /** AWS region. */
  CLIENT_REGION(
      "client.region",
      "",
      false,
      "AWS region of the bucket; default: the AWS default region provider chain, else us-east-1."),
  /** Single-writer mode on stores without conditional writes. */
  S3_SINGLE_WRITER(
      "s3.single-writer",
      "false",
      false,
      "true: allow commits on an S3 store that does not honour conditional PUT; the user"
          + " guarantees that only one writer commits at a time."),
  /** Whether read_parquet and read_csv may read files outside the lake. */
  EXTERNAL_ACCESS(
      "externalAccess",
      "true",
      false,
      "false: read_parquet and read_csv refuse every path outside the lake root (42602), as"
          + " DuckDB's enable_external_access=false; for a lake shared through a service. Writing"
          + " is always confined to the lake."),
  /** Whether a plain scan's result is read from the scan's column batches. */
  COLUMNAR_RESULTS(
      "columnarResults",
      "true",
      false,
      "true: the result of a query that is a plain scan of a table (columns, pushed filters,"
          + " LIMIT) is read by the getters straight from the scan's column batches; false: every"
          + " result goes through Calcite's row cursor (the same answers, slower)."),
  /** The shortest retention snapshot expiry and orphan removal accept. */
  MAINTENANCE_MIN_RETENTION(
      "maintenance.min-retention",
      "7d",
      false,
      "The shortest retention_threshold that expire_snapshots and remove_orphan_files accept (a"
          + " duration: 7d, 12h, 30m, 0s). Lower it only when no writer runs longer than it.");

  private final String key;
  private final String defaultValue;
  private final boolean secret;
  private final String description;

  FloeProperty(String key, String defaultValue, boolean secret, String description) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.secret = secret;
    this.description = description;
  }

  /** The property's name, as written in URLs and Properties. */
  public String key() {
    return key;
  }

  /** The default, or "" when there is none. */
  public String defaultValue() {
    return defaultValue;
  }

  /** Whether the value is a credential that must never be shown. */
  public boolean secret() {
    return secret;
  }

  /** What the property means. */
  public String description() {
    return description;
  }

  /** The value in a set of properties, or the default. */
  public String in(Properties properties) {
    String value = properties.getProperty(key);
    return value == null ? defaultValue : value;
  }

  /** The boolean value in a set of properties. */
  public boolean isTrue(Properties properties) {
    return in(properties).trim().toLowerCase(Locale.ROOT).equals("true");
  }

  /** The largest accepted {@code scanThreads}. */
  public static final int MAX_SCAN_THREADS = 1024;

  private static final String MASK = "****";

  /**
   * Checks every property Floe gives a meaning to, before anything is created: a boolean is {@code
   * true} or {@code false} (any case), {@code scanThreads} a whole number from 1 to {@value
   * #MAX_SCAN_THREADS}, {@code timeZone} an IANA zone name or offset, {@code
   * maintenance.min-retention} a duration ({@link Quantities#duration}).
   *
   * @throws dev.floe.error.FloeException INVALID_PROPERTY naming the property and the accepted
   *     values
   */
  public static void validate(Properties properties) {
    for (FloeProperty p : values()) {
      String value = properties.getProperty(p.key);
      if (value != null) {
        p.check(value);
      }
    }
  }

  private void check(String value) {
    String accepted = null;
    if (defaultValue.equals("true") || defaultValue.equals("false")) {
      String v = value.trim().toLowerCase(Locale.ROOT);
      if (!v.equals("true") && !v.equals("false")) {
        accepted = "true or false";
      }
    } else if (this == SCAN_THREADS) {
      if (!value.isBlank()) {
        try {
          int n = Integer.parseInt(value.trim());
          if (n < 1 || n > MAX_SCAN_THREADS) {
            accepted = "a whole number from 1 to " + MAX_SCAN_THREADS;
          }
        } catch (NumberFormatException e) {
          accepted = "a whole number from 1 to " + MAX_SCAN_THREADS;
        }
      }
    } else if (this == MEMORY_BUDGET) {
      try {
        if (memoryBytes(value, 1L << 30) <= 0) {
          accepted = "a share of the heap from 1% to 100% (50%) or a size such as 512MB or 2GB";
        }
      } catch (dev.floe.error.FloeException | NumberFormatException tooLarge) {
        accepted = "a share of the heap from 1% to 100% (50%) or a size such as 512MB or 2GB";
      }
    } else if (this == SPILL_LIMIT) {
      try {
        spillLimit(value);
      } catch (dev.floe.error.FloeException | IllegalArgumentException notASize) {
        accepted =
            "a share of the temp folder's free disk from 1% to 100% (90%), a size such as 10GB, or 0";
      }
    } else if (this == MAINTENANCE_MIN_RETENTION) {
      try {
        if (Quantities.duration(key, value) == null) {
          accepted = "a duration such as 7d, 12h, 30m or 0s";
        }
      } catch (dev.floe.error.FloeException tooLong) {
        accepted = "a duration such as 7d, 12h, 30m or 0s, at most about 292 years";
      }
    } else if (this == TIME_ZONE) {
      try {
        ZoneId.of(value.trim());
      } catch (DateTimeException e) {
        accepted = "an IANA time zone name such as Europe/Paris, or an offset such as +02:00";
      }
    }
    if (accepted != null) {
      throw FloeError.INVALID_PROPERTY.error(
          key + "=" + (secret ? MASK : "'" + value + "'"), "the accepted values are " + accepted);
    }
  }

  /**
   * The bytes a {@code memoryBudget} value allows: a share of {@code maxHeap} ({@code 50%}) or a
   * size ({@link Quantities#size}); 0 when it spells neither or a share outside 1% to 100%.
   */
  public static long memoryBytes(String value, long maxHeap) {
    String text = value.trim();
    if (text.endsWith("%")) {
      double share = Double.parseDouble(text.substring(0, text.length() - 1).trim());
      if (!(share >= 1 && share <= 100)) {
        return 0;
      }
      return (long) (maxHeap * (share / 100));
    }
    Long bytes = Quantities.size("memoryBudget", text);
    return bytes == null ? 0 : bytes;
  }

  /** The memory budget of one statement under validated properties, in bytes. */
  public static long memoryBudget(Properties properties) {
    return memoryBytes(MEMORY_BUDGET.in(properties), Runtime.getRuntime().maxMemory());
  }

  /**
   * The limit a {@code spillLimit} value sets: a share of the temp folder's usable space ({@code
   * 90%}), a size ({@link Quantities#size}) or {@code 0}.
   *
   * @throws IllegalArgumentException when it spells none of them, or a share outside 1% to 100%
   */
  public static SpillLimit spillLimit(String value) {
    String text = value.trim();
    if (text.equals("0")) {
      return SpillLimit.ofBytes(0);
    }
    if (text.endsWith("%")) {
      double share = Double.parseDouble(text.substring(0, text.length() - 1).trim());
      if (!(share >= 1 && share <= 100)) {
        throw new IllegalArgumentException("a share outside 1% to 100%");
      }
      return SpillLimit.ofUsableSpace(share / 100);
    }
    Long bytes = Quantities.size("spillLimit", text);
    if (bytes == null) {
      throw new IllegalArgumentException("not a size");
    }
    return SpillLimit.ofBytes(bytes);
  }

  /** The spill limit of one statement under validated properties. */
  public static SpillLimit spillLimit(Properties properties) {
    return spillLimit(SPILL_LIMIT.in(properties));
  }

  /** The session time zone of validated properties. */
  public static ZoneId timeZone(Properties properties) {
    return ZoneId.of(TIME_ZONE.in(properties).trim());
  }

  private static final Pattern SECRET_IN_TEXT = secretPattern();

  private static Pattern secretPattern() {
    StringBuilder keys = new StringBuilder();
    for (FloeProperty p : values()) {
      if (p.secret) {
        keys.append(keys.length() == 0 ? "" : "|").append(Pattern.quote(p.key));
      }
    }
    return Pattern.compile("(?i)((?:" + keys + ")\\s*[=:]\\s*)[^&?;,\\s'\"]*");
  }

  /**
   * Text with every secret hidden: the value after any secret property's key ({@code
   * s3.secret-access-key=...}, however the URL around it is malformed) and every secret value given
   * in the properties, wherever it appears.
   */
  public static String mask(String text, Properties properties) {
    if (text == null) {
      return null;
    }
    String masked =
        SECRET_IN_TEXT.matcher(text).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
    if (properties != null) {
      for (FloeProperty p : values()) {
        String value = properties.getProperty(p.key);
        if (p.secret && value != null && !value.isEmpty()) {
          masked = masked.replace(value, MASK);
        }
      }
    }
    return masked;
  }

  /** The property with a key, or null. */
  public static FloeProperty byKey(String key) {
    for (FloeProperty p : values()) {
      if (p.key.equals(key)) {
        return p;
      }
    }
    return null;
  }
}
