package dev.floe.examples.shell;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Drops printed Java stack traces (a throwable's line and message, its frames and causes) from a
 * stream, line by line, and keeps everything else. sqlline prints the full stack trace of every
 * error in a statement given with {@code -e} or {@code -f} (it treats them as start-up errors); the
 * shell keeps the one-line message with its SQLState. Complete lines only are passed on, so it
 * suits a stream of whole lines, as stderr is. Not thread-safe beyond what the wrapping {@link
 * java.io.PrintStream} provides.
 */
final class StackTraceFilter extends FilterOutputStream {
  private static final Pattern THROWABLE =
      Pattern.compile(
          "[a-zA-Z_$][\\w$]*(\\.[a-zA-Z_$][\\w$]*)+(Exception|Error|Throwable)(:|\\s*$)");
  private static final Pattern FRAME = Pattern.compile("\\s+(at |\\.\\.\\. \\d+ more)");

  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private boolean inMessage;

  StackTraceFilter(OutputStream out) {
    super(out);
  }

  @Override
  public void write(int b) throws IOException {
    line.write(b);
    if (b == '\n') {
      endLine();
    }
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    for (int i = offset; i < offset + length; i++) {
      write(bytes[i]);
    }
  }

  @Override
  public void flush() throws IOException {
    out.flush(); // a partial line waits for its end
  }

  @Override
  public void close() throws IOException {
    if (line.size() > 0) {
      line.writeTo(out);
      line.reset();
    }
    super.close();
  }

  private void endLine() throws IOException {
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    if (isThrowable(text)) {
      inMessage = true; // its message, maybe of several lines, runs until the first frame
    } else if (isFrame(text)) {
      inMessage = false;
    } else if (!inMessage) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
  }

  /** The first line of a printed throwable or of one of its causes. */
  static boolean isThrowable(String line) {
    return line.startsWith("Caused by: ") || THROWABLE.matcher(line).lookingAt();
  }

  /** A stack frame or an elided-frames line. */
  static boolean isFrame(String line) {
    return FRAME.matcher(line).lookingAt();
  }
}
