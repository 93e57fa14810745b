/**
 * What the planner needs from the layer below it: the catalog of tables under the lake root, the
 * one name resolver over that catalog, tables pinned for a statement or transaction, and the
 * staged change per table. The driver implements these; nothing here depends on Calcite's planner.
 */
package dev.floe.planner.spi;
