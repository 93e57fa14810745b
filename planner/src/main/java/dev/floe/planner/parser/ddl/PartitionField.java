package dev.floe.planner.parser.ddl;

import org.apache.calcite.sql.SqlIdentifier;

/**
 * One PARTITIONED BY entry: a transform ({@code identity}, {@code bucket}, {@code truncate},
 * {@code year}, {@code month}, {@code day}, {@code hour}; plural spellings already made singular)
 * of a column, with its width for bucket and truncate (0 otherwise).
 */
public record PartitionField(String transform, SqlIdentifier column, int argument) {}
