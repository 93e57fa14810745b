/**
 * What the planner needs from storage, implemented by the driver: the catalog of tables under the
 * lake root ({@link dev.floe.planner.spi.LakeCatalog}) and the files outside the lake that {@code
 * read_parquet} and {@code read_csv} may read ({@link dev.floe.planner.spi.ExternalFiles}). Nothing
 * here depends on another package of the planner.
 */
package dev.floe.planner.spi;
