package dev.floe.storage;

import dev.floe.error.FloeError;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Iceberg's {@link FileIO} over the local file system with java.nio, no Hadoop. Opens a location in
 * any spelling other engines write ({@code /x}, {@code file:/x}, {@code file:///x}, raw spaces,
 * percent-escapes); every file it writes is forced to disk when closed, so a commit that follows is
 * durable. It creates and deletes files only under its {@link Sandbox}'s root, and reads anywhere.
 * Thread-safe.
 */
public final class LocalFileIO implements FileIO, SupportsPrefixOperations {
  private static final long serialVersionUID = 1L;

  private final transient Sandbox sandbox;

  /** A FileIO that writes and deletes only under the sandbox's root; it reads anywhere. */
  public LocalFileIO(Sandbox sandbox) {
    this.sandbox = sandbox;
  }

  /** The sandbox every write and delete is checked against. */
  public Sandbox sandbox() {
    return sandbox;
  }

  @Override
  public InputFile newInputFile(String location) {
    return new LocalInputFile(location, toPath(location), -1);
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return new LocalInputFile(location, toPath(location), length);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    Path path = toPath(location);
    if (!sandbox.contains(path)) {
      throw FloeError.OUTSIDE_LAKE.error("write " + location, location, sandbox.root());
    }
    return new LocalOutputFile(location, path);
  }

  @Override
  public void deleteFile(String location) {
    Path path = toPath(location);
    if (!sandbox.contains(path)) {
      throw FloeError.OUTSIDE_LAKE.error("delete " + location, location, sandbox.root());
    }
    try {
      if (Files.deleteIfExists(path)) {
        removeEmptyFolders(path.getParent());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + location, e);
    }
  }

  /**
   * Removes a folder a deleted file leaves empty, and its parents likewise, up to the table folder
   * (the one holding {@code metadata/}) or the root: a failed statement or a rollback leaves no
   * empty partition folder behind.
   */
  private void removeEmptyFolders(Path folder) {
    Path root = sandbox.root();
    for (Path p = folder; p != null && !p.equals(root) && sandbox.contains(p); p = p.getParent()) {
      if (Files.exists(p.resolve("metadata"))) {
        return;
      }
      try {
        Files.delete(p);
      } catch (IOException notEmptyOrGone) {
        return;
      }
    }
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    Path root = toPath(prefix);
    if (!Files.exists(root)) {
      return List.of();
    }
    List<FileInfo> files = new ArrayList<>();
    String base = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    try (Stream<Path> walk = Files.walk(root)) {
      walk.forEach(
          path -> {
            try {
              BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
              if (attrs.isRegularFile()) {
                String relative = root.relativize(path).toString().replace('\\', '/');
                String location = relative.isEmpty() ? base : base + "/" + relative;
                files.add(
                    new FileInfo(location, attrs.size(), attrs.lastModifiedTime().toMillis()));
              }
            } catch (IOException e) {
              // vanished while walking
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + prefix, e);
    }
    return files;
  }

  @Override
  public void deletePrefix(String prefix) {
    for (FileInfo file : listPrefix(prefix)) {
      deleteFile(file.location());
    }
  }

  @Override
  public Map<String, String> properties() {
    return Map.of();
  }

  /**
   * The local path of a location in any spelling. A {@code %XX} sequence is decoded only when the
   * raw spelling names no existing file and the decoded one does.
   */
  public static Path toPath(String location) {
    String p = location;
    if (p.regionMatches(true, 0, "file:", 0, 5)) {
      p = p.substring(5);
      if (p.startsWith("//")) {
        int slash = p.indexOf('/', 2);
        p = slash < 0 ? "/" : p.substring(slash);
      }
    }
    if (java.io.File.separatorChar == '\\'
        && p.length() >= 3
        && p.charAt(0) == '/'
        && p.charAt(2) == ':') {
      p = p.substring(1);
    }
    Path raw = Paths.get(p);
    if (p.indexOf('%') >= 0 && !Files.exists(raw)) {
      try {
        Path decoded = Paths.get(LakeLocation.percentDecode(p, location));
        if (Files.exists(decoded)) {
          return decoded;
        }
      } catch (RuntimeException notAnEscape) {
        return raw;
      }
    }
    return raw;
  }

  /** A local file to read. */
  private static final class LocalInputFile implements InputFile {
    private final String location;
    private final Path path;
    private long length;

    LocalInputFile(String location, Path path, long length) {
      this.location = location;
      this.path = path;
      this.length = length;
    }

    @Override
    public long getLength() {
      if (length < 0) {
        try {
          length = Files.size(path);
        } catch (NoSuchFileException e) {
          throw new NotFoundException(e, "File does not exist: %s", location);
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot read " + location, e);
        }
      }
      return length;
    }

    @Override
    public SeekableInputStream newStream() {
      try {
        return new ChannelInputStream(FileChannel.open(path, StandardOpenOption.READ));
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "File does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot open " + location, e);
      }
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public boolean exists() {
      return Files.exists(path);
    }
  }

  /** A seekable stream over a file channel. */
  private static final class ChannelInputStream extends SeekableInputStream {
    private final FileChannel channel;
    private final InputStream stream;

    ChannelInputStream(FileChannel channel) {
      this.channel = channel;
      this.stream = Channels.newInputStream(channel);
    }

    @Override
    public long getPos() throws IOException {
      return channel.position();
    }

    @Override
    public void seek(long newPos) throws IOException {
      channel.position(newPos);
    }

    @Override
    public int read() throws IOException {
      return stream.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return stream.read(b, off, len);
    }

    @Override
    public long skip(long n) throws IOException {
      long pos = channel.position();
      long target = Math.min(channel.size(), pos + Math.max(0, n));
      channel.position(target);
      return target - pos;
    }

    @Override
    public int available() throws IOException {
      long left = channel.size() - channel.position();
      return (int) Math.min(Integer.MAX_VALUE, Math.max(0, left));
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /** A local file to write; its parent folders are created as needed. */
  private static final class LocalOutputFile implements OutputFile {
    private final String location;
    private final Path path;

    LocalOutputFile(String location, Path path) {
      this.location = location;
      this.path = path;
    }

    @Override
    public PositionOutputStream create() {
      return open(StandardOpenOption.CREATE_NEW);
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return open(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private PositionOutputStream open(StandardOpenOption... options) {
      try {
        List<StandardOpenOption> all = new ArrayList<>(List.of(options));
        all.add(StandardOpenOption.WRITE);
        StandardOpenOption[] opening = all.toArray(new StandardOpenOption[0]);
        Files.createDirectories(path.getParent());
        try {
          return new ChannelOutputStream(FileChannel.open(path, opening));
        } catch (NoSuchFileException emptiedMeanwhile) {
          // Another statement's cleanup removed the folder as it became empty: create it again.
          Files.createDirectories(path.getParent());
          return new ChannelOutputStream(FileChannel.open(path, opening));
        }
      } catch (FileAlreadyExistsException e) {
        throw new AlreadyExistsException(e, "File already exists: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create " + location, e);
      }
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public InputFile toInputFile() {
      return new LocalInputFile(location, path, -1);
    }
  }

  /** A buffered output stream that forces its file to disk on close. */
  private static final class ChannelOutputStream extends PositionOutputStream {
    private static final int BUFFER = 1 << 16;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
    private long position;
    private boolean closed;

    ChannelOutputStream(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void write(int b) throws IOException {
      if (!buffer.hasRemaining()) {
        drain();
      }
      buffer.put((byte) b);
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > buffer.remaining()) {
        drain();
        if (len > BUFFER) {
          ByteBuffer wrapped = ByteBuffer.wrap(b, off, len);
          while (wrapped.hasRemaining()) {
            channel.write(wrapped);
          }
          position += len;
          return;
        }
      }
      buffer.put(b, off, len);
      position += len;
    }

    private void drain() throws IOException {
      buffer.flip();
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      buffer.clear();
    }

    @Override
    public void flush() throws IOException {
      drain();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try (OutputStream ignored = Channels.newOutputStream(channel)) {
        drain();
        channel.force(true);
      }
    }
  }
}
