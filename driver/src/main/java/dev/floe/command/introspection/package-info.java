/**
 * Statements that describe rather than change: SHOW and DESCRIBE ({@link
 * dev.floe.command.introspection.Show}), answered from the catalog as rows of strings, and EXPLAIN
 * ANALYZE ({@link dev.floe.command.introspection.ExplainAnalyze}).
 */
package dev.floe.command.introspection;
