package dev.floe.examples.shell;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drops the frames of Java stack traces from a stream, line by line, and keeps everything else.
 * sqlline prints the full stack trace of every error in a statement given with {@code -e} or
 * {@code -f} (it treats them as start-up errors); the shell keeps the one-line message with its
 * SQLState. Complete lines only are passed on, so it suits a stream of whole lines, as stderr is.
 * Not thread-safe beyond what the wrapping {@link java.io.PrintStream} provides.
 */
final class StackTraceFilter extends FilterOutputStream {
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

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
    if (!isFrame(line.toString(StandardCharsets.UTF_8))) {
      line.writeTo(out);
      out.flush();
    }
    line.reset();
  }

  /** A stack frame, an elided-frames line or a cause's header. */
  static boolean isFrame(String line) {
    String trimmed = line.stripLeading();
    return (line.startsWith("\t") || line.startsWith(" ")) && (trimmed.startsWith("at ") || trimmed.startsWith("... "))
        || line.startsWith("Caused by: ");
  }
}
