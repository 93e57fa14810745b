/**
 * The differential fuzzer: seeded random tables and histories of writes, maintenance and schema and
 * partition evolution, run through the shaded driver and on DuckDB alike, each step checked against
 * DuckDB, Iceberg's generic reader and Floe itself (ternary logic partitioning, NoREC, scan
 * threads, pushdown), every difference shrunk to a minimal reproduction; and the defects it found,
 * each kept as a test of its own.
 */
package dev.floe.tck.fuzz;
