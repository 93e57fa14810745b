/** The parsed forms of Floe's statements beyond Calcite's: SHOW, and DML extensions. */
package dev.floe.planner.parser.stmt;
