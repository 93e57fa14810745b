package dev.floe.tck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteTablePathUtil;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteSchemaUtil;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The corpus of tables other engines wrote ({@code src/test/resources/foreign}, written by {@code
 * dev.floe.tck.spark.ForeignCorpusWriter}), and its relocation for reading.
 *
 * <p>The corpus is kept exactly as the engines wrote it: its metadata names the absolute locations
 * the tables were written at. Before a test reads them, each set is copied into a folder of the
 * test's and every table's locations are rewritten on the reference side, with Iceberg's own {@link
 * RewriteTablePathUtil} (the code behind Iceberg's {@code rewrite_table_path} procedure): every
 * metadata version, manifest list and manifest, and every position delete file and deletion vector
 * (they name data files). Data files and equality delete files are copied unchanged. Floe then
 * reads the copies as any table of its lake; it is not asked to accept a table whose metadata
 * places it elsewhere.
 */
final class ForeignCorpus {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern VERSION = Pattern.compile("v(\\d+)(\\.gz)?\\.metadata\\.json");

  /** One query the writing engine answered, and its answer in canonical form. */
  record Read(
      String spark,
      Long snapshot,
      String where,
      String floeWhere,
      Types.StructType schema,
      List<List<String>> rows) {
    /** The same query in Floe's SQL, against a table of the lake. */
    String floeSql(String table) {
      return "SELECT * FROM "
          + table
          + (snapshot == null ? "" : " FOR VERSION AS OF " + snapshot)
          + (floeWhere == null ? "" : " WHERE " + floeWhere);
    }

    List<String> columnNames() {
      return schema.fields().stream().map(Types.NestedField::name).toList();
    }

    List<Type> columnTypes() {
      return schema.fields().stream().map(Types.NestedField::type).toList();
    }
  }

  /** An Iceberg table of the corpus, relocated into {@code folder}. */
  record Table(
      String set,
      String name,
      String writtenAt,
      Path folder,
      String location,
      String codec,
      List<Read> reads) {}

  /** Plain Parquet files of another writer, to be registered with add_files. */
  record AddedFiles(
      String set,
      String name,
      Path folder,
      String codec,
      String table,
      String create,
      List<Read> reads) {}

  /** One engine's set: a lake of tables and folders of files. */
  record CorpusSet(
      String set,
      String engine,
      String iceberg,
      Path lake,
      List<Table> tables,
      List<AddedFiles> files) {}

  private ForeignCorpus() {}

  /** The corpus as checked in (on the test class path). */
  static Path source() {
    URL url = ForeignCorpus.class.getResource("/foreign");
    if (url == null) {
      throw new IllegalStateException("The foreign-table corpus is not on the class path");
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every set of the corpus, copied under {@code into} and relocated there. */
  static List<CorpusSet> relocateAll(Path into) throws IOException {
    List<CorpusSet> sets = new ArrayList<>();
    try (Stream<Path> children = Files.list(source())) {
      for (Path set : children.sorted().toList()) {
        if (Files.isRegularFile(set.resolve("corpus.json"))) {
          sets.add(relocate(set, into.resolve(set.getFileName().toString())));
        }
      }
    }
    return sets;
  }

  private static CorpusSet relocate(Path from, Path to) throws IOException {
    JsonNode corpus = JSON.readTree(from.resolve("corpus.json").toFile());
    String set = corpus.get("set").asText();
    copyContents(from, corpus.get("contents"), to);
    Path lake = to.resolve("lake").toRealPath();
    List<Table> tables = new ArrayList<>();
    for (JsonNode t : corpus.get("tables")) {
      String name = t.get("name").asText();
      String writtenAt = t.get("location").asText();
      Path source = from.resolve("lake").resolve(name.replace('.', '/'));
      Path target = lake.resolve(name.replace('.', '/'));
      String location = "file:" + target;
      relocateTable(source, writtenAt, target, location);
      tables.add(
          new Table(set, name, writtenAt, target, location, t.get("codec").asText(), reads(t)));
    }
    List<AddedFiles> files = new ArrayList<>();
    for (JsonNode f : corpus.get("files")) {
      Path target = to.resolve(f.get("folder").asText());
      files.add(
          new AddedFiles(
              set,
              f.get("name").asText(),
              target.toRealPath(),
              f.get("codec").asText(),
              f.get("table").asText(),
              f.get("create").asText(),
              reads(f)));
    }
    return new CorpusSet(
        set, corpus.get("engine").asText(), corpus.get("iceberg").asText(), lake, tables, files);
  }

  private static List<Read> reads(JsonNode entry) {
    List<Read> reads = new ArrayList<>();
    for (JsonNode r : entry.get("reads")) {
      Schema schema = SchemaParser.fromJson(r.get("schema"));
      List<List<String>> rows = new ArrayList<>();
      for (JsonNode row : r.get("rows")) {
        List<String> canonical = new ArrayList<>();
        for (int i = 0; i < schema.columns().size(); i++) {
          Type type = schema.columns().get(i).type();
          canonical.add(Canonical.ofReference(type, value(row.get(i), type)));
        }
        rows.add(canonical);
      }
      reads.add(
          new Read(
              r.get("spark").asText(),
              r.get("snapshot").isNull() ? null : r.get("snapshot").asLong(),
              r.get("where").isNull() ? null : r.get("where").asText(),
              r.get("floeWhere").isNull() ? null : r.get("floeWhere").asText(),
              schema.asStruct(),
              rows));
    }
    return reads;
  }

  /**
   * A value as the writer recorded it in JSON (see {@code ForeignCorpusWriter#value}), as the
   * object Iceberg's generic reader returns for its type.
   */
  static Object value(JsonNode node, Type type) {
    if (node == null || node.isNull()) {
      return null;
    }
    switch (type.typeId()) {
      case BOOLEAN:
        return node.booleanValue();
      case INTEGER:
        return node.intValue();
      case LONG:
        return node.longValue();
      case FLOAT:
        return Float.parseFloat(node.asText());
      case DOUBLE:
        return Double.parseDouble(node.asText());
      case DECIMAL:
        return new BigDecimal(node.asText());
      case STRING:
        return node.asText();
      case BINARY:
        return ByteBuffer.wrap(HexFormat.of().parseHex(node.asText()));
      case DATE:
        return LocalDate.parse(node.asText());
      case TIMESTAMP:
        if (((Types.TimestampType) type).shouldAdjustToUTC()) {
          String text = node.asText();
          return LocalDateTime.parse(text.substring(0, text.length() - 1)).atOffset(ZoneOffset.UTC);
        }
        return LocalDateTime.parse(node.asText());
      case STRUCT:
        {
          GenericRecord record = GenericRecord.create(type.asStructType());
          List<Types.NestedField> fields = type.asStructType().fields();
          for (int i = 0; i < fields.size(); i++) {
            record.set(i, value(node.get(i), fields.get(i).type()));
          }
          return record;
        }
      case LIST:
        {
          List<Object> list = new ArrayList<>();
          for (JsonNode element : node) {
            list.add(value(element, type.asListType().elementType()));
          }
          return list;
        }
      case MAP:
        {
          Map<Object, Object> map = new LinkedHashMap<>();
          for (JsonNode entry : node) {
            map.put(
                value(entry.get(0), type.asMapType().keyType()),
                value(entry.get(1), type.asMapType().valueType()));
          }
          return map;
        }
      default:
        throw new IllegalArgumentException("The corpus holds no values of type " + type);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Relocation

  /**
   * Rewrites, in the copy {@code to} of the table folder {@code from} written at {@code writtenAt},
   * every location in its metadata, manifest lists, manifests, position delete files and deletion
   * vectors from {@code writtenAt} to {@code location}.
   */
  static void relocateTable(Path from, String writtenAt, Path to, String location)
      throws IOException {
    FileIO io = new MovedIO(writtenAt, from, location, to);
    Map<Integer, String> versions = new java.util.TreeMap<>();
    try (Stream<Path> files = Files.list(to.resolve("metadata"))) {
      for (Path file : files.toList()) {
        Matcher m = VERSION.matcher(file.getFileName().toString());
        if (m.matches()) {
          versions.put(Integer.parseInt(m.group(1)), file.getFileName().toString());
        }
      }
    }
    if (versions.isEmpty()) {
      throw new IllegalStateException(from + " holds no metadata version");
    }
    TableMetadata latest = null;
    for (String version : versions.values()) {
      TableMetadata metadata = TableMetadataParser.read(io, writtenAt + "/metadata/" + version);
      TableMetadataParser.overwrite(
          RewriteTablePathUtil.replacePaths(metadata, writtenAt, location),
          io.newOutputFile(location + "/metadata/" + version));
      latest = metadata;
    }
    int format = latest.formatVersion();
    Map<Integer, PartitionSpec> specs = latest.specsById();
    Set<Long> snapshotIds = new LinkedHashSet<>();
    Map<String, ManifestFile> manifests = new LinkedHashMap<>();
    for (Snapshot snapshot : latest.snapshots()) {
      snapshotIds.add(snapshot.snapshotId());
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        manifests.putIfAbsent(manifest.path(), manifest);
      }
    }
    // position deletes and deletion vectors first: the delete manifests record their new sizes
    Map<String, Long> deleteSizes = new HashMap<>();
    for (ManifestFile manifest : manifests.values()) {
      if (manifest.content() != ManifestContent.DELETES) {
        continue;
      }
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, io, specs)) {
        for (DeleteFile file : reader) {
          if (file.content() == FileContent.POSITION_DELETES
              && !deleteSizes.containsKey(file.location())) {
            long size =
                RewriteTablePathUtil.rewritePositionDelete(
                    file,
                    io.newOutputFile(
                        RewriteTablePathUtil.newPath(file.location(), writtenAt, location)),
                    io,
                    specs.get(file.specId()),
                    writtenAt,
                    location,
                    new PositionDeletes(latest.properties()));
            deleteSizes.put(file.location(), size);
          }
        }
      }
    }
    Map<String, Long> manifestLengths = new HashMap<>();
    for (ManifestFile manifest : manifests.values()) {
      String moved = RewriteTablePathUtil.newPath(manifest.path(), writtenAt, location);
      OutputFile out = io.newOutputFile(moved);
      if (manifest.content() == ManifestContent.DATA) {
        RewriteTablePathUtil.rewriteDataManifest(
            manifest, snapshotIds, out, io, format, specs, writtenAt, location);
      } else {
        RewriteTablePathUtil.rewriteDeleteManifest(
            manifest,
            snapshotIds,
            out,
            io,
            format,
            specs,
            writtenAt,
            location,
            location,
            deleteSizes);
      }
      manifestLengths.put(manifest.path(), io.newInputFile(moved).getLength());
    }
    for (Snapshot snapshot : latest.snapshots()) {
      RewriteTablePathUtil.rewriteManifestList(
          snapshot,
          io,
          latest,
          manifestLengths,
          writtenAt,
          location,
          location,
          RewriteTablePathUtil.newPath(snapshot.manifestListLocation(), writtenAt, location));
    }
  }

  /**
   * Reads the original locations from the checked-in copy and writes the relocated ones into the
   * test's folder; a file written is replaced whole.
   */
  private static final class MovedIO implements FileIO {
    private static final long serialVersionUID = 1L;
    // Hadoop's local file system, as the kit's reference writer uses (Iceberg's Parquet reader
    // takes its Hadoop path for Hadoop's files)
    private static final HadoopFileIO HADOOP = new HadoopFileIO(new Configuration());
    private final String writtenAt;
    private final Path from;
    private final String location;
    private final Path to;

    MovedIO(String writtenAt, Path from, String location, Path to) {
      this.writtenAt = writtenAt;
      this.from = from;
      this.location = location;
      this.to = to;
    }

    private File local(String path) {
      if (path.startsWith(location + "/")) {
        return to.resolve(RewriteTablePathUtil.relativize(path, location)).toFile();
      }
      if (path.startsWith(writtenAt + "/")) {
        return from.resolve(RewriteTablePathUtil.relativize(path, writtenAt)).toFile();
      }
      throw new IllegalArgumentException(
          path + " lies neither under " + writtenAt + " nor under " + location);
    }

    @Override
    public InputFile newInputFile(String path) {
      return HADOOP.newInputFile("file:" + local(path).getAbsolutePath());
    }

    @Override
    public OutputFile newOutputFile(String path) {
      if (!path.startsWith(location + "/")) {
        throw new IllegalArgumentException("Refusing to write " + path + " outside " + location);
      }
      File file = local(path);
      try {
        Files.deleteIfExists(file.toPath());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return HADOOP.newOutputFile("file:" + file.getAbsolutePath());
    }

    @Override
    public void deleteFile(String path) {
      throw new UnsupportedOperationException("Relocation deletes nothing: " + path);
    }
  }

  /** Reads and writes position delete files with Iceberg's generic Parquet readers and writers. */
  private static final class PositionDeletes
      implements RewriteTablePathUtil.PositionDeleteReaderWriter {
    private static final long serialVersionUID = 1L;
    private final Map<String, String> properties;

    PositionDeletes(Map<String, String> properties) {
      this.properties = new HashMap<>(properties);
    }

    @Override
    public CloseableIterable<Record> reader(InputFile file, FileFormat format, PartitionSpec spec) {
      check(format);
      Schema schema = DeleteSchemaUtil.posDeleteReadSchema(spec.schema());
      return Parquet.read(file)
          .project(schema)
          .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
          .build();
    }

    @Override
    public PositionDeleteWriter<Record> writer(
        OutputFile file, FileFormat format, PartitionSpec spec, StructLike partition)
        throws IOException {
      check(format);
      return Parquet.writeDeletes(file)
          .createWriterFunc(GenericParquetWriter::create)
          .setAll(properties)
          .withSpec(spec)
          .withPartition(partition)
          .overwrite()
          .buildPositionWriter();
    }

    private static void check(FileFormat format) {
      if (format != FileFormat.PARQUET) {
        throw new IllegalArgumentException("The corpus holds Parquet delete files only: " + format);
      }
    }
  }

  /**
   * Copies the files the writer listed ({@code contents}: each file's path and size), and only
   * those: a file left over from an earlier corpus in a build folder is not copied, and a missing
   * or changed file (a checkout that converted line ends, say) fails clearly.
   */
  private static void copyContents(Path from, JsonNode contents, Path to) throws IOException {
    for (JsonNode file : contents) {
      String path = file.get("path").asText();
      Path source = from.resolve(path);
      if (!Files.isRegularFile(source)) {
        throw new IllegalStateException("The corpus lacks " + source);
      }
      long size = Files.size(source);
      if (size != file.get("bytes").asLong()) {
        throw new IllegalStateException(
            source
                + " has "
                + size
                + " bytes, not the "
                + file.get("bytes").asLong()
                + " it was written with (was it checked out with line-end conversion?)");
      }
      Path target = to.resolve(path);
      Files.createDirectories(target.getParent());
      Files.copy(source, target);
    }
  }
}
