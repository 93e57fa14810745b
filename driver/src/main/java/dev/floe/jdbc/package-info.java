/**
 * Floe's JDBC classes: connection, statements, result sets, metadata, DDL, and the one boundary
 * where failures become SQLExceptions with Floe's SQLStates.
 */
package dev.floe.jdbc;
