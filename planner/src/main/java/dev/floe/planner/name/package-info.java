/**
 * How a name written in SQL finds what it names: {@link dev.floe.planner.name.TableNames}, the one
 * resolver of table and schema names to folders; {@link dev.floe.planner.name.ColumnNames}, the one
 * resolver of column names, with the same rules; {@link dev.floe.planner.name.TableVersion}, the
 * version of a table time travel names; and the "did you mean" of a name that matches nothing.
 */
package dev.floe.planner.name;
