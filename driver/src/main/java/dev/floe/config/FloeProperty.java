package dev.floe.config;

import java.util.Locale;
import java.util.Properties;

/**
 * Every connection property Floe understands, with its meaning and default. They may come in the
 * URL ({@code jdbc:floe:/lake?readOnly=true}) or in {@link Properties}; a key given in both takes
 * the URL's value. The README's table of properties is written from this enum, and so is {@link
 * java.sql.Driver#getPropertyInfo}.
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
      "How many data files (or row-group ranges of large files) one query reads at once. Default: the number of available processors."),
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
          + " guarantees that only one writer commits at a time.");

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
