/**
 * Row writes Floe runs itself: TRUNCATE TABLE, INSERT OVERWRITE and MERGE INTO ({@link
 * dev.floe.command.dml.Etl}, {@link dev.floe.command.dml.Merge}), and a PreparedStatement batch of
 * {@code INSERT ... VALUES (?, ...)} written as one change ({@link
 * dev.floe.command.dml.FastInsert}). Every value goes through the one assignment, as a planned
 * INSERT's does.
 */
package dev.floe.command.dml;
