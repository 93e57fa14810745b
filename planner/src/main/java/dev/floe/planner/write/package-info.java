/**
 * The write runtime: rows assigned to the table's types, written as data and delete files, and
 * turned into one staged Iceberg change per table, with every file of a failed statement deleted.
 */
package dev.floe.planner.write;
