package dev.floe.jdbc.meta;

import dev.floe.error.SqlErrors;
import dev.floe.jdbc.forwarding.ForwardingResultSet;
import dev.floe.error.FloeError;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.util.ArrayIteratorCursor;

/**
 * The result sets of {@link FloeDatabaseMetaData}: the columns JDBC prescribes for each call, and
 * rows built in memory. Avatica's result set does the reading (type conversions, column labels,
 * {@code getMetaData}); the wrapper adds Floe's closed-state and read-only behaviour.
 */
final class MetadataResults {
  /** One column of a metadata result set: its label and its Java type (hence its JDBC type). */
  record Column(String label, Class<?> type) {}

  private static Column text(String label) {
    return new Column(label, String.class);
  }

  private static Column integer(String label) {
    return new Column(label, Integer.class);
  }

  private static Column small(String label) {
    return new Column(label, Short.class);
  }

  private static Column bool(String label) {
    return new Column(label, Boolean.class);
  }

  private static Column big(String label) {
    return new Column(label, Long.class);
  }

  static final List<Column> CATALOGS = List.of(text("TABLE_CAT"));

  static final List<Column> SCHEMAS = List.of(text("TABLE_SCHEM"), text("TABLE_CATALOG"));

  static final List<Column> TABLE_TYPES = List.of(text("TABLE_TYPE"));

  static final List<Column> TABLES =
      List.of(
          text("TABLE_CAT"),
          text("TABLE_SCHEM"),
          text("TABLE_NAME"),
          text("TABLE_TYPE"),
          text("REMARKS"),
          text("TYPE_CAT"),
          text("TYPE_SCHEM"),
          text("TYPE_NAME"),
          text("SELF_REFERENCING_COL_NAME"),
          text("REF_GENERATION"));

  static final List<Column> COLUMNS =
      List.of(
          text("TABLE_CAT"),
          text("TABLE_SCHEM"),
          text("TABLE_NAME"),
          text("COLUMN_NAME"),
          integer("DATA_TYPE"),
          text("TYPE_NAME"),
          integer("COLUMN_SIZE"),
          integer("BUFFER_LENGTH"),
          integer("DECIMAL_DIGITS"),
          integer("NUM_PREC_RADIX"),
          integer("NULLABLE"),
          text("REMARKS"),
          text("COLUMN_DEF"),
          integer("SQL_DATA_TYPE"),
          integer("SQL_DATETIME_SUB"),
          integer("CHAR_OCTET_LENGTH"),
          integer("ORDINAL_POSITION"),
          text("IS_NULLABLE"),
          text("SCOPE_CATALOG"),
          text("SCOPE_SCHEMA"),
          text("SCOPE_TABLE"),
          small("SOURCE_DATA_TYPE"),
          text("IS_AUTOINCREMENT"),
          text("IS_GENERATEDCOLUMN"));

  static final List<Column> PRIMARY_KEYS =
      List.of(
          text("TABLE_CAT"),
          text("TABLE_SCHEM"),
          text("TABLE_NAME"),
          text("COLUMN_NAME"),
          small("KEY_SEQ"),
          text("PK_NAME"));

  /** getImportedKeys, getExportedKeys and getCrossReference share these columns. */
  static final List<Column> KEYS =
      List.of(
          text("PKTABLE_CAT"),
          text("PKTABLE_SCHEM"),
          text("PKTABLE_NAME"),
          text("PKCOLUMN_NAME"),
          text("FKTABLE_CAT"),
          text("FKTABLE_SCHEM"),
          text("FKTABLE_NAME"),
          text("FKCOLUMN_NAME"),
          small("KEY_SEQ"),
          small("UPDATE_RULE"),
          small("DELETE_RULE"),
          text("FK_NAME"),
          text("PK_NAME"),
          small("DEFERRABILITY"));

  static final List<Column> INDEX_INFO =
      List.of(
          text("TABLE_CAT"),
          text("TABLE_SCHEM"),
          text("TABLE_NAME"),
          bool("NON_UNIQUE"),
          text("INDEX_QUALIFIER"),
          text("INDEX_NAME"),
          small("TYPE"),
          small("ORDINAL_POSITION"),
          text("COLUMN_NAME"),
          text("ASC_OR_DESC"),
          big("CARDINALITY"),
          big("PAGES"),
          text("FILTER_CONDITION"));

  static final List<Column> TYPE_INFO =
      List.of(
          text("TYPE_NAME"),
          integer("DATA_TYPE"),
          integer("PRECISION"),
          text("LITERAL_PREFIX"),
          text("LITERAL_SUFFIX"),
          text("CREATE_PARAMS"),
          small("NULLABLE"),
          bool("CASE_SENSITIVE"),
          small("SEARCHABLE"),
          bool("UNSIGNED_ATTRIBUTE"),
          bool("FIXED_PREC_SCALE"),
          bool("AUTO_INCREMENT"),
          text("LOCAL_TYPE_NAME"),
          small("MINIMUM_SCALE"),
          small("MAXIMUM_SCALE"),
          integer("SQL_DATA_TYPE"),
          integer("SQL_DATETIME_SUB"),
          integer("NUM_PREC_RADIX"));

  static final List<Column> PROCEDURES =
      List.of(
          text("PROCEDURE_CAT"),
          text("PROCEDURE_SCHEM"),
          text("PROCEDURE_NAME"),
          text("RESERVED1"),
          text("RESERVED2"),
          text("RESERVED3"),
          text("REMARKS"),
          small("PROCEDURE_TYPE"),
          text("SPECIFIC_NAME"));

  static final List<Column> PROCEDURE_COLUMNS =
      List.of(
          text("PROCEDURE_CAT"),
          text("PROCEDURE_SCHEM"),
          text("PROCEDURE_NAME"),
          text("COLUMN_NAME"),
          small("COLUMN_TYPE"),
          integer("DATA_TYPE"),
          text("TYPE_NAME"),
          integer("PRECISION"),
          integer("LENGTH"),
          small("SCALE"),
          small("RADIX"),
          small("NULLABLE"),
          text("REMARKS"),
          text("COLUMN_DEF"),
          integer("SQL_DATA_TYPE"),
          integer("SQL_DATETIME_SUB"),
          integer("CHAR_OCTET_LENGTH"),
          integer("ORDINAL_POSITION"),
          text("IS_NULLABLE"),
          text("SPECIFIC_NAME"));

  static final List<Column> FUNCTIONS =
      List.of(
          text("FUNCTION_CAT"),
          text("FUNCTION_SCHEM"),
          text("FUNCTION_NAME"),
          text("REMARKS"),
          small("FUNCTION_TYPE"),
          text("SPECIFIC_NAME"));

  static final List<Column> FUNCTION_COLUMNS =
      List.of(
          text("FUNCTION_CAT"),
          text("FUNCTION_SCHEM"),
          text("FUNCTION_NAME"),
          text("COLUMN_NAME"),
          small("COLUMN_TYPE"),
          integer("DATA_TYPE"),
          text("TYPE_NAME"),
          integer("PRECISION"),
          integer("LENGTH"),
          small("SCALE"),
          small("RADIX"),
          small("NULLABLE"),
          text("REMARKS"),
          integer("CHAR_OCTET_LENGTH"),
          integer("ORDINAL_POSITION"),
          text("IS_NULLABLE"),
          text("SPECIFIC_NAME"));

  /** getBestRowIdentifier and getVersionColumns share the shape of a row identifier. */
  static final List<Column> BEST_ROW_IDENTIFIER =
      List.of(
          small("SCOPE"),
          text("COLUMN_NAME"),
          integer("DATA_TYPE"),
          text("TYPE_NAME"),
          integer("COLUMN_SIZE"),
          integer("BUFFER_LENGTH"),
          small("DECIMAL_DIGITS"),
          small("PSEUDO_COLUMN"));

  static final List<Column> VERSION_COLUMNS =
      List.of(
          small("SCOPE"),
          text("COLUMN_NAME"),
          integer("DATA_TYPE"),
          text("TYPE_NAME"),
          integer("COLUMN_SIZE"),
          integer("BUFFER_LENGTH"),
          small("DECIMAL_DIGITS"),
          small("PSEUDO_COLUMN"));

  static final List<Column> TABLE_PRIVILEGES =
      List.of(
          text("TABLE_CAT"),
          text("TABLE_SCHEM"),
          text("TABLE_NAME"),
          text("GRANTOR"),
          text("GRANTEE"),
          text("PRIVILEGE"),
          text("IS_GRANTABLE"));

  static final List<Column> COLUMN_PRIVILEGES =
      List.of(
          text("TABLE_CAT"),
          text("TABLE_SCHEM"),
          text("TABLE_NAME"),
          text("COLUMN_NAME"),
          text("GRANTOR"),
          text("GRANTEE"),
          text("PRIVILEGE"),
          text("IS_GRANTABLE"));

  static final List<Column> UDTS =
      List.of(
          text("TYPE_CAT"),
          text("TYPE_SCHEM"),
          text("TYPE_NAME"),
          text("CLASS_NAME"),
          integer("DATA_TYPE"),
          text("REMARKS"),
          small("BASE_TYPE"));

  static final List<Column> SUPER_TYPES =
      List.of(
          text("TYPE_CAT"),
          text("TYPE_SCHEM"),
          text("TYPE_NAME"),
          text("SUPERTYPE_CAT"),
          text("SUPERTYPE_SCHEM"),
          text("SUPERTYPE_NAME"));

  static final List<Column> SUPER_TABLES =
      List.of(text("TABLE_CAT"), text("TABLE_SCHEM"), text("TABLE_NAME"), text("SUPERTABLE_NAME"));

  static final List<Column> ATTRIBUTES =
      List.of(
          text("TYPE_CAT"),
          text("TYPE_SCHEM"),
          text("TYPE_NAME"),
          text("ATTR_NAME"),
          integer("DATA_TYPE"),
          text("ATTR_TYPE_NAME"),
          integer("ATTR_SIZE"),
          integer("DECIMAL_DIGITS"),
          integer("NUM_PREC_RADIX"),
          integer("NULLABLE"),
          text("REMARKS"),
          text("ATTR_DEF"),
          integer("SQL_DATA_TYPE"),
          integer("SQL_DATETIME_SUB"),
          integer("CHAR_OCTET_LENGTH"),
          integer("ORDINAL_POSITION"),
          text("IS_NULLABLE"),
          text("SCOPE_CATALOG"),
          text("SCOPE_SCHEMA"),
          text("SCOPE_TABLE"),
          small("SOURCE_DATA_TYPE"));

  static final List<Column> CLIENT_INFO_PROPERTIES =
      List.of(text("NAME"), integer("MAX_LEN"), text("DEFAULT_VALUE"), text("DESCRIPTION"));

  static final List<Column> PSEUDO_COLUMNS =
      List.of(
          text("TABLE_CAT"),
          text("TABLE_SCHEM"),
          text("TABLE_NAME"),
          text("COLUMN_NAME"),
          integer("DATA_TYPE"),
          integer("COLUMN_SIZE"),
          integer("DECIMAL_DIGITS"),
          integer("NUM_PREC_RADIX"),
          text("COLUMN_USAGE"),
          text("REMARKS"),
          integer("CHAR_OCTET_LENGTH"),
          text("IS_NULLABLE"));

  private MetadataResults() {}

  /** Collects the rows of one metadata result set, checking each against the columns. */
  static final class Rows {
    private final List<Column> columns;
    private final List<Object[]> rows = new ArrayList<>();

    Rows(List<Column> columns) {
      this.columns = columns;
    }

    /** Adds a row; its values are in column order and of each column's Java type, or null. */
    Rows add(Object... values) {
      if (values.length != columns.size()) {
        throw new IllegalArgumentException(
            "Cannot add a row of " + values.length + " values to " + columns.size() + " columns");
      }
      for (int i = 0; i < values.length; i++) {
        if (values[i] != null && !columns.get(i).type().isInstance(values[i])) {
          throw new IllegalArgumentException(
              "Cannot put " + values[i].getClass().getSimpleName() + " into " + columns.get(i));
        }
      }
      rows.add(values.clone());
      return this;
    }

    List<Object[]> rows() {
      return rows;
    }
  }

  /** An empty result set with the given columns. */
  static ResultSet empty(MetadataSource connection, List<Column> columns) throws SQLException {
    return of(connection, new Rows(columns));
  }

  /** A result set of the collected rows. */
  static ResultSet of(MetadataSource connection, Rows rows) throws SQLException {
    connection.checkOpen();
    List<ColumnMetaData> meta = new ArrayList<>();
    for (int i = 0; i < rows.columns.size(); i++) {
      Column column = rows.columns.get(i);
      meta.add(MetaImpl.columnMetaData(column.label(), i, column.type(), true));
    }
    Meta.Signature signature =
        Meta.Signature.create(
            meta, "", List.of(), Meta.CursorFactory.ARRAY, Meta.StatementType.SELECT);
    Statement calcite = connection.calcite().createStatement();
    try {
      AvaticaStatement statement = calcite.unwrap(AvaticaStatement.class);
      statement.closeOnCompletion();
      AvaticaResultSet result =
          new AvaticaResultSet(
              statement,
              null,
              signature,
              new AvaticaResultSetMetaData(statement, null, signature),
              TimeZone.getTimeZone("UTC"),
              null);
      result.execute2(new ArrayIteratorCursor(rows.rows().iterator()), meta);
      return new MetadataResultSet(connection, result);
    } catch (SQLException | RuntimeException e) {
      calcite.close();
      throw e;
    }
  }

  /**
   * A metadata result set: read-only, forward-reading, produced by no statement; after it or its
   * connection is closed every call fails with 08003.
   */
  private static final class MetadataResultSet extends ForwardingResultSet {
    private final MetadataSource connection;
    private boolean closed;

    MetadataResultSet(MetadataSource connection, ResultSet rows) {
      super(rows);
      this.connection = connection;
    }

    @Override
    protected ResultSet open() throws SQLException {
      if (closed || connection.isClosed()) {
        throw SqlErrors.of(FloeError.CLOSED, "metadata result set");
      }
      return delegate();
    }

    @Override
    public void close() throws SQLException {
      if (!closed) {
        closed = true;
        delegate().close();
      }
    }

    @Override
    public boolean isClosed() {
      return closed || connection.isClosed();
    }

    @Override
    public Statement getStatement() throws SQLException {
      open();
      return null;
    }
  }
}
