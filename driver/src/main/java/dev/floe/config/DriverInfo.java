package dev.floe.config;

/** The driver's identity: the URL prefix it answers to and its version. */
public final class DriverInfo {
  /** The prefix of every Floe URL. */
  public static final String URL_PREFIX = "jdbc:floe:";

  /** The driver's major version. */
  public static final int MAJOR_VERSION = 0;

  /** The driver's minor version. */
  public static final int MINOR_VERSION = 1;

  private DriverInfo() {}
}
