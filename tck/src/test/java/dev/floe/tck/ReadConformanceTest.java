package dev.floe.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Iceberg read conformance: every table of the reference lake, written by Iceberg's own Java API,
 * reads through Floe row by row exactly as Iceberg's generic reader returns it, deletes applied.
 */
class ReadConformanceTest {
  private static ReferenceLake lake;
  private static Connection connection;

  @BeforeAll
  static void open() throws SQLException {
    lake = ReferenceLake.shared();
    connection = DriverManager.getConnection(lake.url());
  }

  @AfterAll
  static void close() throws SQLException {
    connection.close();
  }

  static Stream<ReferenceTable> referenceTables() {
    return ReferenceLake.shared().wholeRowTables().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("referenceTables")
  void everyReferenceTableReadsRowByRowLikeIcebergsOwnReader(ReferenceTable table)
      throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT * FROM " + table.sql())) {
      ResultSetMetaData meta = rs.getMetaData();
      List<String> labels = new ArrayList<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        labels.add(meta.getColumnLabel(i));
      }
      assertThat(labels).containsExactlyElementsOf(table.columnNames());
      assertThat(Canonical.sorted(Canonical.rows(rs, table.types())))
          .containsExactlyElementsOf(Canonical.sorted(table.expected()));
    }
  }

  static Stream<Arguments> allTypesColumns() {
    return ReferenceLake.FORMAT_VERSIONS.stream()
        .flatMap(
            v ->
                ReferenceLake.ALL_TYPES.columns().stream()
                    .skip(1)
                    .map(c -> Arguments.of(v, c.name())));
  }

  @ParameterizedTest(name = "v{0} {1}")
  @MethodSource("allTypesColumns")
  void eachColumnOfEveryTypeKeepsNullsAndExtremesExactly(int version, String column)
      throws SQLException {
    ReferenceTable table = lake.table("all_types_v" + version);
    List<String> columns = List.of("id", column);
    assertThat(
            Sql.rows(
                connection,
                "SELECT id, " + column + " FROM " + table.sql() + " ORDER BY id",
                table.types(columns)))
        .containsExactlyElementsOf(
            table.expected(Expressions.alwaysTrue(), columns).stream()
                .sorted(Comparator.comparingInt(row -> Integer.parseInt(row.get(0))))
                .toList());
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void stackedDeletesLeaveNineRowsIncludingTheReinsertedOne(int version) throws SQLException {
    ReferenceTable table = lake.table("stacked_deletes_v" + version);
    List<List<String>> rows =
        Sql.rows(
            connection,
            "SELECT dt, number, letter FROM " + table.sql() + " ORDER BY number, letter",
            table.types());
    assertThat(rows)
        .containsExactly(
            List.of("2023-03-01", "1", "'a'"),
            List.of("2023-03-02", "2", "'b'"),
            List.of("2023-03-04", "4", "'d'"),
            List.of("2023-03-30", "6", "'z'"),
            List.of("2023-03-07", "7", "'g'"),
            List.of("2023-03-08", "8", "'h'"),
            List.of("2023-03-09", "9", "'i'"),
            List.of("2023-03-10", "10", "'j'"),
            List.of("2023-03-12", "12", "'l'"));
    assertThat(Canonical.sorted(rows)).isEqualTo(Canonical.sorted(table.expected()));
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void stackedDeletesCountNineRows(int version) throws SQLException {
    assertThat(Sql.column(connection, "SELECT count(*) FROM stacked_deletes_v" + version))
        .containsExactly("9");
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void partitionScopedEqualityDeleteKeepsTheMatchingRowOfTheOtherPartition(int version)
      throws SQLException {
    assertThat(
            Sql.column(
                connection, "SELECT v FROM eq_delete_partition_scoped_v" + version + " ORDER BY v"))
        .containsExactly("a2", "a3", "b1", "b2", "b3");
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void equalityDeleteUnderAnUnpartitionedSpecAppliesToEveryPartition(int version)
      throws SQLException {
    assertThat(Sql.column(connection, "SELECT v FROM eq_delete_global_v" + version + " ORDER BY v"))
        .containsExactly("a1", "b4", "old1", "old3");
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void twoColumnEqualityDeleteRemovesOnlyRowsMatchingBothColumns(int version) throws SQLException {
    List<String> letters =
        Sql.column(
            connection,
            "SELECT letter FROM eq_delete_two_columns_v" + version + " ORDER BY letter");
    assertThat(letters).hasSize(10).doesNotContain("c", "l").contains("a", "d", "k");
  }

  @ParameterizedTest(name = "v{0}")
  @ValueSource(ints = {2, 3})
  void positionDeletesRemoveExactlyTheDeletedPositions(int version) throws SQLException {
    List<String> numbers =
        Sql.column(
            connection, "SELECT number FROM position_deletes_v" + version + " ORDER BY number");
    assertThat(numbers)
        .hasSize(91)
        .doesNotContain("0", "1", "2", "10", "11", "30", "59", "60", "99");
    assertThat(numbers).contains("3", "12", "58", "61", "98");
  }

  @Test
  void columnsAddedLaterReadAsNullFromOlderFiles() throws SQLException {
    assertThat(Sql.column(connection, "SELECT added FROM evolved_schema ORDER BY id"))
        .containsExactly(null, null, null, "new");
  }

  @Test
  void aDroppedColumnAddedBackUnderTheSameNameDoesNotResurfaceOldValues() throws SQLException {
    assertThat(Sql.column(connection, "SELECT gone FROM evolved_schema ORDER BY id"))
        .containsExactly(null, null, null, "33");
  }

  @Test
  void renamedAndWidenedColumnsKeepTheirValues() throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, amount, title FROM evolved_schema ORDER BY id")) {
      ResultSetMetaData meta = rs.getMetaData();
      assertThat(meta.getColumnType(1)).isEqualTo(java.sql.Types.BIGINT);
      assertThat(meta.getColumnType(2)).isEqualTo(java.sql.Types.DOUBLE);
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getObject(1) + " " + rs.getObject(2) + " " + rs.getString(3));
      }
      assertThat(rows)
          .containsExactly(
              "1 1.5 one",
              "2 -0.0 null",
              "2147483647 " + (double) Float.MAX_VALUE + " max",
              "3000000000 2.25 three");
    }
  }

  @Test
  void partitionSpecEvolutionReadsFilesOfBothSpecs() throws SQLException {
    assertThat(Sql.column(connection, "SELECT count(*) FROM evolved_spec")).containsExactly("48");
  }

  @Test
  void aFolderWithASpaceIsATableNamedByQuotingIt() throws SQLException {
    assertThat(Sql.column(connection, "SELECT letter FROM \"my table\" ORDER BY letter"))
        .containsExactly("a", "b", "c", "d", "e");
  }

  @Test
  void aTableInASubFolderIsNamedBySchemaAndTable() throws SQLException {
    assertThat(Sql.column(connection, "SELECT count(*) FROM sales.orders")).containsExactly("5");
    assertThat(Sql.column(connection, "SELECT count(*) FROM SALES.ORDERS")).containsExactly("5");
  }

  @Test
  void uuidNamedMetadataWithoutVersionHintReadsTheNewestVersion() throws SQLException {
    assertThat(
            Files.exists(
                lake.table("uuid_named_metadata").folder().resolve("metadata/version-hint.text")))
        .isFalse();
    assertThat(Sql.column(connection, "SELECT count(*) FROM uuid_named_metadata"))
        .containsExactly("8");
  }

  @Test
  void aStaleVersionHintIsProbedPastToTheNewestVersion() throws SQLException {
    assertThat(Sql.column(connection, "SELECT count(*) FROM stale_hint")).containsExactly("9");
  }

  @Test
  void hadoopChecksumSidecarsAreIgnored() throws Exception {
    Path data = lake.table("all_types_v2").folder().resolve("data");
    try (Stream<Path> files = Files.list(data)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .anyMatch(n -> n.startsWith(".") && n.endsWith(".parquet.crc"));
    }
    assertThat(Sql.column(connection, "SELECT count(*) FROM all_types_v2")).containsExactly("7");
  }

  @Test
  void theLakeListsEveryTableDirectlyUnderTheRootAndNothingElse() throws SQLException {
    List<String> listed = new ArrayList<>();
    try (ResultSet rs = connection.getMetaData().getTables(null, "main", "%", null)) {
      while (rs.next()) {
        listed.add(rs.getString("TABLE_NAME"));
      }
    }
    List<String> expected =
        lake.tables().stream().map(ReferenceTable::name).filter(n -> !n.contains(".")).toList();
    assertThat(listed).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aTableInASubFolderIsListedUnderItsSchema() throws SQLException {
    List<String> listed = new ArrayList<>();
    try (ResultSet rs = connection.getMetaData().getTables(null, null, "orders", null)) {
      while (rs.next()) {
        listed.add(rs.getString("TABLE_SCHEM") + "|" + rs.getString("TABLE_NAME"));
      }
    }
    assertThat(listed)
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .matches(".*sales\\|orders");
  }
}
