package dev.floe.config;

import dev.floe.error.FloeError;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations and sizes as procedure arguments and connection properties spell them
 * (docs/maintenance.md, "Maintenance"): {@code '7d'}, {@code '36h'}, {@code '0.5s'}; {@code
 * '100MB'} in powers of 1024. Each is computed exactly and refused when it does not fit in a {@code
 * long} of nanoseconds or bytes, never wrapped.
 */
public final class Quantities {
  private static final Pattern DURATION =
      Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s|m|h|d)\\s*");
  private static final Pattern SIZE =
      Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(B|kB|MB|GB|TB|PB)\\s*", Pattern.CASE_INSENSITIVE);
  private static final BigDecimal LONGEST = BigDecimal.valueOf(Long.MAX_VALUE);

  private Quantities() {}

  /**
   * The duration a text spells ({@code <n>ns|us|ms|s|m|h|d}, {@code n} whole or decimal), to the
   * nanosecond; null when it spells none.
   *
   * @param what what the value is for (an argument or property name), for the message
   * @throws dev.floe.error.FloeException ARGUMENT_OUT_OF_RANGE (22003) naming {@code what} when it
   *     is longer than {@value Long#MAX_VALUE} nanoseconds (about 292 years)
   */
  public static Duration duration(String what, String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      return null;
    }
    long nanosPerUnit =
        switch (m.group(2)) {
          case "ns" -> 1L;
          case "us" -> 1_000L;
          case "ms" -> 1_000_000L;
          case "s" -> 1_000_000_000L;
          case "m" -> 60_000_000_000L;
          case "h" -> 3_600_000_000_000L;
          default -> 86_400_000_000_000L;
        };
    BigDecimal nanos =
        new BigDecimal(m.group(1))
            .multiply(BigDecimal.valueOf(nanosPerUnit))
            .setScale(0, RoundingMode.DOWN);
    if (nanos.compareTo(LONGEST) > 0) {
      throw FloeError.ARGUMENT_OUT_OF_RANGE.error(
          what + " '" + text.trim() + "'",
          "it is longer than the longest duration, " + Long.MAX_VALUE + "ns (about 292 years)");
    }
    return Duration.ofNanos(nanos.longValueExact());
  }

  /**
   * The size in bytes a text spells ({@code <n>B|kB|MB|GB|TB|PB}, powers of 1024, any case); null
   * when it spells none.
   *
   * @throws dev.floe.error.FloeException ARGUMENT_OUT_OF_RANGE (22003) naming {@code what} when it
   *     is larger than {@value Long#MAX_VALUE} bytes
   */
  public static Long size(String what, String text) {
    Matcher m = SIZE.matcher(text);
    if (!m.matches()) {
      return null;
    }
    int power =
        switch (m.group(2).toUpperCase(Locale.ROOT)) {
          case "B" -> 0;
          case "KB" -> 1;
          case "MB" -> 2;
          case "GB" -> 3;
          case "TB" -> 4;
          default -> 5;
        };
    BigDecimal bytes =
        new BigDecimal(m.group(1))
            .multiply(BigDecimal.valueOf(1024).pow(power))
            .setScale(0, RoundingMode.DOWN);
    if (bytes.compareTo(LONGEST) > 0) {
      throw FloeError.ARGUMENT_OUT_OF_RANGE.error(
          what + " '" + text.trim() + "'",
          "it is larger than the largest size, " + Long.MAX_VALUE + "B (8 EiB)");
    }
    return bytes.longValueExact();
  }
}
