/**
 * Small runnable programs to copy from: {@link dev.floe.examples.QuickStart} (connect, create,
 * insert, query), {@link dev.floe.examples.EtlLoad} (a batch load through a HikariCP pool in one
 * transaction) and {@link dev.floe.examples.QueryLake} (any query from plain JDBC). They use only
 * {@code java.sql} and the {@code jdbc:floe:} URL, as an application would.
 */
package dev.floe.examples;
