package dev.floe.jdbc;

import static dev.floe.jdbc.SampleLake.column;
import static dev.floe.jdbc.SampleLake.labels;
import static dev.floe.jdbc.SampleLake.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.storage.FolderCatalog;
import dev.floe.storage.LakeLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What Floe's DatabaseMetaData answers, checked against the lake and against what SQL does. */
class FloeDatabaseMetaDataTest {
  @TempDir Path lake;

  private Connection connection;
  private DatabaseMetaData meta;

  @BeforeEach
  void open() throws SQLException {
    SampleLake.create(lake);
    connection = SampleLake.open(lake);
    meta = connection.getMetaData();
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @Test
  void thereAreNoCatalogs() throws SQLException {
    try (ResultSet rs = meta.getCatalogs()) {
      assertThat(labels(rs)).containsExactly("TABLE_CAT");
      assertThat(rs.next()).isFalse();
    }
    assertThat(connection.getCatalog()).isNull();
    connection.setCatalog("anything");
    assertThat(connection.getCatalog()).isNull();
  }

  @Test
  void schemasAreMainAndEveryFolderPathHoldingTables() throws Exception {
    Files.createDirectories(lake.resolve("empty/deeper"));
    execute("CREATE TABLE deep.a.b.t (x INT)");
    try (ResultSet rs = meta.getSchemas()) {
      assertThat(labels(rs)).containsExactly("TABLE_SCHEM", "TABLE_CATALOG");
      assertThat(column(rs, "TABLE_SCHEM"))
          .containsExactly("main", "deep.a.b", "sales.eu", "sales.us");
    }
    assertThat(column(meta.getSchemas(null, "sales%"), "TABLE_SCHEM"))
        .containsExactly("sales.eu", "sales.us");
    assertThat(column(meta.getSchemas(null, "sales._s"), "TABLE_SCHEM"))
        .containsExactly("sales.us");
    assertThat(column(meta.getSchemas("", "main"), "TABLE_CATALOG")).containsExactly((Object) null);
    assertThat(rows(meta.getSchemas("lake", null))).isEmpty();
  }

  @Test
  void schemaAndTableNamesInPatternsMatchExactlyUnlessWildcards() throws SQLException {
    execute("CREATE TABLE \"a_b\" (x INT)");
    execute("CREATE TABLE \"aXb\" (x INT)");
    // A case twin, as another tool may write one: Floe itself refuses to create it.
    new FolderCatalog(LakeLocation.parse(lake.toString()))
        .newCreateTableTransaction(
            List.of("Orders"),
            new Schema(
                org.apache.iceberg.types.Types.NestedField.optional(
                    1, "x", org.apache.iceberg.types.Types.IntegerType.get())),
            PartitionSpec.unpartitioned(),
            Map.of())
        .commitTransaction();
    assertThat(column(meta.getTables(null, "main", "a_b", null), "TABLE_NAME"))
        .containsExactly("aXb", "a_b");
    assertThat(column(meta.getTables(null, "main", "a\\_b", null), "TABLE_NAME"))
        .containsExactly("a_b");
    assertThat(column(meta.getTables(null, "main", "%rders", null), "TABLE_NAME"))
        .containsExactly("Orders", "orders");
    assertThat(column(meta.getTables(null, "main", "orders", null), "TABLE_NAME"))
        .containsExactly("orders");
    assertThat(column(meta.getTables(null, "sales_eu", "%", null), "TABLE_NAME"))
        .containsExactly("customers");
    assertThat(column(meta.getTables(null, "sales\\_eu", "%", null), "TABLE_NAME")).isEmpty();
    assertThat(column(meta.getTables(null, "sales.eu", "%", null), "TABLE_NAME"))
        .containsExactly("customers");
  }

  @Test
  void tablesAreFilteredByCatalogAndType() throws SQLException {
    assertThat(column(meta.getTables(null, null, "%", null), "TABLE_NAME"))
        .containsExactly("orders", "customers", "customers");
    assertThat(column(meta.getTables("", null, "%", null), "TABLE_NAME")).hasSize(3);
    assertThat(rows(meta.getTables("lake", null, "%", null))).isEmpty();
    assertThat(rows(meta.getTables(null, null, "%", new String[] {"TABLE"}))).hasSize(3);
    assertThat(rows(meta.getTables(null, null, "%", new String[] {"VIEW", "SYSTEM TABLE"})))
        .isEmpty();
    try (ResultSet rs = meta.getTables(null, null, "%", null)) {
      assertThat(labels(rs))
          .containsExactly(
              "TABLE_CAT",
              "TABLE_SCHEM",
              "TABLE_NAME",
              "TABLE_TYPE",
              "REMARKS",
              "TYPE_CAT",
              "TYPE_SCHEM",
              "TYPE_NAME",
              "SELF_REFERENCING_COL_NAME",
              "REF_GENERATION");
    }
  }

  @Test
  void columnsDescribeEveryIcebergTypeAsDesignSectionFourMapsIt() throws SQLException {
    execute(
        "CREATE TABLE every ("
            + " b BOOLEAN, i INT, l BIGINT, r REAL, d DOUBLE, dec DECIMAL(38, 10), dt DATE,"
            + " tm TIME, ts TIMESTAMP, tz TIMESTAMP WITH LOCAL TIME ZONE, v VARCHAR, u UUID,"
            + " f BINARY(16), vb VARBINARY, arr ARRAY<INT>, m MAP<VARCHAR, BIGINT>,"
            + " st STRUCT<x: INT NOT NULL, y: VARCHAR>)");
    execute(
        "CREATE TABLE nanos (ts TIMESTAMP(9), tz TIMESTAMP(9) WITH LOCAL TIME ZONE)"
            + " WITH ('format-version' = '3')");
    List<String> described = new ArrayList<>();
    for (String table : List.of("every", "nanos")) {
      for (Map<String, Object> c : rows(meta.getColumns(null, "main", table, "%"))) {
        described.add(
            c.get("COLUMN_NAME")
                + " "
                + c.get("DATA_TYPE")
                + " "
                + c.get("TYPE_NAME")
                + " "
                + c.get("COLUMN_SIZE")
                + " "
                + c.get("DECIMAL_DIGITS")
                + " "
                + c.get("NUM_PREC_RADIX")
                + " "
                + c.get("CHAR_OCTET_LENGTH"));
      }
    }
    assertThat(described)
        .containsExactly(
            "b 16 BOOLEAN 1 null null null",
            "i 4 INTEGER 10 0 10 null",
            "l -5 BIGINT 19 0 10 null",
            "r 7 REAL 7 null 10 null",
            "d 8 DOUBLE 15 null 10 null",
            "dec 3 DECIMAL 38 10 10 null",
            "dt 91 DATE 10 null null null",
            "tm 92 TIME 15 6 null null",
            "ts 93 TIMESTAMP 26 6 null null",
            "tz 93 TIMESTAMP WITH LOCAL TIME ZONE 26 6 null null",
            "v 12 VARCHAR null null null null",
            "u 1111 UUID 36 null null null",
            "f -2 BINARY 16 null null 16",
            "vb -3 VARBINARY null null null null",
            "arr 2003 ARRAY<INTEGER> null null null null",
            "m 1111 MAP<VARCHAR, BIGINT> null null null null",
            "st 2002 STRUCT<x: INTEGER NOT NULL, y: VARCHAR> null null null null",
            "ts 93 TIMESTAMP 29 9 null null",
            "tz 93 TIMESTAMP WITH LOCAL TIME ZONE 29 9 null null");
  }

  @Test
  void columnsCarryNullabilityDocsAndPositionsFromTheIcebergSchema() throws SQLException {
    List<Map<String, Object>> columns = rows(meta.getColumns(null, "sales.eu", "customers", "%"));
    assertThat(columns.get(1))
        .containsEntry("TABLE_CAT", null)
        .containsEntry("TABLE_SCHEM", "sales.eu")
        .containsEntry("TABLE_NAME", "customers")
        .containsEntry("COLUMN_NAME", "name")
        .containsEntry("NULLABLE", DatabaseMetaData.columnNoNulls)
        .containsEntry("IS_NULLABLE", "NO")
        .containsEntry("REMARKS", "x")
        .containsEntry("COLUMN_DEF", null)
        .containsEntry("ORDINAL_POSITION", 2)
        .containsEntry("IS_AUTOINCREMENT", "NO")
        .containsEntry("IS_GENERATEDCOLUMN", "NO");
    assertThat(columns.get(2))
        .containsEntry("COLUMN_NAME", "since")
        .containsEntry("NULLABLE", DatabaseMetaData.columnNullable)
        .containsEntry("IS_NULLABLE", "YES")
        .containsEntry("REMARKS", null);
    assertThat(column(meta.getColumns(null, "sales.eu", "customers", "%s"), "COLUMN_NAME"))
        .containsExactly("tags", "address", "prefs");
    assertThat(column(meta.getColumns(null, "sales.eu", "customers", "%s"), "ORDINAL_POSITION"))
        .containsExactly(7, 8, 9);
    assertThat(column(meta.getColumns(null, "sales%", "customers", "id"), "TABLE_SCHEM"))
        .containsExactly("sales.eu", "sales.us");
  }

  @Test
  void columnsFollowSchemaChanges() throws SQLException {
    execute("ALTER TABLE orders ADD COLUMN shipped BOOLEAN");
    execute("ALTER TABLE orders DROP COLUMN note");
    assertThat(column(meta.getColumns(null, "main", "orders", "%"), "COLUMN_NAME"))
        .containsExactly("id", "amount", "placed", "placed_utc", "day", "shipped");
  }

  @Test
  void primaryKeysAreTheIcebergIdentifierFields() throws SQLException {
    execute("CREATE TABLE pairs (b INT NOT NULL, a VARCHAR NOT NULL, v DOUBLE)");
    connection
        .unwrap(FloeConnection.class)
        .session()
        .catalog()
        .loadTable(List.of("pairs"))
        .updateSchema()
        .setIdentifierFields("b", "a")
        .commit();
    List<Map<String, Object>> keys = rows(meta.getPrimaryKeys(null, "main", "pairs"));
    assertThat(column(keys, "COLUMN_NAME")).containsExactly("a", "b");
    assertThat(column(keys, "KEY_SEQ")).containsExactly((short) 2, (short) 1);
    assertThat(column(rows(meta.getPrimaryKeys(null, null, "orders")), "COLUMN_NAME"))
        .containsExactly("id");
    assertThat(rows(meta.getPrimaryKeys(null, "main", "nope"))).isEmpty();
    assertThat(rows(meta.getPrimaryKeys("lake", "main", "orders"))).isEmpty();
    assertThat(rows(meta.getPrimaryKeys(null, "main", "order_"))).isEmpty();
  }

  @Test
  void foreignKeysIndexesAndProceduresAreEmptyWithTheirJdbcColumns() throws SQLException {
    List<ResultSet> empty =
        List.of(
            meta.getImportedKeys(null, "main", "orders"),
            meta.getExportedKeys(null, "main", "orders"),
            meta.getCrossReference(null, "main", "orders", null, "main", "orders"),
            meta.getIndexInfo(null, "main", "orders", true, false),
            meta.getProcedures(null, null, "%"),
            meta.getProcedureColumns(null, null, "%", "%"),
            meta.getFunctions(null, "main", "%"),
            meta.getFunctionColumns(null, null, "%", "%"),
            meta.getBestRowIdentifier(null, "main", "orders", 0, true),
            meta.getVersionColumns(null, "main", "orders"),
            meta.getTablePrivileges(null, null, "%"),
            meta.getColumnPrivileges(null, "main", "orders", "%"),
            meta.getUDTs(null, null, "%", null),
            meta.getSuperTypes(null, null, "%"),
            meta.getSuperTables(null, null, "%"),
            meta.getAttributes(null, null, "%", "%"),
            meta.getPseudoColumns(null, null, "%", "%"),
            meta.getClientInfoProperties());
    for (ResultSet rs : empty) {
      assertThat(rs.getMetaData().getColumnCount()).isPositive();
      assertThat(rs.next()).isFalse();
      assertThat(rs.getStatement()).isNull();
      rs.close();
    }
    try (ResultSet rs = meta.getIndexInfo(null, "main", "orders", true, false)) {
      assertThat(labels(rs))
          .containsExactly(
              "TABLE_CAT",
              "TABLE_SCHEM",
              "TABLE_NAME",
              "NON_UNIQUE",
              "INDEX_QUALIFIER",
              "INDEX_NAME",
              "TYPE",
              "ORDINAL_POSITION",
              "COLUMN_NAME",
              "ASC_OR_DESC",
              "CARDINALITY",
              "PAGES",
              "FILTER_CONDITION");
      assertThat(rs.getMetaData().getColumnType(4)).isEqualTo(Types.BOOLEAN);
      assertThat(rs.getMetaData().getColumnType(7)).isEqualTo(Types.SMALLINT);
    }
  }

  @Test
  void typeInfoListsEveryTypeAColumnCanHaveAndFloeCanCreate() throws SQLException {
    List<Map<String, Object>> types = rows(meta.getTypeInfo());
    List<Object> names = column(types, "TYPE_NAME");
    List<Object> codes = column(types, "DATA_TYPE");
    List<Object> sorted = new ArrayList<>(codes);
    sorted.sort((a, b) -> Integer.compare((Integer) a, (Integer) b));
    assertThat(codes).isEqualTo(sorted);
    for (Object name : names) {
      if (!List.of("ARRAY", "MAP", "STRUCT").contains(name)) {
        execute("CREATE TABLE \"t " + name + "\" (c " + name + ")");
      }
    }
    execute("CREATE TABLE t_complex (a ARRAY<INT>, m MAP<VARCHAR, INT>, s STRUCT<x: INT>)");
    for (Map<String, Object> c : rows(meta.getColumns(null, "main", "t %", "c"))) {
      assertThat(names).contains(c.get("TYPE_NAME"));
    }
    Map<String, Object> decimal = types.get(names.indexOf("DECIMAL"));
    assertThat(decimal)
        .containsEntry("PRECISION", 38)
        .containsEntry("CREATE_PARAMS", "precision,scale")
        .containsEntry("MAXIMUM_SCALE", (short) 38)
        .containsEntry("NULLABLE", (short) DatabaseMetaData.typeNullable);
    assertThat(types.get(names.indexOf("VARCHAR")))
        .containsEntry("CASE_SENSITIVE", true)
        .containsEntry("SEARCHABLE", (short) DatabaseMetaData.typeSearchable)
        .containsEntry("LITERAL_PREFIX", "'");
  }

  @Test
  void everyListedFunctionRunsThroughTheJdbcEscape() throws SQLException {
    Map<String, String> arguments =
        Map.ofEntries(
            Map.entry("ATAN2", "1, 2"),
            Map.entry("MOD", "7, 3"),
            Map.entry("POWER", "2, 3"),
            Map.entry("ROUND", "1.55, 1"),
            Map.entry("TRUNCATE", "1.55, 1"),
            Map.entry("PI", ""),
            Map.entry("RAND", ""),
            Map.entry("ASCII", "'a'"),
            Map.entry("CHAR", "65"),
            Map.entry("CONCAT", "'a', 'b'"),
            Map.entry("DIFFERENCE", "'a', 'b'"),
            Map.entry("INSERT", "'abc', 2, 1, 'x'"),
            Map.entry("LCASE", "'A'"),
            Map.entry("LEFT", "'abc', 2"),
            Map.entry("LENGTH", "'abc'"),
            Map.entry("LOCATE", "'b', 'abc'"),
            Map.entry("LTRIM", "' a'"),
            Map.entry("REPEAT", "'a', 3"),
            Map.entry("REPLACE", "'abc', 'b', 'x'"),
            Map.entry("RIGHT", "'abc', 2"),
            Map.entry("RTRIM", "'a '"),
            Map.entry("SOUNDEX", "'abc'"),
            Map.entry("SPACE", "3"),
            Map.entry("SUBSTRING", "'abc', 2, 1"),
            Map.entry("UCASE", "'a'"),
            Map.entry("CONVERT", "'1', SQL_INTEGER"),
            Map.entry("DATABASE", ""),
            Map.entry("IFNULL", "NULL, 1"),
            Map.entry("USER", ""),
            Map.entry("CURDATE", ""),
            Map.entry("CURTIME", ""),
            Map.entry("NOW", ""),
            Map.entry("TIMESTAMPADD", "SQL_TSI_DAY, 1, TIMESTAMP '2024-01-01 10:00:00'"),
            Map.entry(
                "TIMESTAMPDIFF",
                "SQL_TSI_DAY, TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-01-03 10:00:00'"),
            Map.entry("TO_DATE", "'2024-01-01', 'YYYY-MM-DD'"),
            Map.entry("TO_TIMESTAMP", "'2024-01-01 10:00:00', 'YYYY-MM-DD HH24:MI:SS'"));
    List<String> functions = new ArrayList<>();
    for (String list :
        List.of(
            meta.getNumericFunctions(),
            meta.getStringFunctions(),
            meta.getSystemFunctions(),
            meta.getTimeDateFunctions())) {
      functions.addAll(Arrays.asList(list.split(",")));
    }
    assertThat(functions).hasSize(66).doesNotHaveDuplicates();
    try (Statement s = connection.createStatement()) {
      for (String function : functions) {
        String args = arguments.getOrDefault(function, numericOrDateArgument(function));
        try (ResultSet rs = s.executeQuery("SELECT {fn " + function + "(" + args + ")}")) {
          assertThat(rs.next()).as(function).isTrue();
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT {fn LCASE('AbC')}, {fn IFNULL(NULL, 5)}")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("abc");
        assertThat(rs.getInt(2)).isEqualTo(5);
      }
    }
  }

  private static String numericOrDateArgument(String function) {
    return List.of(
                "DAYNAME",
                "DAYOFMONTH",
                "DAYOFWEEK",
                "DAYOFYEAR",
                "MONTH",
                "MONTHNAME",
                "QUARTER",
                "WEEK",
                "YEAR")
            .contains(function)
        ? "DATE '2024-01-01'"
        : List.of("HOUR", "MINUTE", "SECOND").contains(function)
            ? "TIMESTAMP '2024-01-01 10:20:30'"
            : "0.5";
  }

  @Test
  void flagsTellWhatFloesSqlDoes() throws SQLException {
    assertThat(meta.nullsAreSortedHigh()).isTrue();
    assertThat(column(query("SELECT note FROM orders ORDER BY note"), "note"))
        .containsExactly("first", "third", null);
    assertThat(column(query("SELECT note FROM orders ORDER BY note DESC"), "note"))
        .containsExactly(null, "third", "first");
    assertThat(meta.supportsLikeEscapeClause()).isTrue();
    assertThat(query("SELECT id FROM orders WHERE note LIKE 'fir!_t' ESCAPE '!'")).isEmpty();
    assertThat(meta.supportsSubqueriesInQuantifieds()).isTrue();
    assertThat(query("SELECT id FROM orders WHERE id >= ALL (SELECT id FROM orders)")).hasSize(1);
    assertThat(meta.supportsFullOuterJoins()).isTrue();
    assertThat(
            query("SELECT o.id FROM orders o FULL OUTER JOIN sales.eu.customers c ON o.id = c.id"))
        .hasSize(4);
    assertThat(meta.supportsDifferentTableCorrelationNames()).isFalse();
    assertThat(query("SELECT orders.id FROM orders AS orders")).hasSize(3);
    assertThat(meta.supportsAlterTableWithAddColumn()).isTrue();
    assertThat(meta.supportsAlterTableWithDropColumn()).isTrue();
    assertThat(meta.supportsConvert()).isTrue();
    assertThat(meta.supportsConvert(Types.VARCHAR, Types.INTEGER)).isTrue();
    assertThat(meta.supportsConvert(Types.INTEGER, Types.DATE)).isFalse();
    assertThat(meta.supportsStoredProcedures()).isFalse();
    assertThat(meta.supportsStoredFunctionsUsingCallSyntax()).isFalse();
    assertThat(meta.supportsANSI92EntryLevelSQL()).isTrue();
    assertThat(meta.supportsANSI92FullSQL()).isFalse();
    assertThat(meta.usesLocalFiles()).isTrue();
    assertThat(meta.usesLocalFilePerTable()).isFalse();
    assertThat(meta.supportsGetGeneratedKeys()).isFalse();
    assertThat(meta.supportsNamedParameters()).isFalse();
    assertThat(meta.dataDefinitionCausesTransactionCommit()).isTrue();
    assertThat(meta.supportsDataDefinitionAndDataManipulationTransactions()).isFalse();
    assertThat(meta.getDefaultTransactionIsolation())
        .isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
  }

  @Test
  void savepointsAndUpdatableOrScrollSensitiveResultSetsAreNotSupported() throws SQLException {
    assertThat(meta.supportsSavepoints()).isFalse();
    connection.setAutoCommit(false);
    assertThatThrownBy(connection::setSavepoint)
        .isInstanceOf(SQLFeatureNotSupportedException.class)
        .hasFieldOrPropertyWithValue("SQLState", "0A000");
    assertThat(meta.supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY)).isTrue();
    assertThat(meta.supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE)).isTrue();
    assertThat(meta.supportsResultSetType(ResultSet.TYPE_SCROLL_SENSITIVE)).isFalse();
    assertThat(
            meta.supportsResultSetConcurrency(
                ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE))
        .isFalse();
    assertThat((Object) connection.getWarnings()).isNull();
    try (Statement s =
            connection.createStatement(
                ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE);
        ResultSet rs = s.executeQuery("SELECT id FROM orders")) {
      assertThat(connection.getWarnings().getSQLState()).isEqualTo("01000");
      assertThat(connection.getWarnings().getMessage()).contains("read-only");
      assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
      assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
      assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
      rs.next();
      assertThat(rs.previous()).isFalse();
      assertThat(rs.isBeforeFirst()).isTrue();
      assertThatThrownBy(() -> rs.updateLong(1, 5))
          .isInstanceOf(SQLFeatureNotSupportedException.class)
          .hasFieldOrPropertyWithValue("SQLState", "0A000");
    }
    connection.clearWarnings();
    assertThat((Object) connection.getWarnings()).isNull();
  }

  @Test
  void theUrlNeverShowsSecrets() throws SQLException {
    Properties info = new Properties();
    info.setProperty("s3.secret-access-key", "very-secret");
    info.setProperty("s3.access-key-id", "AKIA-secret");
    try (Connection c =
        DriverManager.getConnection(
            "jdbc:floe:" + lake + "?timeZone=Europe/Paris&s3.session-token=token-secret", info)) {
      String url = c.getMetaData().getURL();
      assertThat(url)
          .startsWith("jdbc:floe:file:")
          .contains("timeZone=Europe/Paris")
          .doesNotContain("secret")
          .doesNotContain("token");
      assertThat(c.getMetaData().getUserName()).isEmpty();
    }
  }

  @Test
  void propertyInfoListsEveryConnectionPropertyWithItsDefault() throws SQLException {
    Driver driver = DriverManager.getDriver("jdbc:floe:" + lake);
    DriverPropertyInfo[] info = driver.getPropertyInfo("jdbc:floe:" + lake, new Properties());
    assertThat(info).hasSize(dev.floe.config.FloeProperty.values().length);
    assertThat(Arrays.stream(info).map(p -> p.name))
        .contains("timeZone", "readOnly", "create", "s3.secret-access-key");
    DriverPropertyInfo timeZone =
        Arrays.stream(info).filter(p -> p.name.equals("timeZone")).findFirst().orElseThrow();
    assertThat(timeZone.value).isEqualTo("UTC");
    assertThat(timeZone.description).isNotBlank();
    DriverPropertyInfo fromUrl =
        Arrays.stream(
                driver.getPropertyInfo(
                    "jdbc:floe:" + lake + "?timeZone=Asia/Tokyo", new Properties()))
            .filter(p -> p.name.equals("timeZone"))
            .findFirst()
            .orElseThrow();
    assertThat(fromUrl.value).isEqualTo("Asia/Tokyo");
  }

  private void execute(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
  }

  private List<Map<String, Object>> query(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      return rows(s.executeQuery(sql));
    }
  }
}
