package dev.floe.tck;

import static dev.floe.tck.ReferenceWriter.append;
import static dev.floe.tck.ReferenceWriter.record;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.types.Types;

/**
 * The TCK's reference lake: one folder of Iceberg tables written by Iceberg's own Java API (see
 * {@link ReferenceWriter}), covering every type, nested types, every partition transform, every
 * kind of delete, schema and spec evolution, awkward folder names and metadata naming. Built once
 * per test JVM and shared read-only by the read conformance tests.
 */
final class ReferenceLake {
  /** The format versions the delete cases are written in. */
  static final List<Integer> FORMAT_VERSIONS = List.of(2, 3);

  /** The partition transforms, each with the reference table partitioned by it. */
  static final Map<String, String> TRANSFORMS = transforms();

  private static Map<String, String> transforms() {
    Map<String, String> transforms = new LinkedHashMap<>();
    transforms.put("identity", "s");
    transforms.put("bucket", "id");
    transforms.put("truncate", "s");
    transforms.put("year", "d");
    transforms.put("month", "ts");
    transforms.put("day", "tstz");
    transforms.put("hour", "ts");
    return java.util.Collections.unmodifiableMap(transforms);
  }

  private static volatile ReferenceLake shared;

  private final Path root;
  private final Map<String, ReferenceTable> tables = new LinkedHashMap<>();

  private ReferenceLake(Path root) {
    this.root = root;
  }

  /** The lake shared by every test of this JVM, built on first use. */
  static ReferenceLake shared() {
    ReferenceLake lake = shared;
    if (lake == null) {
      synchronized (ReferenceLake.class) {
        lake = shared;
        if (lake == null) {
          try {
            Path root = Files.createTempDirectory("floe-tck-lake-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(root)));
            lake = build(root);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          shared = lake;
        }
      }
    }
    return lake;
  }

  /** Writes every reference table under a root folder. */
  static ReferenceLake build(Path root) {
    ReferenceLake lake = new ReferenceLake(root);
    for (int version : FORMAT_VERSIONS) {
      lake.allTypes("all_types_v" + version, version);
      lake.deletes("position_deletes_v" + version, version);
      lake.stackedDeletes("stacked_deletes_v" + version, version);
      lake.twoColumnEqualityDelete("eq_delete_two_columns_v" + version, version);
      lake.partitionScopedEqualityDelete("eq_delete_partition_scoped_v" + version, version);
      lake.globalEqualityDelete("eq_delete_global_v" + version, version);
    }
    lake.nested("nested");
    lake.nestedTimes("nested_times");
    for (Map.Entry<String, String> transform : TRANSFORMS.entrySet()) {
      lake.partitioned("part_" + transform.getKey(), transform.getKey(), transform.getValue());
    }
    lake.evolvedSchema("evolved_schema");
    lake.evolvedSpec("evolved_spec");
    lake.plain("my table", "\"my table\"", root.resolve("my table"));
    lake.plain("sales.orders", "sales.orders", root.resolve("sales").resolve("orders"));
    lake.uuidNamedMetadata("uuid_named_metadata");
    lake.staleHint("stale_hint");
    return lake;
  }

  Path root() {
    return root;
  }

  /** Every reference table, in the order written. */
  List<ReferenceTable> tables() {
    return List.copyOf(tables.values());
  }

  /**
   * The reference tables whose rows the conformance tests compare whole: all but {@code
   * nested_times}, whose ROW/ARRAY/MAP values of times and timestamps TypeMappingTest checks value
   * by value.
   */
  List<ReferenceTable> wholeRowTables() {
    return tables().stream().filter(t -> !t.name().equals("nested_times")).toList();
  }

  /** A reference table by name. */
  ReferenceTable table(String name) {
    ReferenceTable table = tables.get(name);
    if (table == null) {
      throw new IllegalArgumentException("No reference table " + name);
    }
    return table;
  }

  /** The JDBC URL of this lake. */
  String url() {
    return "jdbc:floe:" + root;
  }

  // ---- the tables ------------------------------------------------------------------------

  static final Schema ALL_TYPES =
      new Schema(
          required(1, "id", Types.IntegerType.get()),
          optional(2, "b", Types.BooleanType.get()),
          optional(3, "i", Types.IntegerType.get()),
          optional(4, "l", Types.LongType.get()),
          optional(5, "f", Types.FloatType.get()),
          optional(6, "d", Types.DoubleType.get()),
          optional(7, "dec38", Types.DecimalType.of(38, 10)),
          optional(8, "dec9", Types.DecimalType.of(9, 2)),
          optional(9, "dt", Types.DateType.get()),
          optional(10, "tm", Types.TimeType.get()),
          optional(11, "ts", Types.TimestampType.withoutZone()),
          optional(12, "tstz", Types.TimestampType.withZone()),
          optional(13, "s", Types.StringType.get()),
          optional(14, "u", Types.UUIDType.get()),
          optional(15, "fx", Types.FixedType.ofLength(16)),
          optional(16, "bin", Types.BinaryType.get()));

  /** A string of 100,000 characters mixing ASCII, accented letters and 4-byte characters. */
  static final String LONG_STRING = longString();

  private void allTypes(String name, int version) {
    Path folder = root.resolve(name);
    Table table = ReferenceWriter.create(folder, ALL_TYPES, PartitionSpec.unpartitioned(), version);
    Random random = new Random(42);
    byte[] someBytes = new byte[1000];
    random.nextBytes(someBytes);
    byte[] fixed = new byte[16];
    random.nextBytes(fixed);
    List<Record> rows =
        List.of(
            record(
                ALL_TYPES, 1, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null),
            record(
                ALL_TYPES,
                2,
                true,
                Integer.MIN_VALUE,
                Long.MIN_VALUE,
                Float.NaN,
                Double.NaN,
                new BigDecimal("-9999999999999999999999999999.9999999999"),
                new BigDecimal("-9999999.99"),
                LocalDate.of(1, 1, 1),
                LocalTime.MIDNIGHT,
                LocalDateTime.of(1, 1, 1, 0, 0),
                OffsetDateTime.of(1, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                "",
                new UUID(0, 0),
                new byte[16],
                ByteBuffer.allocate(0)),
            record(
                ALL_TYPES,
                3,
                false,
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                Float.POSITIVE_INFINITY,
                Double.POSITIVE_INFINITY,
                new BigDecimal("9999999999999999999999999999.9999999999"),
                new BigDecimal("9999999.99"),
                LocalDate.of(9999, 12, 31),
                LocalTime.of(23, 59, 59, 999_999_000),
                LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
                OffsetDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC),
                LONG_STRING,
                new UUID(-1, -1),
                filled((byte) 0xFF),
                ByteBuffer.wrap(someBytes)),
            record(
                ALL_TYPES,
                4,
                true,
                0,
                0L,
                -0.0f,
                -0.0d,
                new BigDecimal("0E-10"),
                new BigDecimal("0.00"),
                LocalDate.of(1970, 1, 1),
                LocalTime.of(12, 34, 56, 123_456_000),
                LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
                OffsetDateTime.of(2024, 2, 29, 12, 0, 0, 1_000, ZoneOffset.UTC),
                "日本語 ünïcödé 😀 𝄞 عربى",
                UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
                fixed,
                ByteBuffer.wrap(new byte[] {0, 1, 0, (byte) 0xFE})),
            record(
                ALL_TYPES,
                5,
                false,
                -1,
                -1L,
                Float.NEGATIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                new BigDecimal("0.0000000001"),
                new BigDecimal("-0.01"),
                LocalDate.of(1582, 10, 10),
                LocalTime.of(0, 0, 0, 1_000),
                LocalDateTime.of(1582, 10, 10, 10, 10, 10, 101_010_000),
                OffsetDateTime.of(1900, 1, 1, 0, 0, 0, 500_000_000, ZoneOffset.UTC),
                "quote ' double \" backslash \\ newline \n tab \t nul \0 end",
                UUID.fromString("00000000-0000-0000-0000-000000000001"),
                filled((byte) 0x7F),
                ByteBuffer.wrap("bytes".getBytes(StandardCharsets.UTF_8))),
            record(
                ALL_TYPES,
                6,
                true,
                123456789,
                1234567890123456789L,
                Float.MIN_VALUE,
                Double.MIN_VALUE,
                new BigDecimal("1234567890123456789012345678.0123456789"),
                new BigDecimal("1234567.89"),
                LocalDate.of(2000, 2, 29),
                LocalTime.of(23, 59, 59),
                LocalDateTime.of(2024, 3, 10, 2, 30, 0, 123_456_000),
                OffsetDateTime.of(2024, 3, 31, 1, 30, 0, 654_321_000, ZoneOffset.UTC),
                "NULL",
                UUID.fromString("ffffffff-0000-ffff-0000-ffffffffffff"),
                filled((byte) 0x01),
                ByteBuffer.wrap(new byte[] {(byte) 0x80})),
            record(
                ALL_TYPES,
                7,
                false,
                -123456789,
                -1234567890123456789L,
                Float.MAX_VALUE,
                Double.MAX_VALUE,
                new BigDecimal("-0.0000000001"),
                new BigDecimal("0.01"),
                LocalDate.of(1, 12, 31),
                LocalTime.of(0, 0, 0, 999_999_000),
                LocalDateTime.of(1, 1, 1, 0, 0, 0, 1_000),
                OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC),
                "   padded   ",
                UUID.fromString("a0b1c2d3-e4f5-4607-8899-aabbccddeeff"),
                filled((byte) 0x10),
                ByteBuffer.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF})));
    // Two commits, so the table has two data files and two snapshots.
    append(table, rows.subList(0, 4));
    append(table, rows.subList(4, rows.size()));
    add(name, folder);
  }

  static final Schema NESTED =
      new Schema(
          required(1, "id", Types.IntegerType.get()),
          optional(
              2,
              "st",
              Types.StructType.of(
                  optional(3, "a", Types.IntegerType.get()),
                  optional(4, "b", Types.StringType.get()),
                  optional(
                      5,
                      "c",
                      Types.StructType.of(
                          optional(6, "x", Types.DoubleType.get()),
                          optional(7, "y", Types.DateType.get()))))),
          optional(8, "tags", Types.ListType.ofOptional(9, Types.StringType.get())),
          optional(
              10,
              "items",
              Types.ListType.ofRequired(
                  11,
                  Types.StructType.of(
                      required(12, "k", Types.IntegerType.get()),
                      optional(13, "v", Types.StringType.get())))),
          optional(
              14,
              "counts",
              Types.MapType.ofOptional(15, 16, Types.StringType.get(), Types.IntegerType.get())),
          optional(
              17,
              "series",
              Types.MapType.ofRequired(
                  18,
                  19,
                  Types.IntegerType.get(),
                  Types.ListType.ofRequired(20, Types.LongType.get()))),
          optional(21, "price", Types.DecimalType.of(10, 2)));

  private void nested(String name) {
    Path folder = root.resolve(name);
    Table table = ReferenceWriter.create(folder, NESTED, PartitionSpec.unpartitioned(), 2);
    Types.StructType st = NESTED.findType("st").asStructType();
    Types.StructType c = st.field("c").type().asStructType();
    Types.StructType item = NESTED.findType("items").asListType().elementType().asStructType();
    List<Record> rows = new ArrayList<>();
    rows.add(record(NESTED, 1, null, null, null, null, null, null));
    rows.add(
        record(
            NESTED,
            2,
            record(st, 7, "seven", record(c, 1.5, LocalDate.of(2024, 1, 31))),
            Arrays.asList("a", null, "日本"),
            List.of(record(item, 1, "one"), record(item, 2, null)),
            mapOf("x", 1, "y", null),
            Map.of(1, List.of(10L, 11L), 2, List.of()),
            new BigDecimal("12.34")));
    rows.add(
        record(
            NESTED,
            3,
            record(st, null, null, null),
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            new BigDecimal("-0.01")));
    rows.add(
        record(
            NESTED,
            4,
            record(st, -1, "", record(c, null, LocalDate.of(1, 1, 1))),
            List.of("😀"),
            List.of(record(item, Integer.MIN_VALUE, "min")),
            Map.of("k", Integer.MAX_VALUE),
            Map.of(-1, List.of(Long.MIN_VALUE, Long.MAX_VALUE)),
            null));
    append(table, rows);
    add(name, folder);
  }

  static final Types.StructType MOMENTS = moments(102);
  static final Types.StructType LISTED_MOMENTS = moments(116);

  private static Types.StructType moments(int firstId) {
    return Types.StructType.of(
        optional(firstId, "t", Types.TimeType.get()),
        optional(firstId + 1, "ts", Types.TimestampType.withoutZone()),
        optional(firstId + 2, "tz", Types.TimestampType.withZone()),
        optional(firstId + 3, "d", Types.DateType.get()));
  }

  /** Times, timestamps and dates inside a struct, lists and a map, with microseconds. */
  static final Schema NESTED_TIMES =
      new Schema(
          required(101, "id", Types.IntegerType.get()),
          optional(106, "st", MOMENTS),
          optional(107, "tss", Types.ListType.ofOptional(108, Types.TimestampType.withoutZone())),
          optional(109, "tms", Types.ListType.ofOptional(110, Types.TimeType.get())),
          optional(
              111,
              "m",
              Types.MapType.ofOptional(
                  112, 113, Types.StringType.get(), Types.TimestampType.withoutZone())),
          optional(114, "sts", Types.ListType.ofOptional(115, LISTED_MOMENTS)));

  /** The first timestamp, time and date of each row of {@code nested_times}; see its writer. */
  static final List<LocalDateTime> NESTED_TIMESTAMPS =
      List.of(
          LocalDateTime.parse("2024-01-02T03:04:05.123456"),
          LocalDateTime.parse("1969-12-31T23:59:59.999999"),
          LocalDateTime.parse("0001-01-01T00:00:00.000001"));

  private void nestedTimes(String name) {
    Path folder = root.resolve(name);
    Table table = ReferenceWriter.create(folder, NESTED_TIMES, PartitionSpec.unpartitioned(), 2);
    List<Record> rows = new ArrayList<>();
    for (int id = 0; id < NESTED_TIMESTAMPS.size(); id++) {
      LocalDateTime ts = NESTED_TIMESTAMPS.get(id);
      LocalDateTime later = ts.plusNanos(1_001_000L);
      Record moments =
          record(MOMENTS, ts.toLocalTime(), ts, ts.atOffset(ZoneOffset.UTC), ts.toLocalDate());
      rows.add(
          record(
              NESTED_TIMES,
              id,
              moments,
              Arrays.asList(ts, null, later),
              List.of(ts.toLocalTime(), later.toLocalTime()),
              mapOf("k", ts, "later", later),
              List.of(
                  record(
                      LISTED_MOMENTS,
                      ts.toLocalTime(),
                      ts,
                      ts.atOffset(ZoneOffset.UTC),
                      ts.toLocalDate()))));
    }
    rows.add(
        record(NESTED_TIMES, 99, record(MOMENTS, null, null, null, null), null, null, null, null));
    append(table, rows);
    add(name, folder);
  }

  static final Schema PARTITIONED =
      new Schema(
          required(1, "id", Types.IntegerType.get()),
          optional(2, "s", Types.StringType.get()),
          optional(3, "ts", Types.TimestampType.withoutZone()),
          optional(4, "d", Types.DateType.get()),
          optional(5, "tstz", Types.TimestampType.withZone()),
          optional(6, "n", Types.LongType.get()));

  /** The rows of every partitioned reference table: 48 rows spread over years, months and hours. */
  static List<Record> partitionedRows() {
    List<Record> rows = new ArrayList<>();
    String[] words = {"apple", "apricot", "banana", "blueberry", "cherry", "ab", "a", ""};
    for (int id = 0; id < 48; id++) {
      LocalDateTime ts =
          LocalDateTime.of(
              2019 + id % 4, 1 + id % 12, 1 + id % 28, id % 24, id, id % 60, id * 1_001_000);
      boolean nulls = id % 11 == 5;
      rows.add(
          record(
              PARTITIONED,
              id,
              nulls ? null : words[id % words.length] + (id % 3 == 0 ? "" : id),
              nulls ? null : ts,
              nulls ? null : ts.toLocalDate().minusDays(id * 40L),
              nulls ? null : ts.plusMinutes(id * 37L).atOffset(ZoneOffset.UTC),
              nulls ? null : (long) id * id - 500));
    }
    return rows;
  }

  private void partitioned(String name, String transform, String column) {
    Path folder = root.resolve(name);
    PartitionSpec.Builder spec = PartitionSpec.builderFor(PARTITIONED);
    switch (transform) {
      case "identity" -> spec.identity(column);
      case "bucket" -> spec.bucket(column, 4);
      case "truncate" -> spec.truncate(column, 2);
      case "year" -> spec.year(column);
      case "month" -> spec.month(column);
      case "day" -> spec.day(column);
      case "hour" -> spec.hour(column);
      default -> throw new IllegalArgumentException(transform);
    }
    Table table = ReferenceWriter.create(folder, PARTITIONED, spec.build(), 2);
    List<Record> rows = partitionedRows();
    append(table, rows.subList(0, 30));
    append(table, rows.subList(30, rows.size()));
    add(name, folder);
  }

  static final Schema LETTERS =
      new Schema(
          optional(1, "dt", Types.DateType.get()),
          optional(2, "number", Types.IntegerType.get()),
          optional(3, "letter", Types.StringType.get()));

  private static List<Record> twelveLetters() {
    List<Record> rows = new ArrayList<>();
    for (int i = 1; i <= 12; i++) {
      rows.add(record(LETTERS, LocalDate.of(2023, 3, i), i, String.valueOf((char) ('a' + i - 1))));
    }
    return rows;
  }

  /**
   * The stacked delete case: twelve rows; position deletes (v2) or a deletion vector (v3) for
   * numbers 5 and 6; an equality delete of number 3; another of letter 'k'; then (2023-03-30, 6,
   * 'z') re-inserted in a later commit, which no earlier delete may touch. Nine rows remain.
   */
  private void stackedDeletes(String name, int version) {
    Path folder = root.resolve(name);
    Table table = ReferenceWriter.create(folder, LETTERS, PartitionSpec.unpartitioned(), version);
    DataFile data = append(table, twelveLetters()).get(0);
    ReferenceWriter.deleteRows(table, data, 4, 5);
    ReferenceWriter.equalityDelete(
        table, List.of("number"), List.of(record(LETTERS.select("number"), 3)));
    ReferenceWriter.equalityDelete(
        table, List.of("letter"), List.of(record(LETTERS.select("letter"), "k")));
    append(table, record(LETTERS, LocalDate.of(2023, 3, 30), 6, "z"));
    add(name, folder);
  }

  /** Position deletes: two delete commits on one data file, one on another; 100 rows in all. */
  private void deletes(String name, int version) {
    Path folder = root.resolve(name);
    Table table = ReferenceWriter.create(folder, LETTERS, PartitionSpec.unpartitioned(), version);
    List<Record> first = new ArrayList<>();
    List<Record> second = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Record row = record(LETTERS, LocalDate.of(2024, 1, 1).plusDays(i), i, "r" + i);
      (i < 60 ? first : second).add(row);
    }
    DataFile a = append(table, first).get(0);
    DataFile b = append(table, second).get(0);
    ReferenceWriter.deleteRows(table, a, 0, 1, 2, 30, 59);
    if (version >= 3) {
      // A v3 table holds one deletion vector per data file: a later delete replaces it with one
      // holding the union, in one commit.
      Table reloaded = ReferenceWriter.load(folder);
      ReferenceWriter.replaceDeletionVector(
          reloaded, a, deleteFileOf(reloaded, a), 0, 1, 2, 30, 59, 10, 11);
    } else {
      ReferenceWriter.deleteRows(table, a, 10, 11);
    }
    ReferenceWriter.deleteRows(ReferenceWriter.load(folder), b, 0, 39);
    add(name, folder);
  }

  private static org.apache.iceberg.DeleteFile deleteFileOf(Table table, DataFile data) {
    try (var tasks = table.newScan().planFiles()) {
      for (var task : tasks) {
        if (task.file().location().equals(data.location())) {
          return task.deletes().get(0);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("No deletes for " + data.location());
  }

  /** An equality delete keyed on two columns: (3, 'c') matches a row, (4, 'x') matches none. */
  private void twoColumnEqualityDelete(String name, int version) {
    Path folder = root.resolve(name);
    Table table = ReferenceWriter.create(folder, LETTERS, PartitionSpec.unpartitioned(), version);
    append(table, twelveLetters());
    Schema key = LETTERS.select("number", "letter");
    ReferenceWriter.equalityDelete(
        table,
        List.of("number", "letter"),
        List.of(record(key, 3, "c"), record(key, 4, "x"), record(key, 12, "l")));
    add(name, folder);
  }

  static final Schema REGIONS =
      new Schema(
          required(1, "id", Types.IntegerType.get()),
          optional(2, "region", Types.StringType.get()),
          optional(3, "v", Types.StringType.get()));

  /**
   * A partition-scoped equality delete: {@code id = 1} written in partition region 'a' deletes the
   * row there but not the row with id 1 in region 'b'.
   */
  private void partitionScopedEqualityDelete(String name, int version) {
    Path folder = root.resolve(name);
    PartitionSpec spec = PartitionSpec.builderFor(REGIONS).identity("region").build();
    Table table = ReferenceWriter.create(folder, REGIONS, spec, version);
    List<Record> rows = new ArrayList<>();
    for (String region : List.of("a", "b")) {
      for (int id = 1; id <= 3; id++) {
        rows.add(record(REGIONS, id, region, region + id));
      }
    }
    append(table, rows);
    ReferenceWriter.equalityDelete(
        table,
        spec,
        record(REGIONS, 0, "a", null),
        List.of("id"),
        List.of(record(REGIONS.select("id"), 1)));
    add(name, folder);
  }

  /**
   * An equality delete under an unpartitioned spec applies to every partition: the table starts
   * unpartitioned, gains an identity partition, and a delete of {@code id = 2} written under the
   * first spec removes id 2 from the unpartitioned file and from both partitions.
   */
  private void globalEqualityDelete(String name, int version) {
    Path folder = root.resolve(name);
    Table table = ReferenceWriter.create(folder, REGIONS, PartitionSpec.unpartitioned(), version);
    append(
        table,
        record(REGIONS, 1, "a", "old1"),
        record(REGIONS, 2, "b", "old2"),
        record(REGIONS, 3, null, "old3"));
    table.updateSpec().addField("region").commit();
    table = ReferenceWriter.load(folder);
    append(
        table,
        record(REGIONS, 1, "a", "a1"),
        record(REGIONS, 2, "a", "a2"),
        record(REGIONS, 2, "b", "b2"),
        record(REGIONS, 4, "b", "b4"));
    PartitionSpec unpartitioned = table.specs().get(0);
    ReferenceWriter.equalityDelete(
        table, unpartitioned, null, List.of("id"), List.of(record(REGIONS.select("id"), 2)));
    add(name, folder);
  }

  /**
   * Schema evolution: a column added (old files lack it), one renamed, one dropped and another of
   * the same name added back (old values must not resurface), int widened to long, float to double.
   */
  private void evolvedSchema(String name) {
    Path folder = root.resolve(name);
    Schema first =
        new Schema(
            required(1, "id", Types.IntegerType.get()),
            optional(2, "amount", Types.FloatType.get()),
            optional(3, "label", Types.StringType.get()),
            optional(4, "gone", Types.StringType.get()));
    Table table = ReferenceWriter.create(folder, first, PartitionSpec.unpartitioned(), 2);
    append(
        table,
        record(first, 1, 1.5f, "one", "old-gone-1"),
        record(first, 2, -0.0f, null, "old-gone-2"),
        record(first, Integer.MAX_VALUE, Float.MAX_VALUE, "max", null));
    table
        .updateSchema()
        .addColumn("added", Types.StringType.get())
        .renameColumn("label", "title")
        .deleteColumn("gone")
        .updateColumn("id", Types.LongType.get())
        .updateColumn("amount", Types.DoubleType.get())
        .commit();
    table.updateSchema().addColumn("gone", Types.IntegerType.get()).commit();
    table = ReferenceWriter.load(folder);
    Schema now = table.schema();
    append(table, record(now, 3_000_000_000L, 2.25d, "three", "new", 33));
    add(name, folder);
  }

  /** Partition spec evolution: identity(s) first, then day(ts) in its place; files under both. */
  private void evolvedSpec(String name) {
    Path folder = root.resolve(name);
    PartitionSpec identity = PartitionSpec.builderFor(PARTITIONED).identity("s").build();
    Table table = ReferenceWriter.create(folder, PARTITIONED, identity, 2);
    List<Record> rows = partitionedRows();
    append(table, rows.subList(0, 24));
    table
        .updateSpec()
        .removeField("s")
        .addField(org.apache.iceberg.expressions.Expressions.day("ts"))
        .commit();
    table = ReferenceWriter.load(folder);
    append(table, rows.subList(24, rows.size()));
    add(name, folder);
  }

  /** A small table in a given folder (a space in its name, or nested in a schema folder). */
  private void plain(String name, String sql, Path folder) {
    Table table = ReferenceWriter.create(folder, LETTERS, PartitionSpec.unpartitioned(), 2);
    append(table, twelveLetters().subList(0, 5));
    tables.put(name, new ReferenceTable(name, sql, folder, () -> ReferenceWriter.load(folder)));
  }

  /**
   * Metadata files named {@code NNNNN-<uuid>.metadata.json}, as catalogs other than the file-system
   * one write them, and no version hint. Iceberg's file-system tables cannot open this layout, so
   * the oracle reads the newest metadata file directly.
   */
  private void uuidNamedMetadata(String name) {
    Path folder = root.resolve(name);
    Table table = ReferenceWriter.create(folder, LETTERS, PartitionSpec.unpartitioned(), 2);
    append(table, twelveLetters().subList(0, 4));
    append(table, twelveLetters().subList(4, 8));
    Path metadata = folder.resolve("metadata");
    Path newest = null;
    try {
      Files.delete(metadata.resolve("version-hint.text"));
      Files.deleteIfExists(metadata.resolve(".version-hint.text.crc"));
      for (int v = 1; Files.exists(metadata.resolve("v" + v + ".metadata.json")); v++) {
        Path renamed =
            metadata.resolve(String.format("%05d-%s.metadata.json", v, UUID.randomUUID()));
        Files.move(metadata.resolve("v" + v + ".metadata.json"), renamed);
        Files.deleteIfExists(metadata.resolve(".v" + v + ".metadata.json.crc"));
        newest = renamed;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String newestLocation = ReferenceWriter.location(newest);
    Supplier<Table> oracle =
        () ->
            new BaseTable(
                new StaticTableOperations(newestLocation, new HadoopFileIO(new Configuration())),
                name);
    tables.put(name, new ReferenceTable(name, name, folder, oracle));
  }

  /** A version hint left pointing at version 1 while version 4 is the newest. */
  private void staleHint(String name) {
    Path folder = root.resolve(name);
    Table table = ReferenceWriter.create(folder, LETTERS, PartitionSpec.unpartitioned(), 2);
    append(table, twelveLetters().subList(0, 3));
    append(table, twelveLetters().subList(3, 6));
    append(table, twelveLetters().subList(6, 9));
    try {
      Path metadata = folder.resolve("metadata");
      Files.writeString(metadata.resolve("version-hint.text"), "1");
      Files.deleteIfExists(metadata.resolve(".version-hint.text.crc"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    add(name, folder);
  }

  // ---- helpers ---------------------------------------------------------------------------

  private void add(String name, Path folder) {
    tables.put(name, new ReferenceTable(name, name, folder, () -> ReferenceWriter.load(folder)));
  }

  private static byte[] filled(byte value) {
    byte[] bytes = new byte[16];
    Arrays.fill(bytes, value);
    return bytes;
  }

  private static <V> Map<String, V> mapOf(String k1, V v1, String k2, V v2) {
    Map<String, V> map = new LinkedHashMap<>();
    map.put(k1, v1);
    map.put(k2, v2);
    return map;
  }

  private static String longString() {
    StringBuilder s = new StringBuilder(100_000);
    String pattern = "long text ü 日本 😀 ";
    while (s.length() < 100_000) {
      s.append(pattern);
    }
    s.setLength(100_000);
    if (Character.isHighSurrogate(s.charAt(s.length() - 1))) {
      s.setCharAt(s.length() - 1, 'x');
    }
    return s.toString();
  }

  static void deleteTree(Path folder) {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
