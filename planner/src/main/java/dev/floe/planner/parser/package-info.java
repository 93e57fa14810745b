/**
 * Floe's SQL grammar: the parser generated from Calcite's template with Floe's statements
 * ({@link dev.floe.planner.parser.FloeSqlParserImpl}), its configuration and error messages
 * ({@link dev.floe.planner.parser.FloeParser}), and the parse-tree nodes of Floe's statements.
 */
package dev.floe.planner.parser;
