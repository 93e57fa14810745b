/**
 * Floe's JDBC classes: the connection, statements and prepared statements, result sets, and the one
 * classification of statements ({@code StatementKind}). DatabaseMetaData lives in {@code
 * jdbc.meta}, the delegating bases in {@code jdbc.forwarding}; every failure passes through the one
 * boundary, {@link dev.floe.error.SqlErrors}.
 */
package dev.floe.jdbc;
