/**
 * SQLite's SQL Logic Test suite run through hydromatic's JDBC runner against the shaded driver:
 * each test file on a fresh lake, what Floe documents as unsupported skipped with its reason.
 */
package dev.floe.tck.slt;
