package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types.IntegerType;
import org.apache.iceberg.types.Types.NestedField;

/**
 * The attack corpus's cases of hands off what a statement does not own: files of other tables
 * (add_files, DROP ... PURGE, expiry, orphan removal through any spelling of the lake), the names
 * of metadata tables, and arguments that do not fit (durations, sizes, locations, JDBC calls).
 */
final class HandsOffCases {
  private HandsOffCases() {}

  static List<AttackCase> all() {
    List<AttackCase> all = new ArrayList<>();
    all.addAll(ownership());
    all.addAll(metadataNames());
    all.addAll(arguments());
    all.addAll(damage());
    return all;
  }

  // ---------------------------------------------------------------- helpers

  private static final String[] VICTIM = {
    "CREATE TABLE victim (a INT)", "INSERT INTO victim VALUES (1), (2), (3)"
  };
  private static final String THIEF = "CREATE TABLE thief (a INT)";
  private static final String MIN0 = "?maintenance.min-retention=0s";

  /** The data files of a table's current snapshot, as Iceberg's own reader plans them. */
  static List<DataFile> dataFiles(AttackLake l, String table) throws IOException {
    Table t = ReferenceWriter.load(l.root.resolve(table.replace('.', '/')));
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = t.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file());
      }
    }
    return files;
  }

  /** The local path of a location written by any engine. */
  static Path pathOf(String location) {
    return Path.of(URI.create(location.replace(" ", "%20")).getPath());
  }

  /** The first data file of a table, as a plain path. */
  static Path firstFile(AttackLake l, String table) throws IOException {
    return pathOf(dataFiles(l, table).get(0).location());
  }

  /**
   * Another engine makes table {@code into} reference the current data files of table {@code from}
   * (Spark's add_files or snapshot procedure does so), in one Iceberg append.
   */
  static AttackCase.Step share(String from, String into) {
    return l -> {
      Table target = ReferenceWriter.load(l.root.resolve(into.replace('.', '/')));
      AppendFiles append = target.newAppend();
      for (DataFile file : dataFiles(l, from)) {
        append.appendFile(DataFiles.builder(target.spec()).copy(file).build());
      }
      append.commit();
    };
  }

  /** Victim's rows are all there and its files too. */
  static AttackCase.Step victimIntact() {
    return l -> {
      assertThat(l.rows("SELECT SUM(a) FROM victim")).containsExactly("6");
      for (DataFile file : dataFiles(l, "victim")) {
        assertThat(pathOf(file.location())).exists();
      }
    };
  }

  /** A table still reads the rows it references from another table's files. */
  static AttackCase.Step reads(String table, String sum) {
    return l -> assertThat(l.rows("SELECT SUM(a) FROM " + table)).containsExactly(sum);
  }

  private static AttackCase.Step both(AttackCase.Step a, AttackCase.Step b) {
    return l -> {
      a.run(l);
      b.run(l);
    };
  }

  /** Runs a statement, returning the text of its warnings ("" when none). */
  static String warnings(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute(sql);
      StringBuilder text = new StringBuilder();
      for (java.sql.SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
        text.append(w.getMessage()).append('\n');
      }
      return text.toString();
    }
  }

  /** Expires every snapshot but the current one without deleting any file (another engine). */
  static AttackCase.Step expireKeepingFiles(String table) {
    return l ->
        ReferenceWriter.load(l.root.resolve(table))
            .expireSnapshots()
            .expireOlderThan(System.currentTimeMillis() + 1)
            .retainLast(1)
            .cleanExpiredFiles(false)
            .commit();
  }

  private static AttackCase own(String input) {
    return AttackCase.of("ownership", input);
  }

  // ---------------------------------------------------------------- ownership

  static List<AttackCase> ownership() {
    List<AttackCase> cases = new ArrayList<>();
    // The first case, whole: add_files of another table's file, then DROP ... PURGE.
    cases.add(
        own("add_files(location => '<victim's data file>') into thief, then DROP TABLE thief PURGE")
            .setup(VICTIM)
            .setup(THIEF)
            .attack(
                l -> {
                  try {
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + firstFile(l, "victim")
                            + "')");
                  } catch (SQLException refused) {
                    // refused is the fix; the DROP below must not hurt victim either way
                  }
                  l.sql("DROP TABLE thief PURGE");
                })
            .succeeds(victimIntact()));
    cases.add(
        own("ALTER TABLE thief EXECUTE add_files(location => '<victim's data file>')")
            .setup(VICTIM)
            .setup(THIEF)
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + firstFile(l, "victim")
                            + "')"))
            .fails("42602", "victim", ".parquet")
            .check(victimIntact()));
    cases.add(
        own("ALTER TABLE thief EXECUTE add_files(location => '<lake>/victim') (a table's folder)")
            .setup(VICTIM)
            .setup(THIEF)
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + l.root.resolve("victim")
                            + "')"))
            .fails("42602", "victim"));
    cases.add(
        own("ALTER TABLE thief EXECUTE add_files(location => '<lake>/victim/data')")
            .setup(VICTIM)
            .setup(THIEF)
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + l.root.resolve("victim").resolve("data")
                            + "')"))
            .fails("42602", "victim"));
    cases.add(
        own("add_files(location => '<lake>/thief/../victim/data/<file>') (a '..' spelling)")
            .setup(VICTIM)
            .setup(THIEF)
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + l.root
                            + "/thief/../victim/data/"
                            + firstFile(l, "victim").getFileName()
                            + "')"))
            .fails("42602", "victim"));
    cases.add(
        own("add_files(location => '<lake>/link/<file>'), link a symbolic link to victim's data")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(
                l ->
                    Files.createSymbolicLink(
                        l.root.resolve("link"), l.root.resolve("victim").resolve("data")))
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + l.root.resolve("link").resolve(firstFile(l, "victim").getFileName())
                            + "')"))
            .fails("42602", "victim"));
    cases.add(
        own("add_files(location => '<lake>/*/data/*.parquet') (a glob reaching victim's files)")
            .setup(VICTIM)
            .setup(THIEF)
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + l.root
                            + "/*/data/*.parquet')"))
            .fails("42602", "victim"));
    cases.add(
        own("add_files of a Parquet file inside thief's own metadata folder")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(
                l ->
                    Files.copy(
                        firstFile(l, "victim"),
                        l.root.resolve("thief").resolve("metadata").resolve("extra.parquet")))
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + l.root.resolve("thief").resolve("metadata").resolve("extra.parquet")
                            + "')"))
            .fails("42602", "metadata", "extra.parquet"));
    cases.add(
        own("add_files of a Parquet file inside victim's metadata folder")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(
                l ->
                    Files.copy(
                        firstFile(l, "victim"),
                        l.root.resolve("victim").resolve("metadata").resolve("extra.parquet")))
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + l.root.resolve("victim").resolve("metadata").resolve("extra.parquet")
                            + "')"))
            .fails("42602", "victim", "extra.parquet"));
    cases.add(
        own("add_files of a file under thief's own folder (thief/import), then remove_orphan_files")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(
                l -> {
                  Path dir = Files.createDirectories(l.root.resolve("thief").resolve("import"));
                  Files.copy(firstFile(l, "victim"), dir.resolve("x.parquet"));
                })
            .attack(
                l ->
                    AttackLake.sqlAt(
                        l.url() + MIN0,
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + l.root.resolve("thief").resolve("import").resolve("x.parquet")
                            + "')",
                        "ALTER TABLE thief EXECUTE remove_orphan_files(retention_threshold =>"
                            + " '0s')"))
            .succeeds(
                both(
                    reads("thief", "6"),
                    l ->
                        assertThat(l.root.resolve("thief").resolve("import").resolve("x.parquet"))
                            .exists())));
    cases.add(
        own("DROP TABLE thief PURGE, thief add_files'd <lake>/staging/x.parquet (no table's file)")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(
                l -> {
                  Path dir = Files.createDirectories(l.root.resolve("staging"));
                  Files.copy(firstFile(l, "victim"), dir.resolve("x.parquet"));
                  l.sql(
                      "ALTER TABLE thief EXECUTE add_files(location => '"
                          + dir.resolve("x.parquet")
                          + "')");
                })
            .attack(
                l ->
                    assertThat(warnings(l.url(), "DROP TABLE thief PURGE"))
                        .as("the warning names the file left in place")
                        .contains("x.parquet"))
            .succeeds(
                l -> {
                  assertThat(l.root.resolve("staging").resolve("x.parquet")).exists();
                  assertThat(l.root.resolve("thief")).doesNotExist();
                }));
    cases.add(
        own("DROP TABLE thief PURGE, thief references victim's data file (another engine)")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(share("victim", "thief"))
            .attack(l -> l.sql("DROP TABLE thief PURGE"))
            .succeeds(
                both(victimIntact(), l -> assertThat(l.root.resolve("thief")).doesNotExist())));
    cases.add(
        own("DROP TABLE victim, thief references one of victim's data files (another engine)")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(share("victim", "thief"))
            .attack(l -> l.sql("DROP TABLE victim"))
            .succeeds(reads("thief", "6")));
    cases.add(
        own("DROP TABLE victim PURGE, s.thief in a schema references victim's data file")
            .setup(VICTIM)
            .setup("CREATE TABLE s.thief (a INT)")
            .setup(share("victim", "s.thief"))
            .attack(l -> l.sql("DROP TABLE victim PURGE"))
            .succeeds(
                both(
                    reads("s.thief", "6"),
                    l ->
                        assertThat(AttackLake.rowsAt(l.url(), "SHOW TABLES"))
                            .noneMatch(r -> r.contains("victim")))));
    cases.add(
        own("DROP TABLE thief PURGE, thief's metadata names <lake>/thief/data/../../victim/<file>")
            .setup(VICTIM)
            .setup(THIEF, "INSERT INTO thief VALUES (10)")
            .setup(
                l -> {
                  Table thief = ReferenceWriter.load(l.root.resolve("thief"));
                  DataFile file = dataFiles(l, "victim").get(0);
                  String crafted =
                      "file:"
                          + l.root
                          + "/thief/data/../../victim/data/"
                          + pathOf(file.location()).getFileName();
                  thief
                      .newAppend()
                      .appendFile(
                          DataFiles.builder(thief.spec()).copy(file).withPath(crafted).build())
                      .commit();
                })
            .attack(l -> l.sql("DROP TABLE thief PURGE"))
            .succeeds(victimIntact()));
    cases.add(
        own("expire_snapshots on victim after TRUNCATE, thief still references victim's file")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(share("victim", "thief"))
            .setup("TRUNCATE TABLE victim")
            .attack(
                l ->
                    AttackLake.sqlAt(
                        l.url() + MIN0,
                        "ALTER TABLE victim EXECUTE expire_snapshots(retention_threshold =>"
                            + " '0s')"))
            .succeeds(reads("thief", "6")));
    cases.add(
        own("remove_orphan_files on victim, the file only thief (another engine) references")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(share("victim", "thief"))
            .setup("TRUNCATE TABLE victim")
            .setup(expireKeepingFiles("victim"))
            .attack(
                l ->
                    AttackLake.sqlAt(
                        l.url() + MIN0,
                        "ALTER TABLE victim EXECUTE remove_orphan_files(retention_threshold =>"
                            + " '0s')"))
            .succeeds(reads("thief", "6")));
    cases.add(
        own("remove_orphan_files(dry_run), then for real, on victim: the file thief uses stays")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(share("victim", "thief"))
            .setup("TRUNCATE TABLE victim")
            .setup(expireKeepingFiles("victim"))
            .attack(
                l -> {
                  String call =
                      "ALTER TABLE victim EXECUTE remove_orphan_files(retention_threshold => '0s'";
                  List<String> dry = AttackLake.rowsAt(l.url() + MIN0, call + ", dry_run => true)");
                  List<String> real = AttackLake.rowsAt(l.url() + MIN0, call + ")");
                  assertThat(dry).as("a dry run counts what the real run deletes").isEqualTo(real);
                })
            .succeeds(reads("thief", "6")));
    cases.add(
        own("optimize then expire_snapshots on thief, which references victim's file")
            .setup(VICTIM)
            .setup(THIEF, "INSERT INTO thief VALUES (10)")
            .setup(share("victim", "thief"))
            .attack(
                l ->
                    AttackLake.sqlAt(
                        l.url() + MIN0,
                        "ALTER TABLE thief EXECUTE optimize",
                        "ALTER TABLE thief EXECUTE expire_snapshots(retention_threshold => '0s')",
                        "ALTER TABLE thief EXECUTE remove_orphan_files(retention_threshold =>"
                            + " '0s')"))
            .succeeds(both(victimIntact(), reads("thief", "16"))));
    cases.add(
        own("optimize_manifests, rollback_to_snapshot on thief, which references victim's file")
            .setup(VICTIM)
            .setup(THIEF, "INSERT INTO thief VALUES (10)")
            .setup(share("victim", "thief"))
            .attack(
                l -> {
                  long first =
                      Long.parseLong(
                          l.rows(
                                  "SELECT snapshot_id FROM \"thief$snapshots\" ORDER BY"
                                      + " committed_at")
                              .get(0));
                  AttackLake.sqlAt(
                      l.url() + MIN0,
                      "ALTER TABLE thief EXECUTE optimize_manifests",
                      "ALTER TABLE thief EXECUTE rollback_to_snapshot(" + first + ")",
                      "ALTER TABLE thief EXECUTE expire_snapshots(retention_threshold => '0s')");
                })
            .succeeds(both(victimIntact(), reads("thief", "10"))));
    cases.add(
        own("a rolled-back INSERT into thief, which references victim's file")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(share("victim", "thief"))
            .attack(
                l -> {
                  try (Connection c = l.connect();
                      Statement s = c.createStatement()) {
                    c.setAutoCommit(false);
                    s.executeUpdate("INSERT INTO thief VALUES (7)");
                    c.rollback();
                  }
                })
            .succeedsWithoutChange(both(victimIntact(), reads("thief", "6"))));
    cases.add(
        own("DROP TABLE victim while thief, another table, has a garbled manifest list")
            .setup(VICTIM)
            .setup(THIEF, "INSERT INTO thief VALUES (10)")
            .setup(share("victim", "thief"))
            .setup(
                l -> {
                  Table thief = ReferenceWriter.load(l.root.resolve("thief"));
                  garble(pathOf(thief.currentSnapshot().manifestListLocation()));
                })
            .attack(
                l ->
                    assertThat(warnings(l.url(), "DROP TABLE victim"))
                        .as("the warning names the table that could not be read")
                        .contains("thief"))
            .succeeds(
                l -> {
                  assertThat(l.root.resolve("victim").resolve("metadata")).doesNotExist();
                  try (Stream<Path> files = Files.walk(l.root.resolve("victim"))) {
                    assertThat(files.filter(p -> p.toString().endsWith(".parquet")))
                        .as("victim's data files are kept: thief may reference them")
                        .isNotEmpty();
                  }
                }));
    cases.add(
        own("CREATE TABLE a (x INT) WITH ('write.data.path' = '<lake>/victim/data')")
            .setup(VICTIM)
            .attack(
                l ->
                    l.sql(
                        "CREATE TABLE a (x INT) WITH ('write.data.path' = '"
                            + l.root.resolve("victim").resolve("data")
                            + "')"))
            .fails("42602", "write.data.path", "victim"));
    cases.add(
        own("CREATE TABLE a (x INT) WITH ('write.metadata.path' = '<lake>/victim/metadata')")
            .setup(VICTIM)
            .attack(
                l ->
                    l.sql(
                        "CREATE TABLE a (x INT) WITH ('write.metadata.path' = '"
                            + l.root.resolve("victim").resolve("metadata")
                            + "')"))
            .fails("42602", "write.metadata.path", "victim"));
    cases.add(
        AttackCase.of(
                "sandbox",
                "CREATE TABLE dp WITH ('write.data.path' = '<lake>/link/../dp'), link leading out"
                    + " of the lake; INSERT")
            .setup(
                l ->
                    Files.createSymbolicLink(
                        l.root.resolve("link"), Files.createDirectories(l.outside.resolve("deep"))))
            .attack(
                l ->
                    l.sql(
                        "CREATE TABLE dp (a INT) WITH ('write.data.path' = '"
                            + l.root
                            + "/link/../dp')",
                        "INSERT INTO dp VALUES (1)"))
            .fails("42602", "write.data.path"));
    cases.add(
        own("add_files of <outside>/other/data/<file>, a table folder outside the lake")
            .setup(THIEF)
            .setup(
                l -> {
                  Schema schema = new Schema(NestedField.optional(1, "a", IntegerType.get()));
                  ReferenceWriter.append(
                      ReferenceWriter.create(
                          l.outside.resolve("other"), schema, PartitionSpec.unpartitioned(), 2),
                      ReferenceWriter.record(schema, 5));
                })
            .attack(
                l -> {
                  Path file;
                  try (Stream<Path> walk = Files.walk(l.outside.resolve("other").resolve("data"))) {
                    file =
                        walk.filter(p -> p.toString().endsWith(".parquet"))
                            .findFirst()
                            .orElseThrow();
                  }
                  l.sql("ALTER TABLE thief EXECUTE add_files(location => '" + file + "')");
                })
            .fails("42602", "other", "folder of the table"));
    cases.add(
        own("add_files of a file of s.victim, a table in a schema")
            .setup("CREATE TABLE s.victim (a INT)", "INSERT INTO s.victim VALUES (1)")
            .setup(THIEF)
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + firstFile(l, "s.victim")
                            + "')"))
            .fails("42602", "s.victim"));
    cases.add(
        own("add_files of thief/import/link.parquet, a symbolic link to victim's data file")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(
                l ->
                    Files.createSymbolicLink(
                        Files.createDirectories(l.root.resolve("thief").resolve("import"))
                            .resolve("link.parquet"),
                        firstFile(l, "victim")))
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE thief EXECUTE add_files(location => '"
                            + l.root.resolve("thief").resolve("import").resolve("link.parquet")
                            + "')"))
            .fails("42602", "victim"));
    cases.add(
        own("remove_orphan_files on thief, thief/data holds a symbolic link to victim's data file")
            .setup(VICTIM)
            .setup(THIEF, "INSERT INTO thief VALUES (10)")
            .setup(
                l ->
                    Files.createSymbolicLink(
                        l.root.resolve("thief").resolve("data").resolve("stray.parquet"),
                        firstFile(l, "victim")))
            .attack(
                l ->
                    AttackLake.sqlAt(
                        l.url() + MIN0,
                        "ALTER TABLE thief EXECUTE remove_orphan_files(retention_threshold =>"
                            + " '0s')"))
            .succeeds(both(victimIntact(), reads("thief", "10"))));
    cases.add(
        own("DROP TABLE thief PURGE, thief/data holds a symbolic link to victim's data folder")
            .setup(VICTIM)
            .setup(THIEF, "INSERT INTO thief VALUES (10)")
            .setup(
                l ->
                    Files.createSymbolicLink(
                        l.root.resolve("thief").resolve("data").resolve("evil"),
                        l.root.resolve("victim").resolve("data")))
            .attack(l -> l.sql("DROP TABLE thief PURGE"))
            .succeeds(victimIntact()));
    cases.add(
        own("DROP TABLE thief PURGE, thief's metadata names <lake>/thief/data/link/<file>,"
                + " link a symbolic link to victim's data folder")
            .setup(VICTIM)
            .setup(THIEF, "INSERT INTO thief VALUES (10)")
            .setup(
                l -> {
                  Files.createSymbolicLink(
                      l.root.resolve("thief").resolve("data").resolve("link"),
                      l.root.resolve("victim").resolve("data"));
                  Table thief = ReferenceWriter.load(l.root.resolve("thief"));
                  DataFile file = dataFiles(l, "victim").get(0);
                  String crafted =
                      "file:"
                          + l.root
                          + "/thief/data/link/"
                          + pathOf(file.location()).getFileName();
                  thief
                      .newAppend()
                      .appendFile(
                          DataFiles.builder(thief.spec()).copy(file).withPath(crafted).build())
                      .commit();
                })
            .attack(l -> l.sql("DROP TABLE thief PURGE"))
            .succeeds(victimIntact()));
    cases.add(
        own("expire_snapshots on victim after TRUNCATE, thief shares the file and is garbled")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(share("victim", "thief"))
            .setup("TRUNCATE TABLE victim")
            .setup(
                l -> {
                  Table thief = ReferenceWriter.load(l.root.resolve("thief"));
                  garble(pathOf(thief.currentSnapshot().manifestListLocation()));
                })
            .attack(
                l ->
                    assertThat(
                            warnings(
                                l.url() + MIN0,
                                "ALTER TABLE victim EXECUTE expire_snapshots(retention_threshold"
                                    + " => '0s')"))
                        .as("the warning names the table that could not be read")
                        .contains("thief"))
            .succeeds(
                l -> {
                  try (Stream<Path> files = Files.walk(l.root.resolve("victim").resolve("data"))) {
                    assertThat(files.filter(p -> p.toString().endsWith(".parquet")))
                        .as("victim's data file is kept: thief may reference it")
                        .isNotEmpty();
                  }
                }));
    cases.add(
        own("INSERT into t, whose metadata log names <lake>/t/metadata/../../victim/<file>")
            .setup(VICTIM)
            .setup(logNaming(l -> l.root + "/t/metadata/../../victim/data/"))
            .attack(l -> l.sql("INSERT INTO t VALUES (3)"))
            .succeeds(both(victimIntact(), reads("t", "6"))));
    cases.add(
        own("INSERT into t, whose metadata log names <lake>/t/metadata/link/<file>, link to"
                + " victim's data folder")
            .setup(VICTIM)
            .setup(
                logNaming(
                    l -> {
                      Files.createSymbolicLink(
                          l.root.resolve("t").resolve("metadata").resolve("link"),
                          l.root.resolve("victim").resolve("data"));
                      return l.root + "/t/metadata/link/";
                    }))
            .attack(l -> l.sql("INSERT INTO t VALUES (3)"))
            .succeeds(both(victimIntact(), reads("t", "6"))));
    cases.add(
        own("INSERT INTO copy, a copy of victim's folder whose metadata places its files in victim's")
            .setup(VICTIM)
            .setup(
                l -> {
                  Path from = l.root.resolve("victim");
                  Path to = l.root.resolve("copy");
                  try (Stream<Path> walk = Files.walk(from)) {
                    for (Path p : walk.toList()) {
                      Files.copy(p, to.resolve(from.relativize(p).toString()));
                    }
                  }
                })
            .attack(l -> l.sql("INSERT INTO copy VALUES (9)"))
            .fails("42602", "own folder")
            .check(victimIntact()));
    // The second case: one lake, two spellings.
    cases.add(
        own("remove_orphan_files through <lake> on a table also written through <symlink to lake>")
            .setup("CREATE TABLE sym (a INT)", "INSERT INTO sym VALUES (1)")
            .setup(l -> AttackLake.sqlAt("jdbc:floe:" + l.alias(), "INSERT INTO sym VALUES (2)"))
            .attack(
                l ->
                    AttackLake.sqlAt(
                        l.url() + MIN0,
                        "ALTER TABLE sym EXECUTE remove_orphan_files(retention_threshold =>"
                            + " '0s')"))
            .succeeds(readsBothSpellings("1", "2")));
    cases.add(
        own("remove_orphan_files through <symlink to lake> on a table written through both")
            .setup("CREATE TABLE sym (a INT)", "INSERT INTO sym VALUES (1)")
            .setup(l -> AttackLake.sqlAt("jdbc:floe:" + l.alias(), "INSERT INTO sym VALUES (2)"))
            .attack(
                l ->
                    AttackLake.sqlAt(
                        "jdbc:floe:" + l.alias() + MIN0,
                        "ALTER TABLE sym EXECUTE remove_orphan_files(retention_threshold =>"
                            + " '0s')"))
            .succeeds(readsBothSpellings("1", "2")));
    cases.add(
        own("expire_snapshots, then remove_orphan_files through <lake>, writes through both")
            .setup("CREATE TABLE sym (a INT)", "INSERT INTO sym VALUES (1)")
            .setup(
                l ->
                    AttackLake.sqlAt(
                        "jdbc:floe:" + l.alias(),
                        "INSERT INTO sym VALUES (2)",
                        "DELETE FROM sym WHERE a = 1",
                        "INSERT INTO sym VALUES (3)"))
            .attack(
                l ->
                    AttackLake.sqlAt(
                        l.url() + MIN0,
                        "ALTER TABLE sym EXECUTE expire_snapshots(retention_threshold => '0s')",
                        "ALTER TABLE sym EXECUTE remove_orphan_files(retention_threshold =>"
                            + " '0s')"))
            .succeeds(readsBothSpellings("2", "3")));
    cases.add(
        own("optimize through <symlink to lake>, then remove_orphan_files through <lake>")
            .setup(
                "CREATE TABLE sym (a INT)",
                "INSERT INTO sym VALUES (1)",
                "INSERT INTO sym VALUES (2)")
            .setup(AttackLake::alias)
            .attack(
                l -> {
                  AttackLake.sqlAt(
                      "jdbc:floe:" + l.alias() + MIN0, "ALTER TABLE sym EXECUTE optimize");
                  AttackLake.sqlAt(
                      l.url() + MIN0,
                      "ALTER TABLE sym EXECUTE remove_orphan_files(retention_threshold => '0s')");
                })
            .succeeds(readsBothSpellings("1", "2")));
    cases.add(
        own("DROP TABLE victim through <symlink to lake>, thief references victim's file")
            .setup(VICTIM)
            .setup(THIEF)
            .setup(share("victim", "thief"))
            .setup(AttackLake::alias)
            .attack(l -> AttackLake.sqlAt("jdbc:floe:" + l.alias(), "DROP TABLE victim PURGE"))
            .succeeds(reads("thief", "6")));
    return cases;
  }

  /** A folder under which a crafted location names victim's data file. */
  private interface Place {
    String folder(AttackLake l) throws Exception;
  }

  /**
   * Table t, keeping one old metadata file in its log, whose newest metadata file is edited so that
   * the log names victim's data file through a crafted location: the next commit drops that entry
   * from the log, and the old metadata files dropped so are deleted.
   */
  private static AttackCase.Step logNaming(Place place) {
    return l -> {
      l.sql(
          "CREATE TABLE t (a INT) WITH ('write.metadata.previous-versions-max' = '1')",
          "INSERT INTO t VALUES (1)",
          "INSERT INTO t VALUES (2)");
      String crafted = "file:" + place.folder(l) + firstFile(l, "victim").getFileName();
      Path newest;
      try (Stream<Path> files = Files.list(l.root.resolve("t").resolve("metadata"))) {
        newest =
            files
                .filter(p -> p.getFileName().toString().matches("v\\d+\\.metadata\\.json"))
                .max(
                    java.util.Comparator.comparingInt(
                        p -> Integer.parseInt(p.getFileName().toString().replaceAll("\\D", ""))))
                .orElseThrow();
      }
      String json = Files.readString(newest);
      String edited =
          json.replaceAll(
              "\"metadata-file\"\\s*:\\s*\"[^\"]*\"",
              java.util.regex.Matcher.quoteReplacement("\"metadata-file\":\"" + crafted + "\""));
      assertThat(edited).as("the log names the crafted location").contains(crafted);
      Files.writeString(newest, edited);
    };
  }

  /** sym reads the rows through the lake's own path and through the link. */
  private static AttackCase.Step readsBothSpellings(String... rows) {
    return l -> {
      assertThat(l.rows("SELECT a FROM sym ORDER BY a")).containsExactly(rows);
      assertThat(AttackLake.rowsAt("jdbc:floe:" + l.alias(), "SELECT a FROM sym ORDER BY a"))
          .containsExactly(rows);
    };
  }

  static void garble(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    for (int i = bytes.length / 4; i < bytes.length * 3 / 4; i++) {
      bytes[i] = (byte) 0xff;
    }
    Files.write(file, bytes);
  }

  // ---------------------------------------------------------------- metadata-table names

  static final List<String> METADATA_TABLES =
      List.of(
          "snapshots",
          "history",
          "files",
          "manifests",
          "partitions",
          "refs",
          "properties",
          "metadata_log_entries",
          "entries",
          "all_manifests",
          "all_files",
          "all_entries",
          "data_files",
          "delete_files");

  private static final String T = "CREATE TABLE t (i INT, d DATE)";
  private static final String T_ROWS = "INSERT INTO t VALUES (1, DATE '2024-01-01')";

  private static AttackCase meta(String input) {
    return AttackCase.of("metanames", input).setup(T, T_ROWS);
  }

  static List<AttackCase> metadataNames() {
    List<AttackCase> cases = new ArrayList<>();
    for (String kind : METADATA_TABLES) {
      cases.add(
          meta("CREATE TABLE \"t$" + kind + "\" (a INT)")
              .fails("42602", "t$" + kind, "metadata table"));
    }
    cases.add(
        AttackCase.of("metanames", "CREATE TABLE \"later$files\" (a INT), later not created yet")
            .attack(l -> l.sql("CREATE TABLE \"later$files\" (a INT)"))
            .fails("42602", "later$files", "metadata table"));
    cases.add(meta("CREATE TABLE t$snapshots (a INT)").fails("42602", "metadata table"));
    cases.add(meta("CREATE TABLE \"T$Files\" (a INT)").fails("42602", "metadata table"));
    cases.add(meta("CREATE TABLE IF NOT EXISTS \"t$files\" (a INT)").fails("42602"));
    cases.add(meta("CREATE TABLE \"t$files\" AS SELECT 1 AS a").fails("42602", "metadata table"));
    cases.add(
        meta("CREATE OR REPLACE TABLE \"t$files\" AS SELECT 1 AS a")
            .fails("42602", "metadata table"));
    cases.add(meta("CREATE TABLE s.\"t$history\" (a INT)").fails("42602", "metadata table"));
    cases.add(
        meta("CREATE TABLE \"price$usd\" (a INT) (a $ that names no metadata table)")
            .attack(l -> l.sql("CREATE TABLE \"price$usd\" (a INT)"))
            .succeeds(l -> assertThat(l.rows("SELECT * FROM \"price$usd\"")).isEmpty()));
    cases.add(
        AttackCase.of("metanames", "CREATE TABLE sh (a INT), a table folder sh$snapshots exists")
            .setup(
                l ->
                    ReferenceWriter.create(
                        l.root.resolve("sh$snapshots"),
                        new Schema(NestedField.optional(1, "a", IntegerType.get())),
                        PartitionSpec.unpartitioned(),
                        2))
            .attack(l -> l.sql("CREATE TABLE sh (a INT)"))
            .fails("42602", "sh$snapshots"));
    cases.add(
        AttackCase.of(
                "metanames",
                "SELECT FROM \"sh$snapshots\", tables sh and sh$snapshots both made by another"
                    + " engine (the folder is found)")
            .setup(
                l -> {
                  Schema schema = new Schema(NestedField.optional(1, "a", IntegerType.get()));
                  ReferenceWriter.append(
                      ReferenceWriter.create(
                          l.root.resolve("sh$snapshots"), schema, PartitionSpec.unpartitioned(), 2),
                      ReferenceWriter.record(schema, 42));
                  ReferenceWriter.create(
                      l.root.resolve("sh"), schema, PartitionSpec.unpartitioned(), 2);
                })
            .attack(l -> assertThat(l.rows("SELECT a FROM \"sh$snapshots\"")).containsExactly("42"))
            .succeedsWithoutChange(l -> {}));
    cases.add(
        meta("CREATE TABLE c AS SELECT snapshot_id FROM \"t$snapshots\" (reading one is fine)")
            .attack(l -> l.sql("CREATE TABLE c AS SELECT snapshot_id FROM \"t$snapshots\""))
            .succeeds(l -> assertThat(l.rows("SELECT COUNT(*) FROM c")).containsExactly("1")));
    for (String sql :
        List.of(
            "INSERT INTO \"t$files\" VALUES (1)",
            "INSERT INTO \"t$files\" SELECT * FROM \"t$files\"",
            "UPDATE \"t$files\" SET record_count = 0",
            "UPDATE \"t$snapshots\" SET snapshot_id = 1 WHERE snapshot_id > 0",
            "DELETE FROM \"t$files\"",
            "DELETE FROM t$files",
            "DELETE FROM main.\"t$files\"",
            "DELETE FROM T$FILES",
            "MERGE INTO \"t$files\" f USING t ON f.record_count = t.i"
                + " WHEN MATCHED THEN UPDATE SET record_count = 1",
            "MERGE INTO \"t$snapshots\" s USING t ON s.snapshot_id = t.i"
                + " WHEN NOT MATCHED THEN INSERT (snapshot_id) VALUES (t.i)",
            "TRUNCATE TABLE \"t$files\"",
            "INSERT OVERWRITE \"t$files\" SELECT * FROM \"t$files\"",
            "ALTER TABLE \"t$files\" ADD COLUMN x INT",
            "ALTER TABLE \"t$files\" DROP COLUMN record_count",
            "ALTER TABLE \"t$files\" RENAME COLUMN record_count TO r",
            "ALTER TABLE \"t$files\" EXECUTE optimize",
            "ALTER TABLE \"t$files\" EXECUTE optimize_manifests",
            "ALTER TABLE \"t$files\" EXECUTE expire_snapshots",
            "ALTER TABLE \"t$files\" EXECUTE remove_orphan_files(dry_run => true)",
            "ALTER TABLE \"t$files\" EXECUTE add_files(location => 'x.parquet')",
            "ALTER TABLE \"t$snapshots\" EXECUTE rollback_to_snapshot(1)",
            "ALTER TABLE \"t$snapshots\" CREATE BRANCH b",
            "ALTER TABLE \"t$refs\" DROP BRANCH main",
            "DROP TABLE \"t$files\"",
            "DROP TABLE IF EXISTS \"t$files\"",
            "DROP TABLE \"t$files\" PURGE")) {
      cases.add(meta(sql).fails("42809", "metadata table"));
    }
    for (String kind : METADATA_TABLES) {
      cases.add(meta("DELETE FROM \"t$" + kind + "\"").fails("42809", "t$" + kind));
      cases.add(
          meta("INSERT INTO \"t$" + kind + "\" SELECT * FROM \"t$" + kind + "\"")
              .fails("42809", "t$" + kind));
    }
    cases.add(
        meta("DELETE FROM s.\"t$files\", s.t a table in a schema")
            .setup("CREATE TABLE s.t (a INT)")
            .attack(l -> l.sql("DELETE FROM s.\"t$files\""))
            .fails("42809", "metadata table"));
    cases.add(
        meta("batch of PreparedStatement INSERT INTO \"t$snapshots\" (snapshot_id) VALUES (?)")
            .attack(
                l -> {
                  try (Connection c = l.connect();
                      PreparedStatement p =
                          c.prepareStatement(
                              "INSERT INTO \"t$snapshots\" (snapshot_id) VALUES (?)")) {
                    p.setLong(1, 1);
                    p.addBatch();
                    p.executeBatch();
                  }
                })
            .fails("42809", "metadata table"));
    cases.add(
        meta("prepareStatement(DELETE FROM \"t$files\" WHERE record_count = ?)")
            .attack(l -> l.prepared("DELETE FROM \"t$files\" WHERE record_count = ?", 1L))
            .fails("42809", "metadata table"));
    cases.add(
        meta("UPDATE \"t$files\" inside an explicit transaction")
            .attack(
                l -> {
                  try (Connection c = l.connect();
                      Statement s = c.createStatement()) {
                    c.setAutoCommit(false);
                    s.executeUpdate("UPDATE \"t$files\" SET record_count = 0");
                    c.commit();
                  }
                })
            .fails("42809", "metadata table"));
    return cases;
  }

  // ---------------------------------------------------------------- arguments

  private static AttackCase argument(String input) {
    return AttackCase.of("arguments", input).setup(T, T_ROWS);
  }

  /** A procedure call on t through a connection with a minimum retention of 1s. */
  private static AttackCase procedure(String call) {
    return argument("ALTER TABLE t EXECUTE " + call)
        .setup("INSERT INTO t VALUES (2, NULL)", "INSERT INTO t VALUES (3, NULL)")
        .attack(
            l ->
                AttackLake.sqlAt(
                    l.url() + "?maintenance.min-retention=1s", "ALTER TABLE t EXECUTE " + call));
  }

  private interface StatementCall {
    void call(Statement s) throws SQLException;
  }

  private static AttackCase jdbc(String description, StatementCall call) {
    return argument(description)
        .attack(
            l -> {
              try (Connection c = l.connect();
                  Statement s = c.createStatement()) {
                call.call(s);
              }
            });
  }

  static List<AttackCase> arguments() {
    List<AttackCase> cases = new ArrayList<>();
    for (String duration :
        List.of("18446744075709551616ns", "213504d", "99999999999999999999d", "9223372036855s")) {
      cases.add(
          procedure("expire_snapshots(retention_threshold => '" + duration + "')")
              .fails("22003", "retention_threshold"));
      cases.add(
          procedure("remove_orphan_files(retention_threshold => '" + duration + "')")
              .fails("22003", "retention_threshold"));
    }
    cases.add(
        procedure("expire_snapshots(retention_threshold => '106751d', dry_run => true)")
            .succeedsWithoutChange(
                l ->
                    assertThat(l.rows("SELECT COUNT(*) FROM \"t$snapshots\""))
                        .containsExactly("3")));
    for (String size : List.of("16777216TB", "8388608TB", "99999999999999999999B", "8192PB")) {
      cases.add(
          procedure("optimize(file_size_threshold => '" + size + "')")
              .fails("22003", "file_size_threshold"));
    }
    cases.add(
        procedure("expire_snapshots(retain_last => 99999999999999999999)")
            .fails("22003", "retain_last"));
    cases.add(
        procedure("rollback_to_snapshot(snapshot_id => 99999999999999999999)")
            .fails("22003", "snapshot_id"));
    cases.add(
        procedure("set_current_snapshot(snapshot_id => -99999999999999999999)")
            .fails("22003", "snapshot_id"));
    cases.add(
        argument("ALTER TABLE t CREATE BRANCH b AS OF VERSION 99999999999999999999")
            .fails("22003"));
    for (String bad : List.of("abc", "-1d", "7 days", "99999999999999999999d", "213504d", "")) {
      cases.add(
          AttackCase.of("arguments", "jdbc:floe:<lake>?maintenance.min-retention=" + bad)
              .attack(
                  l ->
                      DriverManager.getConnection(l.url() + "?maintenance.min-retention=" + bad)
                          .close())
              .fails("22023", "maintenance.min-retention"));
    }
    for (String location : List.of("", "   ", "/", "/**.parquet", "file:/", "file:///")) {
      cases.add(
          argument("ALTER TABLE t EXECUTE add_files(location => '" + location + "')")
              .fails("42602"));
    }
    cases.add(
        argument("ALTER TABLE t EXECUTE add_files(location => '<lake>') (the lake root)")
            .attack(l -> l.sql("ALTER TABLE t EXECUTE add_files(location => '" + l.root + "')"))
            .fails("42602", "lake root"));
    cases.add(
        argument("ALTER TABLE t EXECUTE add_files(location => '<lake>/**.parquet')")
            .attack(
                l ->
                    l.sql(
                        "ALTER TABLE t EXECUTE add_files(location => '" + l.root + "/**.parquet')"))
            .fails("42602", "lake root"));
    cases.add(
        argument("ALTER TABLE t EXECUTE add_files(location => '<lake>/..') (holds the lake)")
            .attack(l -> l.sql("ALTER TABLE t EXECUTE add_files(location => '" + l.root + "/..')"))
            .fails("42602", "lake root"));
    cases.add(argument("UPDATE t SET i = d").fails("42804", "i", "DATE"));
    cases.add(argument("UPDATE t SET d = i").fails("42804", "d", "INTEGER"));
    cases.add(argument("UPDATE t SET i = d WHERE i = 1").fails("42804", "i"));
    cases.add(argument("ALTER TABLE t DROP BRANCH main").fails("42000", "main"));
    cases.add(argument("ALTER TABLE t DROP BRANCH IF EXISTS main").fails("42000", "main"));
    cases.add(argument("SELECT DATE '99999-01-01'").fails("22008", "99999"));
    cases.add(argument("SELECT TIMESTAMP '12345-01-01 00:00:00'").fails("22008", "12345"));
    cases.add(
        argument("SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '12345-01-01 00:00:00'")
            .fails("22008", "12345"));
    cases.add(
        procedure("rollback_to_timestamp(ts => TIMESTAMP '12345-01-01 00:00:00')")
            .fails("22008", "12345"));
    cases.add(
        argument("ALTER TABLE p EXECUTE optimize WHERE d = DATE '99999-01-01'")
            .setup("CREATE TABLE p (id INT, d DATE) PARTITIONED BY (d)")
            .setup("INSERT INTO p VALUES (1, DATE '2024-01-01')")
            .fails("22008", "99999"));
    cases.add(argument("SELECT TIMESTAMP '99999-01-01 00:00:00'").fails("22008", "99999"));
    cases.add(argument("INSERT INTO t (d) VALUES (DATE '99999-01-01')").fails("22008", "99999"));
    cases.add(
        AttackCase.of("arguments", "jdbc:floe:<lake>\\0x (a NUL in the URL)")
            .attack(l -> DriverManager.getConnection(l.url() + "\0x").close())
            .fails("08001"));
    cases.add(
        AttackCase.of("arguments", "jdbc:floe:\\0 (only a NUL)")
            .attack(l -> DriverManager.getConnection("jdbc:floe:\0").close())
            .fails("08001"));
    cases.add(jdbc("Statement.setFetchSize(-1)", s -> s.setFetchSize(-1)).fails("HY024"));
    cases.add(jdbc("Statement.setMaxRows(-1)", s -> s.setMaxRows(-1)).fails("HY024"));
    cases.add(jdbc("Statement.setQueryTimeout(-1)", s -> s.setQueryTimeout(-1)).fails("HY024"));
    cases.add(
        jdbc("Statement.setFetchDirection(12345)", s -> s.setFetchDirection(12345)).fails("HY024"));
    cases.add(
        jdbc(
                "ResultSet.setFetchSize(-1)",
                s -> {
                  try (ResultSet rs = s.executeQuery("SELECT * FROM t")) {
                    rs.setFetchSize(-1);
                  }
                })
            .fails("HY024"));
    cases.add(
        jdbc(
                "PreparedStatement.setFetchSize(-1)",
                s -> {
                  try (PreparedStatement p =
                      s.getConnection().prepareStatement("SELECT * FROM t WHERE i = ?")) {
                    p.setFetchSize(-1);
                  }
                })
            .fails("HY024"));
    cases.add(
        jdbc("Connection.setHoldability(12345)", s -> s.getConnection().setHoldability(12345))
            .fails("HY024"));
    cases.add(
        jdbc(
                "Connection.setNetworkTimeout(null, -1)",
                s -> s.getConnection().setNetworkTimeout(null, -1))
            .fails("HY024"));
    cases.add(
        jdbc(
                "Connection.createStatement(12345, CONCUR_READ_ONLY)",
                s -> s.getConnection().createStatement(12345, ResultSet.CONCUR_READ_ONLY).close())
            .fails("HY024"));
    cases.add(
        jdbc(
                "Connection.prepareStatement(sql, TYPE_FORWARD_ONLY, 999)",
                s ->
                    s.getConnection()
                        .prepareStatement("SELECT * FROM t", ResultSet.TYPE_FORWARD_ONLY, 999)
                        .close())
            .fails("HY024"));
    return cases;
  }

  // ---------------------------------------------------------------- damage

  private static final String[] DAMAGED = {
    "CREATE TABLE t (id INT NOT NULL, name VARCHAR)",
    "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "DELETE FROM t WHERE id = 2"
  };

  private static AttackCase.Step garbleManifestList() {
    return l ->
        garble(
            pathOf(
                ReferenceWriter.load(l.root.resolve("t"))
                    .currentSnapshot()
                    .manifestListLocation()));
  }

  private static AttackCase.Step garbleManifests() {
    return l -> {
      try (Stream<Path> files = Files.list(l.root.resolve("t").resolve("metadata"))) {
        for (Path p :
            files
                .filter(p -> p.toString().endsWith(".avro"))
                .filter(p -> !p.getFileName().toString().startsWith("snap-"))
                .toList()) {
          garble(p);
        }
      }
    };
  }

  /** Runs a statement with a minimum retention of 0s, reading every row of a query. */
  private static AttackCase.Step run(String sql) {
    return l -> {
      if (sql.startsWith("SELECT")) {
        AttackLake.rowsAt(l.url() + MIN0, sql);
      } else {
        AttackLake.sqlAt(l.url() + MIN0, sql);
      }
    };
  }

  static List<AttackCase> damage() {
    List<AttackCase> cases = new ArrayList<>();
    for (String sql :
        List.of(
            "TRUNCATE TABLE t",
            "SELECT COUNT(*) FROM t",
            "SELECT * FROM \"t$files\"",
            "ALTER TABLE t EXECUTE optimize",
            "ALTER TABLE t EXECUTE optimize_manifests",
            "ALTER TABLE t EXECUTE expire_snapshots(retention_threshold => '0s')",
            "ALTER TABLE t EXECUTE remove_orphan_files(retention_threshold => '0s')",
            "INSERT OVERWRITE t SELECT * FROM t",
            "MERGE INTO t USING (SELECT 1 AS id) s ON t.id = s.id"
                + " WHEN MATCHED THEN UPDATE SET name = 'x'")) {
      cases.add(
          AttackCase.of("damage", sql + ", garbled manifest list")
              .setup(DAMAGED)
              .setup(garbleManifestList())
              .attack(run(sql))
              .fails("58030", "snap-"));
      AttackCase manifests =
          AttackCase.of("damage", sql + ", garbled manifests")
              .setup(DAMAGED)
              .setup(garbleManifests())
              .attack(run(sql));
      cases.add(
          sql.endsWith("optimize_manifests")
              // One data manifest: nothing to rewrite, and nothing read.
              ? manifests.succeedsWithoutChange(l -> {})
              : manifests.fails("58030", ".avro"));
    }
    cases.add(
        AttackCase.of("damage", "DROP TABLE t, garbled manifests (a damaged table goes)")
            .setup(DAMAGED)
            .setup(garbleManifests())
            .attack(l -> l.sql("DROP TABLE t"))
            .succeeds(l -> assertThat(l.root.resolve("t")).doesNotExist()));
    cases.add(
        AttackCase.of("damage", "DROP TABLE t PURGE, garbled manifest list (a damaged table goes)")
            .setup(DAMAGED)
            .setup(garbleManifestList())
            .attack(l -> l.sql("DROP TABLE t PURGE"))
            .succeeds(l -> assertThat(l.root.resolve("t")).doesNotExist()));
    return cases;
  }
}
