/**
 * DDL: CREATE, DROP and ALTER of tables and schemas, CREATE TABLE AS SELECT, committed at once
 * through the catalog. It also tells Floe's own statements from those Calcite runs, by the tree
 * Floe's parser makes.
 */
package dev.floe.command.ddl;
