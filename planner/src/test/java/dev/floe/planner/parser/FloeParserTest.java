package dev.floe.planner.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.error.FloeException;
import dev.floe.planner.parser.ddl.SqlAlterLakeTable;
import dev.floe.planner.parser.ddl.SqlAlterTableExecute;
import dev.floe.planner.parser.ddl.SqlAlterTableRef;
import dev.floe.planner.parser.ddl.SqlCreateLakeTable;
import dev.floe.planner.parser.ddl.SqlDropLakeTable;
import dev.floe.planner.parser.ddl.SqlLakeIndex;
import dev.floe.planner.parser.ddl.SqlTruncateTable;
import dev.floe.planner.parser.stmt.SqlInsertOverwrite;
import dev.floe.planner.parser.stmt.SqlMergeInto;
import dev.floe.planner.parser.stmt.SqlShow;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSnapshot;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class FloeParserTest {
  private static <T> T parse(String sql, Class<T> type) {
    SqlNode node = FloeParser.parse(sql);
    assertThat(node).isInstanceOf(type);
    return type.cast(node);
  }

  private static String syntaxError(String sql) {
    try {
      FloeParser.parse(sql);
    } catch (FloeException e) {
      assertThat(e.sqlState()).isEqualTo("42000");
      return e.getMessage();
    }
    throw new AssertionError("parsed: " + sql);
  }

  @Test
  void createTableWithEveryColumnAttributeAndClause() {
    SqlCreateLakeTable create =
        parse(
            "CREATE TABLE IF NOT EXISTS Sales.Orders ("
                + " id BIGINT NOT NULL COMMENT 'the id',"
                + " \"Name\" VARCHAR(20) NULL,"
                + " amount DECIMAL(5, 2),"
                + " ts TIMESTAMP(9) WITH LOCAL TIME ZONE,"
                + " tags ARRAY<STRING>,"
                + " attrs MAP<VARCHAR, ARRAY<INT>>,"
                + " s STRUCT<x: INT NOT NULL, y STRING COMMENT 'why'>,"
                + " r ROW(a INT, b DOUBLE PRECISION),"
                + " code BINARY(4), bb BYTES, u UUID, f FIXED(3), l LONG, t TIMESTAMP_NTZ)"
                + " PARTITIONED BY (days(ts), bucket(16, id), truncate(\"Name\", 4), identity(l), u)"
                + " WITH ('format-version' = '2', 'commit.retry.num-retries' = 5)"
                + " TBLPROPERTIES ('x' = true)",
            SqlCreateLakeTable.class);
    assertThat(create.ifNotExists).isTrue();
    assertThat(create.replace).isFalse();
    assertThat(create.name.names).containsExactly("Sales", "Orders");
    assertThat(create.columns).hasSize(14);
    assertThat(create.columns.get(0).notNull()).isTrue();
    assertThat(create.columns.get(0).comment()).isEqualTo("the id");
    assertThat(create.columns.get(0).type()).isEqualTo(Types.LongType.get());
    assertThat(create.columns.get(1).name().isComponentQuoted(0)).isTrue();
    assertThat(create.columns.get(1).name().getSimple()).isEqualTo("Name");
    assertThat(create.columns.get(2).type()).isEqualTo(Types.DecimalType.of(5, 2));
    assertThat(create.columns.get(3).type()).isEqualTo(Types.TimestampNanoType.withZone());
    assertThat(create.columns.get(5).type().toString()).isEqualTo("map<string, list<int>>");
    assertThat(create.columns.get(6).type().asStructType().field("x").isRequired()).isTrue();
    assertThat(create.columns.get(6).type().asStructType().field("y").doc()).isEqualTo("why");
    assertThat(create.columns.get(7).type().asStructType().field("b").type())
        .isEqualTo(Types.DoubleType.get());
    assertThat(create.columns.get(8).type()).isEqualTo(Types.FixedType.ofLength(4));
    assertThat(create.columns.get(9).type()).isEqualTo(Types.BinaryType.get());
    assertThat(create.columns.get(10).type()).isEqualTo(Types.UUIDType.get());
    assertThat(create.columns.get(11).type()).isEqualTo(Types.FixedType.ofLength(3));
    assertThat(create.columns.get(13).type()).isEqualTo(Types.TimestampType.withoutZone());
    assertThat(create.partitioning)
        .extracting(f -> f.transform() + ":" + f.column().getSimple() + ":" + f.argument())
        .containsExactly(
            "day:ts:0", "bucket:id:16", "truncate:Name:4", "identity:l:0", "identity:u:0");
    assertThat(create.properties.entrySet())
        .extracting(e -> e.getKey() + "=" + e.getValue())
        .containsExactly("format-version=2", "commit.retry.num-retries=5", "x=true");
    assertThat(create.query).isNull();
  }

  @Test
  void pluralTransformsAndColumnsNamedLikeThem() {
    SqlCreateLakeTable create =
        parse(
            "CREATE TABLE t (ts TIMESTAMP, days INT) PARTITIONED BY (years(ts), months(ts),"
                + " hours(ts), year(ts), days, truncate(days, 10))",
            SqlCreateLakeTable.class);
    assertThat(create.partitioning)
        .extracting(f -> f.transform() + ":" + f.column().getSimple() + ":" + f.argument())
        .containsExactly(
            "year:ts:0",
            "month:ts:0",
            "hour:ts:0",
            "year:ts:0",
            "identity:days:0",
            "truncate:days:10");
  }

  @Test
  void primaryKeyAsColumnAndTableConstraint() {
    SqlCreateLakeTable column =
        parse("CREATE TABLE t (id INT PRIMARY KEY, x INT)", SqlCreateLakeTable.class);
    assertThat(column.primaryKey).extracting(SqlIdentifier::getSimple).containsExactly("id");
    assertThat(column.columns.get(0).primaryKey()).isTrue();
    SqlCreateLakeTable table =
        parse(
            "CREATE TABLE t (a INT, b VARCHAR NOT NULL, CONSTRAINT pk PRIMARY KEY (a, b) NOT ENFORCED)",
            SqlCreateLakeTable.class);
    assertThat(table.primaryKey).extracting(SqlIdentifier::getSimple).containsExactly("a", "b");
    assertThat(table.columns).hasSize(2);
  }

  @Test
  void createTableAsQueryKeepsWhereTheQueryStarts() {
    String sql = "CREATE TABLE copy PARTITIONED BY (p)\n  AS SELECT id, p FROM src WHERE id > 1;";
    SqlCreateLakeTable create = parse(sql, SqlCreateLakeTable.class);
    assertThat(create.columns).isEmpty();
    assertThat(create.query).isInstanceOf(SqlSelect.class);
    assertThat(FloeParser.textFrom(sql, create.queryStart))
        .isEqualTo("SELECT id, p FROM src WHERE id > 1");
  }

  @Test
  void createOrReplaceTable() {
    SqlCreateLakeTable create =
        parse("CREATE OR REPLACE TABLE t AS SELECT 1 AS x", SqlCreateLakeTable.class);
    assertThat(create.replace).isTrue();
  }

  @Test
  void dropTable() {
    SqlDropLakeTable drop = parse("DROP TABLE IF EXISTS a.t PURGE", SqlDropLakeTable.class);
    assertThat(drop.ifExists).isTrue();
    assertThat(drop.purge).isTrue();
    assertThat(drop.name.names).containsExactly("a", "t");
    SqlDropLakeTable plain = parse("drop table t", SqlDropLakeTable.class);
    assertThat(plain.ifExists).isFalse();
    assertThat(plain.purge).isFalse();
  }

  @Test
  void alterTableColumnActions() {
    SqlAlterLakeTable add =
        parse("ALTER TABLE t ADD COLUMN note VARCHAR COMMENT 'n'", SqlAlterLakeTable.class);
    assertThat(add.action).isEqualTo(SqlAlterLakeTable.Action.ADD_COLUMN);
    assertThat(add.column.comment()).isEqualTo("n");
    assertThat(parse("ALTER TABLE t ADD x INT", SqlAlterLakeTable.class).column.name().getSimple())
        .isEqualTo("x");
    SqlAlterLakeTable drop = parse("ALTER TABLE t DROP COLUMN note", SqlAlterLakeTable.class);
    assertThat(drop.action).isEqualTo(SqlAlterLakeTable.Action.DROP_COLUMN);
    assertThat(drop.target.getSimple()).isEqualTo("note");
    assertThat(parse("ALTER TABLE t DROP branch", SqlAlterLakeTable.class).target.getSimple())
        .isEqualTo("branch");
    SqlAlterLakeTable rename =
        parse("ALTER TABLE t RENAME COLUMN name TO label", SqlAlterLakeTable.class);
    assertThat(rename.newName.getSimple()).isEqualTo("label");
    SqlAlterLakeTable type =
        parse("ALTER TABLE t ALTER COLUMN qty SET DATA TYPE BIGINT", SqlAlterLakeTable.class);
    assertThat(type.action).isEqualTo(SqlAlterLakeTable.Action.ALTER_COLUMN_TYPE);
    assertThat(type.type).isEqualTo(Types.LongType.get());
    assertThat(parse("ALTER TABLE t ALTER qty TYPE DOUBLE", SqlAlterLakeTable.class).type)
        .isEqualTo(Types.DoubleType.get());
  }

  @Test
  void indexesParse() {
    SqlLakeIndex create =
        parse("CREATE UNIQUE INDEX IF NOT EXISTS i ON t (a, b)", SqlLakeIndex.class);
    assertThat(create.create).isTrue();
    assertThat(create.table.getSimple()).isEqualTo("t");
    SqlLakeIndex drop = parse("DROP INDEX IF EXISTS i", SqlLakeIndex.class);
    assertThat(drop.create).isFalse();
    assertThat(drop.table).isNull();
  }

  @Test
  void showAndDescribe() {
    assertThat(parse("SHOW SCHEMAS", SqlShow.class).what).isEqualTo(SqlShow.What.SCHEMAS);
    SqlShow tables = parse("SHOW TABLES FROM sales.eu LIKE 'c%'", SqlShow.class);
    assertThat(tables.what).isEqualTo(SqlShow.What.TABLES);
    assertThat(tables.name.names).containsExactly("sales", "eu");
    assertThat(tables.like).isEqualTo("c%");
    SqlShow plain = parse("show tables", SqlShow.class);
    assertThat(plain.name).isNull();
    assertThat(plain.like).isNull();
    assertThat(parse("SHOW COLUMNS IN t", SqlShow.class).what).isEqualTo(SqlShow.What.COLUMNS);
    SqlShow ddl = parse("SHOW CREATE TABLE s.t", SqlShow.class);
    assertThat(ddl.what).isEqualTo(SqlShow.What.CREATE_TABLE);
    assertThat(ddl.name.names).containsExactly("s", "t");
    assertThat(parse("DESCRIBE t", SqlDescribeTable.class).getTable().getSimple()).isEqualTo("t");
    assertThat(parse("DESCRIBE TABLE s.t", SqlDescribeTable.class).getTable().names)
        .containsExactly("s", "t");
  }

  @Test
  void ddlNamesMayBeReservedWordsAsBefore() {
    SqlCreateLakeTable create =
        parse(
            "CREATE TABLE every (dec DECIMAL(38, 10), \"day\" DATE, date DATE, value INT,"
                + " s STRUCT<value: INT>, PRIMARY KEY (value)) PARTITIONED BY (date, day(date))",
            SqlCreateLakeTable.class);
    assertThat(create.name.getSimple()).isEqualTo("every");
    assertThat(create.columns)
        .extracting(c -> c.name().getSimple())
        .containsExactly("dec", "day", "date", "value", "s");
    assertThat(create.columns.get(4).type().asStructType().field("value")).isNotNull();
    assertThat(create.primaryKey).extracting(SqlIdentifier::getSimple).containsExactly("value");
    assertThat(create.partitioning)
        .extracting(f -> f.transform() + ":" + f.column().getSimple())
        .containsExactly("identity:date", "day:date");
    assertThat(
            parse("ALTER TABLE every DROP COLUMN value", SqlAlterLakeTable.class)
                .target
                .getSimple())
        .isEqualTo("value");
  }

  @Test
  void namesThatAreNowKeywordsStayNames() {
    SqlSelect select =
        parse(
            "SELECT tables, columns, comment, tag, branch, index, snapshot, target, if"
                + " FROM schemas",
            SqlSelect.class);
    assertThat(select.getSelectList()).hasSize(9);
  }

  @Test
  void timeTravelClauses() {
    SqlSnapshot version =
        (SqlSnapshot) parse("SELECT * FROM t FOR VERSION AS OF 123", SqlSelect.class).getFrom();
    assertThat(version.getTableRef()).isInstanceOf(SqlIdentifier.class);
    SqlCall period = (SqlCall) version.getPeriod();
    assertThat(period.getOperator()).isSameAs(FloeOperators.VERSION_AS_OF);
    SqlLiteral versionValue = period.operand(0);
    assertThat(versionValue.toValue()).isEqualTo("123");

    SqlSnapshot ref =
        (SqlSnapshot)
            parse("SELECT * FROM t FOR SYSTEM_VERSION AS OF 'audit'", SqlSelect.class).getFrom();
    assertThat(((SqlCall) ref.getPeriod()).getOperator()).isSameAs(FloeOperators.VERSION_AS_OF);
    SqlLiteral refValue = ((SqlCall) ref.getPeriod()).operand(0);
    assertThat(refValue.toValue()).isEqualTo("audit");

    SqlSnapshot time =
        (SqlSnapshot)
            parse(
                    "SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2024-01-01 00:00:00'",
                    SqlSelect.class)
                .getFrom();
    assertThat(time.getPeriod()).isInstanceOf(SqlLiteral.class);
    SqlSnapshot system =
        (SqlSnapshot)
            parse("SELECT * FROM t FOR SYSTEM_TIME AS OF CURRENT_TIMESTAMP", SqlSelect.class)
                .getFrom();
    assertThat(system.getPeriod()).isNotInstanceOf(SqlBasicCall.class);

    SqlJoin join =
        (SqlJoin)
            parse(
                    "SELECT * FROM t FOR VERSION AS OF 1 AS a JOIN t FOR VERSION AS OF 2 AS b"
                        + " ON a.id = b.id",
                    SqlSelect.class)
                .getFrom();
    SqlNode left = ((SqlCall) join.getLeft()).operand(0);
    assertThat(left).isInstanceOf(SqlSnapshot.class);
  }

  @Test
  void truncateAndInsertOverwrite() {
    assertThat(parse("TRUNCATE TABLE s.t", SqlTruncateTable.class).name.names)
        .containsExactly("s", "t");
    SqlInsertOverwrite overwrite =
        parse(
            "INSERT OVERWRITE t PARTITION (p = 1, q = 'x') SELECT id FROM u",
            SqlInsertOverwrite.class);
    assertThat(overwrite.partitionColumns).hasSize(2);
    assertThat(overwrite.query).isInstanceOf(SqlSelect.class);
    assertThat(
            parse("INSERT OVERWRITE TABLE t VALUES (1)", SqlInsertOverwrite.class).partitionColumns)
        .isEmpty();
  }

  @Test
  void mergeOfCalcitesFormStaysCalcites() {
    SqlMerge merge =
        parse(
            "MERGE INTO t AS x USING s ON x.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v"
                + " WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)",
            SqlMerge.class);
    assertThat(merge.getUpdateCall()).isNotNull();
    assertThat(merge.getInsertCall()).isNotNull();
    assertThat(merge.getAlias().getSimple()).isEqualTo("x");
  }

  @Test
  void mergeExtensions() {
    SqlMergeInto merge =
        parse(
            "MERGE INTO t USING s ON t.id = s.id"
                + " WHEN MATCHED AND s.op = 'd' THEN DELETE"
                + " WHEN MATCHED AND s.op = 'u' THEN UPDATE SET *"
                + " WHEN MATCHED THEN UPDATE SET v = s.v, w = 1"
                + " WHEN NOT MATCHED BY TARGET THEN INSERT *"
                + " WHEN NOT MATCHED AND s.v > 0 THEN INSERT VALUES (s.id, s.v)"
                + " WHEN NOT MATCHED BY SOURCE AND t.v < 0 THEN DELETE"
                + " WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = 0",
            SqlMergeInto.class);
    assertThat(merge.clauses)
        .extracting(c -> c.match() + " " + c.action() + " " + (c.condition() != null))
        .containsExactly(
            "MATCHED DELETE true",
            "MATCHED UPDATE_ALL true",
            "MATCHED UPDATE false",
            "NOT_MATCHED_BY_TARGET INSERT_ALL false",
            "NOT_MATCHED_BY_TARGET INSERT true",
            "NOT_MATCHED_BY_SOURCE DELETE true",
            "NOT_MATCHED_BY_SOURCE UPDATE false");
    assertThat(merge.clauses.get(2).columns()).hasSize(2);
    assertThat(merge.clauses.get(4).values()).hasSize(2);
    assertThat(merge.clauses.get(4).columns()).isNull();
  }

  @Test
  void alterTableExecute() {
    SqlAlterTableExecute execute =
        parse(
            "ALTER TABLE t EXECUTE optimize(file_size_threshold => '10MB', 5) WHERE p = 1",
            SqlAlterTableExecute.class);
    assertThat(execute.procedure.getSimple()).isEqualTo("optimize");
    assertThat(execute.arguments).hasSize(2);
    assertThat(execute.arguments.get(0).name().getSimple()).isEqualTo("file_size_threshold");
    assertThat(execute.arguments.get(1).name()).isNull();
    assertThat(execute.where).isNotNull();
    SqlAlterTableExecute bare =
        parse("ALTER TABLE t EXECUTE expire_snapshots", SqlAlterTableExecute.class);
    assertThat(bare.arguments.size()).isZero();
  }

  @Test
  void branchAndTagDdl() {
    SqlAlterTableRef create =
        parse(
            "ALTER TABLE t CREATE BRANCH IF NOT EXISTS audit AS OF VERSION 42 RETAIN 7 DAYS"
                + " WITH SNAPSHOT RETENTION 3 SNAPSHOTS 2 HOURS",
            SqlAlterTableRef.class);
    assertThat(create.action).isEqualTo(SqlAlterTableRef.Action.CREATE);
    assertThat(create.tag).isFalse();
    assertThat(create.ifExistsClause).isTrue();
    assertThat(((SqlLiteral) create.asOfVersion).toValue()).isEqualTo("42");
    assertThat(create.retainMillis).isEqualTo(7 * 86_400_000L);
    assertThat(create.minSnapshotsToKeep).isEqualTo(3);
    assertThat(create.maxSnapshotAgeMillis).isEqualTo(2 * 3_600_000L);
    SqlAlterTableRef replace =
        parse("ALTER TABLE t CREATE OR REPLACE TAG v1 RETAIN 30 MINUTES", SqlAlterTableRef.class);
    assertThat(replace.action).isEqualTo(SqlAlterTableRef.Action.CREATE_OR_REPLACE);
    assertThat(replace.tag).isTrue();
    assertThat(replace.retainMillis).isEqualTo(30 * 60_000L);
    assertThat(
            parse("ALTER TABLE t REPLACE BRANCH b AS OF VERSION 7", SqlAlterTableRef.class).action)
        .isEqualTo(SqlAlterTableRef.Action.REPLACE);
    SqlAlterTableRef drop = parse("ALTER TABLE t DROP TAG IF EXISTS v1", SqlAlterTableRef.class);
    assertThat(drop.action).isEqualTo(SqlAlterTableRef.Action.DROP);
    assertThat(drop.ifExistsClause).isTrue();
    assertThat(parse("ALTER TABLE t DROP BRANCH b", SqlAlterTableRef.class).name.getSimple())
        .isEqualTo("b");
    SqlAlterTableRef retention =
        parse(
            "ALTER TABLE t CREATE BRANCH b WITH SNAPSHOT RETENTION 5 DAYS", SqlAlterTableRef.class);
    assertThat(retention.minSnapshotsToKeep).isNull();
    assertThat(retention.maxSnapshotAgeMillis).isEqualTo(5 * 86_400_000L);
  }

  @Test
  void queriesParseAsCalcitesDo() {
    assertThat(FloeParser.parse("SELECT a FROM t WHERE b = 1;")).isInstanceOf(SqlSelect.class);
    assertThat(FloeParser.parse("INSERT INTO t VALUES (1)").getKind().name()).isEqualTo("INSERT");
  }

  @Test
  void errorsGivePositionAndExpectedTokens() {
    assertThat(syntaxError("SELEC 1"))
        .contains("not a statement at line 1, column 1")
        .contains("SELECT");
    assertThat(syntaxError("SELECT * FROM t WHERE"))
        .contains("line 1, column 21")
        .contains("expected one of:");
    assertThat(syntaxError("CREATE TABLE x (a NOSUCHTYPE)"))
        .contains("unknown type NOSUCHTYPE at line 1, column 19");
    assertThat(syntaxError("CREATE TABLE x (a DECIMAL(40, 2))"))
        .contains("DECIMAL(40, 2) is out of range")
        .contains("line 1, column 19");
    assertThat(syntaxError("SELECT * FROM t WHERE x = 1 1"))
        .startsWith("Cannot parse SQL: Encountered \"1\" at line 1, column 29");
    assertThat(syntaxError("CREATE TABLE t (a INT) PARTITIONED BY (frobnicate(a))"))
        .contains("unknown partition transform frobnicate at line 1, column 40");
    assertThat(syntaxError("CREATE TABLE t")).contains("a table needs columns or AS query");
    assertThat(syntaxError("DROP TABLE")).contains("line 1, column 10").contains("a name");
    assertThat(syntaxError("ALTER TABLE t\n  FROB x")).contains("line 2, column 3");
    assertThat(syntaxError("SHOW TABLES FROM")).contains("line 1, column 16");
    assertThat(syntaxError("SELECT 1; SELECT 2")).contains("2 statements");
  }

  @Test
  void identifierLimitIsTheConfiguredOne() {
    String longName = "x".repeat(FloeParser.IDENTIFIER_MAX_LENGTH + 1);
    assertThatThrownBy(() -> FloeParser.parse("SELECT " + longName + " FROM t"))
        .isInstanceOfSatisfying(
            FloeException.class, e -> assertThat(e.sqlState()).isEqualTo("42602"))
        .hasMessageContaining("at most " + FloeParser.IDENTIFIER_MAX_LENGTH + " characters");
    assertThat(FloeParser.parse("SELECT " + longName.substring(1) + " FROM t"))
        .isInstanceOf(SqlSelect.class);
    assertThat(FloeParser.CONFIG.identifierMaxLength()).isEqualTo(FloeParser.IDENTIFIER_MAX_LENGTH);
  }

  @Test
  void aQuotedNameWithALineBreakIsARefusedName() {
    assertThatThrownBy(() -> FloeParser.parse("CREATE TABLE \"a\nb\" (a INT)"))
        .isInstanceOfSatisfying(
            FloeException.class, e -> assertThat(e.sqlState()).isEqualTo("42602"))
        .hasMessageContaining("control characters");
  }

  @Test
  void everyStatementKindListed() {
    // The statements Floe adds, one line each, all parse.
    for (String sql :
        List.of(
            "CREATE TABLE t (a INT)",
            "CREATE TABLE IF NOT EXISTS t (a INT NOT NULL COMMENT 'c')",
            "CREATE TABLE t AS SELECT 1 AS a",
            "CREATE OR REPLACE TABLE t (a INT)",
            "CREATE INDEX i ON t (a)",
            "DROP TABLE t",
            "DROP INDEX i ON t",
            "ALTER TABLE t ADD COLUMN a INT",
            "TRUNCATE TABLE t",
            "SHOW SCHEMAS",
            "DESCRIBE t")) {
      assertThat(FloeParser.parse(sql)).as(sql).isNotNull();
    }
  }

  @Test
  void anOfferedTreeIsTakenOnceForTheSameTextAndSettingsOnly() {
    String sql = "SELECT a FROM t";
    org.apache.calcite.sql.SqlNode node = FloeParser.parse(sql);
    try (FloeParser.Offer offer = FloeParser.offerParsed(sql, node)) {
      assertThat(FloeParser.takeParsed("SELECT b FROM t", FloeParser.CONFIG)).isNull();
      assertThat(FloeParser.takeParsed(sql, FloeParser.CONFIG)).isSameAs(node);
      assertThat(FloeParser.takeParsed(sql, FloeParser.CONFIG)).as("taken once").isNull();
    }
    try (FloeParser.Offer offer = FloeParser.offerParsed(sql, node)) {
      org.apache.calcite.sql.parser.SqlParser.Config other =
          FloeParser.CONFIG.withCaseSensitive(true);
      assertThat(FloeParser.takeParsed(sql, other)).as("parsed with other settings").isNull();
    }
    try (FloeParser.Offer offer = FloeParser.offerParsed(sql, node)) {
      // withdrawn when closed
    }
    assertThat(FloeParser.takeParsed(sql, FloeParser.CONFIG)).isNull();
    // A trailing semicolon Floe's statement list accepts is left to Calcite's own parse.
    String semicolon = sql + ";";
    try (FloeParser.Offer offer = FloeParser.offerParsed(semicolon, FloeParser.parse(semicolon))) {
      assertThat(FloeParser.takeParsed(semicolon, FloeParser.CONFIG)).isNull();
    }
  }
}
