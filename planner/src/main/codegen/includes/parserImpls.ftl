<#--
  Floe's productions, added to Calcite's grammar (see config.fmpp). Unquoted names are kept as
  written here: what they mean (their case, the folder they name) is decided when the statement
  runs, by the same rules for every statement.
-->

/** An error at a position, reported as any other parse error (42000, with line and column). */
JAVACODE RuntimeException floeError(SqlParserPos pos, String message)
{
    return new CalciteContextException(message,
        new RuntimeException(message),
        pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(), pos.getEndColumnNum());
}

/** A one-part name that remembers whether it was quoted ({@link SqlIdentifier#isComponentQuoted}). */
SqlIdentifier FloeName() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
}
{
    AddIdentifierSegment(names, positions) {
        return new SqlIdentifier(names, null, positions.get(0), positions);
    }
}

/**
 * A parenthesized list of column names, each keeping whether it was quoted (Calcite's
 * ParenthesizedSimpleIdentifierList forgets it), for the one column resolver.
 */
SqlNodeList FloeNameList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
    SqlIdentifier id;
}
{
    <LPAREN> { s = span(); }
    id = FloeName() { list.add(id); }
    ( <COMMA> id = FloeName() { list.add(id); } )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

/**
 * A name in Floe's DDL (a table, column or field name): any name, and also a reserved word written
 * without quotes (CREATE TABLE every (dec DECIMAL, "day" DATE)), as DDL has always accepted; such
 * a name must be quoted where a query uses it.
 */
SqlIdentifier FloeDdlName() :
{
    final SqlIdentifier id;
}
{
    (
        LOOKAHEAD({ floeReservedWord(getToken(1)) })
        id = floeTakeWord()
    |
        id = FloeName()
    )
    { return id; }
}

/** Whether a token is a keyword spelled as a plain word, usable as a DDL name. */
JAVACODE boolean floeReservedWord(Token t)
{
    if (t.kind == IDENTIFIER || t.image == null
        || !t.image.matches("[A-Za-z][A-Za-z0-9_]*")) {
        return false;
    }
    String word = t.image.toUpperCase(Locale.ROOT);
    return !word.equals("PRIMARY") && !word.equals("CONSTRAINT")
        && getMetadata().isKeyword(word);
}

/** Consumes the next token as an unquoted one-part name. */
JAVACODE SqlIdentifier floeTakeWord()
{
    final Token t = getNextToken();
    final SqlParserPos pos = new SqlParserPos(t.beginLine, t.beginColumn, t.endLine, t.endColumn);
    return new SqlIdentifier(java.util.Collections.singletonList(t.image), null, pos,
        java.util.Collections.singletonList(pos));
}

/** A table name in Floe's DDL: parts separated by dots, each a DDL name. */
SqlIdentifier FloeDdlTableName() :
{
    final List<String> names = new ArrayList<String>();
    final List<SqlParserPos> positions = new ArrayList<SqlParserPos>();
    SqlIdentifier part;
}
{
    part = FloeDdlName() {
        names.add(part.getSimple());
        positions.add(part.getComponentParserPosition(0));
    }
    (
        <DOT> part = FloeDdlName() {
            names.add(part.getSimple());
            positions.add(part.getComponentParserPosition(0));
        }
    )*
    { return new SqlIdentifier(names, null, SqlParserPos.sum(positions), positions); }
}

/** The position where the next token begins. */
JAVACODE SqlParserPos floeNextPos()
{
    final Token t = getToken(1);
    return new SqlParserPos(t.beginLine, t.beginColumn, t.endLine, t.endColumn);
}

/**
 * A time travel clause after a table reference: FOR SYSTEM_TIME AS OF (Calcite's) and
 * FOR TIMESTAMP AS OF give a SqlSnapshot whose period is the point in time; FOR VERSION AS OF
 * and FOR SYSTEM_VERSION AS OF give a SqlSnapshot whose period is VERSION_AS_OF(version).
 */
SqlNode FloeSnapshot(SqlNode tableRef) :
{
    final Span s;
    final SqlNode e;
}
{
    { s = span(); } <FOR>
    (
        ( <SYSTEM_TIME> | <TIMESTAMP> ) <AS> <OF>
        e = Expression(ExprContext.ACCEPT_NON_QUERY) {
            return new SqlSnapshot(s.end(this), tableRef, e);
        }
    |
        ( <VERSION> | <SYSTEM_VERSION> ) <AS> <OF>
        e = Expression(ExprContext.ACCEPT_NON_QUERY) {
            return new SqlSnapshot(s.end(this), tableRef,
                FloeOperators.VERSION_AS_OF.createCall(e.getParserPosition(), e));
        }
    )
}

/**
 * A column or table type: SQL's names, Spark's and Flink's, and nested ARRAY, MAP, ROW. The grammar
 * reads the name, precision and scale; LakeTypes maps them, as it maps every SQL type.
 */
Type FloeType() :
{
    int p = -1;
    int q = -1;
    boolean zone = false;
    final Type element;
    final Type value;
    final SqlIdentifier name;
    final List<Types.NestedField> fields = new ArrayList<Types.NestedField>();
    final SqlParserPos start;
}
{
    { start = floeNextPos(); }
    (
        // A built-in type's word names the type, though none of these words is reserved.
        LOOKAHEAD(1)
        (
            <BOOLEAN> { return floeType(start, "BOOLEAN", p, q); }
        |
            <TINYINT> { return floeType(start, "TINYINT", p, q); }
        |
            <SMALLINT> { return floeType(start, "SMALLINT", p, q); }
        |
            ( <INT> | <INTEGER> ) { return floeType(start, "INTEGER", p, q); }
        |
            <BIGINT> { return floeType(start, "BIGINT", p, q); }
        |
            <REAL> { return floeType(start, "REAL", p, q); }
        |
            <FLOAT> [ <LPAREN> p = UnsignedIntLiteral() <RPAREN> ] {
                return floeType(start, "FLOAT", p, q);
            }
        |
            <DOUBLE> [ <PRECISION> ] { return floeType(start, "DOUBLE", p, q); }
        |
            ( <DECIMAL> | <NUMERIC> | <DEC> )
            [ <LPAREN> p = UnsignedIntLiteral() [ <COMMA> q = UnsignedIntLiteral() ] <RPAREN> ]
            { return floeType(start, "DECIMAL", p, q); }
        |
            <DATE> { return floeType(start, "DATE", p, q); }
        |
            <TIME> [ <LPAREN> UnsignedIntLiteral() <RPAREN> ] [ <WITHOUT> <TIME> <ZONE> ] {
                return floeType(start, "TIME", p, q);
            }
        |
            <TIMESTAMP> [ <LPAREN> p = UnsignedIntLiteral() <RPAREN> ]
            [
                <WITH> [ <LOCAL> ] <TIME> <ZONE> { zone = true; }
            |
                <WITHOUT> <TIME> <ZONE>
            ]
            { return floeType(start, zone ? "TIMESTAMP WITH LOCAL TIME ZONE" : "TIMESTAMP", p, q); }
        |
            ( <VARCHAR> | <CHAR> | <CHARACTER> [ <VARYING> ] )
            [ <LPAREN> UnsignedIntLiteral() <RPAREN> ]
            { return floeType(start, "VARCHAR", p, q); }
        |
            <BINARY> [ <LPAREN> p = UnsignedIntLiteral() <RPAREN> ] {
                return floeType(start, "BINARY", p, q);
            }
        |
            <VARBINARY> [ <LPAREN> UnsignedIntLiteral() <RPAREN> ] {
                return floeType(start, "VARBINARY", p, q);
            }
        |
            <BLOB> { return floeType(start, "BLOB", p, q); }
        |
            <UUID> { return floeType(start, "UUID", p, q); }
        )
    |
        <ARRAY> <LT> element = FloeType() <GT> { return Types.ListType.ofOptional(0, element); }
    |
        LOOKAHEAD(2)
        <MAP> <LT> element = FloeType() <COMMA> value = FloeType() <GT> {
            return Types.MapType.ofOptional(0, 0, element, value);
        }
    |
        <ROW>
        (
            <LT> FloeStructFields(fields) <GT>
        |
            <LPAREN> FloeStructFields(fields) <RPAREN>
        )
        { return Types.StructType.of(fields); }
    |
        name = FloeName()
        (
            LOOKAHEAD({ name.getSimple().equalsIgnoreCase("list") })
            <LT> element = FloeType() <GT> { return Types.ListType.ofOptional(0, element); }
        |
            LOOKAHEAD({ name.getSimple().equalsIgnoreCase("struct") })
            <LT> FloeStructFields(fields) <GT> { return Types.StructType.of(fields); }
        |
            LOOKAHEAD({ floeTakesLength(name) })
            [ <LPAREN> p = UnsignedIntLiteral() <RPAREN> ]
            { return floeType(name.getParserPosition(), name.getSimple(), p, q); }
        |
            { return floeType(name.getParserPosition(), name.getSimple(), p, q); }
        )
    )
}

/** Whether a type named by a word (not a keyword) takes a length or precision: FIXED(n), TIMESTAMP_NTZ(p)... */
JAVACODE boolean floeTakesLength(SqlIdentifier name)
{
    switch (name.getSimple().toLowerCase(Locale.ROOT)) {
    case "fixed":
    case "timestamp_ntz":
    case "timestamp_ltz":
    case "timestamptz":
        return true;
    default:
        return false;
    }
}

/** The Iceberg type of a scalar SQL type, from the one mapping; an unknown name is an error here. */
JAVACODE Type floeType(SqlParserPos pos, String name, int precision, int scale)
{
    if (name.equalsIgnoreCase("DECIMAL")) {
        String problem = LakeTypes.decimalProblem(precision < 0 ? 38 : precision, Math.max(0, scale));
        if (problem != null) {
            throw floeError(pos, problem);
        }
    }
    if (name.equalsIgnoreCase("FIXED") && precision <= 0) {
        throw floeError(pos, "FIXED needs a length of at least 1: FIXED(16)");
    }
    Type type = LakeTypes.icebergType(name, precision, scale);
    if (type == null) {
        throw floeError(pos, "unknown type " + name.toUpperCase(Locale.ROOT));
    }
    return type;
}

/** A nested field's name: unquoted names are lower-cased, as table columns are when created. */
JAVACODE String floeFieldName(SqlIdentifier name)
{
    return name.isComponentQuoted(0) ? name.getSimple() : name.getSimple().toLowerCase(Locale.ROOT);
}

/** The fields of a ROW or STRUCT: {@code name [:] type [NOT NULL] [COMMENT 'doc']}, ... */
void FloeStructFields(List<Types.NestedField> fields) :
{
    SqlIdentifier name;
    Type type;
    boolean required;
    String doc;
}
{
    name = FloeDdlName() [ <COLON> ] type = FloeType() { required = false; doc = null; }
    [ <NOT> <NULL> { required = true; } ]
    [ <COMMENT> doc = SimpleStringLiteral() ]
    {
        fields.add(Types.NestedField.of(0, !required, floeFieldName(name), type, doc));
    }
    (
        <COMMA>
        name = FloeDdlName() [ <COLON> ] type = FloeType() { required = false; doc = null; }
        [ <NOT> <NULL> { required = true; } ]
        [ <COMMENT> doc = SimpleStringLiteral() ]
        {
            fields.add(Types.NestedField.of(0, !required, floeFieldName(name), type, doc));
        }
    )*
}

/**
 * A column definition: {@code name type [NOT NULL | NULL] [PRIMARY KEY [NOT ENFORCED]]
 * [COMMENT 'text']}, the attributes in any order.
 */
ColumnDef FloeColumnDef() :
{
    final SqlIdentifier name;
    final Type type;
    boolean notNull = false;
    boolean primaryKey = false;
    String comment = null;
}
{
    name = FloeDdlName() type = FloeType()
    (
        <NOT> <NULL> { notNull = true; }
    |
        <NULL> { notNull = false; }
    |
        <COMMENT> comment = SimpleStringLiteral()
    |
        <PRIMARY> <KEY> [ LOOKAHEAD(2) <NOT> <ENFORCED> ] { primaryKey = true; }
    )*
    { return new ColumnDef(name, type, notNull, primaryKey, comment); }
}

/** {@code [CONSTRAINT name] PRIMARY KEY (a, b) [NOT ENFORCED]}: adds the columns to the key. */
void FloePrimaryKey(List<SqlIdentifier> key) :
{
    SqlIdentifier column;
}
{
    [ <CONSTRAINT> FloeDdlName() ]
    <PRIMARY> <KEY> <LPAREN>
    column = FloeDdlName() { key.add(column); }
    ( <COMMA> column = FloeDdlName() { key.add(column); } )*
    <RPAREN>
    [ <NOT> <ENFORCED> ]
}

/**
 * One PARTITIONED BY entry: a column (identity), or a transform of one: identity(c),
 * bucket(n, c), truncate(n, c) (or c, n), year(c), month(c), day(c), hour(c), and the plural
 * spellings years, months, days, hours.
 */
PartitionField FloePartitionField() :
{
    final SqlIdentifier word;
    String transform = null;
    SqlIdentifier column = null;
    final SqlParserPos pos;
    PartitionField field = null;
}
{
    { pos = floeNextPos(); }
    (
        LOOKAHEAD(2)
        ( <YEAR> { transform = "year"; } | <MONTH> { transform = "month"; }
        | <DAY> { transform = "day"; } | <HOUR> { transform = "hour"; }
        | <TRUNCATE> { transform = "truncate"; } | <IDENTITY> { transform = "identity"; } )
        <LPAREN> field = FloePartitionArguments(pos, transform)
    |
        LOOKAHEAD(2)
        ( <YEARS> { transform = "year"; } | <MONTHS> { transform = "month"; }
        | <DAYS> { transform = "day"; } | <HOURS> { transform = "hour"; } )
        <LPAREN> field = FloePartitionArguments(pos, transform)
    |
        LOOKAHEAD({ true })
        word = FloeDdlName()
        [
            <LPAREN>
            {
                String name = word.getSimple().toLowerCase(Locale.ROOT);
                if (word.isComponentQuoted(0)
                    || !(name.equals("bucket") || name.equals("identity"))) {
                    throw floeError(word.getParserPosition(),
                        "unknown partition transform " + word.getSimple());
                }
            }
            field = FloePartitionArguments(pos, name)
        ]
        {
            if (field == null) {
                field = new PartitionField("identity", word, 0);
            }
        }
    )
    { return field; }
}

/** After "transform(": the column and width, in either order, and ")". */
PartitionField FloePartitionArguments(SqlParserPos pos, String transform) :
{
    SqlIdentifier column;
    int argument = 0;
}
{
    (
        argument = UnsignedIntLiteral() <COMMA> column = FloeDdlName()
    |
        LOOKAHEAD({ true })
        column = FloeDdlName() [ <COMMA> argument = UnsignedIntLiteral() ]
    )
    <RPAREN>
    {
        if ((transform.equals("bucket") || transform.equals("truncate")) && argument <= 0) {
            throw floeError(pos, transform + " needs a width: " + transform + "(n, column)");
        }
        return new PartitionField(transform, column, argument);
    }
}

/**
 * A property's name: a string ('write.delete.mode'), or a word as Trino writes its table
 * properties (format_version, partitioning), in lower case; the driver maps Trino's names to
 * Iceberg's (TableProperties, docs/sql.md).
 */
String FloePropertyKey() :
{
    final String key;
    final SqlIdentifier id;
}
{
    (
        key = SimpleStringLiteral() { return key; }
    |
        id = FloeName() { return id.getSimple().toLowerCase(Locale.ROOT); }
    )
}

/** {@code ('key' = value, ...)}: table properties; a value is a string, number, TRUE, FALSE or word. */
void FloeProperties(Map<String, String> properties) :
{
}
{
    <LPAREN> FloeProperty(properties) ( <COMMA> FloeProperty(properties) )* <RPAREN>
}

void FloeProperty(Map<String, String> properties) :
{
    final String key;
    String value = null;
    final SqlNumericLiteral n;
    final SqlIdentifier id;
    final List<String> keys = new ArrayList<String>();
    final List<String> values = new ArrayList<String>();
}
{
    key = FloePropertyKey() <EQ>
    (
        value = SimpleStringLiteral()
    |
        // DECIMAL '1.5' is a number; DECIMAL alone is a name.
        LOOKAHEAD(2) n = UnsignedNumericLiteral() { value = n.toValue(); }
    |
        <TRUE> { value = "true"; }
    |
        <FALSE> { value = "false"; }
    |
        // Trino's ARRAY['a', 'b'] (partitioning, sorted_by, parquet_bloom_filter_columns):
        // the strings, joined by commas.
        FloeStringArray(values) { value = String.join(",", values); }
    |
        // Trino's extra_properties = MAP(ARRAY['k', ...], ARRAY['v', ...]): each key a property.
        LOOKAHEAD(2) <MAP> <LPAREN> FloeStringArray(keys) <COMMA> FloeStringArray(values) <RPAREN> {
            if (!key.equals("extra_properties")) {
                throw new ParseException(
                    "A MAP(...) value is taken by extra_properties only, not by " + key);
            }
            if (keys.size() != values.size()) {
                throw new ParseException("extra_properties = MAP(keys, values) has "
                    + keys.size() + " keys and " + values.size() + " values");
            }
        }
    |
        id = FloeName() { value = id.getSimple(); }
    )
    {
        if (value == null) {
            for (int i = 0; i < keys.size(); i++) {
                properties.put(keys.get(i), values.get(i));
            }
        } else {
            properties.put(key, value);
        }
    }
}

/** {@code ARRAY['a', 'b', ...]}: strings. */
void FloeStringArray(List<String> list) :
{
    String item;
}
{
    <ARRAY> <LBRACKET>
    [
        item = SimpleStringLiteral() { list.add(item); }
        ( <COMMA> item = SimpleStringLiteral() { list.add(item); } )*
    ]
    <RBRACKET>
}

/** CREATE [OR REPLACE] TABLE ..., CREATE [OR REPLACE] VIEW ..., CREATE [UNIQUE] INDEX ... */
SqlNode FloeCreate() :
{
    final Span s;
    boolean replace = false;
    boolean ifNotExists = false;
    final SqlIdentifier name;
    final SqlIdentifier table;
    final List<ColumnDef> columns = new ArrayList<ColumnDef>();
    final List<SqlIdentifier> key = new ArrayList<SqlIdentifier>();
    final List<PartitionField> partitioning = new ArrayList<PartitionField>();
    final Map<String, String> properties = new LinkedHashMap<String, String>();
    ColumnDef column;
    PartitionField field;
    SqlNode query = null;
    SqlParserPos queryStart = null;
    SqlNodeList viewColumns = null;
}
{
    <CREATE> { s = span(); }
    [ <OR> <REPLACE> { replace = true; } ]
    (
        <VIEW>
        [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
        name = FloeDdlTableName()
        [ viewColumns = FloeNameList() ]
        <AS> { queryStart = floeNextPos(); }
        query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
        {
            if (replace && ifNotExists) {
                throw floeError(s.end(this),
                    "CREATE OR REPLACE VIEW cannot say IF NOT EXISTS as well");
            }
            return new SqlCreateLakeView(s.end(this), name, replace, ifNotExists, viewColumns,
                query, queryStart);
        }
    |
        <TABLE>
        [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
        name = FloeDdlTableName()
        [
            <LPAREN>
            (
                LOOKAHEAD(<CONSTRAINT> | <PRIMARY> <KEY>)
                FloePrimaryKey(key)
            |
                LOOKAHEAD({ true })
                column = FloeColumnDef() {
                    columns.add(column);
                    if (column.primaryKey()) {
                        key.add(column.name());
                    }
                }
            )
            (
                <COMMA>
                (
                    LOOKAHEAD(<CONSTRAINT> | <PRIMARY> <KEY>)
                    FloePrimaryKey(key)
                |
                    LOOKAHEAD({ true })
                    column = FloeColumnDef() {
                        columns.add(column);
                        if (column.primaryKey()) {
                            key.add(column.name());
                        }
                    }
                )
            )*
            <RPAREN>
        ]
        (
            <PARTITIONED> <BY> <LPAREN>
            field = FloePartitionField() { partitioning.add(field); }
            ( <COMMA> field = FloePartitionField() { partitioning.add(field); } )*
            <RPAREN>
        |
            ( <WITH> | <TBLPROPERTIES> ) FloeProperties(properties)
        )*
        [
            <AS> { queryStart = floeNextPos(); }
            query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
        ]
        {
            if (columns.isEmpty() && query == null) {
                throw floeError(s.end(this), "a table needs columns or AS query");
            }
            return new SqlCreateLakeTable(s.end(this), name, replace, ifNotExists, columns, key,
                partitioning, properties, query, queryStart);
        }
    |
        [ <UNIQUE> ] <INDEX>
        [ LOOKAHEAD(3) <IF> <NOT> <EXISTS> ]
        name = FloeDdlTableName()
        <ON> table = FloeDdlTableName()
        ParenthesizedSimpleIdentifierList()
        {
            return new SqlLakeIndex(s.end(this), true, name, table);
        }
    )
}

/**
 * DROP TABLE [IF EXISTS] name [PURGE], DROP VIEW [IF EXISTS] name, DROP INDEX [IF EXISTS] name
 * [ON table].
 */
SqlNode FloeDrop() :
{
    final Span s;
    boolean ifExists = false;
    boolean purge = false;
    final SqlIdentifier name;
    SqlIdentifier table = null;
}
{
    <DROP> { s = span(); }
    (
        <VIEW>
        [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
        name = FloeDdlTableName()
        {
            return new SqlDropLakeView(s.end(this), name, ifExists);
        }
    |
        <TABLE>
        [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
        name = FloeDdlTableName()
        [ <PURGE> { purge = true; } ]
        {
            return new SqlDropLakeTable(s.end(this), name, ifExists, purge);
        }
    |
        <INDEX>
        [ LOOKAHEAD(2) <IF> <EXISTS> ]
        name = FloeDdlTableName()
        [ <ON> table = FloeDdlTableName() ]
        {
            return new SqlLakeIndex(s.end(this), false, name, table);
        }
    )
}

/** TRUNCATE TABLE name. */
SqlNode FloeTruncateTable() :
{
    final Span s;
    final SqlIdentifier name;
}
{
    <TRUNCATE> { s = span(); } <TABLE> name = FloeDdlTableName() {
        return new SqlTruncateTable(s.end(this), name);
    }
}

/**
 * ALTER TABLE name followed by a column action, a partition field or write order change, SET or
 * UNSET of properties, EXECUTE, or branch and tag DDL.
 */
SqlNode FloeAlterTable() :
{
    final Span s;
    final SqlIdentifier name;
    final ColumnDef column;
    final SqlIdentifier target;
    final SqlIdentifier newName;
    final Type type;
    final SqlNode node;
    Map<String, String> properties;
    final List<String> keys = new ArrayList<String>();
    String key;
    boolean ifExists = false;
    PartitionField field;
    PartitionField replacement;
    SqlIdentifier fieldName = null;
    String distribution = null;
    final List<SqlAlterTableLayout.SortField> order = new ArrayList<SqlAlterTableLayout.SortField>();
}
{
    <ALTER> { s = span(); } <TABLE> name = FloeDdlTableName()
    (
        LOOKAHEAD({ getToken(1).kind == ADD && getToken(2).kind == PARTITION
            && floeWordIs(getToken(3), "FIELD") })
        <ADD> <PARTITION> floeExpectWord("FIELD") field = FloePartitionField()
        [ <AS> fieldName = FloeDdlName() ]
        {
            return new SqlAlterTableLayout(s.end(this), name,
                SqlAlterTableLayout.Action.ADD_PARTITION_FIELD, field, null, fieldName,
                new ArrayList<SqlAlterTableLayout.SortField>(), null);
        }
    |
        LOOKAHEAD({ getToken(1).kind == DROP && getToken(2).kind == PARTITION
            && floeWordIs(getToken(3), "FIELD") })
        <DROP> <PARTITION> floeExpectWord("FIELD") field = FloePartitionField()
        {
            return new SqlAlterTableLayout(s.end(this), name,
                SqlAlterTableLayout.Action.DROP_PARTITION_FIELD, field, null, null,
                new ArrayList<SqlAlterTableLayout.SortField>(), null);
        }
    |
        LOOKAHEAD({ getToken(1).kind == REPLACE && getToken(2).kind == PARTITION
            && floeWordIs(getToken(3), "FIELD") })
        <REPLACE> <PARTITION> floeExpectWord("FIELD") field = FloePartitionField()
        <WITH> replacement = FloePartitionField()
        [ <AS> fieldName = FloeDdlName() ]
        {
            return new SqlAlterTableLayout(s.end(this), name,
                SqlAlterTableLayout.Action.REPLACE_PARTITION_FIELD, field, replacement, fieldName,
                new ArrayList<SqlAlterTableLayout.SortField>(), null);
        }
    |
        <WRITE>
        (
            LOOKAHEAD({ floeWordIs(getToken(1), "UNORDERED") })
            floeTakeWord() { distribution = "none"; }
        |
            LOOKAHEAD({ floeWordIs(getToken(1), "DISTRIBUTED") })
            floeTakeWord() <BY> <PARTITION> { distribution = "hash"; }
            [
                LOOKAHEAD({ floeWordIs(getToken(1), "LOCALLY") })
                floeTakeWord() floeExpectWord("ORDERED") <BY> FloeSortFields(order)
            ]
        |
            LOOKAHEAD({ floeWordIs(getToken(1), "LOCALLY") })
            floeTakeWord() floeExpectWord("ORDERED") <BY> FloeSortFields(order)
            { distribution = "none"; }
        |
            floeExpectWord("ORDERED") <BY> FloeSortFields(order) { distribution = "range"; }
        )
        {
            return new SqlAlterTableLayout(s.end(this), name,
                SqlAlterTableLayout.Action.WRITE_ORDER, null, null, null, order, distribution);
        }
    |
        <ADD> [ <COLUMN> ] column = FloeColumnDef() {
            return new SqlAlterLakeTable(s.end(this), name,
                SqlAlterLakeTable.Action.ADD_COLUMN, column, null, null, null);
        }
    |
        LOOKAHEAD(3)
        <DROP> node = FloeRefDrop(s, name) { return node; }
    |
        <DROP> [ <COLUMN> ] target = FloeDdlName() {
            return new SqlAlterLakeTable(s.end(this), name,
                SqlAlterLakeTable.Action.DROP_COLUMN, null, target, null, null);
        }
    |
        <RENAME> <COLUMN> target = FloeDdlName() <TO> newName = FloeDdlName() {
            return new SqlAlterLakeTable(s.end(this), name,
                SqlAlterLakeTable.Action.RENAME_COLUMN, null, target, newName, null);
        }
    |
        <ALTER> [ <COLUMN> ] target = FloeDdlName()
        [ <SET> [ <DATA> ] ] <TYPE> type = FloeType() {
            return new SqlAlterLakeTable(s.end(this), name,
                SqlAlterLakeTable.Action.ALTER_COLUMN_TYPE, null, target, null, type);
        }
    |
        LOOKAHEAD(2)
        <SET> ( <PROPERTIES> | <TBLPROPERTIES> ) {
            properties = new LinkedHashMap<String, String>();
        }
        (
            FloeProperties(properties)
        |
            FloeProperty(properties) ( <COMMA> FloeProperty(properties) )*
        )
        {
            return new SqlAlterTableProperties(s.end(this), name, properties,
                new ArrayList<String>(), false);
        }
    |
        <UNSET> ( <PROPERTIES> | <TBLPROPERTIES> )
        [ <IF> <EXISTS> { ifExists = true; } ]
        <LPAREN> key = FloePropertyKey() { keys.add(key); }
        ( <COMMA> key = FloePropertyKey() { keys.add(key); } )*
        <RPAREN>
        {
            return new SqlAlterTableProperties(s.end(this), name,
                new LinkedHashMap<String, String>(), keys, ifExists);
        }
    |
        node = FloeExecute(s, name) { return node; }
    |
        node = FloeRefCreate(s, name) { return node; }
    )
}

/** Whether a token is a plain word spelled so, in any case (not quoted). */
JAVACODE boolean floeWordIs(Token t, String word)
{
    return t.image != null && t.image.equalsIgnoreCase(word);
}

/** Consumes the next token, which must be the word given (a word Calcite has no keyword for). */
JAVACODE void floeExpectWord(String word)
{
    final Token t = getNextToken();
    if (t.image == null || !t.image.equalsIgnoreCase(word)) {
        throw floeError(new SqlParserPos(t.beginLine, t.beginColumn, t.endLine, t.endColumn),
            "Encountered \"" + t.image + "\"; expected " + word);
    }
}

/** The fields of a sort order: column or transform [ASC | DESC] [NULLS FIRST | LAST], ... */
void FloeSortFields(List<SqlAlterTableLayout.SortField> order) :
{
}
{
    FloeSortField(order) ( <COMMA> FloeSortField(order) )*
}

void FloeSortField(List<SqlAlterTableLayout.SortField> order) :
{
    final PartitionField field;
    boolean descending = false;
    Boolean nullsFirst = null;
}
{
    field = FloePartitionField()
    [ <ASC> | <DESC> { descending = true; } ]
    [ <NULLS> ( <FIRST> { nullsFirst = Boolean.TRUE; } | <LAST> { nullsFirst = Boolean.FALSE; } ) ]
    { order.add(new SqlAlterTableLayout.SortField(field, descending, nullsFirst)); }
}

/** EXECUTE procedure(arg => value, ...) [WHERE condition], after ALTER TABLE name. */
SqlNode FloeExecute(Span s, SqlIdentifier table) :
{
    final SqlIdentifier procedure;
    final List<SqlAlterTableExecute.Argument> arguments =
        new ArrayList<SqlAlterTableExecute.Argument>();
    SqlAlterTableExecute.Argument argument;
    SqlNode where = null;
}
{
    <EXECUTE> procedure = FloeName()
    [
        <LPAREN>
        [
            argument = FloeProcedureArgument() { arguments.add(argument); }
            ( <COMMA> argument = FloeProcedureArgument() { arguments.add(argument); } )*
        ]
        <RPAREN>
    ]
    [ <WHERE> where = Expression(ExprContext.ACCEPT_SUB_QUERY) ]
    {
        return new SqlAlterTableExecute(s.end(this), table, procedure, arguments, where);
    }
}

SqlAlterTableExecute.Argument FloeProcedureArgument() :
{
    SqlIdentifier name = null;
    final SqlNode value;
}
{
    [ LOOKAHEAD(2) name = FloeName() <NAMED_ARGUMENT_ASSIGNMENT> ]
    value = Expression(ExprContext.ACCEPT_NON_QUERY)
    { return new SqlAlterTableExecute.Argument(name, value); }
}

/** BRANCH or TAG: true for a tag. */
boolean FloeRefKind() :
{
}
{
    <BRANCH> { return false; }
|
    <TAG> { return true; }
}

/** DROP BRANCH | TAG [IF EXISTS] name, after ALTER TABLE name. */
SqlNode FloeRefDrop(Span s, SqlIdentifier table) :
{
    final boolean tag;
    boolean ifExists = false;
    final SqlIdentifier name;
}
{
    tag = FloeRefKind()
    [ LOOKAHEAD(2) <IF> <EXISTS> { ifExists = true; } ]
    name = FloeName()
    {
        return new SqlAlterTableRef(s.end(this), table, SqlAlterTableRef.Action.DROP, tag,
            ifExists, name, null, null, null, null);
    }
}

/**
 * CREATE [OR REPLACE] BRANCH | TAG [IF NOT EXISTS] name and REPLACE BRANCH | TAG name, each with
 * [AS OF VERSION v] [RETAIN n unit] [WITH SNAPSHOT RETENTION [n SNAPSHOTS] [n unit]].
 */
SqlNode FloeRefCreate(Span s, SqlIdentifier table) :
{
    SqlAlterTableRef.Action action;
    final boolean tag;
    boolean ifNotExists = false;
    final SqlIdentifier name;
    SqlNode version = null;
    Long retain = null;
    Integer minSnapshots = null;
    Long maxAge = null;
    int n;
}
{
    (
        <CREATE> { action = SqlAlterTableRef.Action.CREATE; }
        [ <OR> <REPLACE> { action = SqlAlterTableRef.Action.CREATE_OR_REPLACE; } ]
    |
        <REPLACE> { action = SqlAlterTableRef.Action.REPLACE; }
    )
    tag = FloeRefKind()
    [ LOOKAHEAD(2) <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
    name = FloeName()
    [ <AS> <OF> <VERSION> version = UnsignedNumericLiteral() ]
    [ <RETAIN> n = UnsignedIntLiteral() retain = FloeDurationUnit(n) ]
    [
        <WITH> <SNAPSHOT> <RETENTION>
        (
            n = UnsignedIntLiteral()
            (
                <SNAPSHOTS> { minSnapshots = n; }
                [ n = UnsignedIntLiteral() maxAge = FloeDurationUnit(n) ]
            |
                maxAge = FloeDurationUnit(n)
            )
        )
    ]
    {
        return new SqlAlterTableRef(s.end(this), table, action, tag, ifNotExists, name,
            version, retain, minSnapshots, maxAge);
    }
}

/** DAYS, HOURS or MINUTES after a count: the duration in milliseconds. */
Long FloeDurationUnit(int n) :
{
}
{
    ( <DAYS> | <DAY> ) { return n * 86400000L; }
|
    ( <HOURS> | <HOUR> ) { return n * 3600000L; }
|
    ( <MINUTES> | <MINUTE> ) { return n * 60000L; }
}

/**
 * SHOW SCHEMAS, SHOW TABLES [FROM | IN schema] [LIKE 'pattern'], SHOW COLUMNS FROM | IN table,
 * SHOW CREATE TABLE table, SHOW CREATE VIEW view.
 */
SqlNode FloeShow() :
{
    final Span s;
    SqlIdentifier name = null;
    String like = null;
}
{
    <SHOW> { s = span(); }
    (
        <SCHEMAS> {
            return new SqlShow(s.end(this), SqlShow.What.SCHEMAS, null, null);
        }
    |
        <TABLES>
        [ ( <FROM> | <IN> ) name = FloeDdlTableName() ]
        [ <LIKE> like = SimpleStringLiteral() ]
        {
            return new SqlShow(s.end(this), SqlShow.What.TABLES, name, like);
        }
    |
        <COLUMNS> ( <FROM> | <IN> ) name = FloeDdlTableName() {
            return new SqlShow(s.end(this), SqlShow.What.COLUMNS, name, null);
        }
    |
        <CREATE>
        (
            <TABLE> name = FloeDdlTableName() {
                return new SqlShow(s.end(this), SqlShow.What.CREATE_TABLE, name, null);
            }
        |
            <VIEW> name = FloeDdlTableName() {
                return new SqlShow(s.end(this), SqlShow.What.CREATE_VIEW, name, null);
            }
        )
    )
}

/** INSERT OVERWRITE [TABLE] t [PARTITION (c = v, ...)] [(columns)] query. */
SqlNode FloeInsertOverwrite() :
{
    final Span s;
    final SqlIdentifier table;
    final SqlNodeList partitionColumns = new SqlNodeList(SqlParserPos.ZERO);
    final SqlNodeList partitionValues = new SqlNodeList(SqlParserPos.ZERO);
    SqlNodeList columns = null;
    SqlIdentifier column;
    SqlNode value;
    final SqlNode query;
}
{
    <INSERT> { s = span(); } <OVERWRITE> [ <TABLE> ] table = CompoundIdentifier()
    [
        LOOKAHEAD(2) <PARTITION> <LPAREN>
        column = FloeName() <EQ> value = Expression(ExprContext.ACCEPT_NON_QUERY) {
            partitionColumns.add(column);
            partitionValues.add(value);
        }
        (
            <COMMA>
            column = FloeName() <EQ> value = Expression(ExprContext.ACCEPT_NON_QUERY) {
                partitionColumns.add(column);
                partitionValues.add(value);
            }
        )*
        <RPAREN>
    ]
    [ LOOKAHEAD(3) columns = FloeNameList() ]
    query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return new SqlInsertOverwrite(s.end(this), table, partitionColumns, partitionValues,
            columns, query);
    }
}

/**
 * MERGE INTO target [[AS] alias] USING source ON condition, then any number of WHEN clauses:
 * WHEN MATCHED [AND c] THEN UPDATE SET ... | UPDATE SET * | DELETE;
 * WHEN NOT MATCHED [BY TARGET] [AND c] THEN INSERT [(cols)] VALUES (...) | INSERT *;
 * WHEN NOT MATCHED BY SOURCE [AND c] THEN UPDATE SET ... | DELETE.
 * A MERGE of Calcite's form gives Calcite's SqlMerge; any other gives a SqlMergeInto.
 */
SqlNode FloeMerge() :
{
    final Span s;
    final SqlIdentifier target;
    SqlIdentifier alias = null;
    final SqlNode source;
    final SqlNode condition;
    final List<SqlMergeInto.Clause> clauses = new ArrayList<SqlMergeInto.Clause>();
    SqlMergeInto.Clause clause;
}
{
    <MERGE> { s = span(); } <INTO> target = CompoundTableIdentifier()
    [ [ <AS> ] alias = FloeName() ]
    <USING> source = TableRef()
    <ON> condition = Expression(ExprContext.ACCEPT_SUB_QUERY)
    ( clause = FloeMergeClause() { clauses.add(clause); } )+
    {
        return floeMerge(s.end(this), target, alias, source, condition, clauses);
    }
}

SqlMergeInto.Clause FloeMergeClause() :
{
    final Span s;
    SqlMergeInto.Match match = SqlMergeInto.Match.MATCHED;
    SqlNode condition = null;
    SqlMergeInto.Action action;
    SqlNodeList columns = null;
    SqlNodeList values = null;
    SqlIdentifier id;
    SqlNode row;
}
{
    <WHEN> { s = span(); }
    (
        <MATCHED>
    |
        <NOT> <MATCHED> { match = SqlMergeInto.Match.NOT_MATCHED_BY_TARGET; }
        [
            <BY>
            (
                <TARGET>
            |
                <SOURCE> { match = SqlMergeInto.Match.NOT_MATCHED_BY_SOURCE; }
            )
        ]
    )
    [ <AND> condition = Expression(ExprContext.ACCEPT_SUB_QUERY) ]
    <THEN>
    (
        <UPDATE> <SET>
        (
            <STAR> { action = SqlMergeInto.Action.UPDATE_ALL; }
        |
            { action = SqlMergeInto.Action.UPDATE;
              columns = new SqlNodeList(SqlParserPos.ZERO);
              values = new SqlNodeList(SqlParserPos.ZERO); }
            id = CompoundIdentifier() { columns.add(id); }
            <EQ> AddExpression(values, ExprContext.ACCEPT_SUB_QUERY)
            (
                <COMMA> id = CompoundIdentifier() { columns.add(id); }
                <EQ> AddExpression(values, ExprContext.ACCEPT_SUB_QUERY)
            )*
        )
    |
        <DELETE> { action = SqlMergeInto.Action.DELETE; }
    |
        <INSERT>
        (
            <STAR> { action = SqlMergeInto.Action.INSERT_ALL; }
        |
            { action = SqlMergeInto.Action.INSERT; }
            [ LOOKAHEAD(2) columns = FloeNameList() ]
            (
                <LPAREN> <VALUES> row = RowConstructor() <RPAREN>
            |
                <VALUES> row = RowConstructor()
            )
            { values = new SqlNodeList(((SqlCall) row).getOperandList(), row.getParserPosition()); }
        )
    )
    {
        return new SqlMergeInto.Clause(s.end(this), match, condition, action, columns, values);
    }
}

/** Calcite's SqlMerge when the clauses fit its form, else a SqlMergeInto. */
JAVACODE SqlNode floeMerge(SqlParserPos pos, SqlIdentifier target, SqlIdentifier alias,
    SqlNode source, SqlNode condition, List<SqlMergeInto.Clause> clauses)
{
    SqlMergeInto.Clause update = null;
    SqlMergeInto.Clause insert = null;
    boolean calcite = clauses.size() <= 2;
    for (int i = 0; i < clauses.size() && calcite; i++) {
        SqlMergeInto.Clause c = clauses.get(i);
        if (c.condition() != null) {
            calcite = false;
        } else if (c.match() == SqlMergeInto.Match.MATCHED
            && c.action() == SqlMergeInto.Action.UPDATE && i == 0) {
            update = c;
        } else if (c.match() == SqlMergeInto.Match.NOT_MATCHED_BY_TARGET
            && c.action() == SqlMergeInto.Action.INSERT && insert == null) {
            insert = c;
        } else {
            calcite = false;
        }
    }
    if (!calcite) {
        return new SqlMergeInto(pos, target, alias, source, condition, clauses);
    }
    SqlUpdate updateCall = null;
    if (update != null) {
        updateCall = new SqlUpdate(update.pos(), target, update.columns(), update.values(),
            null, null, alias);
    }
    SqlInsert insertCall = null;
    if (insert != null) {
        SqlNode row = SqlStdOperatorTable.ROW.createCall(insert.values().getParserPosition(),
            insert.values().getList());
        SqlNode values = SqlStdOperatorTable.VALUES.createCall(insert.pos(), row);
        insertCall = new SqlInsert(insert.pos(), new SqlNodeList(SqlParserPos.ZERO), target,
            values, insert.columns());
    }
    return new SqlMerge(pos, target, condition, source, updateCall, insertCall, null, alias);
}

/**
 * DATE_DIFF in place of Calcite's BigQuery-only form: Trino's and DuckDB's date_diff('day', a, b),
 * three expressions, becomes a call of DATE_DIFF that is rewritten before validation
 * (FunctionRewrites); BigQuery's DATE_DIFF(a, b, DAY), with a unit keyword last, stays BigQuery's.
 */
SqlCall FloeDateDiff() :
{
    final List<SqlNode> args = new ArrayList<SqlNode>();
    final Span s;
    final SqlIntervalQualifier unit;
}
{
    <DATE_DIFF> { s = span(); }
    <LPAREN>
    AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
    <COMMA>
    AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
    <COMMA>
    (
        LOOKAHEAD(TimeUnit() <RPAREN>)
        unit = TimeUnit() { args.add(unit); }
        <RPAREN> {
            return SqlLibraryOperators.DATE_DIFF.createCall(s.end(this), args);
        }
    |
        AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
        <RPAREN> {
            return createCall(new SqlIdentifier("DATE_DIFF", s.pos()), s.end(this),
                SqlFunctionCategory.USER_DEFINED_FUNCTION, null, args);
        }
    )
}

/** PostgreSQL's cast, v::type, as tight as a member access: CAST(v AS type). */
void FloeInfixCast(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlDataTypeSpec type;
}
{
    <INFIX_CAST> {
        checkNonQueryExpression(exprContext);
    }
    type = DataType() {
        SqlNode operand = SqlParserUtil.toTree(list);
        list.clear();
        list.add(SqlLibraryOperators.INFIX_CAST.createCall(s.pos(), operand, type));
    }
}

/**
 * Whether the next token names a window in OVER (w ...): not when it opens PARTITION BY, or a
 * frame (ROWS, RANGE), words Floe does not reserve.
 */
JAVACODE boolean floeWindowName()
{
    final int kind = getToken(1).kind;
    return kind != PARTITION && kind != ROWS && kind != RANGE;
}
