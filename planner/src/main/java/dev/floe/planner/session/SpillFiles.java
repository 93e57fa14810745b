package dev.floe.planner.session;

import dev.floe.error.FloeError;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The spill files of the statement's operators past its memory budget. Those of a hash join whose
 * build side does not fit its share of the budget ({@code prepare.HashJoins}): the rows of both
 * sides partitioned by a hash of their join key into files of one folder under {@code
 * java.io.tmpdir} ({@code floe-join-*}), created when the join first spills and deleted when it
 * closes, fails or is cancelled (and, for a JVM that ends with a join still open, when the JVM
 * exits). A sort past its budget writes its sorted runs with the same folders and encoding ({@code
 * prepare.SortSpill}, {@code floe-sort-*}), Calcite's aggregate and the aggregate a scan computes
 * their rows of keys that did not fit ({@code prepare.AggregateSpill}, {@code
 * scan.ScanAggregation}, {@code floe-agg-*}). Rows are written in a compact tagged encoding of the
 * values Calcite's rows hold at run time: NULL, BOOLEAN, the integers (DATE, TIME and TIMESTAMP are
 * held as {@code Integer} or {@code Long}), FLOAT, DOUBLE, DECIMAL, text, binary, UUID, arrays,
 * maps and rows (as {@code Object[]} or lists). A row holding anything else cannot be spilled
 * ({@link NotSpillable}).
 */
public final class SpillFiles {
  private static final int BUFFER = 32 * 1024;

  /** Folders of joins and sorts still open, deleted when the JVM exits. */
  private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

  /** Held while a spill file or folder is created, and by the JVM's end before it deletes. */
  private static final Object CREATING = new Object();

  /**
   * Whether the JVM is ending: from then on no spill file is created (a statement still running
   * fails), so none is made after the folders are deleted. Guarded by {@link #CREATING}.
   */
  private static boolean ending;

  static {
    try {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    synchronized (CREATING) {
                      ending = true;
                    }
                    for (Path folder : LIVE) {
                      deleteTree(folder);
                    }
                  },
                  "floe-join-spill-cleanup"));
    } catch (IllegalStateException | SecurityException e) {
      // the JVM is ending already, or forbids hooks: folders are still deleted as joins close
    }
  }

  private SpillFiles() {}

  /** A row holding a value the encoding does not know: the join cannot spill. */
  public static final class NotSpillable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotSpillable(Class<?> type) {
      super(
          "a row holds a value of " + type.getName() + ", which cannot be written to disk",
          null,
          false,
          false);
    }
  }

  /**
   * The folder of one operator's files: created on first use, deleted with everything in it. The
   * bytes its files hold count in the statement's spill limit ({@link MemoryBudget#wrote}) until
   * they are deleted.
   */
  public static final class Folder {
    private final String prefix;
    private final MemoryBudget memory;
    private final String operator;
    private @Nullable Path path;
    private int files;
    private long onDisk;
    private boolean deleted;

    /**
     * A folder named {@code prefix} and a unique suffix ({@code floe-join-}, {@code floe-sort-}),
     * for {@code operator}'s files, counted in {@code memory}.
     */
    public Folder(String prefix, MemoryBudget memory, String operator) {
      this.prefix = prefix;
      this.memory = memory;
      this.operator = operator;
    }

    /**
     * Creates a new empty file (and the folder, the first time), to be opened without {@code
     * CREATE}: once the JVM is ending none is created, and one its cleanup deleted is not made
     * again.
     *
     * @throws dev.floe.error.FloeException CANCELLED (57014) once the JVM is ending
     */
    public Path newFile() {
      if (deleted) {
        throw new IllegalStateException("the spill folder is deleted");
      }
      if (path == null) {
        memory.startSpill(operator, SpillFiles::usableSpace);
      }
      synchronized (CREATING) {
        if (ending) {
          throw FloeError.CANCELLED.error("the JVM is ending, and its spill files are deleted");
        }
        try {
          if (path == null) {
            Path base = Path.of(System.getProperty("java.io.tmpdir"));
            path = Files.createTempDirectory(base, prefix);
            LIVE.add(path);
          }
          return Files.createFile(path.resolve("part-" + files++));
        } catch (IOException e) {
          throw diskFailure(e, "create a file under java.io.tmpdir");
        }
      }
    }

    /** The folder, or null before the join spilled. */
    public @Nullable Path path() {
      return path;
    }

    /** Counts bytes written to one of its files (53200 past the statement's spill limit). */
    public void wrote(long bytes) {
      onDisk += bytes;
      memory.wrote(bytes, operator);
    }

    /** Counts the bytes of one of its files deleted. */
    public void deleted(long bytes) {
      onDisk -= bytes;
      memory.deleted(bytes);
    }

    public void delete() {
      deleted = true;
      if (path != null) {
        deleteTree(path);
        LIVE.remove(path);
        path = null;
      }
      memory.deleted(onDisk);
      onDisk = 0;
    }
  }

  /** The usable space of the temp folder's disk, or {@code Long.MAX_VALUE} when unknown. */
  private static long usableSpace() {
    try {
      return Files.getFileStore(Path.of(System.getProperty("java.io.tmpdir"))).getUsableSpace();
    } catch (IOException | RuntimeException unknown) {
      return Long.MAX_VALUE; // the disk still bounds the spill
    }
  }

  /**
   * The failure of a join that could not spill: 53200 (the statement did not fit in its memory, and
   * the disk could not take the rest), never 58030, which is kept for damage to the lake.
   */
  private static RuntimeException diskFailure(IOException e, String what) {
    return FloeError.OUT_OF_MEMORY.error(
        e,
        "a hash join, sort or aggregate past the statement's memory budget could not spill to disk: could not "
            + what
            + ": "
            + e);
  }

  private static void deleteTree(Path folder) {
    try (Stream<Path> walk = Files.walk(folder)) {
      walk.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  // deleted by the shutdown hook, or left to the temporary folder's own cleanup
                }
              });
    } catch (IOException | UncheckedIOException e) {
      // the folder is gone already
    }
  }

  /** The partition of a key among {@code fanout}: a hash of its hash, mixed with the seed. */
  public static int partition(@Nullable Object key, int seed, int fanout) {
    if (key == null) {
      return 0;
    }
    int h = key.hashCode() ^ (seed * 0x9E3779B9);
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return Math.floorMod(h, fanout);
  }

  /** One side's rows in {@code fanout} files, a row's file chosen by its key. */
  public static final class Partitions {
    private final Folder folder;
    private final int fanout;
    private final int seed;
    private final @Nullable Path[] files;
    private final @Nullable Output[] outs;
    private final long[] counts;
    private final long[] fileBytes;

    public Partitions(Folder folder, int fanout, int seed) {
      this.folder = folder;
      this.fanout = fanout;
      this.seed = seed;
      this.files = new Path[fanout];
      this.outs = new Output[fanout];
      this.counts = new long[fanout];
      this.fileBytes = new long[fanout];
    }

    public int fanout() {
      return fanout;
    }

    public int seed() {
      return seed;
    }

    /** Writes a row to the partition of its key (a NULL key's row to the first). */
    public void add(@Nullable Object key, @Nullable Object row) {
      int i = partition(key, seed, fanout);
      Output out = outs[i];
      try {
        if (out == null) {
          Path file = folder.newFile();
          files[i] = file;
          out =
              new Output(
                  new BufferedOutputStream(
                      Files.newOutputStream(file, StandardOpenOption.WRITE), BUFFER));
          outs[i] = out;
        }
        write(out, row);
        int written = out.take();
        fileBytes[i] += written;
        counts[i]++;
        folder.wrote(written);
      } catch (IOException e) {
        throw diskFailure(e, "write " + files[i]);
      }
    }

    /** Ends the writing: every file closed, ready to be read. */
    public void finish() {
      IOException failed = null;
      int at = 0;
      for (int i = 0; i < fanout; i++) {
        DataOutputStream out = outs[i];
        if (out != null) {
          outs[i] = null;
          try {
            out.close();
          } catch (IOException e) {
            failed = e;
            at = i;
          }
        }
      }
      if (failed != null) {
        throw diskFailure(failed, "write " + files[at]);
      }
    }

    public long count(int i) {
      return counts[i];
    }

    /** The partitions holding rows. */
    public int nonEmpty() {
      int n = 0;
      for (long c : counts) {
        n += c > 0 ? 1 : 0;
      }
      return n;
    }

    /** The rows of partition {@code i}, read back from its file. */
    public <E> Enumerable<E> rows(int i) {
      Path file = files[i];
      long count = counts[i];
      return new AbstractEnumerable<E>() {
        @Override
        public Enumerator<E> enumerator() {
          return new FileRows<>(file, count);
        }
      };
    }

    /** Deletes partition {@code i}'s file. */
    public void delete(int i) {
      DataOutputStream out = outs[i];
      outs[i] = null;
      if (out != null) {
        try {
          out.close();
        } catch (IOException e) {
          // being deleted
        }
      }
      Path file = files[i];
      files[i] = null;
      folder.deleted(fileBytes[i]);
      fileBytes[i] = 0;
      if (file != null) {
        try {
          Files.deleteIfExists(file);
        } catch (IOException e) {
          // the folder's deletion retries
        }
      }
    }

    public void deleteAll() {
      for (int i = 0; i < fanout; i++) {
        delete(i);
      }
    }
  }

  /** A file's output, counting the bytes written since the last {@link #take}. */
  private static final class Output extends DataOutputStream {
    Output(java.io.OutputStream out) {
      super(out);
    }

    /** The bytes written since the last call (what {@link #size} counts saturates at 2 GiB). */
    int take() {
      int n = written;
      written = 0;
      return n;
    }
  }

  /** The rows of one file, read as they are asked for. */
  private static final class FileRows<E> implements Enumerator<E> {
    private final @Nullable Path file;
    private long left;
    private @Nullable DataInputStream in;
    private @Nullable E current;

    FileRows(@Nullable Path file, long count) {
      this.file = file;
      this.left = file == null ? 0 : count;
    }

    @Override
    public E current() {
      return current;
    }

    @Override
    @SuppressWarnings("unchecked")
    public boolean moveNext() {
      if (left == 0) {
        return false;
      }
      try {
        if (in == null) {
          in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), BUFFER));
        }
        current = (E) read(in);
        left--;
        return true;
      } catch (IOException e) {
        throw diskFailure(e, "read " + file);
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
      left = 0;
      DataInputStream opened = in;
      in = null;
      if (opened != null) {
        try {
          opened.close();
        } catch (IOException e) {
          // nothing more is read
        }
      }
    }
  }

  private static final int NULL = 0;
  private static final int TRUE = 1;
  private static final int FALSE = 2;
  private static final int INT = 3;
  private static final int LONG = 4;
  private static final int DOUBLE = 5;
  private static final int FLOAT = 6;
  private static final int SMALL_DECIMAL = 7;
  private static final int DECIMAL = 8;
  private static final int STRING = 9;
  private static final int BYTES = 10;
  private static final int BYTE_STRING = 11;
  private static final int ARRAY = 12;
  private static final int LIST = 13;
  private static final int SHORT = 14;
  private static final int BYTE = 15;
  private static final int CHAR = 16;
  private static final int UUID_VALUE = 17;
  private static final int MAP = 18;

  /** Writes one value (a row is an {@code Object[]}, a list or a single value). */
  public static void write(DataOutputStream out, @Nullable Object value) throws IOException {
    if (value == null) {
      out.writeByte(NULL);
    } else if (value instanceof Integer i) {
      out.writeByte(INT);
      out.writeInt(i);
    } else if (value instanceof Long l) {
      out.writeByte(LONG);
      out.writeLong(l);
    } else if (value instanceof String s) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      out.writeByte(STRING);
      writeLength(out, utf8.length);
      out.write(utf8);
    } else if (value instanceof BigDecimal d) {
      BigInteger unscaled = d.unscaledValue();
      if (unscaled.bitLength() < 64) {
        out.writeByte(SMALL_DECIMAL);
        out.writeLong(unscaled.longValue());
      } else {
        byte[] digits = unscaled.toByteArray();
        out.writeByte(DECIMAL);
        writeLength(out, digits.length);
        out.write(digits);
      }
      out.writeInt(d.scale());
    } else if (value instanceof Object[] row) {
      out.writeByte(ARRAY);
      writeLength(out, row.length);
      for (Object field : row) {
        write(out, field);
      }
    } else if (value instanceof Boolean b) {
      out.writeByte(b ? TRUE : FALSE);
    } else if (value instanceof Double d) {
      out.writeByte(DOUBLE);
      out.writeDouble(d);
    } else if (value instanceof Float f) {
      out.writeByte(FLOAT);
      out.writeFloat(f);
    } else if (value instanceof byte[] bytes) {
      out.writeByte(BYTES);
      writeLength(out, bytes.length);
      out.write(bytes);
    } else if (value instanceof ByteString bytes) {
      out.writeByte(BYTE_STRING);
      writeLength(out, bytes.length());
      out.write(bytes.getBytes());
    } else if (value instanceof List<?> list) {
      out.writeByte(LIST);
      writeLength(out, list.size());
      for (Object element : list) {
        write(out, element);
      }
    } else if (value instanceof Short s) {
      out.writeByte(SHORT);
      out.writeShort(s);
    } else if (value instanceof Byte b) {
      out.writeByte(BYTE);
      out.writeByte(b);
    } else if (value instanceof Character c) {
      out.writeByte(CHAR);
      out.writeChar(c);
    } else if (value instanceof UUID u) {
      out.writeByte(UUID_VALUE);
      out.writeLong(u.getMostSignificantBits());
      out.writeLong(u.getLeastSignificantBits());
    } else if (value instanceof Map<?, ?> map) {
      out.writeByte(MAP);
      writeLength(out, map.size());
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        write(out, entry.getKey());
        write(out, entry.getValue());
      }
    } else {
      throw new NotSpillable(value.getClass());
    }
  }

  private static void writeLength(DataOutputStream out, int length) throws IOException {
    // one byte below 255, else a marker and the int
    if (length < 255) {
      out.writeByte(length);
    } else {
      out.writeByte(255);
      out.writeInt(length);
    }
  }

  private static int readLength(DataInputStream in) throws IOException {
    int first = in.readUnsignedByte();
    return first < 255 ? first : in.readInt();
  }

  /** Reads one value {@link #write} wrote. */
  public static @Nullable Object read(DataInputStream in) throws IOException {
    int tag = in.read();
    switch (tag) {
      case NULL:
        return null;
      case TRUE:
        return Boolean.TRUE;
      case FALSE:
        return Boolean.FALSE;
      case INT:
        return in.readInt();
      case LONG:
        return in.readLong();
      case DOUBLE:
        return in.readDouble();
      case FLOAT:
        return in.readFloat();
      case SMALL_DECIMAL:
        {
          long unscaled = in.readLong();
          return BigDecimal.valueOf(unscaled, in.readInt());
        }
      case DECIMAL:
        {
          byte[] digits = new byte[readLength(in)];
          in.readFully(digits);
          return new BigDecimal(new BigInteger(digits), in.readInt());
        }
      case STRING:
        {
          byte[] utf8 = new byte[readLength(in)];
          in.readFully(utf8);
          return new String(utf8, StandardCharsets.UTF_8);
        }
      case BYTES:
        {
          byte[] bytes = new byte[readLength(in)];
          in.readFully(bytes);
          return bytes;
        }
      case BYTE_STRING:
        {
          byte[] bytes = new byte[readLength(in)];
          in.readFully(bytes);
          return new ByteString(bytes);
        }
      case ARRAY:
        {
          Object[] row = new Object[readLength(in)];
          for (int i = 0; i < row.length; i++) {
            row[i] = read(in);
          }
          return row;
        }
      case LIST:
        {
          int n = readLength(in);
          List<Object> list = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            list.add(read(in));
          }
          return list;
        }
      case SHORT:
        return in.readShort();
      case BYTE:
        return in.readByte();
      case CHAR:
        return in.readChar();
      case UUID_VALUE:
        return new UUID(in.readLong(), in.readLong());
      case MAP:
        {
          int n = readLength(in);
          Map<Object, Object> map = new LinkedHashMap<>();
          for (int i = 0; i < n; i++) {
            Object key = read(in);
            map.put(key, read(in));
          }
          return map;
        }
      case -1:
        throw new EOFException("the file ends before its last row");
      default:
        throw new IOException("the file holds an unknown value tag " + tag);
    }
  }
}
