/**
 * The Calcite schema adapter: folders as schemas, Iceberg tables as SQL tables, Iceberg types as
 * SQL types, and the interfaces through which the planner reaches storage and the transaction.
 */
package dev.floe.planner.schema;
