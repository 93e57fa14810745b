/**
 * Floe's function vocabulary beyond the SQL standard: functions taken from Calcite's libraries
 * (PostgreSQL, Spark, BigQuery, ...) where Calcite has them, one per name ({@link FloeFunctions}),
 * the spellings of other engines rewritten to Calcite's own calls before validation ({@link
 * FunctionRewrites}), and the few functions Floe runs itself ({@link RegexFunctions}, {@link
 * JsonFunctions}, {@link Percentile}).
 */
package dev.floe.planner.function;
