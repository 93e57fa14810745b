package dev.floe.storage;

import dev.floe.error.FloeError;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Iceberg table operations for one table in Iceberg's file-system-table layout ({@code
 * metadata/vN.metadata.json} plus {@code version-hint.text}), whatever the store.
 *
 * <p>Finding the current version: the hint, then probing forward, since the hint may be stale;
 * without a hint, the highest numeric version in the metadata folder ({@code v10} after {@code v9},
 * and the {@code NNNNN-uuid.metadata.json} naming other catalogs write). Publishing version N+1 is
 * left to the store, which must do it as an atomic create-if-absent: two writers can never both
 * publish N+1; the loser gets a {@link CommitFailedException} and Iceberg re-applies its change on
 * the new version. Not thread-safe: each user holds its own instance.
 */
public abstract class LakeTableOperations implements TableOperations {
  /**
   * Iceberg's suffixes of a metadata file: plain, gzip-compressed ({@code
   * write.metadata.compression -codec} = gzip: {@code .gz.metadata.json}), and the older gzip name
   * ({@code .metadata.json.gz}).
   */
  private static final String SUFFIX = "(?:\\.gz\\.metadata\\.json|\\.metadata\\.json(?:\\.gz)?)";

  private static final Pattern VERSION = Pattern.compile("v(\\d+)" + SUFFIX);
  private static final Pattern NUMBERED = Pattern.compile("(\\d+)-[0-9a-fA-F-]+" + SUFFIX);

  /** The name of the version hint in the metadata folder. */
  protected static final String HINT = "version-hint.text";

  /**
   * The name of a view's version hint in its metadata folder: also what tells a view's folder from
   * a table's (docs/sql.md, "Views"), since it is written before the view's first version.
   */
  protected static final String VIEW_HINT = "view-hint.text";

  private final String location;
  private final FileIO io;
  private final String hint;
  private TableMetadata current;
  private int version = -1;
  private boolean loaded;

  /** Whether the last version found is known to exist as {@code vN.metadata.json}. */
  private boolean latestIsPlain;

  protected LakeTableOperations(String location, FileIO io) {
    this(location, io, false);
  }

  /** Operations of a table's folder, or with {@code view} of a view's folder. */
  protected LakeTableOperations(String location, FileIO io, boolean view) {
    this.location = location;
    this.io = io;
    this.hint = view ? VIEW_HINT : HINT;
  }

  /** The name of the hint file in {@code metadata/}: a table's or a view's. */
  protected final String hintName() {
    return hint;
  }

  /** Whether {@code metadata/<name>} exists. */
  protected abstract boolean metadataExists(String name);

  /** The names of the files directly in {@code metadata/} (empty when it does not exist). */
  protected abstract List<String> metadataNames();

  /**
   * What identifies the current contents of {@code metadata/<name>} (a file written again under the
   * same name has another stamp), or null when the store cannot tell: the file is then parsed on
   * every refresh.
   */
  protected @Nullable String stamp(String name) {
    return null;
  }

  /** The text of the hint file ({@link #hintName()}), or null when it cannot be read. */
  protected abstract String readHint();

  /**
   * Publishes {@code metadata/v<next>.metadata.json}, holding {@code json}, if and only if no such
   * file exists.
   *
   * @throws CommitFailedException when another writer published that version first
   * @throws org.apache.iceberg.exceptions.CommitStateUnknownException when it cannot be told
   *     whether the file was published
   */
  protected abstract void publish(int next, String json);

  /** Rewrites the version hint; failures are ignored, since readers probe forward. */
  protected abstract void writeHint(int next);

  /** Called before publishing: refuses the commit when the store cannot publish safely. */
  protected void checkCanPublish() {}

  /**
   * Called before publishing and before files are written: refuses a table whose location or write
   * paths lie outside the lake.
   */
  protected void checkWritable(TableMetadata metadata) {}

  /**
   * Deletes the old metadata files that dropped out of the metadata log, when the table asks for it
   * ({@code write.metadata.delete-after-commit.enabled}); the log keeps {@code
   * write.metadata.previous-versions-max} of them. Finding the current version does not need them:
   * the hint, then probing forward, then the highest version in the folder.
   */
  private void deleteRemovedMetadataFiles(TableMetadata base, TableMetadata metadata) {
    if (base == null
        || !org.apache.iceberg.util.PropertyUtil.propertyAsBoolean(
            metadata.properties(),
            org.apache.iceberg.TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED,
            org.apache.iceberg.TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED_DEFAULT)) {
      return;
    }
    java.util.Set<String> kept = new java.util.HashSet<>();
    for (TableMetadata.MetadataLogEntry entry : metadata.previousFiles()) {
      kept.add(entry.file());
    }
    for (TableMetadata.MetadataLogEntry entry : base.previousFiles()) {
      if (!kept.contains(entry.file()) && inMetadataFolder(entry.file())) {
        try {
          io.deleteFile(entry.file());
        } catch (RuntimeException e) {
          // An old version left behind is harmless; orphan removal finds it later.
        }
      }
    }
  }

  /**
   * Whether a file lies directly in this table's {@code metadata/} folder, the only place old
   * metadata files are deleted from: a location spelled otherwise, or leading elsewhere through
   * {@code ..}, names a file the table does not own.
   */
  protected boolean inMetadataFolder(String file) {
    String prefix = location + "/metadata/";
    if (!file.startsWith(prefix)) {
      return false;
    }
    String name = file.substring(prefix.length());
    return !name.isEmpty() && name.indexOf('/') < 0 && !name.equals("..") && !name.equals(".");
  }

  @Override
  public TableMetadata current() {
    if (!loaded) {
      refresh();
    }
    return current;
  }

  @Override
  public TableMetadata refresh() {
    int latest = findLatestVersion();
    loaded = true;
    if (latest < 0) {
      current = null;
      version = -1;
      return null;
    }
    if (latest != version || current == null) {
      String file = metadataFile(latest);
      try {
        current = ParsedMetadata.read(io, file, stamp(file.substring(file.lastIndexOf('/') + 1)));
      } catch (RuntimeException e) {
        throw FloeError.IO.error(e, file, "the table metadata cannot be read: " + e.getMessage());
      }
      version = latest;
    }
    return current;
  }

  /** The number of the current version, or -1 when there is none. */
  public int version() {
    current();
    return version;
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    TableMetadata latest = refresh();
    if (base != latest && (base == null || latest == null || !sameFile(base, latest))) {
      throw new CommitFailedException(
          "Cannot commit to %s: version %s was published meanwhile", location, version);
    }
    if (base == metadata) {
      return;
    }
    checkCanPublish();
    checkWritable(metadata);
    int next = version + 1 < 1 ? 1 : version + 1;
    publish(next, org.apache.iceberg.TableMetadataParser.toJson(metadata));
    writeHint(next);
    deleteRemovedMetadataFiles(base, metadata);
    loaded = false;
    try {
      refresh();
    } catch (RuntimeException e) {
      // Published: the commit stands even if reading it back failed; the next use reads again.
      loaded = false;
    }
  }

  /**
   * The number of the newest published version of the metadata in this folder (a view's, whose
   * files these operations find and publish but do not parse), or -1 when there is none.
   */
  public int latestVersion() {
    return findLatestVersion();
  }

  /** The location of a published version's metadata file. */
  public String versionLocation(int v) {
    return metadataFile(v);
  }

  /**
   * Publishes version {@code next} holding {@code json} as a table version is published (a view's
   * metadata), then the hint.
   *
   * @throws CommitFailedException when another writer published that version first
   */
  public void publishVersion(int next, String json) {
    checkCanPublish();
    publish(next, json);
    writeHint(next);
  }

  /**
   * Marks the folder as a view's before its first version is published (the view hint, naming no
   * version yet), so no reader ever takes it for a table.
   */
  public void markView() {
    writeHint(0);
  }

  private static boolean sameFile(TableMetadata a, TableMetadata b) {
    return a.metadataFileLocation() != null
        && a.metadataFileLocation().equals(b.metadataFileLocation());
  }

  /** The file name of a published version: {@code vN.metadata.json}, or another engine's name. */
  private String metadataFile(int v) {
    String plain = "v" + v + ".metadata.json";
    if (latestIsPlain || metadataExists(plain)) {
      return metadataFileLocation(plain);
    }
    try {
      String name =
          metadataNames().stream()
              .filter(n -> versionOf(n) == v)
              .sorted()
              .reduce((a, b) -> b)
              .orElse(null);
      if (name != null) {
        return metadataFileLocation(name);
      }
    } catch (RuntimeException e) {
      throw FloeError.IO.error(e, metadataFileLocation(plain), "the table metadata is missing");
    }
    throw FloeError.IO.error(metadataFileLocation(plain), "the table metadata is missing");
  }

  /** The highest published version: the hint, then probing forward; a listing if no hint. */
  private int findLatestVersion() {
    int hint = parseHint(readHint());
    int latest = -1;
    latestIsPlain = false;
    if (hint > 0 && metadataExists("v" + hint + ".metadata.json")) {
      latest = hint;
      latestIsPlain = true;
    } else if (hint > 0 && metadataNames().stream().noneMatch(n -> versionOf(n) == hint)) {
      // The hint is written only after its version is published: a hint naming a missing
      // version is damage, and reading an older version would silently undo commits.
      throw FloeError.IO.error(
          metadataFileLocation("v" + hint + ".metadata.json"),
          "the table's "
              + hint
              + " names version "
              + hint
              + ", whose metadata file is missing;"
              + " the table is damaged and is neither read nor written");
    } else {
      try {
        latest = metadataNames().stream().mapToInt(LakeTableOperations::versionOf).max().orElse(-1);
      } catch (RuntimeException e) {
        throw FloeError.IO.error(e, metadataFileLocation(""), String.valueOf(e.getMessage()));
      }
    }
    if (latest < 0) {
      return -1;
    }
    while (metadataExists("v" + (latest + 1) + ".metadata.json")) {
      latest++;
      latestIsPlain = true;
    }
    return latest;
  }

  private static int parseHint(String text) {
    if (text == null || text.isBlank()) {
      return -1;
    }
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * The version number a metadata file name carries ({@code v12.metadata.json}, {@code
   * v12.gz.metadata.json}, {@code 00012-<uuid>.metadata.json}, ...), or -1.
   */
  public static int versionOf(String name) {
    Matcher m = VERSION.matcher(name);
    if (m.matches()) {
      return parse(m.group(1));
    }
    m = NUMBERED.matcher(name);
    if (m.matches()) {
      return parse(m.group(1));
    }
    return -1;
  }

  /** Whether a metadata folder's file names include a table version or the hint. */
  static boolean holdsVersion(List<String> names) {
    // A view's folder holds versions too; the callers that tell them apart look for VIEW_HINT.
    return names.stream().anyMatch(n -> n.equals(HINT) || versionOf(n) >= 0);
  }

  private static int parse(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return location + "/metadata/" + fileName;
  }

  @Override
  public LocationProvider locationProvider() {
    TableMetadata metadata = current();
    if (metadata != null) {
      checkWritable(metadata);
    }
    return LocationProviders.locationsFor(
        metadata == null ? location : metadata.location(),
        metadata == null ? Map.of() : metadata.properties());
  }

  /** The table location. */
  public String location() {
    return location;
  }
}
