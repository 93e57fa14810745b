package dev.floe.tck.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * One history's two databases: a fresh lake opened through Floe's JDBC driver (three connections:
 * the default one, one reading with a single scan thread and row-by-row results, one with many scan
 * threads) and an in-memory DuckDB holding the reference rows. It runs steps on both, remembers
 * which snapshot (Floe) and which copy of the reference table (DuckDB) each step left, and reads
 * query answers from both in canonical form.
 */
final class Runner implements AutoCloseable {
  private static final HadoopTables TABLES = new HadoopTables(new Configuration());

  final Path lake;
  final Connection floe;
  final Connection floeSingle;
  final Connection floeMany;
  final Connection duck;

  /**
   * The snapshot each version-making step left, by the step's label (a shrunk history replaces a
   * step by a smaller one of the same label).
   */
  private final Map<String, Long> snapshots = new HashMap<>();

  private final Map<String, String> copies = new HashMap<>();
  private final Map<String, Schema> schemas = new HashMap<>();
  private final Map<Long, Step> stepOfSnapshot = new LinkedHashMap<>();
  private int copyCount;

  /** Statements Floe ran, queries compared. */
  long floeStatements;

  final Ast.Render floeRender =
      new Ast.Render() {
        @Override
        public Dialect dialect() {
          return Dialect.FLOE;
        }

        @Override
        public String snapshotOf(Step step) {
          Long id = snapshots.get(step.label());
          if (id == null) {
            throw new VersionMissing(step);
          }
          return Long.toString(id);
        }

        @Override
        public String copyOf(Step step) {
          return Runner.this.copyOf(step);
        }
      };

  final Ast.Render duckRender =
      new Ast.Render() {
        @Override
        public Dialect dialect() {
          return Dialect.DUCK;
        }

        @Override
        public String snapshotOf(Step step) {
          return floeRender.snapshotOf(step);
        }

        @Override
        public String copyOf(Step step) {
          return Runner.this.copyOf(step);
        }
      };

  /** A step that a query or rollback names made no version in this replay of the history. */
  static final class VersionMissing extends RuntimeException {
    private static final long serialVersionUID = 1L;

    VersionMissing(Step step) {
      super("No version of step " + step.label());
    }
  }

  /** The memory budget of the third connection, small enough that its hash joins spill. */
  static final String SPILL_BUDGET = System.getProperty("fuzz.memoryBudget", "16KB");

  Runner(Path lake) throws SQLException {
    this.lake = lake;
    String url = "jdbc:floe:" + lake + "?create=true&maintenance.min-retention=0s";
    this.floe = DriverManager.getConnection(url);
    this.floeSingle = DriverManager.getConnection(url + "&scanThreads=1&columnarResults=false");
    // Five scan threads, and a memory budget so small that a hash join whose build side holds
    // more than about a hundred rows spills to disk and joins a partition at a time.
    this.floeMany =
        DriverManager.getConnection(url + "&scanThreads=5&memoryBudget=" + SPILL_BUDGET);
    this.duck = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = duck.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
      s.execute("SET threads = 1");
    }
  }

  /** The DuckDB table holding the rows of the version step {@code step} made. */
  String copyOf(Step step) {
    String copy = copies.get(step.label());
    if (copy == null) {
      throw new VersionMissing(step);
    }
    return copy;
  }

  /** The Iceberg schema of the version a step made. */
  Schema schemaOf(Step step) {
    Schema schema = schemas.get(step.label());
    if (schema == null) {
      throw new VersionMissing(step);
    }
    return schema;
  }

  /** Iceberg's own view of the table (HadoopTables, sharing nothing with Floe). */
  Table iceberg() {
    return TABLES.load("file:" + lake.resolve(TableModel.TABLE));
  }

  /**
   * After a step: if the table's current snapshot is new, records it as the step's version and
   * keeps a copy of the reference rows for reading it later.
   */
  void recordVersion(Step step) throws SQLException {
    Table table = iceberg();
    Snapshot current = table.currentSnapshot();
    if (current == null || stepOfSnapshot.containsKey(current.snapshotId())) {
      return;
    }
    String copy = "v" + copyCount++;
    duckExecute("CREATE TABLE " + copy + " AS SELECT * FROM " + TableModel.TABLE);
    snapshots.put(step.label(), current.snapshotId());
    copies.put(step.label(), copy);
    schemas.put(step.label(), table.schema());
    stepOfSnapshot.put(current.snapshotId(), step);
  }

  /** The steps whose versions Floe can still read, oldest first. */
  List<Step> readableVersions() {
    Table table = iceberg();
    List<Step> result = new ArrayList<>();
    for (Map.Entry<Long, Step> e : stepOfSnapshot.entrySet()) {
      if (table.snapshot(e.getKey()) != null) {
        result.add(e.getValue());
      }
    }
    return result;
  }

  /** The steps whose versions are ancestors of the current snapshot, other than the current. */
  List<Step> ancestorVersions() {
    Table table = iceberg();
    Snapshot current = table.currentSnapshot();
    List<Step> result = new ArrayList<>();
    if (current == null) {
      return result;
    }
    Set<Long> ancestors = Set.copyOf(SnapshotUtil.ancestorIds(current, table::snapshot));
    for (Map.Entry<Long, Step> e : stepOfSnapshot.entrySet()) {
      if (e.getKey() != current.snapshotId() && ancestors.contains(e.getKey())) {
        result.add(e.getValue());
      }
    }
    return result;
  }

  /** Runs a statement on Floe's default connection. */
  boolean floeExecute(String sql) throws SQLException {
    floeStatements++;
    try (Statement s = floe.createStatement()) {
      return s.execute(sql);
    }
  }

  /** Runs an update on Floe's default connection and returns its count. */
  long floeUpdate(String sql) throws SQLException {
    floeStatements++;
    try (Statement s = floe.createStatement()) {
      s.execute(sql);
      return s.getLargeUpdateCount();
    }
  }

  void duckExecute(String sql) throws SQLException {
    try (Statement s = duck.createStatement()) {
      s.execute(sql);
    }
  }

  long duckUpdate(String sql) throws SQLException {
    try (Statement s = duck.createStatement()) {
      s.execute(sql);
      return s.getUpdateCount();
    }
  }

  /** The canonical rows of a query on one of Floe's connections. */
  List<List<Object>> floeRows(Connection c, String sql, List<ColumnType> types)
      throws SQLException {
    floeStatements++;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        List<Object> row = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
          row.add(Values.readFloe(rs, i + 1, types.get(i)));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  /** The canonical rows of a query on DuckDB. */
  List<List<Object>> duckRows(String sql, List<ColumnType> types) throws SQLException {
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        List<Object> row = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
          row.add(Values.readDuck(rs, i + 1, types.get(i)));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  /** DuckDB's rows as Iceberg's generic records hold values, with each row's rowid first. */
  List<Object[]> duckRawRows(String sql, List<ColumnType> types) throws SQLException {
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<Object[]> rows = new ArrayList<>();
      while (rs.next()) {
        Object[] row = new Object[types.size() + 1];
        row[0] = rs.getLong(1);
        for (int i = 0; i < types.size(); i++) {
          row[i + 1] = raw(rs, i + 2, types.get(i));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  private static Object raw(ResultSet rs, int column, ColumnType type) throws SQLException {
    Object v;
    switch (type.kind()) {
      case FIXED:
        return rs.getBytes(column);
      case BINARY:
        {
          byte[] b = rs.getBytes(column);
          return b == null ? null : ByteBuffer.wrap(b);
        }
      case TIMESTAMP:
      case TIMESTAMP_NS:
        return rs.getObject(column, LocalDateTime.class);
      case TIMESTAMPTZ_NS:
        {
          LocalDateTime t = rs.getObject(column, LocalDateTime.class);
          return t == null ? null : t.atOffset(ZoneOffset.UTC);
        }
      case TIMESTAMPTZ:
        v = rs.getObject(column);
        return v == null ? null : ((OffsetDateTime) v).withOffsetSameInstant(ZoneOffset.UTC);
      case INT:
        v = rs.getObject(column);
        return v == null ? null : ((Number) v).intValue();
      case BIGINT:
        v = rs.getObject(column);
        return v == null ? null : ((Number) v).longValue();
      case REAL:
        v = rs.getObject(column);
        return v == null ? null : ((Number) v).floatValue();
      case DOUBLE:
        v = rs.getObject(column);
        return v == null ? null : ((Number) v).doubleValue();
      case DECIMAL:
        return rs.getBigDecimal(column);
      case VARCHAR:
        return rs.getString(column);
      default:
        return rs.getObject(column);
    }
  }

  /** The types of the table's current columns, as Iceberg reports them. */
  List<ColumnType> tableTypes() {
    return tableTypes(iceberg().schema());
  }

  static List<ColumnType> tableTypes(Schema schema) {
    return schema.columns().stream().map(f -> ColumnType.ofIceberg(f.type())).toList();
  }

  /** Every row of the table's current snapshot as Iceberg's generic reader returns it. */
  List<List<Object>> icebergRows() {
    Table table = iceberg();
    Schema schema = table.schema();
    List<ColumnType> types = tableTypes(schema);
    List<List<Object>> rows = new ArrayList<>();
    if (table.currentSnapshot() == null) {
      return rows;
    }
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<Object> row = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
          row.add(Values.readIceberg(record.get(i), types.get(i)));
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** The names of the table's current columns. */
  List<String> columnNames() {
    return iceberg().schema().columns().stream().map(Types.NestedField::name).toList();
  }

  /** A DuckDB select list projecting a copy of schema {@code from} onto schema {@code to}. */
  static String project(Schema from, Schema to) {
    List<String> items = new ArrayList<>();
    for (Types.NestedField field : to.columns()) {
      Types.NestedField old = from.findField(field.fieldId());
      String type = ColumnType.ofIceberg(field.type()).duckDdl();
      items.add(
          (old == null
                  ? "CAST(NULL AS " + type + ")"
                  : "CAST(\"" + old.name() + "\" AS " + type + ")")
              + " AS \""
              + field.name()
              + "\"");
    }
    return String.join(", ", items);
  }

  @Override
  public void close() {
    for (Connection c : List.of(floe, floeSingle, floeMany, duck)) {
      try {
        c.close();
      } catch (SQLException e) {
        // closing after a failure; the failure is what the run reports
      }
    }
    try (Stream<Path> walk = Files.walk(lake)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // the lake lives under a temporary folder
    }
  }
}
