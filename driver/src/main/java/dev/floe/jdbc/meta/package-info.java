/**
 * DatabaseMetaData: the lake's schemas, tables, columns and keys as JDBC result sets, and the
 * dialect facts clients such as DBeaver ask for.
 */
package dev.floe.jdbc.meta;
