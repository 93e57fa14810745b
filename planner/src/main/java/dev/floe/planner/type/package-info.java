/**
 * Iceberg types as SQL types: the type system (DECIMAL(38), TIMESTAMP(9)), the runtime Java
 * classes of each SQL type, and the exact date/time value helpers every other package uses.
 */
package dev.floe.planner.type;
