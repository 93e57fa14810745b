/**
 * Statements Floe runs itself rather than through Calcite, one sub-package per kind: {@code ddl}
 * (CREATE, DROP, ALTER, CREATE TABLE AS SELECT), {@code dml} (the row writes Calcite does not plan:
 * INSERT OVERWRITE, TRUNCATE, MERGE and the batch path of parameterized INSERTs), {@code procedure}
 * (the maintenance procedures and ANALYZE) and {@code introspection} (SHOW, DESCRIBE, EXPLAIN
 * ANALYZE). This package holds only what they share: the connection as a command sees it ({@link
 * dev.floe.command.CommandContext}) and a query's rows ({@link dev.floe.command.QueryRows}).
 * Commands reach the connection only through these, and no kind depends on another.
 */
package dev.floe.command;
