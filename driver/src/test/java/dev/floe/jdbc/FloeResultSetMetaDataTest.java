package dev.floe.jdbc;

import static dev.floe.jdbc.SampleLake.rows;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result set metadata says of a table's columns what getColumns says, and of others the truth. */
class FloeResultSetMetaDataTest {
  @TempDir Path lake;

  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    SampleLake.create(lake);
    connection = SampleLake.open(lake);
    try (Statement s = connection.createStatement()) {
      s.execute(
          "CREATE TABLE sales.eu.alltypes ("
              + " b BOOLEAN NOT NULL, i INT, l BIGINT, r REAL, d DOUBLE, dec DECIMAL(38, 10),"
              + " dt DATE, tm TIME, ts TIMESTAMP, tz TIMESTAMP WITH LOCAL TIME ZONE, v VARCHAR,"
              + " u UUID, f BINARY(16), vb VARBINARY, arr ARRAY<INT>, m MAP<VARCHAR, BIGINT>,"
              + " st STRUCT<x: INT NOT NULL, y: VARCHAR>)");
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @Test
  void tableColumnsAreDescribedAsGetColumnsDescribesThem() throws SQLException {
    for (String sql :
        List.of(
            "SELECT * FROM sales.eu.alltypes",
            "SELECT * FROM \"sales.eu\".alltypes",
            "SELECT * FROM main.orders",
            "SELECT * FROM sales.eu.customers")) {
      try (Statement s = connection.createStatement();
          ResultSet rs = s.executeQuery(sql)) {
        String schema = sql.contains("orders") ? "main" : "sales.eu";
        String table = sql.substring(sql.lastIndexOf('.') + 1);
        assertSameAsColumns(rs.getMetaData(), schema, table);
      }
    }
    try (PreparedStatement p =
        connection.prepareStatement("SELECT * FROM sales.eu.alltypes WHERE i = ?")) {
      assertSameAsColumns(p.getMetaData(), "sales.eu", "alltypes");
    }
  }

  @Test
  void computedColumnsComeFromNoTableAndCannotBeWritten() throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT id + 1 AS following, CAST(note AS VARCHAR(10)) AS short, 'x' AS letter,"
                    + " amount * 2 AS twice, CURRENT_DATE AS today FROM orders")) {
      ResultSetMetaData meta = rs.getMetaData();
      assertThat(meta.getColumnLabel(1)).isEqualTo("following");
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        assertThat(meta.getTableName(i)).isEmpty();
        assertThat(meta.getSchemaName(i)).isEmpty();
        assertThat(meta.getCatalogName(i)).isEmpty();
        assertThat(meta.isWritable(i)).isFalse();
        assertThat(meta.isReadOnly(i)).isTrue();
      }
      assertThat(meta.getColumnType(1)).isEqualTo(Types.BIGINT);
      assertThat(meta.getColumnTypeName(2)).isEqualTo("VARCHAR");
      assertThat(meta.getPrecision(2)).isEqualTo(10);
      assertThat(meta.getColumnTypeName(3)).isEqualTo("CHAR");
      assertThat(meta.getPrecision(3)).isEqualTo(1);
      assertThat(meta.getColumnTypeName(4)).isEqualTo("DECIMAL");
      assertThat(meta.getScale(4)).isEqualTo(2);
      assertThat(meta.getColumnType(5)).isEqualTo(Types.DATE);
      assertThat(meta.getPrecision(5)).isEqualTo(10);
    }
  }

  @Test
  void nullabilityIsTheQuerysNotTheTables() throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT c.name, o.id FROM sales.eu.customers c"
                    + " LEFT JOIN orders o ON o.id = c.id")) {
      ResultSetMetaData meta = rs.getMetaData();
      assertThat(meta.isNullable(1)).isEqualTo(ResultSetMetaData.columnNoNulls);
      assertThat(meta.isNullable(2)).isEqualTo(ResultSetMetaData.columnNullable);
      assertThat(meta.getColumnTypeName(2)).isEqualTo("BIGINT");
      assertThat(meta.getTableName(2)).isEqualTo("orders");
      assertThat(meta.getSchemaName(1)).isEqualTo("sales.eu");
    }
  }

  private void assertSameAsColumns(ResultSetMetaData meta, String schema, String table)
      throws SQLException {
    List<Map<String, Object>> columns =
        rows(connection.getMetaData().getColumns(null, schema, table, "%"));
    assertThat(meta.getColumnCount()).isEqualTo(columns.size());
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      Map<String, Object> column = columns.get(i - 1);
      String what = schema + "." + table + "." + column.get("COLUMN_NAME");
      assertThat(meta.getColumnName(i)).as(what).isEqualTo(column.get("COLUMN_NAME"));
      assertThat(meta.getSchemaName(i)).as(what).isEqualTo(schema);
      assertThat(meta.getTableName(i)).as(what).isEqualTo(table);
      assertThat(meta.getColumnType(i)).as(what).isEqualTo(column.get("DATA_TYPE"));
      assertThat(meta.getColumnTypeName(i)).as(what).isEqualTo(column.get("TYPE_NAME"));
      assertThat(meta.getPrecision(i)).as(what).isEqualTo(orZero(column.get("COLUMN_SIZE")));
      assertThat(meta.getScale(i)).as(what).isEqualTo(orZero(column.get("DECIMAL_DIGITS")));
      assertThat(meta.isNullable(i)).as(what).isEqualTo(column.get("NULLABLE"));
      assertThat(meta.isWritable(i)).as(what).isTrue();
      assertThat(meta.isSigned(i)).as(what).isEqualTo(column.get("NUM_PREC_RADIX") != null);
    }
  }

  private static int orZero(Object value) {
    return value == null ? 0 : (Integer) value;
  }
}
