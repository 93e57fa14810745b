package dev.floe.jdbc;

import static dev.floe.jdbc.SampleLake.column;
import static dev.floe.jdbc.SampleLake.labels;
import static dev.floe.jdbc.SampleLake.rows;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays the JDBC calls DBeaver's generic driver support makes, in its order, against a lake made
 * through the driver ({@link SampleLake}), and checks the answers DBeaver builds its UI from.
 *
 * <p>The sequence comes from DBeaver's public source (plugins {@code org.jkiss.dbeaver.model.jdbc}
 * and {@code org.jkiss.dbeaver.ext.generic}): {@code JDBCExecutionContext.connect} (read-only,
 * isolation, auto-commit), {@code JDBCDataSource.initialize} with {@code
 * JDBCSQLDialect.initDriverSettings} and {@code JDBCDataSourceInfo} (dialect and product), {@code
 * GenericDataSource.initialize} and {@code JDBCBasicDataTypeCache} (types, catalogs, then schemas
 * through {@code GenericMetaModel.loadSchemas}), {@code
 * GenericExecutionContext.determineSelectedEntity} (current schema), {@code
 * GenericMetaModel.prepareTableLoadStatement}, {@code loadProcedures}, {@code
 * prepareTableColumnLoadStatement}, {@code prepareUniqueConstraintsLoadStatement}, {@code
 * prepareForeignKeysLoadStatement}, {@code IndexCache}, {@code
 * GenericTableBase.loadReferenceInfoList} (the navigator tree and table editor), {@code
 * AbstractSQLDialect.getColumnTypeModifiers} with {@code DBStructUtils.generateTableDDL} (the DDL
 * tab), and {@code JDBCTable.readData}/{@code countData}, {@code DBUtils.makeStatement}, {@code
 * JDBCStatementImpl.setLimit} and {@code JDBCColumnMetaData} (the data tab).
 */
class DbeaverMetadataReplayTest {
  @TempDir Path lake;

  private Connection connection;
  private DatabaseMetaData meta;

  @BeforeEach
  void connectAsDbeaverDoes() throws SQLException {
    SampleLake.create(lake);
    connection = SampleLake.open(lake);
    connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    connection.setAutoCommit(true);
    meta = connection.getMetaData();
  }

  @org.junit.jupiter.api.AfterEach
  void disconnect() throws SQLException {
    if (!connection.getAutoCommit()) {
      connection.rollback();
    }
    connection.close();
    assertThat(connection.isValid(1)).isFalse();
  }

  @Test
  void connectingReadsTheDialectProductAndTransactionSupport() throws SQLException {
    assertThat(connection.getAutoCommit()).isTrue();
    assertThat(connection.getTransactionIsolation())
        .isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
    // JDBCDataSource.readDatabaseServerVersion
    assertThat(meta.getDatabaseMajorVersion()).isZero();
    assertThat(meta.getDatabaseMinorVersion()).isEqualTo(1);
    // JDBCSQLDialect.initDriverSettings
    assertThat(meta.getIdentifierQuoteString()).isEqualTo("\"");
    assertThat(meta.getSQLStateType()).isEqualTo(DatabaseMetaData.sqlStateSQL);
    assertThat(meta.supportsCorrelatedSubqueries()).isTrue();
    assertThat(meta.supportsSubqueriesInComparisons()).isTrue();
    assertThat(meta.supportsSubqueriesInExists()).isTrue();
    assertThat(meta.supportsSubqueriesInIns()).isTrue();
    assertThat(meta.supportsSubqueriesInQuantifieds()).isTrue();
    assertThat(meta.supportsMixedCaseIdentifiers()).isFalse();
    assertThat(meta.supportsMixedCaseQuotedIdentifiers()).isFalse();
    assertThat(meta.storesUpperCaseIdentifiers()).isFalse();
    assertThat(meta.storesLowerCaseIdentifiers()).isFalse();
    assertThat(meta.storesUpperCaseQuotedIdentifiers()).isFalse();
    assertThat(meta.storesLowerCaseQuotedIdentifiers()).isFalse();
    assertThat(meta.getSearchStringEscape()).isEqualTo("\\");
    assertThat(meta.getCatalogSeparator()).isEmpty();
    assertThat(meta.supportsCatalogsInDataManipulation()).isFalse();
    assertThat(meta.supportsCatalogsInTableDefinitions()).isFalse();
    assertThat(meta.supportsCatalogsInProcedureCalls()).isFalse();
    assertThat(meta.supportsCatalogsInIndexDefinitions()).isFalse();
    assertThat(meta.supportsCatalogsInPrivilegeDefinitions()).isFalse();
    assertThat(meta.supportsSchemasInDataManipulation()).isTrue();
    assertThat(meta.supportsSchemasInTableDefinitions()).isTrue();
    assertThat(meta.supportsSchemasInProcedureCalls()).isFalse();
    assertThat(meta.supportsSchemasInIndexDefinitions()).isFalse();
    assertThat(meta.supportsSchemasInPrivilegeDefinitions()).isFalse();
    assertThat(meta.getExtraNameCharacters()).isEmpty();
    meta.isCatalogAtStart();
    assertThat(keywords()).contains("LIMIT", "OFFSET").doesNotContain("SELECT");
    assertThat(functions()).contains("ABS", "CONCAT", "IFNULL", "TIMESTAMPADD");
    // JDBCDataSourceInfo
    assertThat(meta.isReadOnly()).isFalse();
    assertThat(meta.getDatabaseProductName()).isEqualTo("Floe");
    assertThat(meta.getDatabaseProductVersion()).isEqualTo("0.1");
    assertThat(meta.getDriverName()).isEqualTo("Floe JDBC driver");
    assertThat(meta.getDriverVersion()).isEqualTo("0.1");
    assertThat(meta.getSchemaTerm()).isEqualTo("schema");
    assertThat(meta.getProcedureTerm()).isEqualTo("procedure");
    assertThat(meta.getCatalogTerm()).isEqualTo("catalog");
    assertThat(meta.supportsBatchUpdates()).isTrue();
    assertThat(meta.supportsTransactions()).isTrue();
    List<Integer> isolations = new ArrayList<>();
    for (int level : new int[] {0, 1, 2, 4, 8}) {
      if (meta.supportsTransactionIsolationLevel(level)) {
        isolations.add(level);
      }
    }
    assertThat(isolations)
        .containsExactly(
            Connection.TRANSACTION_REPEATABLE_READ, Connection.TRANSACTION_SERIALIZABLE);
    // GenericDataSource.initialize: the type cache, then catalogs, then schemas
    assertThat(column(meta.getTypeInfo(), "TYPE_NAME"))
        .contains("BIGINT", "DECIMAL", "TIMESTAMP", "TIMESTAMP WITH LOCAL TIME ZONE", "VARCHAR");
    assertThat(rows(meta.getCatalogs())).isEmpty();
    assertThat(column(meta.getSchemas(null, "%"), "TABLE_SCHEM"))
        .containsExactly("main", "sales.eu", "sales.us");
    // GenericExecutionContext.determineSelectedEntity, then initDefaultsFrom
    assertThat(connection.getCatalog()).isNull();
    assertThat(connection.getSchema()).isEqualTo("main");
    connection.setSchema("main");
    assertThat(connection.isValid(5)).isTrue();
    assertThat((Object) connection.getWarnings()).isNull();
  }

  @Test
  void expandingTheNavigatorListsTablesOfEverySchemaAndNoProcedures() throws SQLException {
    Map<String, Object> tables = new HashMap<>();
    for (Object schema : column(meta.getSchemas(null, "%"), "TABLE_SCHEM")) {
      String pattern = escapeWildcards((String) schema);
      tables.put((String) schema, column(meta.getTables(null, pattern, "%", null), "TABLE_NAME"));
      assertThat(rows(meta.getFunctions(null, pattern, "%"))).isEmpty();
      assertThat(rows(meta.getProcedures(null, pattern, "%"))).isEmpty();
    }
    assertThat(tables)
        .containsOnly(
            Map.entry("main", List.of("orders")),
            Map.entry("sales.eu", List.of("customers")),
            Map.entry("sales.us", List.of("customers")));
    List<Map<String, Object>> orders = rows(meta.getTables(null, "main", "orders", null));
    assertThat(orders).hasSize(1);
    assertThat(orders.get(0))
        .containsEntry("TABLE_CAT", null)
        .containsEntry("TABLE_SCHEM", "main")
        .containsEntry("TABLE_TYPE", "TABLE")
        .containsEntry("REMARKS", "Orders of every shop");
    assertThat(column(meta.getTableTypes(), "TABLE_TYPE")).containsExactly("TABLE", "VIEW");
  }

  @Test
  void openingATableReadsItsColumnsKeysAndNoIndexes() throws SQLException {
    List<Map<String, Object>> columns = rows(meta.getColumns(null, "main", "orders", "%"));
    assertThat(column(columns, "COLUMN_NAME"))
        .containsExactly("id", "amount", "placed", "placed_utc", "note", "day");
    assertThat(columns.get(0))
        .containsEntry("DATA_TYPE", Types.BIGINT)
        .containsEntry("TYPE_NAME", "BIGINT")
        .containsEntry("COLUMN_SIZE", 19)
        .containsEntry("NULLABLE", DatabaseMetaData.columnNoNulls)
        .containsEntry("IS_NULLABLE", "NO")
        .containsEntry("REMARKS", "Order number")
        .containsEntry("ORDINAL_POSITION", 1)
        .containsEntry("IS_AUTOINCREMENT", "NO")
        .containsEntry("IS_GENERATEDCOLUMN", "NO");
    assertThat(columns.get(1))
        .containsEntry("DATA_TYPE", Types.DECIMAL)
        .containsEntry("TYPE_NAME", "DECIMAL")
        .containsEntry("COLUMN_SIZE", 12)
        .containsEntry("DECIMAL_DIGITS", 2)
        .containsEntry("NUM_PREC_RADIX", 10)
        .containsEntry("NULLABLE", DatabaseMetaData.columnNullable)
        .containsEntry("IS_NULLABLE", "YES");
    assertThat(columns.get(2))
        .containsEntry("DATA_TYPE", Types.TIMESTAMP)
        .containsEntry("TYPE_NAME", "TIMESTAMP")
        .containsEntry("COLUMN_SIZE", 26)
        .containsEntry("DECIMAL_DIGITS", 6);
    assertThat(columns.get(3))
        .containsEntry("DATA_TYPE", Types.TIMESTAMP)
        .containsEntry("TYPE_NAME", "TIMESTAMP WITH LOCAL TIME ZONE")
        .containsEntry("DECIMAL_DIGITS", 6);
    // DBeaver reads keys, references and indexes for the whole schema ("%") or one table
    List<Map<String, Object>> keys = rows(meta.getPrimaryKeys(null, "main", "%"));
    assertThat(keys).hasSize(1);
    assertThat(keys.get(0))
        .containsEntry("TABLE_NAME", "orders")
        .containsEntry("COLUMN_NAME", "id")
        .containsEntry("KEY_SEQ", (short) 1)
        .containsEntry("PK_NAME", null);
    assertThat(rows(meta.getPrimaryKeys(null, "sales.eu", "customers"))).isEmpty();
    try (ResultSet imported = meta.getImportedKeys(null, "main", "orders")) {
      assertThat(labels(imported)).contains("PKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "FK_NAME");
      assertThat(imported.next()).isFalse();
    }
    assertThat(rows(meta.getImportedKeys(null, "main", "%"))).isEmpty();
    assertThat(rows(meta.getExportedKeys(null, "main", "orders"))).isEmpty();
    try (ResultSet indexes = meta.getIndexInfo(null, "main", "orders", false, true)) {
      assertThat(labels(indexes)).contains("NON_UNIQUE", "INDEX_NAME", "TYPE", "COLUMN_NAME");
      assertThat(indexes.next()).isFalse();
    }
  }

  @Test
  void theDdlTabWritesColumnDefinitionsThatFloeRunsBackToTheSameColumns() throws SQLException {
    for (String[] table : new String[][] {{"main", "orders"}, {"sales.eu", "customers"}}) {
      List<Map<String, Object>> columns = rows(meta.getColumns(null, table[0], table[1], "%"));
      String copy = table[1] + "_copy";
      try (Statement s = connection.createStatement()) {
        s.execute(
            "CREATE TABLE "
                + dbeaverName(table[0])
                + "."
                + copy
                + " ("
                + definitions(columns)
                + ")");
      }
      List<Map<String, Object>> copied = rows(meta.getColumns(null, table[0], copy, "%"));
      assertThat(copied).hasSameSizeAs(columns);
      for (int i = 0; i < columns.size(); i++) {
        for (String label :
            List.of(
                "COLUMN_NAME",
                "DATA_TYPE",
                "TYPE_NAME",
                "COLUMN_SIZE",
                "DECIMAL_DIGITS",
                "NULLABLE",
                "ORDINAL_POSITION")) {
          assertThat(copied.get(i).get(label))
              .as(table[1] + "." + columns.get(i).get("COLUMN_NAME") + " " + label)
              .isEqualTo(columns.get(i).get(label));
        }
      }
    }
  }

  @Test
  void theDataTabReadsLimitedRowsWhoseMetadataMatchesTheColumns() throws SQLException {
    String table = dbeaverName("main") + "." + dbeaverName("orders");
    try (Statement s =
        connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      s.setMaxRows(2);
      s.setFetchSize(200);
      assertThat(s.execute("SELECT * FROM " + table + " ORDER BY id")).isTrue();
      try (ResultSet rs = s.getResultSet()) {
        assertMetadataMatchesColumns(rs.getMetaData(), "main", "orders");
        List<Object> ids = new ArrayList<>();
        while (rs.next()) {
          ids.add(rs.getObject(1));
          assertThat(rs.getObject(2)).isInstanceOf(BigDecimal.class);
        }
        assertThat(ids).containsExactly(1L, 2L);
      }
      assertThat(s.getMoreResults()).isFalse();
      assertThat(s.getUpdateCount()).isEqualTo(-1);
    }
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM " + table + " WHERE id = 3")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getBigDecimal("amount")).isEqualTo(new BigDecimal("0.10"));
      assertThat(rs.getObject("placed"))
          .isEqualTo(Timestamp.valueOf(LocalDateTime.parse("2024-02-29T23:59:59.123456")));
      assertThat(rs.getObject("placed", LocalDateTime.class))
          .isEqualTo(LocalDateTime.parse("2024-02-29T23:59:59.123456"));
      assertThat(rs.getString("day")).isEqualTo("0001-01-01");
    }
    // JDBCTable.countData for the row count in the status bar
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getObject(1)).isEqualTo(3L);
    }
  }

  @Test
  void theDataTabOfANestedSchemaQuotesTheDottedSchemaName() throws SQLException {
    String table = dbeaverName("sales.eu") + "." + dbeaverName("customers");
    assertThat(table).isEqualTo("\"sales.eu\".customers");
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
      assertMetadataMatchesColumns(rs.getMetaData(), "sales.eu", "customers");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt("id")).isEqualTo(7);
      assertThat(rs.getString("name")).isEqualTo("Ada");
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void editingACellInTheDataTabUpdatesTheRowByItsKey() throws SQLException {
    connection.setAutoCommit(false);
    try (PreparedStatement update =
        connection.prepareStatement("UPDATE main.orders SET note=? WHERE id=?")) {
      update.setString(1, "changed");
      update.setLong(2, 2);
      assertThat(update.executeUpdate()).isEqualTo(1);
    }
    connection.commit();
    connection.setAutoCommit(true);
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT note FROM orders WHERE id = 2")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("changed");
    }
  }

  /** ResultSetMetaData as JDBCColumnMetaData reads it, against getColumns of the same table. */
  private void assertMetadataMatchesColumns(ResultSetMetaData rsmd, String schema, String table)
      throws SQLException {
    List<Map<String, Object>> columns = rows(meta.getColumns(null, schema, table, "%"));
    assertThat(rsmd.getColumnCount()).isEqualTo(columns.size());
    for (int i = 1; i <= rsmd.getColumnCount(); i++) {
      Map<String, Object> column = columns.get(i - 1);
      String what = table + "." + column.get("COLUMN_NAME");
      assertThat(rsmd.isWritable(i)).as(what).isTrue();
      assertThat(rsmd.getTableName(i)).as(what).isEqualTo(table);
      assertThat(rsmd.getCatalogName(i)).as(what).isEmpty();
      assertThat(rsmd.getSchemaName(i)).as(what).isEqualTo(schema);
      assertThat(rsmd.isNullable(i)).as(what).isEqualTo(column.get("NULLABLE"));
      assertThat(rsmd.getColumnTypeName(i)).as(what).isEqualTo(column.get("TYPE_NAME"));
      assertThat(rsmd.getColumnType(i)).as(what).isEqualTo(column.get("DATA_TYPE"));
      assertThat(rsmd.isAutoIncrement(i)).as(what).isFalse();
      assertThat(rsmd.getPrecision(i)).as(what).isEqualTo(orZero(column.get("COLUMN_SIZE")));
      assertThat(rsmd.getScale(i)).as(what).isEqualTo(orZero(column.get("DECIMAL_DIGITS")));
      assertThat(rsmd.getColumnLabel(i)).as(what).isEqualTo(column.get("COLUMN_NAME"));
      assertThat(rsmd.getColumnName(i)).as(what).isEqualTo(column.get("COLUMN_NAME"));
      assertThat(rsmd.getColumnDisplaySize(i)).as(what).isPositive();
    }
  }

  private static int orZero(Object value) {
    return value == null ? 0 : (Integer) value;
  }

  /**
   * Column definitions as DBeaver's generic DDL writes them: the type name, then modifiers from the
   * column size and digits unless the type's own entry of getTypeInfo already has them (text of
   * unbounded length and datetimes get none), then NOT NULL.
   */
  private String definitions(List<Map<String, Object>> columns) throws SQLException {
    Map<String, Map<String, Object>> types = new HashMap<>();
    for (Map<String, Object> type : rows(meta.getTypeInfo())) {
      types.put((String) type.get("TYPE_NAME"), type);
    }
    List<String> definitions = new ArrayList<>();
    for (Map<String, Object> column : columns) {
      String type = (String) column.get("TYPE_NAME");
      int jdbcType = (Integer) column.get("DATA_TYPE");
      Integer size = (Integer) column.get("COLUMN_SIZE");
      Integer digits = (Integer) column.get("DECIMAL_DIGITS");
      Map<String, Object> info = types.get(type);
      String modifiers = "";
      boolean sameAsType =
          info != null
              && info.get("PRECISION") != null
              && info.get("PRECISION").equals(size)
              && ((Short) info.get("MINIMUM_SCALE")).intValue() == (digits == null ? 0 : digits);
      if (!sameAsType && size != null) {
        if ((jdbcType == Types.VARCHAR || jdbcType == Types.CHAR) && size < Integer.MAX_VALUE) {
          modifiers = "(" + size + ")";
        } else if ((jdbcType == Types.BINARY || jdbcType == Types.VARBINARY)
            && size < Integer.MAX_VALUE) {
          modifiers = "(" + size + ")";
        } else if (jdbcType == Types.DECIMAL) {
          modifiers = "(" + size + "," + digits + ")";
        }
      }
      boolean notNull = (Integer) column.get("NULLABLE") == DatabaseMetaData.columnNoNulls;
      definitions.add(
          dbeaverName((String) column.get("COLUMN_NAME"))
              + " "
              + type
              + modifiers
              + (notNull ? " NOT NULL" : ""));
    }
    return String.join(", ", definitions);
  }

  /**
   * A name as DBeaver writes it into SQL: quoted when it is a keyword or holds a character other
   * than a letter, digit or underscore; case never forces quotes, since Floe stores mixed case.
   */
  private String dbeaverName(String name) throws SQLException {
    boolean plain = Character.isLetter(name.charAt(0)) || name.charAt(0) == '_';
    for (char c : name.toCharArray()) {
      plain &= Character.isLetterOrDigit(c) || c == '_';
    }
    if (plain && !keywords().contains(name.toUpperCase(Locale.ROOT))) {
      return name;
    }
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  private String escapeWildcards(String name) throws SQLException {
    String escape = meta.getSearchStringEscape();
    return name.replace("%", escape + "%").replace("_", escape + "_");
  }

  private Set<String> keywords() throws SQLException {
    return new HashSet<>(List.of(meta.getSQLKeywords().split(",")));
  }

  private Set<String> functions() throws SQLException {
    Set<String> all = new HashSet<>();
    for (String list :
        List.of(
            meta.getNumericFunctions(),
            meta.getStringFunctions(),
            meta.getSystemFunctions(),
            meta.getTimeDateFunctions())) {
      all.addAll(List.of(list.split(",")));
    }
    return all;
  }
}
