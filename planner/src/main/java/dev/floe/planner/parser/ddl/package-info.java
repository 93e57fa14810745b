/** The parsed forms of Floe's DDL: tables, columns, partitioning, branches and tags, procedures. */
package dev.floe.planner.parser.ddl;
