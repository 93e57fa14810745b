package dev.floe.planner.parser.ddl;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.iceberg.types.Type;

/**
 * A column definition: its name as written, its Iceberg type (nested fields numbered 0, given
 * fresh ids when the table is created), NOT NULL, PRIMARY KEY and COMMENT.
 */
public record ColumnDef(
    SqlIdentifier name, Type type, boolean notNull, boolean primaryKey, String comment) {}
